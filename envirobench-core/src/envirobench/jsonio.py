"""JSON in, JSON out: strict reading with located errors, streaming JSONL, atomic writes.

Files written here get the permissions any program's files get: `0o666` less the umask (0644 by
default), never the 0600 of the temporary file they are written to first (`file_mode`); the
run directory and report assets are made the same way (`dir_mode`), so results can be shared.

Reading never crashes and never blocks (docs/datasets.md, Reading files): a path that is not a
regular file (a directory, a FIFO, a socket, a device) is refused after an `os.stat`, before it
is opened, and opened with O_NONBLOCK all the same; text that is not UTF-8, JSON nested too
deeply for the parser, a file too large to hold in memory, and strings holding a lone surrogate
(`"\\ud800"`, which no UTF-8 file can hold and every later write would fail on) are refused as
`EnviroBenchError`s naming the file, the line and, where there is one, the `$.field`.

JSON is read and written by orjson (a compiled library, several times faster than the standard
library's `json`) wherever it gives exactly what `json` gives, and by `json` everywhere else, so
the bytes and the values never depend on which did the work (docs/performance.md, "JSON"):
reading, orjson reads a text unless it has a run of 19 or more digits (orjson reads integers
beyond 64 bits as floats) and hands anything it refuses to `json`, which reads it (1e400) or names
the problem with json's own message; writing, orjson writes sorted, two-space indented
(`dumps`) and compact (`dumps_line`) text, byte for byte json's, unless its text holds `null`
(NaN and the infinities come out as null: json refuses them), a float below 1e-4 (which orjson
spells 0.00001 and 1e-7 where json spells 1e-05 and 1e-07), or orjson refuses the value
(integers beyond 64 bits, keys that are not strings, subclasses of str, int, dict and list,
dataclasses and dates, lone surrogates, nesting beyond 254 levels): json then writes it, or
refuses it, as before. The one text orjson cannot make is `dumps(indent=None)`'s ", " and ": "
separators (json's default for one-line text; metrics.json's and comparison.json's format), so
that one is json's.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import re
import secrets
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from .errors import EnviroBenchError


def _reject_constant(name: str) -> Any:
    # NaN and Infinity are not JSON; accepting them would make digests and scores ambiguous.
    raise ValueError(f"{name} is not valid JSON")


# One decoder for every call: json.loads with an argument builds a new decoder each time, and
# a 100,000-line JSONL file is read line by line.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)

# A lone surrogate can only enter through a \uD800-\uDFFF escape (a UTF-8 file cannot hold one):
# only a text with such an escape is walked to find it.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE_ESCAPE_BYTES = re.compile(rb"\\u[dD][89a-fA-F]")
_LONE_SURROGATE_ESCAPE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_LONE_SURROGATE = "text with a lone surrogate (a \\uD800-\\uDFFF escape without its pair) cannot be encoded as UTF-8"


class JSONInputError(ValueError):
    """Text that is not acceptable JSON, with the line (of a document) and field where known."""

    def __init__(self, message: str, *, line: int | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.field = field


def loads(text: str, *, object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None) -> Any:
    """Parse one JSON value. Raises ValueError (json.JSONDecodeError, or JSONInputError for JSON
    nested too deeply, too large for memory, or holding a string that cannot be encoded).

    `object_pairs_hook` builds each object (to refuse duplicate keys, say); whatever it raises
    propagates."""
    if object_pairs_hook is None:
        try:  # a lone surrogate passes into the bytes, which orjson refuses: json reads them
            value = fast_loads(text.encode("utf-8", "surrogatepass"))
        except MemoryError:
            raise JSONInputError("too large to read into memory") from None
        if value is not _NOT_READ:
            return value
    decoder = _DECODER if object_pairs_hook is None else json.JSONDecoder(parse_constant=_reject_constant, object_pairs_hook=object_pairs_hook)
    try:
        value = decoder.decode(text)
    except RecursionError:
        raise JSONInputError("JSON nested too deeply to read (arrays and objects inside each other beyond the parser's limit)") from None
    except MemoryError:
        raise JSONInputError("too large to read into memory") from None
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):
        field = unencodable_field(value)
        if field is not None:
            match = _LONE_SURROGATE_ESCAPE.search(text)
            line = text.count("\n", 0, match.start()) + 1 if match else None
            raise JSONInputError(_LONE_SURROGATE, line=line, field=field)
    return value


# What orjson does not read as json does: an integer beyond 64 bits (read as a float), so a text
# with 19 digits in a row is json's (digits mapped to "0", then one search, both in C).
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
_NINETEEN_DIGITS = b"0" * 19
_NOT_READ = object()


def fast_loads(data: bytes) -> Any:
    """orjson's value of the JSON text `data`, or `_NOT_READ` when `json` must read it: orjson
    refuses it (json then reads it, as 1e400, or names the problem in its own words) or could
    read it otherwise than json (an integer of 19 digits or more). orjson refuses NaN and
    Infinity, invalid UTF-8 and lone surrogates, as core does."""
    if _NINETEEN_DIGITS in data.translate(_DIGITS_TO_ZERO):
        return _NOT_READ
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return _NOT_READ


def unencodable_field(value: Any) -> str | None:
    """The `$.path` of the first string (or key) that cannot be encoded as UTF-8, else None."""
    stack: list[tuple[Any, str]] = [(value, "$")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if not _encodable(item):
                return where
        elif isinstance(item, dict):
            for key, member in reversed(list(item.items())):
                if not _encodable(key):
                    return f"{where} (a key)"
                stack.append((member, f"{where}.{key}" if _IDENTIFIER.match(key) else f"{where}[{key!r}]"))
        elif isinstance(item, list):
            stack.extend((member, f"{where}[{index}]") for index, member in reversed(list(enumerate(item))))
    return None


def _encodable(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, in words (from its `st_mode`)."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def open_regular(path: str | Path) -> BinaryIO:
    """Open a regular file for reading in binary, or refuse without blocking.

    The path is checked with `os.stat` before it is opened (opening a FIFO or a device can block
    or act), opened with O_NONBLOCK, and checked again on the open descriptor (the path may have
    changed in between)."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise EnviroBenchError("file not found", file=path) from None
    except OSError as exc:
        raise EnviroBenchError(f"cannot read: {exc.strerror}", file=path) from None
    except ValueError:  # a NUL character: no file can have that name
        raise EnviroBenchError("not a file name (it holds a NUL character)", file=repr(str(path))) from None
    if not stat.S_ISREG(mode):
        raise EnviroBenchError(f"is {kind_of(mode)}, not a regular file", file=path)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise EnviroBenchError("file not found", file=path) from None
    except OSError as exc:
        raise EnviroBenchError(f"cannot read: {exc.strerror}", file=path) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise EnviroBenchError(f"is {kind_of(mode)}, not a regular file", file=path)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | Path, *, max_bytes: int | None = None) -> bytes:
    """A regular file's bytes (refused without blocking otherwise); at most `max_bytes`."""
    path = Path(path)
    with open_regular(path) as handle:
        try:
            if max_bytes is None:
                return handle.read()
            if os.fstat(handle.fileno()).st_size > max_bytes:
                raise EnviroBenchError(f"larger than the {_size(max_bytes)} such a file may have", file=path)
            data = handle.read(max_bytes + 1)
        except MemoryError:
            raise EnviroBenchError("too large to read into memory", file=path) from None
        except OSError as exc:
            raise EnviroBenchError(f"cannot read: {exc.strerror}", file=path) from None
    if len(data) > max_bytes:
        raise EnviroBenchError(f"larger than the {_size(max_bytes)} such a file may have", file=path)
    return data


def _size(count: int) -> str:
    return f"{count // (1 << 20)} MiB" if count >= 1 << 20 else f"{count} bytes"


def decode_text(data: bytes, *, file: str | Path | None) -> str:
    """UTF-8 bytes to text, naming the line of the first invalid byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise EnviroBenchError(f"not UTF-8 text ({exc.reason} at byte {exc.start + 1})", file=file, line=line) from None
    except MemoryError:
        raise EnviroBenchError("too large to read into memory", file=file) from None


def read_text(path: str | Path, *, max_bytes: int | None = None) -> str:
    """A regular file's UTF-8 text, refused (never blocking) as an EnviroBenchError otherwise."""
    return decode_text(read_bytes(path, max_bytes=max_bytes), file=path)


def parse_json(text: str, *, file: str | Path | None, line: int | None = None) -> Any:
    """`loads`, every failure an EnviroBenchError naming the file, the line and the field.

    `line` is the line of a JSONL file the text is; without it, the line within the text."""
    try:
        return loads(text)
    except json.JSONDecodeError as exc:
        raise EnviroBenchError(f"not valid JSON: {exc.msg} (column {exc.colno})", file=file, line=line or exc.lineno) from None
    except JSONInputError as exc:
        raise EnviroBenchError(exc.message, file=file, line=line or exc.line, field=exc.field) from None
    except ValueError as exc:
        raise EnviroBenchError(f"not valid JSON: {exc}", file=file, line=line) from None


def parse_json_bytes(data: bytes, *, file: str | Path | None) -> Any:
    """One JSON document given as bytes (a downloaded object, say), checked like `read_json`:
    orjson reads the bytes as they are (no text made first); anything else is decoded and read
    the checked way, which names the problem."""
    try:
        value = fast_loads(data)
    except MemoryError:
        raise EnviroBenchError("too large to read into memory", file=file) from None
    if value is not _NOT_READ:
        return value
    return parse_json(decode_text(data, file=file), file=file)


def read_json(path: str | Path, *, max_bytes: int | None = None) -> Any:
    """Read one JSON document, naming the file, line and field on any problem.

    A path that is not a regular file is refused without being read; `max_bytes` refuses a
    larger file before it is read."""
    path = Path(path)
    return parse_json_bytes(read_bytes(path, max_bytes=max_bytes), file=path)


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, Any]]:
    """Yield (line number, value) for each non-blank line, streaming: never the whole file.

    Lines end at LF (a CR before it is JSON whitespace); each is decoded and parsed on its own,
    so a problem names its own line."""
    path = Path(path)
    digits, many, read = _DIGITS_TO_ZERO, _NINETEEN_DIGITS, orjson.loads
    with open_regular(path) as handle:
        lineno = 0
        try:
            for lineno, raw in enumerate(handle, start=1):  # noqa: B007
                if raw.isspace():  # blank (a line read from a file is never empty)
                    continue
                # The common case inline (a run reads 100,000 lines): orjson reads the line's
                # bytes (it checks the UTF-8 itself). A line it refuses, or may read otherwise
                # than json (`fast_loads`), goes the checked way, which names the problem and
                # walks a line with a \uD8xx-\uDFxx escape for a lone surrogate.
                try:
                    if many in raw.translate(digits):
                        raise ValueError("read by json")
                    value = read(raw)
                except ValueError:  # orjson.JSONDecodeError is a ValueError
                    value = parse_json(_decode_line(raw, path, lineno), file=path, line=lineno)
                except MemoryError:
                    raise EnviroBenchError("a line too large to read into memory", file=path, line=lineno) from None
                yield lineno, value
        except MemoryError:  # reading the next line
            raise EnviroBenchError("a line too large to read into memory", file=path, line=lineno + 1) from None
        except OSError as exc:
            raise EnviroBenchError(f"cannot read: {exc.strerror}", file=path, line=lineno + 1) from None


def _decode_line(raw: bytes, path: Path, lineno: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EnviroBenchError(f"not UTF-8 text ({exc.reason} at byte {exc.start + 1} of the line)", file=path, line=lineno) from None


def dumps(value: Any, *, indent: int | None = 2) -> str:
    """Canonical JSON: sorted keys, UTF-8, a trailing newline; equal values give equal bytes."""
    if indent == 2:
        data = fast_dumps(value, _INDENTED)
        if data is not None:
            return data.decode("utf-8")
    text = json.dumps(value, indent=indent, sort_keys=True, ensure_ascii=False, allow_nan=False)
    return text + "\n"


_PASSTHROUGH = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
_INDENTED = orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE | _PASSTHROUGH
_LINE = orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE | _PASSTHROUGH
# A float orjson spells otherwise than json (a digit before e-N, or 0.0000 not after a digit).
_OTHER_FLOAT = re.compile(rb"[0-9]e-[0-9](?![0-9])|(?<![0-9])0\.0000[0-9]")


def fast_dumps(value: Any, option: int) -> bytes | None:
    """orjson's text of `value` when it is byte for byte json's (module docstring), else None:
    json writes it then, or refuses it with its own error."""
    try:
        data = orjson.dumps(value, option=option)
    except orjson.JSONEncodeError:
        return None
    if b"null" in data:  # NaN or an infinity, perhaps: json refuses those
        return None
    if (b"e-" in data or b"0.0000" in data) and _OTHER_FLOAT.search(data):
        return None
    return data


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


_COMPACT = _PASSTHROUGH


def dumps_compact(value: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)`: keys in
    their own order (not sorted). The report's embedded data."""
    data = fast_dumps(value, _COMPACT)
    if data is None:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return data.decode("utf-8")


def dumps_line(value: Any) -> str:
    """One JSONL line: sorted keys, no white space, UTF-8, a newline."""
    data = fast_dumps(value, _LINE)
    if data is not None:
        return data.decode("utf-8")
    return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write to a temporary name in the same directory, fsync, then rename: readers never see half a file."""
    _atomic_write(path, lambda handle: handle.write(data))


def atomic_write_text(path: str | Path, text: str) -> None:
    """Like atomic_write_bytes, encoding in slices so a large text is never held twice."""
    atomic_write_chunks(path, (text[start : start + _CHUNK] for start in range(0, len(text), _CHUNK)))


def atomic_write_chunks(path: str | Path, chunks: Iterable[str]) -> str:
    """Like atomic_write_text, for a text given in pieces (never joined); returns the SHA-256 of
    the bytes written, hashed as they are written (a caller that records it reads nothing back)."""
    digest = hashlib.sha256()

    def write(handle: BinaryIO) -> None:
        for chunk in chunks:
            data = chunk.encode("utf-8")
            digest.update(data)
            handle.write(data)

    _atomic_write(path, write)
    return digest.hexdigest()


def current_umask() -> int:
    """The process's umask. It can only be read by setting it: it is set to 077 for that instant,
    so a file another thread creates meanwhile is too private, never too open."""
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode of a new file: 0o666 less the umask (0644 under the usual umask 022)."""
    return 0o666 & ~current_umask()


def dir_mode() -> int:
    """The mode of a new directory: 0o777 less the umask (0755 under the usual umask 022)."""
    return 0o777 & ~current_umask()


def _atomic_write(path: str | Path, write: Callable[[BinaryIO], object]) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(fd, file_mode())  # mkstemp makes it 0600; what is written is for others to read too
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
