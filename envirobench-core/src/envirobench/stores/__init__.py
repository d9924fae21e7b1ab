"""Object stores: where datasets and promoted runs are kept.

A store is named by a URL with a visibility (`file:///abs/dir`, `file:relative/dir`,
`s3://bucket/prefix?visibility=public`) or by a name configured in a small TOML file (see
`config.py` and docs/stores.md). Schemes come from plugins through the `envirobench_stores` hook;
core registers `file` and `s3` itself.

Every store keeps three promises:

- `put` verifies the bytes against the SHA-256 the caller states before anything becomes
  visible, and an upload that is interrupted leaves no visible object;
- an existing object is never replaced: the same bytes again are a no-op, different bytes are
  refused (`ObjectConflict`);
- nothing ever deletes: the protocol has no delete, and no store calls one.

`get` verifies what it downloads and writes it atomically, never over an existing file.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO, Protocol, runtime_checkable

# Re-exported: the stores hash files with the authoring layer's sha256_file, as generators do.
from ..authoring import sha256_file as sha256_file
from ..errors import EnviroBenchError
from ..jsonio import file_mode, open_regular, read_bytes

PUBLIC = "public"
PRIVATE = "private"
VISIBILITIES = (PUBLIC, PRIVATE)
#: Temporary names a store or a download uses; never part of a key, never listed.
UPLOAD_PREFIX = ".envirobench-upload-"
DOWNLOAD_PREFIX = ".envirobench-download-"
CHUNK = 1 << 20
_SHA256 = re.compile(r"^[0-9a-f]{64}$")

#: What `put` uploads: a file, bytes, or a readable binary file object (read once, from its
#: current position to the end).
Source = Path | bytes | BinaryIO


class StoreError(EnviroBenchError):
    """A store refused an operation or could not be reached."""


class Refused(StoreError):
    """A visibility rule forbids the operation (a private dataset to a public store, ...)."""


class ObjectNotFound(StoreError):
    """No object under that key."""


class ObjectConflict(StoreError):
    """An object with different bytes already holds the key; stored objects are never replaced."""


class ChecksumMismatch(StoreError):
    """Bytes did not match the SHA-256 they should have: nothing was stored or written."""


@runtime_checkable
class Store(Protocol):
    """What core needs from a store. Keys are relative POSIX paths (`datasets/x/v1/.../cases.jsonl`)."""

    #: How the store is shown in messages (never holds credentials).
    url: str
    #: `public` or `private`.
    visibility: str

    def put(self, key: str, source: Source, sha256: str) -> bool:
        """Upload `source` under `key` if its SHA-256 is `sha256`.

        Returns True when the object was written, False when the identical object was already
        there. Raises ChecksumMismatch (nothing stored) or ObjectConflict (different bytes are
        stored under the key; they stay).
        """
        ...

    def get(self, key: str, dest: Path, sha256: str | None) -> str:
        """Download `key` to the new file `dest`, verified against `sha256`; return its SHA-256.

        `sha256=None` is only for objects the caller verifies by their content (a dataset
        manifest is checked against the digest in its key). Raises ObjectNotFound,
        ChecksumMismatch (nothing written) or StoreError when `dest` exists.
        """
        ...

    def exists(self, key: str) -> bool: ...

    def list(self, prefix: str = "") -> list[str]:
        """Every key starting with `prefix`, sorted."""
        ...


def check_visibility(value: str, *, where: str) -> str:
    if value not in VISIBILITIES:
        raise StoreError(f"{where}: visibility must be 'public' or 'private', not {value!r}")
    return value


def check_key(key: str) -> str:
    """A key is a relative POSIX path with no empty, '.' or '..' segment and no temporary name."""
    if not isinstance(key, str) or not key or key.startswith("/") or "\\" in key or "\x00" in key:
        raise StoreError(f"invalid store key {key!r}: it must be a relative POSIX path")
    for part in key.split("/"):
        if part in ("", ".", ".."):
            raise StoreError(f"invalid store key {key!r}: empty, '.' or '..' segment")
        if part.startswith((UPLOAD_PREFIX, DOWNLOAD_PREFIX)):
            raise StoreError(f"invalid store key {key!r}: {part!r} is a reserved temporary name")
    return key


def join_key(*parts: str) -> str:
    return check_key("/".join(p.strip("/") for p in parts if p.strip("/")))


def check_sha256(value: str | None, *, key: str = "") -> str:
    if not isinstance(value, str) or not _SHA256.match(value):
        raise StoreError(f"{key + ': ' if key else ''}expected a SHA-256 as 64 lowercase hex digits, got {value!r}")
    return value


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@contextlib.contextmanager
def open_source(source: Source) -> Iterator[BinaryIO]:
    """A readable binary handle for whatever `put` was given."""
    if isinstance(source, bytes | bytearray | memoryview):
        yield io.BytesIO(bytes(source))
    elif isinstance(source, str | os.PathLike):
        path = Path(source)
        try:
            handle = open_regular(path)  # refuses a FIFO, a socket or a device without blocking
        except EnviroBenchError as exc:
            raise StoreError(f"file to upload: {exc.message}", file=path) from None
        with handle:
            yield handle
    elif hasattr(source, "read"):
        yield source  # the caller owns it
    else:
        raise StoreError(f"cannot upload a {type(source).__name__}: give a path, bytes or a binary file object")


def iter_chunks(handle: BinaryIO) -> Iterator[bytes]:
    while chunk := handle.read(CHUNK):
        yield chunk


def fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def link_no_replace(tmp: Path, final: Path) -> bool:
    """Give the complete file `tmp` the name `final` unless `final` exists; True when it did.

    A hard link fails when the target exists, so an object is never replaced (os.rename would
    silently replace it). Where links are unsupported, fall back to an existence check and
    rename (a narrow race, never a partial file).
    """
    try:
        os.link(tmp, final)
        return True
    except FileExistsError:
        return False
    except OSError:
        if final.exists() or final.is_symlink():
            return False
        os.rename(tmp, final)
        return True


def write_verified(chunks: Iterable[bytes], dest: Path, sha256: str | None, *, what: str) -> str:
    """Write `chunks` to the new file `dest` atomically, verified against `sha256`.

    The bytes go to a temporary name beside `dest`; only when complete and verified do they get
    the name `dest`. An existing `dest` is never replaced. Returns the SHA-256 written.
    """
    if sha256 is not None:
        check_sha256(sha256, key=what)
    dest = Path(dest)
    if dest.exists() or dest.is_symlink():
        raise StoreError(f"will not download {what} over the existing file {dest}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=DOWNLOAD_PREFIX, dir=dest.parent)
    os.fchmod(fd, file_mode())  # a downloaded file is the user's, as readable as any they write
    tmp = Path(tmp_name)
    try:
        digest = hashlib.sha256()
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                digest.update(chunk)
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        actual = digest.hexdigest()
        if sha256 is not None and actual != sha256:
            raise ChecksumMismatch(f"{what} has SHA-256 {actual}, expected {sha256}: the stored object is corrupted or was altered; nothing was written")
        if not link_no_replace(tmp, dest):
            raise StoreError(f"will not download {what} over the existing file {dest}")
        fsync_dir(dest.parent)
        return actual
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def read_object(store: Store, key: str, sha256: str | None, *, max_bytes: int | None = None) -> bytes:
    """A small object's bytes, verified like `get` (through a private temporary directory);
    one larger than `max_bytes` is refused before it is read into memory."""
    with tempfile.TemporaryDirectory(prefix="envirobench-object-") as tmp:
        dest = Path(tmp) / "object"
        store.get(key, dest, sha256)
        try:
            return read_bytes(dest, max_bytes=max_bytes)
        except EnviroBenchError as exc:
            raise StoreError(f"{store.url}: object {key!r}: {exc.message}") from None


def describe(store: Store) -> str:
    return f"{store.url} ({store.visibility})"
