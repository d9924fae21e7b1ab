"""The EnviroBench conformance suite over this plugin's benchmark type.

Answer isolation, malformed results, the fixtures' scores, pairing and the gate, re-keying,
review drafts and the viewer: the same checks every public type passes. The suite comes with
envirobench-core (`envirobench.conformance`); it finds the dataset's correct.json and wrong.json
by the package convention, in benchmarks/<type ID>/fixtures/<dataset folder>/, for every dataset in
DATASETS.
"""

import pytest
from envirobench.conformance import BenchmarkTypeConformance

from {{ cookiecutter.package_name }}.package import PACKAGE
from {{ cookiecutter.package_name }}.well_ids import DATASETS, TYPE_ID


class TestWellIdsConformance(BenchmarkTypeConformance):
    @pytest.fixture
    def benchmark_type_id(self):
        return TYPE_ID

    # Every dataset of the type (DATASETS in well_ids.py), each with its own fixtures.
    @pytest.fixture(params=sorted(DATASETS))
    def dataset_id(self, request):
        return PACKAGE.layout(TYPE_ID).dataset_id(request.param)
