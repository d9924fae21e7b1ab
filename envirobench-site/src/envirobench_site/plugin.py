"""The Site category's hook implementations: its benchmark types, datasets and viewers, all from
the one list in package.py.

Datasets are not registered where BenchmarkPackage would look (`benchmarks/<type>/datasets/`
holds only each dataset's manifest, cases and answers): the site records ship once and each
dataset is materialised on first use (shipping.py), and the materialised directory is what is
registered. A dataset that cannot be materialised (a file of the installed package missing or
altered, a cache that cannot be written) is left unregistered with a warning that names the file,
so the other categories' commands still work.
"""

import warnings

from envirobench import EnviroBenchError, hookimpl

from .package import PACKAGE
from .shipping import PACKAGE_DIR, RECORDS_DIR, materialise, split_of


@hookimpl
def envirobench_benchmark_types(register):
    PACKAGE.register_types(register)


def materialised_datasets():
    """(dataset ID, directory, split) of each dataset, materialised; warnings for the ones that
    cannot be."""
    out = []
    for layout in PACKAGE.layouts.values():
        for folder, dataset_id in layout.datasets.items():
            split = split_of(folder)
            try:
                directory = materialise(
                    layout.id,
                    folder,
                    layout.dataset_dir(folder),
                    PACKAGE_DIR / RECORDS_DIR / split,
                    layout.fixtures_dir(folder),
                )
            except (EnviroBenchError, OSError) as exc:
                warnings.warn(
                    f"envirobench-site: dataset {dataset_id} is not available: {exc}", stacklevel=2
                )
                continue
            out.append((dataset_id, directory, split))
    return out


@hookimpl
def envirobench_datasets(register):
    for dataset_id, directory, split in materialised_datasets():
        register(
            dataset_id, directory, visibility=PACKAGE.visibility, store=PACKAGE.store, split=split
        )


@hookimpl
def envirobench_viewers(register):
    PACKAGE.register_viewers(register)
