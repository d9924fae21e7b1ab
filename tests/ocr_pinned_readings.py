"""Regenerating Verify's ocr-auto-accept with its pinned OCR readings and a sample read again.

The dataset pins a real RapidOCR reading of every table, and reading them all again took most of
bin/test's time (13 minutes of its 30 of slow tests). tests/test_regeneration.py runs this module
in a fresh interpreter through tests/regeneration_probe.py, so the check is stamped like every
other regeneration (it runs again whenever a file it read, the engine's version among them,
changes):

    python tests/regeneration_probe.py READ_JSON -c "<runs main(sys.argv[1:])>" ocr-auto-accept --dataset FOLDER --output DIR --fixtures DIR

The generator regenerates every byte still (images, truth, inputs, answers, manifest, fixtures),
but runs the OCR again only on a spread sample of OCR_SAMPLE tables per split and compares those
readings with the pinned ones; the other tables' readings are taken from the shipped dataset,
looked up by their image's SHA-256, so an image that changed fails the check.
`python -m envirobench_verify.generate ocr-auto-accept` still reads every table.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import envirobench_verify.generate.ocr_auto_accept as ocr_generator
from envirobench import generator_command
from envirobench_synth.verify.ocr_tables import Reading, read_cells
from envirobench_verify.package import PACKAGE as VERIFY

OCR_SAMPLE = 8


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
        if digest not in self.cases:
            raise SystemExit("a regenerated table image is not one of the shipped images")
        number, pinned = self.cases[digest]
        shipped = [Reading(pinned.get(cell.box), None) for cell in cells]
        if number not in self.sample:
            return shipped
        fresh = read_cells(data, cells)
        self.read_again += 1
        if [r.text for r in fresh] != [r.text for r in shipped]:
            raise SystemExit(f"RapidOCR reads table {number} differently from the pinned reading")
        self.matched += 1
        return fresh


def main(args: list[str]) -> None:
    """The generator command on `args` (TYPE --dataset FOLDER ...), with the pinned readings."""
    reader = PinnedReadings(args[args.index("--dataset") + 1])
    ocr_generator.read_cells = reader
    generator_command(VERIFY).main(args, standalone_mode=False)
    if not reader.read_again == reader.matched == OCR_SAMPLE:
        raise SystemExit(f"read {reader.read_again} tables again and matched {reader.matched}, not {OCR_SAMPLE}")


# What the probe runs (`-c`): this module loaded from its file (not through sys.path, whose
# directory the importer would list, and a listing is pinned by the stamp), then main on the arguments.
COMMAND = f"""import importlib.util, sys
spec = importlib.util.spec_from_file_location("ocr_pinned_readings", {str(Path(__file__).resolve())!r})
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
module.main(sys.argv[1:])
"""
