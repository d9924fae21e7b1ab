"""Tesseract (Debian's `tesseract-ocr`, English model, through PyPI `pytesseract`): the words of a
table crop from `image_to_data` with page segmentation mode 11 (sparse text: a table's cells are
not paragraphs). The crop is first enlarged 2x (Lanczos): Tesseract's documentation asks for text
of about 300 dpi and the crops are rendered near 100 dpi. 2x, not 3x, for time alone (about half
the pixels to read on two shared cores); the factor was not compared on any answers."""

from __future__ import annotations

import pytesseract
from PIL import Image

from .cells import Word
from .kits import ocr_adapter

SCALE = 2
CONFIG = "--psm 11"


def read_words(image: Image.Image) -> list[Word]:
    large = image.resize((image.width * SCALE, image.height * SCALE), Image.Resampling.LANCZOS)
    data = pytesseract.image_to_data(large, config=CONFIG, output_type=pytesseract.Output.DICT)
    words = []
    for text, left, top, width, height in zip(
        data["text"], data["left"], data["top"], data["width"], data["height"], strict=True
    ):
        if text.strip():
            words.append(
                Word(
                    text, left / SCALE, top / SCALE, (left + width) / SCALE, (top + height) / SCALE
                )
            )
    return words


def version() -> str:
    return f"0.1.0+tesseract-{pytesseract.get_tesseract_version()}"


kit = ocr_adapter("tesseract", version(), read_words)
