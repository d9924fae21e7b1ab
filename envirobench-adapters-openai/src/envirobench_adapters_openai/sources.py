"""A case's source files as parts of a chat request: image files as they are and PDF pages
rendered (pypdfium2), each as a `data:` URL, and text files (JSON, CSV, plain text: a type's
table of standards, say) as text; each with a label saying which file and page it is.

Images are sent at their own size, never scaled: a type that asks for pixel positions (table
separators, cells) is answered in the pixels of the image the model saw. A PDF sends at most
`max_pages` pages; the label of its last page sent says how many were left out.
"""

from __future__ import annotations

import base64
import io
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pypdfium2

IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp", ".gif": "image/gif"}
TEXT_TYPES = (".json", ".jsonl", ".csv", ".txt", ".md")


class UnsupportedSource(ValueError):
    """A source file this adapter cannot show a model (not an image, a PDF or UTF-8 text)."""


@dataclass(frozen=True)
class Image:
    label: str  # "assets/ts-0001.png", "docs/report.pdf, page 3 of 40"
    data_url: str


@dataclass(frozen=True)
class Text:
    label: str  # "assets/standards.json"
    text: str


@dataclass(frozen=True)
class Sizes:
    images: int  # how many images
    text_bytes: int  # the UTF-8 bytes of the text files


def pdf_pages(path: Path) -> int:
    document = pypdfium2.PdfDocument(path)
    try:
        return len(document)
    finally:
        document.close()


def sizes(sources: Mapping[str, Path], max_pages: int) -> Sizes:
    """What `parts` will send for these sources (for the budget's worst case)."""
    images = text_bytes = 0
    for relative, path in sources.items():
        suffix = Path(relative).suffix.lower()
        if suffix == ".pdf":
            images += min(pdf_pages(path), max_pages)
        elif suffix in IMAGE_TYPES:
            images += 1
        elif suffix in TEXT_TYPES:
            text_bytes += path.stat().st_size
        else:
            raise UnsupportedSource(f"{relative}: a {suffix or 'suffix-less'} file cannot be sent to a model")
    return Sizes(images, text_bytes)


def parts(sources: Mapping[str, Path], *, max_pages: int, dpi: int) -> Iterator[Image | Text]:
    for relative, path in sources.items():
        suffix = Path(relative).suffix.lower()
        if suffix in IMAGE_TYPES:
            encoded = base64.b64encode(path.read_bytes()).decode("ascii")
            yield Image(relative, f"data:{IMAGE_TYPES[suffix]};base64,{encoded}")
        elif suffix == ".pdf":
            yield from _pdf_images(relative, path, max_pages=max_pages, dpi=dpi)
        elif suffix in TEXT_TYPES:
            try:
                yield Text(relative, path.read_text(encoding="utf-8"))
            except UnicodeDecodeError:
                raise UnsupportedSource(f"{relative}: not UTF-8 text") from None
        else:
            raise UnsupportedSource(f"{relative}: a {suffix or 'suffix-less'} file cannot be sent to a model")


def _pdf_images(relative: str, path: Path, *, max_pages: int, dpi: int) -> Iterator[Image]:
    # PDFium is not thread-safe and predict functions run in the kit's threads: a document is
    # opened and rendered whole under one lock (two threads rendering at once aborted the process).
    with _PDFIUM:
        pictures, total = _render_pages(path, max_pages=max_pages, dpi=dpi)
    shown = len(pictures)
    for index, picture in enumerate(pictures):
        label = f"{relative}, page {index + 1} of {total}"
        if index + 1 == shown and shown < total:
            label += f" (pages {shown + 1} to {total} are not shown: at most {max_pages} pages are sent)"
        yield Image(label, "data:image/png;base64," + base64.b64encode(picture).decode("ascii"))


_PDFIUM = threading.Lock()


def _render_pages(path: Path, *, max_pages: int, dpi: int) -> tuple[list[bytes], int]:
    """PNG bytes of the first `max_pages` pages, and the document's page count."""
    document = pypdfium2.PdfDocument(path)
    try:
        total = len(document)
        pictures = []
        for index in range(min(total, max_pages)):
            page = document[index]
            try:
                picture = page.render(scale=dpi / 72).to_pil()
            finally:
                page.close()
            buffer = io.BytesIO()
            picture.save(buffer, format="PNG")
            pictures.append(buffer.getvalue())
        return pictures, total
    finally:
        document.close()
