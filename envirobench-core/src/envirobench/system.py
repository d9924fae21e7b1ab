"""What core asks of the operating system beyond Python's standard library (Linux).

- `exchange_paths`: swap two directories in one step (renameat2 RENAME_EXCHANGE), so a rescore
  replaces a run's outputs all at once (outputs.py).
- `set_child_subreaper`: make this process adopt its orphaned descendants (prctl), so an adapter's
  process that escaped with setsid still dies with it (sandbox.py).
- `remove_unlocked`: remove scratch directories that no living process holds a lock on: the
  workspaces and rescore directories a killed run left behind. Each is locked (flock) while in use.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import stat
import time
from collections.abc import Callable
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
                if not stat.S_ISDIR(info.st_mode) or (own_only and info.st_uid != os.geteuid()):
                    continue
                if older_than_s and time.time() - info.st_mtime < older_than_s:
                    continue
                fd = os.open(entry.path, _DIR_FLAGS)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # a living process holds it
            else:
                remove(Path(entry.path))
            finally:
                os.close(fd)
