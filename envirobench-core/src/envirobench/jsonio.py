"""JSON in, JSON out: strict reading with located errors, streaming JSONL, atomic writes."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import secrets
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from .errors import EnviroBenchError


def _reject_constant(name: str) -> Any:
    # NaN and Infinity are not JSON; accepting them would make digests and scores ambiguous.
    raise ValueError(f"{name} is not valid JSON")


# One decoder for every call: json.loads with an argument builds a new decoder each time, and
# a 100,000-line JSONL file is read line by line.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def loads(text: str) -> Any:
    return _DECODER.decode(text)


def read_json(path: str | Path) -> Any:
    """Read one JSON document, naming the file and line on any problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EnviroBenchError("file not found", file=path) from None
    except UnicodeDecodeError as exc:
        raise EnviroBenchError(f"not UTF-8 text ({exc.reason})", file=path) from None
    except OSError as exc:
        raise EnviroBenchError(f"cannot read: {exc.strerror}", file=path) from None
    try:
        return loads(text)
    except json.JSONDecodeError as exc:
        raise EnviroBenchError(
            f"not valid JSON: {exc.msg} (column {exc.colno})", file=path, line=exc.lineno
        ) from None
    except ValueError as exc:
        raise EnviroBenchError(f"not valid JSON: {exc}", file=path) from None


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, Any]]:
    """Yield (line number, value) for each non-blank line, streaming: never the whole file."""
    path = Path(path)
    try:
        handle = path.open(encoding="utf-8")
    except FileNotFoundError:
        raise EnviroBenchError("file not found", file=path) from None
    with handle:
        lineno = 0
        try:
            for lineno, raw in enumerate(handle, start=1):  # noqa: B007
                if not raw.strip():
                    continue
                try:
                    yield lineno, loads(raw)
                except json.JSONDecodeError as exc:
                    raise EnviroBenchError(
                        f"not valid JSON: {exc.msg} (column {exc.colno})", file=path, line=lineno
                    ) from None
                except ValueError as exc:
                    raise EnviroBenchError(f"not valid JSON: {exc}", file=path, line=lineno) from None
        except UnicodeDecodeError as exc:
            raise EnviroBenchError(
                f"not UTF-8 text ({exc.reason})", file=path, line=lineno + 1
            ) from None


def dumps(value: Any, *, indent: int | None = 2) -> str:
    """Canonical JSON: sorted keys, UTF-8, a trailing newline; equal values give equal bytes."""
    text = json.dumps(value, indent=indent, sort_keys=True, ensure_ascii=False, allow_nan=False)
    return text + "\n"


def dumps_member(value: Any) -> str:
    """A value as it appears inside `dumps(document, indent=None)`: the same separators and order."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False)


def stream_document(document: dict[str, Any], key: str, member: Iterable[str]) -> Iterator[str]:
    """The text of `dumps(document, indent=None)` in pieces, with `document[key]` given as pieces of
    its JSON text (`member`) instead of a value: a large part is never built twice in memory."""
    token = f"\x00{secrets.token_hex(16)}\x00"  # a placeholder no string in the document can be
    text = dumps({**document, key: token}, indent=None)
    before, found, after = text.partition(dumps_member(token))
    assert found, "the placeholder is in the document's text"
    yield before
    yield from member
    yield after


def dumps_line(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write to a temporary name in the same directory, fsync, then rename: readers never see half a file."""
    _atomic_write(path, lambda handle: handle.write(data))


def atomic_write_text(path: str | Path, text: str) -> None:
    """Like atomic_write_bytes, encoding in slices so a large text is never held twice."""
    atomic_write_chunks(path, (text[start : start + _CHUNK] for start in range(0, len(text), _CHUNK)))


def atomic_write_chunks(path: str | Path, chunks: Iterable[str]) -> None:
    """Like atomic_write_text, for a text given in pieces (never joined)."""

    def write(handle: BinaryIO) -> None:
        for chunk in chunks:
            handle.write(chunk.encode("utf-8"))

    _atomic_write(path, write)


def _atomic_write(path: str | Path, write: Callable[[BinaryIO], object]) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


_CHUNK = 1 << 20


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building large acyclic structures.

    A run allocates millions of small objects (scores, metrics, report rows) that form no
    cycles; with the collector on, each full pass walks every live object and a 100,000-case
    run spends a third of its time there. Reference counting still frees everything.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def write_json(path: str | Path, value: Any) -> None:
    atomic_write_text(path, dumps(value))
