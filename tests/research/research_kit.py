"""What the Research tests share: category_kit bound to envirobench-research."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from category_kit import CategoryKit

from envirobench_research.package import PACKAGE

KIT = CategoryKit(PACKAGE)
reference_run, shipped_datasets = KIT.reference_run, KIT.shipped_datasets
fixture_scores, assert_fixtures_score_as_planted, shipped_bytes = KIT.fixture_scores, KIT.assert_fixtures_score_as_planted, KIT.shipped_bytes


def page_count(root: Path, documents: list[str] | tuple[str, ...]) -> int:
    """How many pages a case's PDFs (paths relative to the dataset directory `root`) hold together."""
    pages = 0
    for path in documents:
        document = pdfium.PdfDocument(str(root / path))
        pages += len(document)
        document.close()
    return pages
