"""The OCR page cache: a scanned page is read by OCR once, ever, and its words kept on disk for
every later reading of the same page, by any type and any run.

Where: `$ENVIROBENCH_ADAPTER_CACHE` (`envirobench run --adapter-cache DIR` binds DIR read-write
for the adapter alone and sets it; core refuses a DIR that is, holds or lies inside the results,
a dataset or the home), under `envirobench-reference-adapter/ocr/<2 hex digits>/<key>.json`,
beside the adapter kit's case cache (whose folders are the 2-hex ones directly under the
adapter's name). Without the variable there is no cache and every scan is OCRed.

The key is the SHA-256 of the canonical JSON of everything the page's words depend on: what the
page draws (`page_content_sha256`: for a scan, its images' stored bytes and placement; so a page
is found again under any path and in any file, the four Site types' datasets holding the same
volumes and a regenerated record the same scans; a page that draws anything else is keyed by its
file's SHA-256 and 0-based number), the rendering resolution, whether the page is straightened (or read level, `level`),
and the engine's fingerprint (`engine_fingerprint`): the versions of rapidocr and ONNX Runtime,
the SHA-256 of the detection and recognition models, and the SHA-256 of the adapter's own
modules that turn pixels into words (ocr.py, pdftext.py, layout.py), so an edit of the OCR
code or a new engine is a new key and never reuses an old reading. A jittered reading (the
`jitter=SEED` option) is never cached: its pixels are not the page's.

An entry holds its key's material and the words; it is used only when the material matches
exactly and every word has the shape of one; anything else (a half-written file, another format,
another key) is ignored, the page read again and the entry replaced. Entries are written to a
temporary name, fsynced and renamed (core's `atomic_write_text`): a reader sees a whole entry or
none, and processes sharing the directory (the OCR workers, shards) need no lock. A cache that
cannot be written (a full disk, a read-only directory) costs the saving, never the case.

Words are stored as JSON numbers, which Python reads back as the very floats it wrote, so a
cached reading gives the same words, and the same predictions, as an uncached one.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from envirobench import atomic_write_text

from . import NAME, ocr
from .layout import Word

CACHE_ENV = "ENVIROBENCH_ADAPTER_CACHE"  # the adapter kit's (and core's) name for the directory
ENTRY_FORMAT = "envirobench-reference-adapter.ocr-page.v1"
FOLDER = "ocr"
# The modules whose code decides a page's words (rendering, OCR and its cleaning, moving boxes).
WORD_MODULES = ("ocr.py", "pdftext.py", "layout.py")
ENGINE_PACKAGES = ("rapidocr", "onnxruntime")

STATS = {"hits": 0, "misses": 0, "ignored": 0, "unwritten": 0}  # this process's, for tests and reports


def cache_dir(environ: Any = os.environ) -> Path | None:
    """The folder of OCR entries, or None when the adapter was given no cache directory."""
    value = environ.get(CACHE_ENV)
    if not value or not os.path.isabs(value):
        return None  # the kit refuses a relative directory before any case is read
    return Path(value) / NAME / FOLDER


def sha256_of(path: Path) -> str:
    with Path(path).open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


@cache
def _file_sha256(path: str, size: int, mtime_ns: int) -> str:
    return sha256_of(Path(path))


def file_sha256(path: Path) -> str:
    """The file's SHA-256, hashed once per process while its size and modification time stay."""
    stat = os.stat(path)
    return _file_sha256(os.path.realpath(path), stat.st_size, stat.st_mtime_ns)


@cache
def engine_fingerprint() -> dict[str, Any]:
    """What the engine and the adapter's reading code are (see the module docstring)."""
    here = Path(__file__).resolve().parent
    versions = {}
    for package in ENGINE_PACKAGES:
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    files = ocr.model_files()
    return {
        "packages": versions,
        "models": {role: sha256_of(files[role]) for role in ("det", "rec")},
        "code": {name: sha256_of(here / name) for name in WORD_MODULES},
    }


def key_material(path: Path, index: int, dpi: float, straighten: bool, level: bool = False) -> dict[str, Any]:
    content = page_content_sha256(path, index)
    where: dict[str, Any] = {"page_content": content} if content else {"file": file_sha256(path), "page": index}
    return {**where, "dpi": float(dpi), "straighten": bool(straighten), "level": bool(level), "engine": engine_fingerprint()}


def page_content_sha256(path: Path, index: int) -> str | None:
    """The SHA-256 of what a scanned page draws (its size and turn, and each image's placement,
    pixel size, filters and stream bytes as stored), or None when the page draws anything but
    images (it is then keyed by its file and number). A page is a scan's pixels whatever the file
    around it: a record regenerated with other pages changed, or a page in another volume, finds
    its reading again."""
    stat = os.stat(path)
    return _page_content_sha256(os.path.realpath(path), stat.st_size, stat.st_mtime_ns, index)


@cache
def _page_content_sha256(path: str, size: int, mtime_ns: int, index: int) -> str | None:
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    document = pdfium.PdfDocument(path)
    try:
        page = document[index]
        digest = hashlib.sha256(json.dumps([list(page.get_size()), page.get_rotation()]).encode("ascii"))
        images = 0
        for item in page.get_objects(max_depth=1):
            if item.type != pdfium_c.FPDF_PAGEOBJ_IMAGE:
                return None
            meta = item.get_metadata()
            digest.update(json.dumps([list(item.get_matrix().get()), meta.width, meta.height, meta.bits_per_pixel,
                                      list(item.get_filters())]).encode("ascii"))
            digest.update(bytes(item.get_data(decode_simple=False)))
            images += 1
        return digest.hexdigest() if images else None
    finally:
        document.close()


def entry_path(folder: Path, material: dict[str, Any]) -> Path:
    key = hashlib.sha256(json.dumps(material, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()
    return folder / key[:2] / f"{key}.json"


def _word(row: Any) -> Word | None:
    if not (isinstance(row, list) and len(row) == 8 and isinstance(row[0], str) and isinstance(row[6], bool)):
        return None
    numbers = row[1:6] + row[7:]
    if not all(type(n) is float for n in numbers):
        return None
    text, x0, top, x1, bottom, confidence, bold, size = row
    return Word(text, x0, top, x1, bottom, confidence, bold, size)


def load(path: Path, material: dict[str, Any]) -> list[Word] | None:
    """The words of an entry that is whole and made for exactly this key, else None."""
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        STATS["ignored"] += 1
        return None
    rows = entry.get("words") if isinstance(entry, dict) else None
    if not isinstance(rows, list) or entry.get("format") != ENTRY_FORMAT or entry.get("key") != material:
        STATS["ignored"] += 1
        return None
    words = [_word(row) for row in rows]
    if any(word is None for word in words):
        STATS["ignored"] += 1
        return None
    return words  # type: ignore[return-value]


def store(path: Path, material: dict[str, Any], words: list[Word]) -> None:
    rows = [[w.text, float(w.x0), float(w.top), float(w.x1), float(w.bottom), float(w.confidence), bool(w.bold), float(w.size)]
            for w in words]
    text = json.dumps({"format": ENTRY_FORMAT, "key": material, "words": rows}, ensure_ascii=False, separators=(",", ":"))
    atomic_write_text(path, text + "\n")


def cached(path: Path, index: int, dpi: float, straighten: bool, level: bool = False) -> list[Word] | None:
    """The page's cached words, or None (no cache, or no usable entry)."""
    folder = cache_dir()
    if folder is None:
        return None
    material = key_material(path, index, dpi, straighten, level)
    words = load(entry_path(folder, material), material)
    STATS["hits" if words is not None else "misses"] += 1
    return words


def keep(path: Path, index: int, dpi: float, straighten: bool, words: list[Word], level: bool = False) -> None:
    """Keep the page's words for every later reading (nothing without a cache)."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        material = key_material(path, index, dpi, straighten, level)
        store(entry_path(folder, material), material, words)
    except OSError:
        STATS["unwritten"] += 1
