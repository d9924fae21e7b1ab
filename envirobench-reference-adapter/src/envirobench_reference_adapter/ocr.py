"""Optical character recognition with RapidOCR, fully offline: words with boxes and confidences.

The engine is RapidOCR (PyPI `rapidocr`) on ONNX Runtime. Its wheel ships the PP-OCRv6 "small"
text detector and recogniser as ONNX files; `model_files()` points the engine at exactly those
files inside the installed package, so it never looks for (or downloads) anything else. A
missing model file is an error, not a download.

`recognize(image)` runs detection (DB text-line boxes) and recognition (CTC) and returns `Word`s
in the image's pixel coordinates, split at spaces with the engine's per-word boxes. Settings:

- one intra-op and one inter-op thread: ONNX Runtime's multithreaded kernels may split sums
  differently between runs, and a reference system must give the same answer twice;
- the text-line orientation classifier is off: documents here are upright, and it costs time;
- the detector sees the image with its longer side limited to DET_MAX_SIDE pixels (text on a
  200-dpi page stays about 10 px high, which it still finds); small crops are enlarged by the
  caller (`upscale`) rather than by the engine's default "shorter side at least 736 px" rule,
  which blows a wide, short table crop up to several thousand pixels and is slow.

Spaces the recogniser drops on scans ("EngineeringGroup") are put back where the word's ink has
a blank as wide as a word space and the characters allow one (`restore_spaces`).

Weaknesses: it is slow on CPU (a dense page takes several seconds, mostly recognition); the
recogniser is multilingual and sometimes returns look-alikes (`µ` as `u` or `μ`, `O` for `0`,
`l` for `1`); word boxes are derived from CTC character positions, so their edges are only
approximate (a few pixels); a text line the detector misses (very faint, or touching a rule) is
lost; and lines closer than about a text height may be merged into one detection box.
"""

from __future__ import annotations

import logging
import math
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import rapidocr  # cheap: the package loads its engine (and ONNX Runtime) only when first used
from PIL import Image

from .layout import Word

DET_MODEL = "PP-OCRv6_det_small.onnx"
REC_MODEL = "PP-OCRv6_rec_small.onnx"
CLS_MODEL = "ch_ppocr_mobile_v2.0_cls_mobile.onnx"  # configured for completeness; unused (use_cls off)
DET_MAX_SIDE = 1600
MIN_CONFIDENCE = 0.5  # recognised lines below this are dropped (mostly noise read as text)
THREADS = 1
RULE_ROW_SHARE = 0.6  # a pixel row of a word box this much ink is a ruling line crossing it
SPACE_EMS = 0.3  # a blank in a word's ink this many ems wide is a word space the recogniser dropped
MAX_SPACE_SHIFT = 1.5  # characters between a blank's proportional position and the break used
BOX_PER_EM = 1.7  # a detected word box is about this many ems high (measured on rendered text)
# Full-width and CJK forms the recogniser sometimes returns for Latin letters and symbols; the
# Greek mu is the micro sign in a unit.
LOOK_ALIKES = str.maketrans(
    {"」": "J", "「": "J", "（": "(", "）": ")", "，": ",", "：": ":", "；": ";", "\u03bc": "\u00b5", "０": "0", "１": "1", "ノ": "J",
     "ª": "a", "º": "o", "ᵃ": "a", "ᵇ": "b", "ᶜ": "c", "ᵈ": "d", "ᵉ": "e", "ᶠ": "f", "ᵍ": "g", "ʰ": "h"}
)

# -- jitter: how far a `jitter=SEED` run perturbs an image before OCR -------------------------------
JITTER_MAX_SHIFT = 40.0  # grey levels of brightness shift, either way
JITTER_NOISE_SIGMA = 10.0  # grey levels of per-pixel noise


def models_dir() -> Path:
    """The folder of ONNX models inside the installed `rapidocr` package."""
    return Path(rapidocr.__file__).resolve().parent / "models"


def model_files() -> dict[str, Path]:
    """The three model files, checked to exist: the engine must never fetch a model."""
    folder = models_dir()
    files = {"det": folder / DET_MODEL, "rec": folder / REC_MODEL, "cls": folder / CLS_MODEL}
    missing = [str(path) for path in files.values() if not path.is_file()]
    if missing:
        raise RuntimeError(
            f"RapidOCR's bundled models are missing ({', '.join(missing)}); reinstall the 'rapidocr' "
            "package: this adapter never downloads models"
        )
    return files


@cache
def engine() -> Any:
    """The shared RapidOCR engine (models load on first use, then stay in memory)."""
    files = model_files()
    # RapidOCR logs every model path at INFO; an adapter's stderr is for the run's own messages.
    logging.getLogger("RapidOCR").setLevel(logging.ERROR)
    params = {
        "Global.log_level": "error",
        "Global.use_cls": False,
        "Global.text_score": 0.0,  # filtered here, so lines and their word boxes stay aligned
        "Global.max_side_len": 4000,
        "EngineConfig.onnxruntime.intra_op_num_threads": THREADS,
        "EngineConfig.onnxruntime.inter_op_num_threads": THREADS,
        "Det.model_path": str(files["det"]),
        "Det.limit_type": "max",
        "Det.limit_side_len": DET_MAX_SIDE,
        "Rec.model_path": str(files["rec"]),
        "Cls.model_path": str(files["cls"]),
    }
    return rapidocr.RapidOCR(params=params)  # the first use imports ONNX Runtime (~2 s)


def as_rgb_array(image: Image.Image | np.ndarray) -> np.ndarray:
    """An 8-bit RGB array of a Pillow image or a grey/RGB array (transparent pixels as white)."""
    if isinstance(image, np.ndarray):
        array = np.clip(image, 0, 255).astype(np.uint8)
        if array.ndim == 2:
            array = np.repeat(array[:, :, None], 3, axis=2)
        return np.ascontiguousarray(array[:, :, :3])
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        image = Image.alpha_composite(white, rgba)
    return np.asarray(image.convert("RGB"))


def jitter_image(gray: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A brightness shift and pixel noise, as a rescan would give (the `jitter=SEED` option)."""
    shift = rng.uniform(-JITTER_MAX_SHIFT, JITTER_MAX_SHIFT)
    noise = rng.normal(0.0, JITTER_NOISE_SIGMA, size=gray.shape)
    return np.clip(gray.astype(np.float32) + shift + noise, 0, 255).astype(np.uint8)


def recognize(image: Image.Image | np.ndarray, *, upscale: float = 1.0) -> list[Word]:
    """The words OCR reads in `image`, boxes in the image's own pixels.

    `upscale` enlarges the image first (Lanczos) and maps the boxes back: worth it for crops
    whose text is under ~16 px high, where the detector starts to miss lines.
    """
    rgb = as_rgb_array(image)
    if upscale != 1.0:
        height, width = rgb.shape[:2]
        size = (max(1, round(width * upscale)), max(1, round(height * upscale)))
        rgb = np.asarray(Image.fromarray(rgb).resize(size, Image.Resampling.LANCZOS))
    # Every switch is passed on every call: the engine keeps the last call's switches.
    result = engine()(rgb, use_det=True, use_cls=False, use_rec=True, return_word_box=True)
    if result is None or not getattr(result, "txts", None):
        return []
    words: list[Word] = []
    word_results = list(getattr(result, "word_results", ()) or ())
    for index, (quad, text, score) in enumerate(zip(result.boxes, result.txts, result.scores, strict=True)):
        if score < MIN_CONFIDENCE or not text.strip():
            continue
        line_words = _aligned_words(text, word_results, index)
        if line_words is None:
            # No usable word boxes: the line's box shared out by characters.
            line_words = _split_box(text, float(score), np.asarray(quad, dtype=float))
        words.extend(line_words)
    words = tighten(words, rgb)
    if upscale != 1.0:
        words = [w.moved(0.0, 0.0, 1.0 / upscale) for w in words]
    # The detector's boxes are padded around the ink; their height is about BOX_PER_EM ems.
    return [replace(w, text=clean_text(w.text), size=w.height / BOX_PER_EM) for w in words]


def tighten(words: list[Word], rgb: np.ndarray) -> list[Word]:
    """Word boxes narrowed to the ink inside them.

    The detector pads its boxes (by about a third of an em each side) and CTC word boxes inherit
    that, so the blank between two table columns looks much narrower than it is. The vertical
    extent is kept: line grouping wants boxes of one line to be alike, not glyph-tight.
    """
    gray = rgb.mean(axis=2)
    paper, ink = float(np.percentile(gray, 90)), float(np.percentile(gray, 0.5))
    if paper - ink < 40:
        return words
    dark = gray < (paper + ink) / 2
    height, width = dark.shape
    tightened = []
    for word in words:
        x0, x1 = max(0, int(word.x0)), min(width, int(np.ceil(word.x1)))
        y0, y1 = max(0, int(word.top)), min(height, int(np.ceil(word.bottom)))
        patch = dark[y0:y1, x0:x1] if x1 > x0 and y1 > y0 else np.zeros((0, 0), dtype=bool)
        if patch.size:
            # A ruling line crossing the box is not the word's ink: drop pixel rows that are
            # mostly dark, or a one-letter word on a rule would keep its padded width.
            patch = patch[patch.mean(axis=1) < RULE_ROW_SHARE]
        profile = patch.any(axis=0) if patch.size else np.zeros(0, dtype=bool)
        columns = np.flatnonzero(profile)
        if len(columns):
            word = replace(word, x0=float(x0 + columns[0]), x1=float(x0 + columns[-1] + 1))
            profile = profile[columns[0] : columns[-1] + 1]
            tightened.extend(restore_spaces(word, profile, (y1 - y0) / BOX_PER_EM))
        else:
            tightened.append(word)
    return tightened


def plausible_break(before: str, after: str) -> bool:
    """Could a word space have stood between these two characters? (lower then upper case,
    around an ampersand, a letter then a digit (`EPA 8270E`), a comma, semicolon or colon then
    a letter.) Not a digit then a capital: a capital's side bearing after a digit (`8270E`) is as
    wide as the space of `0.40 J`.
    Never inside a number (35,200), and never at a bracket: chemical names put brackets inside
    words (Benzo(a)pyrene, Indeno(1,2,3-cd)pyrene), and a bracket's side bearing leaves a blank."""
    return (
        (before.islower() and after.isupper())
        or "&" in (before, after)
        or (before.isalpha() and after.isdigit())
        or (before in ",;:" and after.isalpha())
    )


def space_cuts(text: str, profile: np.ndarray, em: float) -> list[tuple[int, int, int]]:
    """Where the recogniser dropped a space that the ink shows: (character index, blank start,
    blank end), the blank in pixels of `profile` (one boolean per pixel column: any ink).

    A blank in the ink at least SPACE_EMS ems wide is a word space (letters and digits are set
    far closer). It becomes a space at the character boundary nearest its proportional position
    that could hold one (`plausible_break`), if one is within MAX_SPACE_SHIFT characters and no
    space the recogniser did read is that close (that blank is the one it read).
    """
    if len(text) < 2 or em <= 0 or len(profile) == 0:
        return []
    blanks = [(s, e) for s, e in _runs(~profile) if e - s >= SPACE_EMS * em and s > 0 and e < len(profile)]
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    candidates = [
        i for i in range(1, len(text)) if text[i - 1] != " " and text[i] != " " and plausible_break(text[i - 1], text[i])
    ]
    cuts: list[tuple[int, int, int]] = []
    for start, end in blanks:
        position = len(text) * ((start + end) / 2) / len(profile)
        if any(abs(i + 0.5 - position) <= MAX_SPACE_SHIFT for i in spaces) or not candidates:
            continue
        best = min(candidates, key=lambda i: abs(i - position))
        if abs(best - position) <= MAX_SPACE_SHIFT and best not in [c[0] for c in cuts]:
            cuts.append((best, start, end))
    return sorted(cuts)


def restore_spaces(word: Word, profile: np.ndarray, em: float) -> list[Word]:
    """A word split where the recogniser dropped a space that the ink shows (`space_cuts`):
    on scans it runs words together ("EngineeringGroup")."""
    text = word.text
    if " " in text:
        return [word]
    cuts = space_cuts(text, profile, em)
    if not cuts:
        return [word]
    pieces, previous_index, previous_x = [], 0, word.x0
    for index, start, end in cuts:
        pieces.append(replace(word, text=text[previous_index:index], x0=previous_x, x1=word.x0 + start))
        previous_index, previous_x = index, word.x0 + end
    pieces.append(replace(word, text=text[previous_index:], x0=previous_x))
    return [piece for piece in pieces if piece.text]


def restore_line_spaces(text: str, profile: np.ndarray, em: float) -> str:
    """A recognised line with the spaces its ink shows put back (`space_cuts`)."""
    for index, _, _ in reversed(space_cuts(text, profile, em)):
        text = text[:index] + " " + text[index:]
    return text


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    padded = np.concatenate(([False], mask.astype(bool), [False]))
    edges = np.flatnonzero(padded[1:] != padded[:-1])
    return [(int(s), int(e)) for s, e in zip(edges[::2], edges[1::2], strict=True)]


def clean_text(text: str) -> str:
    """Undo the multilingual recogniser's look-alikes that never occur in these documents."""
    return text.translate(LOOK_ALIKES).strip()


def _aligned_words(text: str, word_results: list[Any], index: int) -> list[Word] | None:
    """The engine's word boxes for line `index`, when they are there and spell the line's text.

    The engine drops a line's entry when it could place none of its words, which shifts every
    later entry; checking the spelling catches that instead of pinning words on the wrong line.
    """
    if index >= len(word_results):
        return None
    entries = [e for e in word_results[index] if e and e[2] is not None]
    if not entries or "".join(e[0] for e in entries).replace(" ", "") != text.replace(" ", ""):
        return None
    words = []
    for word_text, score, quad in entries:
        points = np.asarray(quad, dtype=float)
        for piece in _split_box(word_text, float(score), points):
            words.append(piece)
    return words


def _split_box(text: str, score: float, quad: np.ndarray) -> list[Word]:
    """A box holding text with spaces split into one word per space-separated part."""
    x0, top = quad[:, 0].min(), quad[:, 1].min()
    x1, bottom = quad[:, 0].max(), quad[:, 1].max()
    parts = text.split()
    if len(parts) <= 1:
        return [Word(text.strip(), float(x0), float(top), float(x1), float(bottom), score)] if text.strip() else []
    # Share the width by characters (a space counting as one): close enough for monospaced
    # digits and better than nothing for the rest.
    total = len(text)
    words, position = [], 0
    for part in parts:
        start = text.index(part, position)
        end = start + len(part)
        position = end
        left = x0 + (x1 - x0) * start / total
        right = x0 + (x1 - x0) * end / total
        words.append(Word(part, float(left), float(top), float(right), float(bottom), score))
    return words


def vertical_text(image: Image.Image | np.ndarray) -> bool:
    """Does the image hold text running up or down (a table printed sideways)?

    Detection only (no recognition, so it is cheap): most text-line boxes taller than wide.
    """
    rgb = as_rgb_array(image)
    result = engine()(rgb, use_det=True, use_cls=False, use_rec=False, return_word_box=False)
    boxes = getattr(result, "boxes", None)
    if boxes is None or len(boxes) == 0:
        return False
    quads = np.asarray(boxes, dtype=float)
    widths = quads[:, :, 0].max(axis=1) - quads[:, :, 0].min(axis=1)
    heights = quads[:, :, 1].max(axis=1) - quads[:, :, 1].min(axis=1)
    return float(np.mean(heights > 1.5 * widths)) > 0.5


def reading_score(words: list[Word]) -> float:
    """How much confident text some words hold: compares two readings of one image."""
    return sum(w.confidence * len(w.text) for w in words)


SKEW_MAX_DEGREES = 6.0  # scans are searched for a tilt up to this much either way
SKEW_WIDTH = 900  # pixels: the width the tilt is measured at (lines stay several pixels apart)


def skew_angle(image: Image.Image) -> float:
    """The tilt of a scanned page's text lines, in degrees (counterclockwise positive), by the
    projection profile: the page turned by the angle that makes its rows of ink sharpest
    (the variance of the ink per pixel row is largest when every line is level). A coarse
    search over SKEW_MAX_DEGREES, then a fine one around the best."""
    gray = image.convert("L")
    scale = min(1.0, SKEW_WIDTH / gray.width)
    small = gray.resize((max(1, round(gray.width * scale)), max(1, round(gray.height * scale))), Image.Resampling.BILINEAR)
    ink = Image.fromarray(((np.asarray(small) < 160) * 255).astype(np.uint8))

    def sharpness(angle: float) -> float:
        turned = np.asarray(ink.rotate(angle, resample=Image.Resampling.NEAREST, fillcolor=0), dtype=np.float32)
        return float(np.var(turned.sum(axis=1)))

    best = max(np.arange(-SKEW_MAX_DEGREES, SKEW_MAX_DEGREES + 0.01, 0.5), key=sharpness)
    return float(max(np.arange(best - 0.5, best + 0.51, 0.1), key=sharpness))


def straighten(image: Image.Image) -> Image.Image:
    """The scan turned level (`skew_angle`), the corners it uncovers white; unchanged when its
    tilt is under a tenth of a degree."""
    return levelled(image)[0]


def levelled(image: Image.Image) -> tuple[Image.Image, float]:
    """(`straighten`'s image, the angle it was turned by: 0.0 when left as it was)."""
    angle = skew_angle(image)
    if abs(angle) < 0.1:
        return image, 0.0
    return image.convert("L").rotate(angle, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255), angle


def recognize_level(image: Image.Image) -> list[Word]:
    """OCR of a scan read level and placed back where the scan has it: the page is turned by its
    tilt (`skew_angle`) to be read, and every word's box is turned back onto the scan (the box
    round its turned corners). For a solver that reads the text and also looks at the page's own
    image (the ink above a signature line): the words are where that image shows them."""
    gray = image.convert("L")
    level, angle = levelled(gray)
    if not angle:
        return recognize(gray)
    # PIL turns anticlockwise on screen (y down): a point d from the centre of the level image
    # came from centre + (dx cos a - dy sin a, dx sin a + dy cos a) on the scan.
    radians = math.radians(angle)
    cos, sin = math.cos(radians), math.sin(radians)
    cx, cy = level.width / 2, level.height / 2
    ox, oy = gray.width / 2, gray.height / 2

    def back(x: float, y: float) -> tuple[float, float]:
        dx, dy = x - cx, y - cy
        return ox + dx * cos - dy * sin, oy + dx * sin + dy * cos

    words = []
    for word in recognize(level):
        corners = [back(x, y) for x in (word.x0, word.x1) for y in (word.top, word.bottom)]
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        words.append(replace(word, x0=min(xs), top=min(ys), x1=max(xs), bottom=max(ys)))
    return words


def recognize_upright(image: Image.Image) -> tuple[list[Word], int, Image.Image]:
    """OCR of an image that may be printed sideways: (words, quarter turns, the upright image).

    When the detector sees vertical text lines, both quarter turns are read and the one with more
    confident text wins (`quarter turns` counts clockwise turns applied: 0, 1 or 3). Word boxes
    are in the upright image's pixels.
    """
    if not vertical_text(image):
        return recognize(image), 0, image
    best: tuple[float, list[Word], int, Image.Image] | None = None
    for turns, method in ((1, Image.Transpose.ROTATE_270), (3, Image.Transpose.ROTATE_90)):
        turned = image.transpose(method)
        words = recognize(turned)
        score = reading_score(words)
        if best is None or score > best[0]:
            best = (score, words, turns, turned)
    assert best is not None
    return best[1], best[2], best[3]
