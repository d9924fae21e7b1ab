"""RapidOCR (PyPI `rapidocr`, on ONNX Runtime, with the detection and recognition models its wheel
ships; nothing is downloaded): the words of a table crop with the engine's default settings and
its per-word boxes (`return_word_box=True`); a line without word boxes counts as one word with
the line's box. The reference adapter uses the same engine behind its own layout analysis: this
row is the engine alone, through the shared mapper."""

from __future__ import annotations

from importlib import metadata

import numpy as np
import rapidocr
from PIL import Image

from .cells import Word
from .kits import ocr_adapter

_engine = None


def engine() -> rapidocr.RapidOCR:
    global _engine
    if _engine is None:  # loading the models takes seconds: once per process
        _engine = rapidocr.RapidOCR()
    return _engine


def box(points) -> tuple[float, float, float, float]:
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def read_words(image: Image.Image) -> list[Word]:
    result = engine()(np.asarray(image), return_word_box=True)
    if result.txts is None:
        return []
    words = []
    word_results = list(result.word_results or ())
    for index, (text, points) in enumerate(zip(result.txts, result.boxes, strict=True)):
        line = word_results[index] if index < len(word_results) else ()
        if line:
            words.extend(Word(t, *box(p)) for t, _, p in line)
        else:
            words.append(Word(text, *box(points)))
    return words


kit = ocr_adapter("rapidocr", f"0.1.0+rapidocr-{metadata.version('rapidocr')}", read_words)
