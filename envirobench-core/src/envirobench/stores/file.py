"""The `file` store: a local (or mounted) directory, the embedded default.

An object is a read-only file at `ROOT/KEY`. An upload is written to a hidden temporary name in
the same directory, verified, and then hard-linked to its final name: a link never replaces an
existing file, so two uploads racing for one key cannot overwrite each other, and an
interrupted upload leaves only a hidden temporary file that is never listed.

A file store holds regular files and directories only: a key that is, or passes through, a
symbolic link is refused by every operation and never listed (a link would hand out, or write
to, whatever it points at).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from ..errors import EnviroBenchError
from ..jsonio import open_regular
from . import (
    UPLOAD_PREFIX,
    ChecksumMismatch,
    ObjectConflict,
    ObjectNotFound,
    Source,
    StoreError,
    check_key,
    check_sha256,
    check_visibility,
    fsync_dir,
    iter_chunks,
    link_no_replace,
    open_source,
    sha256_file,
    write_verified,
)


class FileStore:
    """Objects as files under one directory."""

    def __init__(self, root: str | Path, visibility: str, *, url: str | None = None) -> None:
        self.root = Path(root)
        if not self.root.is_absolute():
            raise StoreError(f"a file store needs an absolute directory, not {str(root)!r}")
        self.visibility = check_visibility(visibility, where=f"file store {self.root}")
        self.url = url or self.root.as_uri()

    @classmethod
    def from_url(cls, url: str, visibility: str) -> FileStore:
        parts = urlsplit(url)
        if parts.scheme != "file":
            raise StoreError(f"not a file URL: {url!r}")
        options = dict(parse_qsl(parts.query))
        if options:
            raise StoreError(f"file stores take no options, got {', '.join(sorted(options))} in {url!r}")
        root = Path(unquote(parts.path))
        return cls(root, visibility, url=root.as_uri())

    def __repr__(self) -> str:
        return f"FileStore({str(self.root)!r}, {self.visibility!r})"

    def _path(self, key: str) -> Path:
        check_key(key)
        if self.root.exists() and not self.root.is_dir():
            raise StoreError(f"the file store {self.url} is not a directory")
        current = self.root
        for part in key.split("/"):
            current = current / part
            try:
                mode = os.lstat(current).st_mode
            except (FileNotFoundError, NotADirectoryError):
                break
            if stat.S_ISLNK(mode):
                where = current.relative_to(self.root).as_posix()
                raise StoreError(f"{self.url}: {key!r} is, or passes through, the symbolic link {where!r}; a file store holds regular files only")
        return self.root / key

    def put(self, key: str, source: Source, sha256: str) -> bool:
        check_sha256(sha256, key=key)
        final = self._path(key)
        if final.exists():
            return self._same(final, key, sha256)
        final.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=UPLOAD_PREFIX, dir=final.parent)
        tmp = Path(tmp_name)
        try:
            digest = hashlib.sha256()
            with os.fdopen(fd, "wb") as out, open_source(source) as handle:
                for chunk in iter_chunks(handle):
                    digest.update(chunk)
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            actual = digest.hexdigest()
            if actual != sha256:
                raise ChecksumMismatch(f"{self.url}: the bytes for {key!r} have SHA-256 {actual}, expected {sha256}; nothing was stored")
            os.chmod(tmp, 0o444)  # stored objects are not edited in place either
            if not link_no_replace(tmp, final):
                return self._same(final, key, sha256)
            fsync_dir(final.parent)
            return True
        finally:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()

    def _same(self, final: Path, key: str, sha256: str) -> bool:
        if not final.is_file():
            raise ObjectConflict(f"{self.url}: {key!r} is taken by something that is not a file")
        actual = sha256_file(final)
        if actual != sha256:
            raise ObjectConflict(
                f"{self.url}: {key!r} already holds different bytes (SHA-256 {actual}, this upload {sha256}); "
                "a stored object is never replaced"
            )
        return False

    def get(self, key: str, dest: Path, sha256: str | None) -> str:
        source = self._path(key)
        if not source.exists() or source.is_dir():
            raise ObjectNotFound(f"{self.url}: no object {key!r}")
        try:
            handle = open_regular(source)  # never blocks on a FIFO or a device put in its place
        except EnviroBenchError as exc:
            raise StoreError(f"{self.url}: {key!r} {exc.message}") from None
        with handle:
            return write_verified(iter_chunks(handle), Path(dest), sha256, what=f"{self.url} {key!r}")

    def exists(self, key: str) -> bool:
        return self._path(key).is_file()

    def list(self, prefix: str = "") -> list[str]:
        if not self.root.is_dir():
            return []
        # Walk only the directory the prefix names, not the whole store.
        head = prefix.rpartition("/")[0]
        start = self.root / head if head else self.root
        if head and (".." in head.split("/") or not start.is_dir()):
            return []
        keys = []
        for dirpath, dirnames, filenames in os.walk(start):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(UPLOAD_PREFIX))
            for name in filenames:
                if name.startswith(UPLOAD_PREFIX):
                    continue
                full = Path(dirpath) / name
                if full.is_symlink() or not full.is_file():
                    continue
                key = full.relative_to(self.root).as_posix()
                if key.startswith(prefix):
                    keys.append(key)
        return sorted(keys)
