"""What core asks of the operating system beyond Python's standard library (Linux).

- `exchange_paths`: swap two directories in one step (renameat2 RENAME_EXCHANGE), so a rescore
  replaces a run's outputs all at once (outputs.py).
- `set_child_subreaper`: make this process adopt its orphaned descendants (prctl), so an adapter's
  process that escaped with setsid still dies with it (sandbox.py).
- `remove_unlocked`: remove scratch directories that no living process holds a lock on: the
  workspaces and rescore directories a killed run left behind. Each is locked (flock) while in use.
- `lock_if_free`, `is_locked`, `lock_directory`: that directory lock, probed or held (the probe
  serves `remove_unlocked` here and salvage.py's search for interrupted runs alike).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_PR_SET_CHILD_SUBREAPER, _PR_GET_CHILD_SUBREAPER = 36, 37
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:  # pragma: no cover - not Linux
        return None


LIBC = _libc()


def exchange_paths(a: Path, b: Path) -> bool:
    """Swap two directories atomically (renameat2 RENAME_EXCHANGE); False where unsupported."""
    renameat2 = getattr(LIBC, "renameat2", None)
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EPERM):
        return False
    raise OSError(code, os.strerror(code), str(a), None, str(b))


def set_child_subreaper(on: bool) -> bool:
    """Make this process a child subreaper (or not); returns whether it was one before."""
    if LIBC is None:  # pragma: no cover - not Linux
        return False
    was = ctypes.c_int(0)
    LIBC.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(was), 0, 0, 0)
    LIBC.prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)
    return bool(was.value)


def remove_unlocked(parent: str | Path, prefix: str, remove: Callable[[Path], object], *, older_than_s: float = 0.0, own_only: bool = False) -> None:
    """Call `remove` on each directory in `parent` whose name starts with `prefix` and that no
    process holds a lock on (`flock`), optionally only those older than `older_than_s` seconds
    and owned by this user. Links are never followed; an unreadable entry is left alone."""
    with contextlib.suppress(OSError), os.scandir(parent) as entries:
        for entry in entries:
            if not entry.name.startswith(prefix):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if not stat.S_ISDIR(info.st_mode) or (own_only and info.st_uid != os.geteuid()):
                continue
            if older_than_s and time.time() - info.st_mtime < older_than_s:
                continue
            with lock_if_free(entry.path) as free:
                if free:  # removed while this process holds the lock, so no run can take it meanwhile
                    remove(Path(entry.path))


@contextlib.contextmanager
def lock_if_free(path: str | Path) -> Iterator[bool]:
    """Take the directory's lock (flock) without waiting and hold it for the `with` body: yields
    True when it was free, False when a living process holds it or the directory cannot be
    opened (an unreadable directory counts as held, so nothing removes it). Links are not followed."""
    try:
        fd = os.open(path, _DIR_FLAGS)
    except OSError:
        yield False
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False  # a living process holds it
        else:
            yield True
    finally:
        os.close(fd)


def is_locked(path: str | Path) -> bool:
    """Whether a living process holds the directory's lock (a run being made holds its staging
    directory's); an unreadable directory counts as held, so nothing removes it."""
    with lock_if_free(path) as free:
        return not free


def lock_directory(path: str | Path) -> int:
    """Hold `path`'s lock while a run is made in it (released when the descriptor is closed)."""
    fd = os.open(path, _DIR_FLAGS)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd
