"""A case's source files as images for a chat request: image files as they are, PDF pages
rendered (pypdfium2), each as a `data:` URL with a label saying which file and page it is.

Images are sent at their own size, never scaled: a type that asks for pixel positions (table
separators, cells) is answered in the pixels of the image the model saw. A PDF sends at most
`max_pages` pages; the label of its last page sent says how many were left out.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pypdfium2

IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp", ".gif": "image/gif"}


class UnsupportedSource(ValueError):
    """A source file this adapter cannot show a model."""


@dataclass(frozen=True)
class Image:
    label: str  # "assets/ts-0001.png", "docs/report.pdf, page 3 of 40"
    data_url: str


def pdf_pages(path: Path) -> int:
    document = pypdfium2.PdfDocument(path)
    try:
        return len(document)
    finally:
        document.close()


def count_images(sources: Mapping[str, Path], max_pages: int) -> int:
    """How many images `images` will send for these sources (for the budget's worst case)."""
    total = 0
    for relative, path in sources.items():
        suffix = Path(relative).suffix.lower()
        if suffix == ".pdf":
            total += min(pdf_pages(path), max_pages)
        elif suffix in IMAGE_TYPES:
            total += 1
        else:
            raise UnsupportedSource(f"{relative}: a {suffix or 'suffix-less'} file cannot be sent as an image")
    return total


def images(sources: Mapping[str, Path], *, max_pages: int, dpi: int) -> Iterator[Image]:
    for relative, path in sources.items():
        suffix = Path(relative).suffix.lower()
        if suffix in IMAGE_TYPES:
            encoded = base64.b64encode(path.read_bytes()).decode("ascii")
            yield Image(relative, f"data:{IMAGE_TYPES[suffix]};base64,{encoded}")
        elif suffix == ".pdf":
            yield from _pdf_images(relative, path, max_pages=max_pages, dpi=dpi)
        else:
            raise UnsupportedSource(f"{relative}: a {suffix or 'suffix-less'} file cannot be sent as an image")


def _pdf_images(relative: str, path: Path, *, max_pages: int, dpi: int) -> Iterator[Image]:
    document = pypdfium2.PdfDocument(path)
    try:
        total = len(document)
        shown = min(total, max_pages)
        for index in range(shown):
            page = document[index]
            try:
                picture = page.render(scale=dpi / 72).to_pil()
            finally:
                page.close()
            buffer = io.BytesIO()
            picture.save(buffer, format="PNG")
            label = f"{relative}, page {index + 1} of {total}"
            if index + 1 == shown and shown < total:
                label += f" (pages {shown + 1} to {total} are not shown: at most {max_pages} pages are sent)"
            yield Image(label, "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii"))
    finally:
        document.close()
