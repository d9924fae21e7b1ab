"""Every shipped dataset regenerates byte for byte: each category package's generator command, run
on each dataset folder of each of its types, writes the pinned files (their SHA-256s and the
manifest's entries) and the prediction fixtures again (regeneration_kit.assert_regenerates, which
skips a check while its stamp in tests/regeneration-verified.json holds).

One test, parametrised over every package: a category adds nothing here when it adds a type or a
dataset. Two checks differ, each for its own reason:

- Verify's ocr-auto-accept pins a real RapidOCR reading of every table: its check regenerates
  every byte but reads again only a spread sample of tables, comparing them with the pinned
  readings (tests/ocr_pinned_readings.py), and is stamped like the others.
- Site ships its records once for every type (envirobench_site.shipping) and regenerating a whole
  split takes long (the three test sites are 1,621 pages), so its check regenerates the smallest
  dev site and the smallest site of the many-sites test split (synthetic-test-sites20-v1), as every
  type's generator writes it, and compares it with what the package ships:
  each volume and the standards (the shipped records), the site's line of each type's cases.jsonl
  and answers.jsonl, its files' manifest entries, and its prediction in correct.json. (Each site's
  records regenerate byte for byte in tests/site/test_site_records.py.)
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import ocr_pinned_readings
import pytest
from regeneration_kit import assert_regenerates

from envirobench import BenchmarkPackage, read_answers, read_json, read_manifest
from envirobench_extract.package import PACKAGE as EXTRACT
from envirobench_legal.package import PACKAGE as LEGAL
from envirobench_locate.package import PACKAGE as LOCATE
from envirobench_research.package import PACKAGE as RESEARCH
from envirobench_site.generate import site_records
from envirobench_site.generate.ship import PACKAGE as SITE
from envirobench_site.generate.ship import generator as site_generator
from envirobench_site.shipping import PACKAGE_DIR as SITE_DIR
from envirobench_site.shipping import RECORDS_DIR as SITE_RECORDS
from envirobench_verify.package import PACKAGE as VERIFY

# The packages whose datasets ship whole (Site's are assembled from its records: see above).
PACKAGES = (EXTRACT, LEGAL, LOCATE, RESEARCH, VERIFY)
DATASETS = [
    pytest.param(package, type_id, folder, id=f"{package.name.removeprefix('envirobench_')}-{type_id}-{folder}")
    for package in PACKAGES
    for type_id, layout in package.layouts.items()
    for folder in sorted(layout.datasets)
]


# The dataset folders of every type: a dev and a test split (Extract's types also keep their first
# dataset, synthetic-v1, which has none).
FOLDERS = {
    EXTRACT: {"synthetic-v1", "synthetic-dev-v2", "synthetic-test-v2"},
    # Site: and the many small test sites (issue 33), beside the three public ones
    SITE: {"synthetic-dev-v1", "synthetic-test-v1", "synthetic-test-sites20-v1"},
}


@pytest.mark.parametrize("package", [*PACKAGES, SITE], ids=lambda package: package.name)
def test_every_type_has_a_dev_and_a_test_split(package: BenchmarkPackage):
    expected = FOLDERS.get(package, {"synthetic-dev-v1", "synthetic-test-v1"})
    assert {type_id: set(layout.datasets) for type_id, layout in package.layouts.items()} == {
        type_id: expected for type_id in package.layouts
    }


@pytest.mark.slow
@pytest.mark.parametrize(("package", "type_id", "folder"), DATASETS)
def test_regenerating_reproduces_every_pinned_file_and_the_fixtures(tmp_path, package, type_id, folder):
    pinned_ocr = (package, type_id) == (VERIFY, "ocr-auto-accept")
    assert_regenerates(package, type_id, folder, tmp_path, command=ocr_pinned_readings.COMMAND if pinned_ocr else None)


# The smallest site of the dev split and of the many-sites test split (its records under
# records/test-sites20/).
SITE_FOLDERS = {"synthetic-dev-v1": "dev", "synthetic-test-sites20-v1": "test-sites20"}


def _lines(path: Path) -> dict[str, dict]:
    lines = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    return {record["id"]: record for record in lines}


def _smallest_site(folder: str) -> str:
    cases = _lines(SITE.layout("site-results").dataset_dir(folder) / "cases.jsonl")
    return min(cases, key=lambda site: (cases[site]["input"]["pages"], site))


@pytest.mark.slow
@pytest.mark.parametrize("SITE_FOLDER", sorted(SITE_FOLDERS))
def test_the_smallest_site_regenerates_byte_for_byte(tmp_path, monkeypatch, SITE_FOLDER):
    site = _smallest_site(SITE_FOLDER)
    monkeypatch.setattr(site_records, "sites", lambda split: (site,))
    records = SITE_DIR / SITE_RECORDS / SITE_FOLDERS[SITE_FOLDER]
    for type_id, layout in SITE.layouts.items():
        made = tmp_path / type_id
        module = site_generator(type_id)
        module.generate(made, SITE_FOLDER)
        shipped = layout.dataset_dir(SITE_FOLDER)
        for name in ("cases.jsonl", "answers.jsonl"):
            assert _lines(made / name)[site] == _lines(shipped / name)[site], (type_id, name)
        pinned = {entry.path: entry for entry in read_manifest(shipped).files}
        for entry in read_manifest(made).files:
            if not entry.path.startswith("assets/"):
                continue
            assert pinned[entry.path] == entry, (type_id, entry.path)
            path = records / entry.path.removeprefix("assets/")
            assert hashlib.sha256(path.read_bytes()).hexdigest() == entry.sha256, entry.path
        # The fixtures: correct.json's prediction for the site (wrong.json's mistakes depend on
        # which sites the split holds).
        answer = read_answers(made, layout.type.Answer)[site]
        correct = json.loads(json.dumps(module.correct_prediction(answer)))
        assert correct == read_json(layout.fixtures_dir(SITE_FOLDER) / "correct.json")[site]
