"""The jinja2 environment of core's own templates (`templates/`: report.html, summary.md and the
leaderboard page): strict about undefined names, escaping HTML and leaving Markdown as written."""

from __future__ import annotations

import contextlib
import os
import stat
from typing import Any

import jinja2
import jinja2.bccache


def fmt(value: Any) -> str:
    """A number as the pages show it: four decimals for a float, n/a for nothing."""
    return "n/a" if value is None else (f"{value:.4f}" if isinstance(value, float) else str(value))


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Compiled templates kept between commands: compiling report.html.j2 and summary.md.j2 costs
    about 0.2 s of CPU in every run (docs/performance.md, "Side by side with inspect_ai"). Each
    entry is keyed by the template's name and file and checked against its source (and the
    Python version), so an edited template is compiled again. A cache that cannot be written is
    no error: the template is compiled."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """The cache in the user's cache directory ($XDG_CACHE_HOME or ~/.cache, then
    envirobench/templates), made private (0700) and used only if this user owns it and no one
    else can write it: what is read from it is run as code. Not in the temporary directory, where
    a run leaves nothing behind. None where no such directory can be had."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):
        return None
    directory = os.path.join(base, "envirobench", "templates")
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        found = os.lstat(directory)
        if found.st_uid != os.getuid() or not stat.S_ISDIR(found.st_mode):
            return None
        if stat.S_IMODE(found.st_mode) != 0o700:
            os.chmod(directory, 0o700)
        return _BytecodeCache(directory)
    except OSError:
        return None


def environment(*, html: bool) -> jinja2.Environment:
    """HTML templates are autoescaped; Markdown ones are not (their callers escape what they insert)
    and keep their trailing newline."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("envirobench", "templates"),
        autoescape=html,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=not html,
        trim_blocks=True,
        lstrip_blocks=True,
        bytecode_cache=_bytecode_cache(),
    )
    env.filters["fmt"] = fmt
    return env
