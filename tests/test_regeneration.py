"""Every shipped dataset regenerates byte for byte: each category package's generator command, run
on each dataset folder of each of its types, writes the pinned files (their SHA-256s and the
manifest's entries) and the prediction fixtures again (regeneration_kit.assert_regenerates, which
skips a check while its stamp in tests/regeneration-verified.json holds).

One test, parametrised over every package: a category adds nothing here when it adds a type or a
dataset. Two checks differ, each for its own reason:

- Verify's ocr-auto-accept pins a real RapidOCR reading of every table, and reading them all again
  took most of the suite's time (13 minutes of its 30 of slow tests). Its check regenerates every
  byte still — images, truth, inputs, answers, manifest, fixtures — but runs the OCR again only on
  a spread sample of OCR_SAMPLE tables per split, comparing those readings with the pinned ones;
  the other tables' readings are taken from the shipped dataset (looked up by their image's
  SHA-256, so an image that changed fails the check). The engine's determinism is what the sample
  checks; `python -m envirobench_verify.generate ocr-auto-accept` still reads every table.
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

import pytest
from regeneration_kit import assert_regenerates

import envirobench_verify.generate.ocr_auto_accept as ocr_generator
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
from envirobench_synth.verify.ocr_tables import Reading, read_cells
from envirobench_verify.package import PACKAGE as VERIFY

# The packages whose datasets ship whole (Site's are assembled from its records: see above).
PACKAGES = (EXTRACT, LEGAL, LOCATE, RESEARCH, VERIFY)
DATASETS = [
    pytest.param(package, type_id, folder, id=f"{package.name.removeprefix('envirobench_')}-{type_id}-{folder}")
    for package in PACKAGES
    for type_id, layout in package.layouts.items()
    for folder in sorted(layout.datasets)
]
OCR_SAMPLE = 8


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
def test_regenerating_reproduces_every_pinned_file_and_the_fixtures(tmp_path, monkeypatch, package, type_id, folder):
    reader = None
    if (package, type_id) == (VERIFY, "ocr-auto-accept"):
        reader = PinnedReadings(folder)
        monkeypatch.setattr(ocr_generator, "read_cells", reader)
    assert_regenerates(package, type_id, folder, tmp_path, in_process=reader is not None)
    if reader is not None:
        assert reader.read_again == reader.matched == OCR_SAMPLE


class PinnedReadings:
    """read_cells for the ocr-auto-accept generator: the real OCR on the sampled tables, the
    shipped readings on the others; counts what it did. The dataset pins each reading's text (the
    engine's confidence is withheld and not kept: its fourth decimal differs between machines),
    so the texts are what the sample compares."""

    def __init__(self, folder: str) -> None:
        root = VERIFY.layout("ocr-auto-accept").dataset_dir(folder)
        self.cases = {}
        for number, line in enumerate((root / "cases.jsonl").read_text(encoding="utf-8").splitlines()):
            case = json.loads(line)["input"]
            digest = hashlib.sha256((root / case["image"]).read_bytes()).hexdigest()
            self.cases[digest] = (number, {tuple(c["box"]): c["text"] for c in case["cells"]})
        step = max(1, len(self.cases) // OCR_SAMPLE)
        self.sample = set(range(0, len(self.cases), step)[:OCR_SAMPLE])
        self.read_again = 0
        self.matched = 0

    def __call__(self, data: bytes, cells) -> list[Reading]:
        digest = hashlib.sha256(data).hexdigest()
        assert digest in self.cases, "a regenerated table image is not one of the shipped images"
        number, pinned = self.cases[digest]
        shipped = [Reading(pinned.get(cell.box), None) for cell in cells]
        if number not in self.sample:
            return shipped
        fresh = read_cells(data, cells)
        self.read_again += 1
        assert [r.text for r in fresh] == [r.text for r in shipped], (
            f"RapidOCR reads table {number} differently from the pinned reading"
        )
        self.matched += 1
        return fresh


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
