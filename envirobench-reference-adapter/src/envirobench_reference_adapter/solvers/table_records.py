"""Reference solver for `table-records`: the measurement records of one results table.

A case is either a PNG crop of a table (with the sample block above it and its footnotes below)
or one page of a lab-report PDF. The words come from OCR for a crop (`ocr.recognize_upright`, so
a table printed sideways is turned upright first) and from the text layer for a PDF page, or OCR
of the rendered page when it is an image-only scan (`pdftext`). `results_tables.TableReader`
then finds the header, the columns and their roles, and reads each row into records.

For a PDF page, the pages before it are read too (text layer only, cheap) so that a table
continued from the previous page keeps its sample and columns, as a reader turning the pages
would; only the requested page's records are returned.

Variants: `v1` (the default; `default` is its alias) as above. `baseline` reads the same words
but without footnote markers (a marked result keeps no qualifier) and without carrying a table
over from the previous page: the simpler reader a first attempt would be.

`jitter=SEED` perturbs the pixels OCR sees (brightness and noise, `ocr.jitter_image`). On a
PDF page with a text layer there are no pixels, so jitter changes nothing there.

Weaknesses: those of `results_tables` and `ocr`; in addition, a crop of a table part without its
sample block (a continuation) has no sample to give its rows, so it yields no records.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from .. import ocr, pdftext
from ..results_tables import TableReader
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("table-records", variants=("baseline", "v1"))


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    markers = variant == "v1"
    if case_input.image is not None:
        words = read_image(sources[case_input.image], case_input.width, case_input.height, jitter)
        reader = TableReader(markers=markers)
        reader.read_page(words)
        return {"records": reader.finish()}
    path = sources[case_input.document]
    target = case_input.page - 1
    count = pdftext.page_count(path)
    if target >= count:
        raise ValueError(f"page {case_input.page} is past the end of the {count}-page document")
    reader = TableReader(markers=markers)
    if variant == "v1":
        # The pages before: only what a table carries over a page break matters, so image-only
        # pages among them are skipped rather than OCRed.
        for page in pdftext.read_pdf(path, pages=list(range(target)), ocr_scans=False):
            reader.read_page(page.words)
        reader.records.clear()
    page = pdftext.read_pdf(path, jitter=jitter, pages=[target], straighten=True)[0]
    reader.read_page(page.words)
    return {"records": reader.finish()}


def read_image(path: Path, width: int, height: int, jitter: np.random.Generator | None) -> list:
    with Image.open(path) as image:
        image.load()
        if image.size != (width, height):
            raise ValueError(f"image is {image.size[0]}x{image.size[1]} but the request says {width}x{height}")
        gray = image.convert("L")
    if jitter is not None:
        gray = Image.fromarray(ocr.jitter_image(np.asarray(gray), jitter))
    # A crop is not levelled: a few text lines give the tilt search too little to go on, and a
    # crop cut from a tilted scan is cut along its tilt already.
    words, _, _ = ocr.recognize_upright(gray)
    return words
