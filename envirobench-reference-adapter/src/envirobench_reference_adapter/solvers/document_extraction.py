"""Reference solver for `document-extraction`: every measurement record of a lab-report PDF.

Every page is read in order (`pdftext.read_pdf`): the text layer where the page has one (a page
printed sideways is turned upright), OCR of the rendered page where it is an image-only scan.
One `results_tables.TableReader` reads all pages, so a table broken across pages keeps its
sample and columns, footnote markers are resolved by the footnotes under the table's last part,
the sample summary and the quality-control tables (method blank, laboratory control sample) are
skipped, and samples-as-columns tables give one record per sample column.

Variants: `v1` (the default; `default` is its alias) as above. `baseline` reads every page on
its own (a fresh reader per page): a table continued without its header on the next page loses
those rows, and footnote markers defined on a later page stay unresolved.

`jitter=SEED` perturbs the pixels of the scanned pages before OCR; text-layer pages are read
exactly, so on a report without scans jitter changes nothing.

Weaknesses: those of `results_tables`, `pdftext` and `ocr`. The whole report is OCRed page by
page where it is scanned, at several seconds a page.
"""

from __future__ import annotations

from typing import Any

from .. import pdftext
from ..results_tables import TableReader
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("document-extraction", variants=("baseline", "v1"))


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    pages = pdftext.read_pdf(sources[case_input.document], jitter=jitter, straighten=True)
    if variant == "baseline":
        records: list[dict[str, Any]] = []
        for page in pages:
            reader = TableReader()
            reader.read_page(page.words)
            records += reader.finish()
        return {"records": records}
    reader = TableReader()
    for page in pages:
        reader.read_page(page.words)
    return {"records": reader.finish()}
