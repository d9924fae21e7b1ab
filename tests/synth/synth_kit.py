"""What synth's rendering tests read back from a PDF: each page's text, as PDFium extracts it."""

from __future__ import annotations

import pypdfium2 as pdfium


def page_texts(pdf: bytes) -> list[str]:
    """The text layer of every page of `pdf`, in order ("" for a page that is only an image)."""
    document = pdfium.PdfDocument(pdf)
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()


def squeeze(text: str) -> str:
    """`text` without its spaces and line breaks: a long name may wrap in its cell or line."""
    return "".join(text.split())
