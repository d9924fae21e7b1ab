"""Where a run on the board came from, and what that is worth.

A run directory is either a *local directory* (made here, copied, or written by hand: nothing
says more) or a *store archive*: a directory `bench restore` (`stores.transfer.restore_run`)
restored from a store, every file verified against the archive's listing, that still holds
exactly the files of that listing, each with its size and SHA-256. The restore record
(`.envirobench-restored.json`) that says so lies in the run directory like every other file: it
names the store and the listing's SHA-256 to check the claim against, it does not prove it. A
directory whose record does not read, or whose files no longer match it (rescored, edited, a
file added or removed since the restore), counts as a local directory, and says why.

Neither kind makes a row trustworthy by itself: see `TRUST_NOTE`.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from ..converter import structure
from ..errors import EnviroBenchError
from ..jsonio import parse_json_bytes, read_bytes
from ..stores.transfer import RESTORE_RECORD, RestoreRecord

LOCAL = "local-directory"
STORE = "store-archive"
KIND_LABELS = {LOCAL: "local directory", STORE: "store archive"}
MAX_RECORD_BYTES = 64 << 20  # a listing of every file of a run: far below this

TRUST_NOTE = (
    "A row is only as trustworthy as the run directories it came from. Every score here is "
    "recomputed from the run's saved predictions, but nothing here can tell a real run from a "
    "forged one: anyone can write a run directory whose predictions are the answers, recompute the "
    "sizes and SHA-256s in its run.json, and it is ranked like any other run. \"Store archive\" "
    "only says that the directory still holds exactly the files of the store archive it was "
    "restored from, every file checksum-verified at the restore; the record saying so is itself a "
    "file in the directory (check its listing's SHA-256 against the store), and a store holds "
    "whatever run was promoted to it. Only a sealed holdout, scored on a server that never hands "
    "out its answers, makes a score unforgeable: EnviroBench's is the holdout service "
    "(envirobench-holdout, docs/holdout.md), whose scores are on its own page, never on this board."
)


@attrs.frozen
class Source:
    """Where one run directory came from (`kind` LOCAL or STORE) and, for a restored one, the
    store, the archive and its listing's SHA-256; `note` says why a directory with a restore
    record still counts as a local directory."""

    kind: str
    path: Path
    store: str | None = None
    archive: str | None = None
    listing_sha256: str | None = None
    promoted: bool | None = None
    note: str | None = None

    @property
    def verified(self) -> bool:
        """The directory's files are those of the store archive it was restored from."""
        return self.kind == STORE

    @property
    def label(self) -> str:
        return KIND_LABELS[self.kind]

    def describe(self) -> str:
        """One line: "local directory", or "store archive <url> <key>, verified"."""
        if self.kind == STORE:
            return f"store archive {self.store} {self.archive}, verified (listing SHA-256 {self.listing_sha256})"
        if self.note:
            return f"local directory ({self.note})"
        return "local directory"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "path": str(self.path),
            "store": self.store,
            "archive": self.archive,
            "listing_sha256": self.listing_sha256,
            "promoted": self.promoted,
            "verified": self.verified,
            "note": self.note,
        }


def read_source(run_dir: Path) -> Source:
    """The source of a run directory: STORE only when its restore record reads and every file
    it lists is there, unchanged, and no other file is."""
    run_dir = Path(run_dir)
    where = run_dir / RESTORE_RECORD
    if not os.path.lexists(where):
        return Source(LOCAL, run_dir)
    try:
        record = structure(parse_json_bytes(read_bytes(where, max_bytes=MAX_RECORD_BYTES), file=where), RestoreRecord, file=where)
    except EnviroBenchError as exc:
        return Source(LOCAL, run_dir, note=f"its restore record does not read: {exc}")
    restored = {"store": record.store, "archive": record.archive, "listing_sha256": record.listing_sha256, "promoted": record.promoted}
    problem = _mismatch(run_dir, record)
    if problem is not None:
        return Source(LOCAL, run_dir, **restored, note=f"restored from {record.store} {record.archive}, but {problem} since")
    return Source(STORE, run_dir, **restored)


def _mismatch(run_dir: Path, record: RestoreRecord) -> str | None:
    """What differs between the directory and the record's listing (None: nothing)."""
    listed = {f.path: f for f in record.files}
    present: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(run_dir):
        dirnames.sort()
        for name in [*dirnames, *sorted(filenames)]:
            full = Path(dirpath) / name
            rel = full.relative_to(run_dir).as_posix()
            if full.is_symlink():
                return f"{rel} is a symbolic link that was not restored"
            if name in dirnames:
                continue
            if rel != RESTORE_RECORD:
                present.add(rel)
    extra = sorted(present - set(listed))
    if extra:
        return f"{_some(extra)} {'was' if len(extra) == 1 else 'were'} added"
    missing = sorted(set(listed) - present)
    if missing:
        return f"{_some(missing)} {'was' if len(missing) == 1 else 'were'} removed"
    for rel, entry in sorted(listed.items()):
        size, digest = _size_and_sha256(run_dir / rel)
        if size != entry.size or digest != entry.sha256:
            return f"{rel} was changed"
    return None


def _size_and_sha256(path: Path) -> tuple[int | None, str | None]:
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None, None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, None
        digest, size = hashlib.sha256(), 0
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
            size += len(chunk)
        return size, digest.hexdigest()
    finally:
        os.close(fd)


def _some(paths: list[str], limit: int = 3) -> str:
    shown = ", ".join(paths[:limit])
    return shown + (f" and {len(paths) - limit} more" if len(paths) > limit else "")


def summarize(sources: Iterable[Source]) -> dict[str, Any]:
    """The sources of a row's runs: `kind` is LOCAL or STORE when all of them are that, "mixed"
    when they differ, None when the row has no run; `runs` counts them by kind."""
    counts = Counter(source.kind for source in sources)
    kind = None if not counts else next(iter(counts)) if len(counts) == 1 else "mixed"
    return {"kind": kind, "runs": {k: counts.get(k, 0) for k in (LOCAL, STORE)}}


def describe_summary(summary: dict[str, Any]) -> str:
    """A row's sources in words: "local directory", "store archive, verified", "mixed: ..."."""
    kind, runs = summary["kind"], summary["runs"]
    if kind is None:
        return "—"
    if kind == STORE:
        return "store archive, verified"
    if kind == LOCAL:
        return "local directory"
    return "mixed: " + ", ".join(f"{runs[k]} {KIND_LABELS[k]}" for k in (LOCAL, STORE) if runs[k])
