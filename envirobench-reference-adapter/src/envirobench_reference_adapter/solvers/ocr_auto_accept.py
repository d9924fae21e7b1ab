"""Reference solver for `ocr-auto-accept`: accept an OCR-read cell only when its reading is
very likely right.

The input gives each readable cell's box and the text an OCR engine read there, not how sure the
engine was (the format withholds its confidence). So the solver reads every cell again itself:
it crops the cell's box (two pixels of margin) out of the table image and runs its own text
recogniser over the crop (RapidOCR's PP-OCRv6 recogniser, recognition only, no detection), and
takes two things from that second reading: whether it agrees with the given reading (after both
are folded: NFKC, look-alikes mapped, whitespace removed) and how sure the recogniser was of it.
A second reading that disagrees means one of the two is wrong, so the cell goes to review.

Each given reading is also classified by its form, with general laboratory-report conventions:

- a number (`12`, `0.50`, `<2.0`, `1,460`, `1.2E+03`), optionally followed by qualifier flags
  from the usual alphabet (U, J, B, E, D, R, N, UJ, J+, J-, JN);
- qualifier flags alone;
- a CAS Registry Number whose check digit is right (a misread digit almost always breaks it);
- a unit of the usual vocabulary, exact case (mg/L, µg/kg, %, ...);
- a sample identifier (letters, a hyphen, digits), or a name (letters, digits and the
  punctuation of chemical names); a name with a point between locant digits (`1.2-`) or a
  number with a unit inside it (a neighbouring cell merged in) is suspect.

Table-level consistency: when any number cell of the table is written with a decimal comma
(`0,25`), the laboratory writes decimals that way, and every number cell read with a decimal
point is suspect (the engine tends to read a comma as a point); numbers read with a space
inside (`0 97`) lost a decimal mark.

A cell is accepted when its form is recognised, nothing makes it suspect, the second reading
agrees and the recogniser's score on it reaches the form's threshold (names need more: a
misread letter keeps a word-like form). The reported confidence is that score, lowered for a
suspect or unrecognised form or a second reading that disagrees.

Variants: `v2` (default) as above; `agreement-only` accepts every cell whose second reading
agrees at a score of AGREEMENT_ONLY or more, without the form checks, for comparison.

Cost: one recognition per readable cell whose form could be accepted (about 20 ms of one CPU
thread; the recogniser's input is padded to RECOGNISER_WIDTH pixels per 48 of height instead of
the engine's 320, which halves the time on short cells; it reads 3 of 229 cells of three dev
tables differently from the default, and the thresholds were chosen with it).

Weaknesses: the second reading comes from the same family of recogniser as the first (the data's
readings are RapidOCR's), so a misreading both make (a well-formed number read with full
confidence, `8.50` for `0.50`; a decimal comma read as a point in a table that shows no comma
elsewhere) passes; a name with one letter wrong passes as a name when both readings agree.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from .. import ocr
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("ocr-auto-accept", variants=("agreement-only", "v2"), default="v2")

AGREEMENT_ONLY = 0.95
MARGIN = 2  # pixels of the image around a cell's box in its crop
RECOGNISER_WIDTH = 48  # the recogniser's minimum input width per 48 pixels of height
DISAGREE_FACTOR = 0.25  # the confidence reported for a cell whose second reading disagrees
# The recogniser's score a second reading that agrees must reach, per form (round values chosen on
# the dev split: a form check already catches most misreadings of CAS numbers, units, flags and
# identifiers; names need the most, a misread letter keeps a word-like form).
THRESHOLDS = {
    "number": 0.9,
    "qualifier": 0.8,
    "cas": 0.8,
    "unit": 0.8,
    "identifier": 0.8,
    "name": 0.95,
}
SUSPECT_FACTOR = 0.5  # the confidence reported for a cell whose form is suspect or unknown

QUALIFIERS = r"(?:UJ|U|J\+|J-|JN|J|B|E|D|R|N|H|\*)"
NUMBER = r"[<>]?-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:[.,]\d+)?(?:[eE][+-]?\d{1,3})?"
NUMBER_CELL = re.compile(rf"^{NUMBER}(?:\s?{QUALIFIERS}(?:[ ,]?{QUALIFIERS})*)?$")
QUALIFIER_CELL = re.compile(rf"^{QUALIFIERS}(?:[ ,]?{QUALIFIERS})*$")
NOT_REPORTED = {"--", "NA", "ND", "NR", "n/a", "N/A"}
CAS_CELL = re.compile(r"^(\d{2,7})-(\d{2})-(\d)$")
UNITS = {
    f"{mass}/{per}"
    for mass in ("mg", "µg", "ug", "ng", "g")
    for per in ("L", "kg", "Kg", "m3", "mL")
} | {
    "%",
    "pCi/L",
    "mg/kg dry",
    "µg/kg dry",
    "ug/kg dry",
    "mg/kg-dry",
    "NTU",
    "SU",
    "s.u.",
    "µS/cm",
    "uS/cm",
}
IDENTIFIER_CELL = re.compile(
    r"^[A-Z]{1,4}\d{0,3}-\d{1,3}[A-Z]{0,3}(?:\s?\(\d+-\d+'\))?(?:-\d{6,8})?$"
)
NAME_CELL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ,()\[\]'+\-/.%]*$")
LOCANT_POINT = re.compile(r"\d\.\d[,.\-]")
UNIT_INSIDE = re.compile(r"\d\s*(?:mg|ug|µg|μg|ng)/(?:L|kg)\b")
DECIMAL_COMMA = re.compile(r"(?<![\d,])\d+,\d{1,2}(?!\d)|(?<![\d,])0,\d+")


def cas_valid(text: str) -> bool:
    match = CAS_CELL.match(text)
    if not match:
        return False
    digits = (match.group(1) + match.group(2))[::-1]
    return sum((i + 1) * int(d) for i, d in enumerate(digits)) % 10 == int(match.group(3))


def form_of(text: str) -> str | None:
    """The form of a reading (number, qualifier, cas, unit, identifier, name), None if none."""
    text = unicodedata.normalize("NFC", text.strip()).replace("\u03bc", "\u00b5")
    if text in NOT_REPORTED:
        return "qualifier"
    if NUMBER_CELL.match(text):
        return "number"
    if QUALIFIER_CELL.match(text):
        return "qualifier"
    if CAS_CELL.match(text):
        return "cas" if cas_valid(text) else None
    if text in UNITS:
        return "unit"
    if IDENTIFIER_CELL.match(text):
        return "identifier"
    if NAME_CELL.match(text) and sum(ch.isalpha() for ch in text) >= 3:
        return "name"
    return None


def suspect(text: str, form: str | None, comma_table: bool) -> bool:
    """Signs of a misreading the engine's confidence does not show."""
    if form == "name":
        # Chemical names separate locants with commas (1,2,4-); a point between digits there is a
        # misread comma. A unit inside a name is a neighbouring cell merged in.
        return bool(LOCANT_POINT.search(text) or UNIT_INSIDE.search(text))
    if form != "number":
        return False
    number = text.split()[0] if " " in text.strip() else text
    if re.search(r"\d \d", text):
        return True  # a space inside a number: a lost decimal mark
    return comma_table and "." in number and "E" not in number.upper()


@cache
def recogniser() -> Any:
    """RapidOCR's recogniser alone (the adapter's model files, one thread), its input padded to
    RECOGNISER_WIDTH pixels per 48 of height."""
    import rapidocr

    files = ocr.model_files()
    logging.getLogger("RapidOCR").setLevel(logging.ERROR)
    params = {
        "Global.log_level": "error",
        "Global.use_cls": False,
        "Global.text_score": 0.0,
        "EngineConfig.onnxruntime.intra_op_num_threads": ocr.THREADS,
        "EngineConfig.onnxruntime.inter_op_num_threads": ocr.THREADS,
        "Det.model_path": str(files["det"]),
        "Rec.model_path": str(files["rec"]),
        "Cls.model_path": str(files["cls"]),
        "Rec.rec_img_shape": [3, 48, RECOGNISER_WIDTH],
        "Rec.rec_batch_num": 1,
    }
    return rapidocr.RapidOCR(params=params)


def fold(text: str) -> str:
    """A reading's comparison form: look-alikes mapped, NFKC, whitespace removed."""
    return "".join(unicodedata.normalize("NFKC", text.translate(ocr.LOOK_ALIKES)).split())


def read_again(
    image: Path, cells: Any, jitter: Jitter = None, wanted: list[bool] | None = None
) -> list[tuple[str, float]]:
    """(text, score) of the recogniser's own reading of each cell's crop of the image; ("", 0.0)
    for a cell `wanted` leaves out (no reading of it could make it acceptable)."""
    with Image.open(image) as opened:
        gray = np.asarray(opened.convert("L"))
    if jitter is not None:
        gray = ocr.jitter_image(gray, jitter)
    height, width = gray.shape
    engine = recogniser()
    readings = []
    for index, cell in enumerate(cells):
        if wanted is not None and not wanted[index]:
            readings.append(("", 0.0))
            continue
        x0, y0, x1, y1 = cell.box
        crop = gray[
            max(0, y0 - MARGIN) : min(height, y1 + MARGIN),
            max(0, x0 - MARGIN) : min(width, x1 + MARGIN),
        ]
        result = engine(ocr.as_rgb_array(crop), use_det=False, use_cls=False, use_rec=True)
        texts = list(getattr(result, "txts", None) or ())
        scores = list(getattr(result, "scores", None) or ())
        readings.append((" ".join(texts).strip(), float(min(scores)) if scores else 0.0))
    return readings


def decide(case_input: Any, second: list[tuple[str, float]], variant: str) -> list[dict[str, Any]]:
    decisions = []
    comma_table = any(DECIMAL_COMMA.search(cell.text) for cell in case_input.cells)
    for cell, (again, score) in zip(case_input.cells, second, strict=True):
        agree = bool(again) and fold(again) == fold(cell.text)
        if variant == "agreement-only":
            accept = agree and score >= AGREEMENT_ONLY
            confidence = score if agree else score * DISAGREE_FACTOR
            decisions.append(
                {"decision": "accept" if accept else "review", "confidence": round(confidence, 4)}
            )
            continue
        form = form_of(cell.text)
        doubtful = form is None or suspect(cell.text, form, comma_table)
        confidence = (
            score * (SUSPECT_FACTOR if doubtful else 1.0) * (1.0 if agree else DISAGREE_FACTOR)
        )
        accept = agree and not doubtful and score >= THRESHOLDS[form]  # type: ignore[index]
        decisions.append(
            {"decision": "accept" if accept else "review", "confidence": round(confidence, 4)}
        )
    return decisions


def acceptable(case_input: Any) -> list[bool]:
    """Per cell, whether its form is recognised and nothing makes it suspect: only such a cell
    can be accepted, so only such a cell is read again (a fifth of the cells in the dev split are
    not)."""
    comma_table = any(DECIMAL_COMMA.search(cell.text) for cell in case_input.cells)
    forms = [form_of(cell.text) for cell in case_input.cells]
    return [
        form is not None and not suspect(cell.text, form, comma_table)
        for cell, form in zip(case_input.cells, forms, strict=True)
    ]


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    wanted = None if variant == "agreement-only" else acceptable(case_input)
    second = read_again(sources[case_input.image], case_input.cells, jitter, wanted)
    return {"cells": decide(case_input, second, variant)}
