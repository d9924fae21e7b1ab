"""The jinja2 environment of core's own templates (`templates/`: report.html, summary.md and the
leaderboard page): strict about undefined names, escaping HTML and leaving Markdown as written."""

from __future__ import annotations

import contextlib
import os
import stat
from typing import Any

import jinja2
import jinja2.bccache

from . import statistics


def fmt(value: Any) -> str:
    """A number as the pages show it: four decimals for a float, n/a for nothing."""
    return "n/a" if value is None else (f"{value:.4f}" if isinstance(value, float) else str(value))


def is_count(*values: Any) -> bool:
    """Whether a metric is a count, shown as whole numbers: every value given (its value in each
    compared run, its interval's ends) is whole and one is above 1 (a rate of 0 or 1 keeps its
    decimals: 1.0000 is an accuracy, 200 is a number of documents)."""
    numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    return bool(numbers) and all(float(v).is_integer() for v in numbers) and any(abs(v) > 1 for v in numbers)


def metric_is_count(m: Any, name: str) -> bool:
    """`is_count` for one headline metric of a profile's metrics (metrics.json's ProfileMetrics)."""
    interval = (m.intervals or {}).get(name)
    values = [(m.headline or {}).get(name), (m.baseline_headline or {}).get(name)]
    values += [(h or {}).get(name) for h in (m.controls_headline or {}).values()]
    return is_count(*values, *(() if interval is None else (interval.low, interval.high)))


def format_number(value: Any, count: bool = False) -> str:
    """A number as the pages show it (`fmt`), a count as a whole number."""
    if count and isinstance(value, int | float) and not isinstance(value, bool):
        return f"{round(value):d}"
    return fmt(value)


def format_signed(value: Any, count: bool = False) -> str:
    if value is None:
        return ""
    return f"{round(value):+d}" if count else f"{value:+.4f}"


def format_interval(interval: Any, signed: bool = False, count: bool = False) -> str:
    """`statistics.format_interval`, a count's as whole numbers; nothing for a count's interval
    that is only its value again ("200 [200, 200]" says no more than "200")."""
    if interval is None or not count:
        return statistics.format_interval(interval, signed=signed)
    if interval.low == interval.high and not signed:
        return ""
    spec = "+d" if signed else "d"
    return f" [{round(interval.low):{spec}}, {round(interval.high):{spec}}]"


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
