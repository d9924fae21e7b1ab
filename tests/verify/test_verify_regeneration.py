"""Every Verify dataset regenerates byte for byte: core's generator command, run on each dataset
folder of each type, writes the pinned files (their SHA-256s and the manifest's entries) and the
fixtures again.

ocr-auto-accept pins a real RapidOCR reading of every table, and reading them all again took
most of the suite's time (13 minutes of its 30 of slow tests). Its check regenerates every byte
still — images, truth, inputs, answers, manifest, fixtures — but runs the OCR again only on a
spread sample of OCR_SAMPLE tables per split, comparing those readings with the pinned ones; the
other tables' readings are taken from the shipped dataset (looked up by their image's SHA-256, so
an image that changed fails the check). The engine's determinism is what the sample checks;
`python -m envirobench_verify.generate ocr-auto-accept` still reads every table.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from regeneration_kit import assert_regenerates

import envirobench_verify.generate.ocr_auto_accept as ocr_generator
from envirobench_synth.verify.ocr_tables import Reading, read_cells
from envirobench_verify.package import PACKAGE

DATASETS = [
    (cls.ID, folder) for cls in PACKAGE.types for folder in sorted(PACKAGE.layout(cls.ID).datasets)
]
OCR_SAMPLE = 8


def test_every_type_has_a_dev_and_a_test_split():
    assert sorted(folder for _, folder in DATASETS) == sorted(
        ["synthetic-dev-v1", "synthetic-test-v1"] * len(PACKAGE.types)
    )


class PinnedReadings:
    """read_cells for the generator: the real OCR on the sampled tables, the shipped readings on
    the others; counts what it did."""

    def __init__(self, folder: str) -> None:
        root = PACKAGE.layout("ocr-auto-accept").dataset_dir(folder)
        self.cases = {}
        for number, line in enumerate((root / "cases.jsonl").read_text(encoding="utf-8").splitlines()):
            case = json.loads(line)["input"]
            digest = hashlib.sha256((root / case["image"]).read_bytes()).hexdigest()
            self.cases[digest] = (number, {tuple(c["box"]): c for c in case["cells"]})
        step = max(1, len(self.cases) // OCR_SAMPLE)
        self.sample = set(range(0, len(self.cases), step)[:OCR_SAMPLE])
        self.read_again = 0
        self.matched = 0

    def __call__(self, data: bytes, cells) -> list[Reading]:
        digest = hashlib.sha256(data).hexdigest()
        assert digest in self.cases, "a regenerated table image is not one of the shipped images"
        number, pinned = self.cases[digest]
        shipped = [
            Reading(pinned[cell.box]["text"], pinned[cell.box]["confidence"]) if cell.box in pinned else Reading(None, None)
            for cell in cells
        ]  # fmt: skip
        if number not in self.sample:
            return shipped
        fresh = read_cells(data, cells)
        self.read_again += 1
        # Unreadable cells keep no confidence in the dataset: compare what the dataset pins.
        assert [(r.text, r.confidence if r.text is not None else None) for r in fresh] == [
            (r.text, r.confidence) for r in shipped
        ], f"RapidOCR reads table {number} differently from the pinned reading"
        self.matched += 1
        return fresh


@pytest.mark.slow
@pytest.mark.parametrize(("type_id", "folder"), DATASETS)
def test_regenerating_reproduces_every_pinned_file_and_the_fixtures(tmp_path, monkeypatch, type_id, folder):
    reader = None
    if type_id == "ocr-auto-accept":
        reader = PinnedReadings(folder)
        monkeypatch.setattr(ocr_generator, "read_cells", reader)
    assert_regenerates(PACKAGE, type_id, folder, tmp_path, in_process=reader is not None)
    if reader is not None:
        assert reader.read_again == reader.matched == OCR_SAMPLE
