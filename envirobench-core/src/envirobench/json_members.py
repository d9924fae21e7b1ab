"""A large JSON document read member by member: a compared run's metrics.json (hundreds of
megabytes at 100,000 cases) is never one tree, nor, read from its file, one text in memory.

The reader of what `jsonio.stream_document` writes; split from jsonio.py, which reads and writes
whole documents and lines (and is pinned by the regeneration stamps: datasets never use this).
Values are read by json's decoder, as jsonio's checked reader does: NaN refused, json's errors.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable
from typing import Any, BinaryIO

from .jsonio import _DECODER, JSONInputError

_SPACE = re.compile(r"[ \t\n\r]*")


def read_document_members(text: str, key: str, on_member: Callable[[str, Any], None]) -> dict[str, Any]:
    """Read the JSON object `text` with its member `key` (an object) given to `on_member(name,
    value)` one member at a time instead of kept: the other members are returned. The reader of
    `stream_document`'s output: a compared run's 500 MB metrics.json is never one tree in memory.
    ValueError when the text is not such an object (a duplicate key included)."""
    return _read_members(_Window(text), key, on_member)


def read_file_members(handle: BinaryIO, key: str, on_member: Callable[[str, Any], None], digest: Any) -> dict[str, Any]:
    """`read_document_members` of a UTF-8 file read a window at a time (a few megabytes of its
    text in memory, never the whole), every byte of it also given to `digest` (a hashlib object),
    to the file's end even when it is refused: the caller can tell a changed file from a
    malformed one."""
    window = _Window("", handle.read, digest)
    try:
        return _read_members(window, key, on_member)
    finally:
        window.drain()


_WINDOW = 1 << 22  # characters of a file's text held ahead of the member being read


class _Window:
    """A document's text: whole (`read` None), or a window of a binary file's text from the
    member being read on, refilled from the file as members are read. Positions are in `text`;
    `ahead` returns a position's new place when it refills. No reference back to the readers
    (core pauses the cyclic collector during a run: a cycle would keep the text alive)."""

    __slots__ = ("_decoder", "_read", "digest", "done", "text")

    def __init__(self, text: str, read: Callable[[int], bytes] | None = None, digest: Any = None) -> None:
        self.text = text
        self._read = read
        self.done = read is None
        self.digest = digest
        self._decoder = codecs.getincrementaldecoder("utf-8")()

    def ahead(self, at: int, size: int | None = None) -> int:
        """Make `text` hold at least `size` (`_WINDOW`) characters from `at` on (or the rest of
        the file), dropping what is before `at`; returns the new place of `at`."""
        size = size or _WINDOW
        if self.done or len(self.text) - at >= size:
            return at
        parts, held = [self.text[at:]], len(self.text) - at
        while held < size and not self.done:
            data = self._read(max(size - held, _WINDOW))
            self.digest.update(data)
            self.done = not data
            parts.append(self._decoder.decode(data, final=self.done))  # UnicodeDecodeError is a ValueError
            held += len(parts[-1])
        self.text = "".join(parts)
        return 0

    def drain(self) -> None:
        """Read the rest of the file into the digest (not the text)."""
        while not self.done:
            data = self._read(_WINDOW)
            self.digest.update(data)
            self.done = not data


def _read_members(window: _Window, key: str, on_member: Callable[[str, Any], None]) -> dict[str, Any]:
    # Plain functions, no closure that refers to itself: such a cycle would keep the text alive
    # until the cyclic collector runs, which core pauses during a run (`gc_paused`).
    rest: dict[str, Any] = {}
    found: list[str] = []

    def member(name: str, at: int) -> int:
        value, at = _decode_value(window, at)
        on_member(name, value)
        return at

    def top(name: str, at: int) -> int:
        if name == key:
            found.append(name)
            return _object_members(window, at, member)
        rest[name], at = _decode_value(window, at)
        return at

    end = _skip_space(window, _object_members(window, 0, top))  # only white space may follow
    if end != len(window.text):
        raise ValueError(f"extra data at character {end}")
    if not found:
        raise ValueError(f"no object member {key!r}")
    return rest


def _skip_space(window: _Window, at: int) -> int:
    """The position after the white space at `at`, read on past the window's end if need be."""
    at = _SPACE.match(window.text, at).end()  # type: ignore[union-attr]
    while at == len(window.text) and not window.done:
        at = window.ahead(at)  # (before the text is looked up: it is a new text then)
        at = _SPACE.match(window.text, at).end()  # type: ignore[union-attr]
    return at


def _decode_value(window: _Window, at: int, read: Callable[[str, int], tuple[Any, int]] = _DECODER.raw_decode) -> tuple[Any, int]:
    """The JSON value (or, with `read` scanstring, the string) at `at` and the position after
    it; one longer than the window held ahead is read again with a window twice as long (until
    the file's end)."""
    size = _WINDOW
    while True:
        try:
            value, end = read(window.text, at)
            if end < len(window.text) or window.done:  # (a number at the window's end may go on)
                return value, end
        except RecursionError:
            raise JSONInputError("JSON nested too deeply to read") from None
        except ValueError:
            if window.done:
                raise
        size *= 2
        at = window.ahead(at, size)


def _object_members(window: _Window, at: int, value_at: Callable[[str, int], int]) -> int:
    """Parse the object starting at `at` (after spaces): for each member, `value_at(name, index of
    its value)` reads the value and returns the index after it. Returns the index after '}'.
    Each member starts with a window of text ahead (`_Window.ahead`): the positions move then."""
    at = _skip_space(window, window.ahead(at))
    if window.text[at : at + 1] != "{":
        raise ValueError(f"expected '{{' at character {at}")
    at = _skip_space(window, at + 1)
    if window.text[at : at + 1] == "}":
        return at + 1
    seen: set[str] = set()
    while True:
        at = window.ahead(at)
        if window.text[at : at + 1] != '"':
            raise ValueError(f"expected a key at character {at}")
        name, at = _decode_value(window, at + 1, json.decoder.scanstring)
        if name in seen:
            raise ValueError(f"duplicate key {name!r} at character {at}")
        seen.add(name)
        at = _skip_space(window, at)
        if window.text[at : at + 1] != ":":
            raise ValueError(f"expected ':' at character {at}")
        at = _skip_space(window, value_at(name, _skip_space(window, at + 1)))
        if window.text[at : at + 1] == "}":
            return at + 1
        if window.text[at : at + 1] != ",":
            raise ValueError(f"expected ',' or '}}' at character {at}")
        at = _skip_space(window, at + 1)
