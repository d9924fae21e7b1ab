"""Reference solver for `table-cells`: the text of every given cell of a table image.

The case gives the table crop and every cell's box. Each cell is read on its own, so text never
leaks from one cell into its neighbour:

1. The cell's box is shrunk by CELL_INSET pixels (the ruling lines are centred on the box
   edges) and binarised between the image's paper and ink levels; any remaining pixel row or
   column that is mostly ink (a rule, a shaded edge) is cleared.
2. No ink left: the cell is empty (""). Otherwise its text lines are the runs of the row
   profile (gaps of at least one blank pixel row); runs too thin or faint to be text are speckle.
3. Each line is cut out with LINE_PAD pixels of paper around its ink, enlarged when its text is
   small, and read by RapidOCR's recogniser alone (no detection: the line is already found).
   Spaces the recogniser dropped are put back where the line's ink shows a word space
   (`ocr.restore_line_spaces`). A cell's lines are joined with a newline, as the answers write
   them.

Variants: `v1` (the default; `default` is its alias) as above. `baseline` OCRs the whole table
once (detection and recognition) and gives each cell the words whose centre falls inside its
box: faster, but the detector merges neighbouring cells' text into one line box and the word
boxes derived from it are approximate, so words land in the wrong cell and spaces come and go.

`jitter=SEED` perturbs the image (brightness and noise) before reading.

Weaknesses: the recogniser is the limit: it drops spaces, and those between two digits
(`SW-8468260D` for `SW-846 8260D`) or a digit and a capital (`0.40J` for `0.40 J`) are not
restored, as digits and capitals leave blanks as wide of their own; it adds some, reads
`µ` as `u` and sometimes `O`/`0`, `l`/`1` look-alikes; faint, blurred scans lose characters. A
cell whose two lines touch (no blank pixel row between them) is read as one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from .. import ocr
from ..layout import group_lines
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("table-cells", variants=("baseline", "v1"))

CELL_INSET = 3  # pixels cut from each side of a cell box (rules sit on its edges)
LINE_PAD = 4  # pixels of paper kept around a line's ink
RULE_SHARE = 0.8  # a pixel row/column of a cell this much ink is a rule or an edge, not text
MIN_LINE_HEIGHT = 4  # thinner ink runs are speckle or a rule's fringe
MIN_LINE_INK = 12  # fewer ink pixels than this: speckle
TARGET_LINE_HEIGHT = 32  # lines shorter than this are enlarged before recognition
MIN_CONTRAST = 40
INK_PER_EM = 0.8  # a line's ink (ascenders to descenders) is about this many ems high


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    gray = load_gray(sources[case_input.image], case_input.width, case_input.height)
    if jitter is not None:
        gray = ocr.jitter_image(gray, jitter)
    if variant == "baseline":
        texts = read_by_page_ocr(gray, case_input.cells)
    else:
        texts = {(c.row, c.column): read_cell(gray, c.box) for c in case_input.cells}
    return {"cells": [{"row": c.row, "column": c.column, "text": texts[c.row, c.column]} for c in case_input.cells]}


def load_gray(path: Path, width: int, height: int) -> np.ndarray:
    with Image.open(path) as image:
        image.load()
        if image.size != (width, height):
            raise ValueError(f"image is {image.size[0]}x{image.size[1]} but the request says {width}x{height}")
        return np.asarray(image.convert("L"), dtype=np.uint8)


def levels(gray: np.ndarray) -> tuple[float, float]:
    """(paper, ink) grey levels of the whole table: high and low percentiles."""
    return float(np.percentile(gray, 90)), float(np.percentile(gray, 0.5))


def read_cell(gray: np.ndarray, box: tuple[int, int, int, int]) -> str:
    """The text of one cell: its lines read one by one, joined with newlines."""
    paper, ink_level = levels(gray)
    if paper - ink_level < MIN_CONTRAST:
        return ""
    x0, y0, x1, y1 = box
    x0, y0 = x0 + CELL_INSET, y0 + CELL_INSET
    x1, y1 = max(x0 + 1, x1 - CELL_INSET), max(y0 + 1, y1 - CELL_INSET)
    patch = gray[y0:y1, x0:x1].astype(np.float32)
    ink = patch < (paper + ink_level) / 2
    if ink.size == 0:
        return ""
    ink[ink.mean(axis=1) > RULE_SHARE, :] = False
    ink[:, ink.mean(axis=0) > RULE_SHARE] = False
    lines = []
    profile = ink.sum(axis=1)
    for top, bottom in _runs(profile > 0):
        if bottom - top < MIN_LINE_HEIGHT or profile[top:bottom].sum() < MIN_LINE_INK:
            continue
        columns = np.flatnonzero(ink[top:bottom].any(axis=0))
        left, right = int(columns[0]), int(columns[-1]) + 1
        crop = gray[
            max(0, y0 + top - LINE_PAD) : y0 + bottom + LINE_PAD,
            max(0, x0 + left - LINE_PAD) : x0 + right + LINE_PAD,
        ]
        text = read_line(crop, bottom - top)
        if text:
            # The recogniser drops some spaces ("EPA8270E"); the ink shows them.
            lines.append(ocr.restore_line_spaces(text, ink[top:bottom, left:right].any(axis=0), (bottom - top) / INK_PER_EM))
    return "\n".join(lines)


def read_line(crop: np.ndarray, ink_height: int) -> str:
    """Recognition alone on one cut-out text line (enlarged when its text is small)."""
    image = Image.fromarray(crop)
    if ink_height < TARGET_LINE_HEIGHT:
        factor = TARGET_LINE_HEIGHT / max(1, ink_height)
        image = image.resize((max(1, round(image.width * factor)), max(1, round(image.height * factor))), Image.Resampling.LANCZOS)
    result = ocr.engine()(ocr.as_rgb_array(image), use_det=False, use_cls=False, use_rec=True, return_word_box=False)
    texts = getattr(result, "txts", None) or ()
    scores = getattr(result, "scores", None) or ()
    kept = [ocr.clean_text(t) for t, s in zip(texts, scores, strict=False) if s >= ocr.MIN_CONFIDENCE]
    return " ".join(t for t in kept if t)


def read_by_page_ocr(gray: np.ndarray, cells: Sequence[Any]) -> dict[tuple[int, int], str]:
    """The baseline: OCR the table once, put each word into the cell holding its centre (`cells`:
    the input's cells, each with its row, column and box)."""
    words = ocr.recognize(gray, upscale=2.0)
    inside: dict[tuple[int, int], list] = {(c.row, c.column): [] for c in cells}
    for word in words:
        for cell in cells:
            x0, y0, x1, y1 = cell.box
            if x0 <= word.cx < x1 and y0 <= word.cy < y1:
                inside[cell.row, cell.column].append(word)
                break
    return {key: "\n".join(line.text for line in group_lines(found)) for key, found in inside.items()}


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    padded = np.concatenate(([False], mask.astype(bool), [False]))
    edges = np.flatnonzero(padded[1:] != padded[:-1])
    return [(int(s), int(e)) for s, e in zip(edges[::2], edges[1::2], strict=True)]
