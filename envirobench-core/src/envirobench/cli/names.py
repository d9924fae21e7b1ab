"""Names on the command line: shell completion of benchmark, dataset, adapter and profile names,
and "did you mean" for a name that is not registered.

Completion (click's `shell_complete`) reads the registry of the installed plugins and never
prints: a plugin that fails to load completes nothing rather than spoiling the shell's line.
`with_suggestion` adds the close matches (difflib) to core's "unknown benchmark type / dataset /
adapter" messages, so every command that resolves a name says it the same way.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Iterable

import click
from click.shell_completion import CompletionItem

from ..plugins import Registry, get_registry
from ..profiles import installed_profiles


def close_matches(name: str, known: Iterable[str]) -> list[str]:
    """Up to three known names close to `name`, closest first."""
    return difflib.get_close_matches(name, sorted(set(known)), n=3, cutoff=0.6)


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """" (did you mean 'x' or 'y'?)" when some known name is close to `name`, else ""."""
    matches = close_matches(name, known)
    if not matches:
        return ""
    return " (did you mean " + " or ".join(repr(m) for m in matches) + "?)"


# core's messages: "unknown benchmark type 'x'; ...", "unknown dataset 'x': ...", "unknown adapter 'x': ..."
_UNKNOWN = re.compile(r"^unknown (benchmark type|dataset|adapter) ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")


def _known(reg: Registry, kind: str) -> list[str]:
    if kind == "benchmark type":
        return list(reg.benchmark_types)
    if kind == "dataset":
        return list(reg.datasets)
    return list(reg.adapters)


def with_suggestion(message: str, reg: Registry | None = None) -> str:
    """`message` with "(did you mean ...?)" after the unknown name it starts with, when a
    registered name of that kind is close; else `message` unchanged."""
    found = _UNKNOWN.match(message)
    if found is None:
        return message
    try:
        name = ast.literal_eval(found.group(2))
        reg = reg if reg is not None else get_registry()
    except Exception:  # a suggestion is a courtesy: never a second error
        return message
    hint = did_you_mean(name, _known(reg, found.group(1)))
    return message[: found.end()] + hint + message[found.end():] if hint else message


# -- completion ---------------------------------------------------------------------------------


def _registry() -> Registry | None:
    try:
        return get_registry()
    except Exception:
        return None


def _items(names: Iterable[str], incomplete: str, help: dict[str, str] | None = None) -> list[CompletionItem]:
    return [CompletionItem(n, help=(help or {}).get(n)) for n in sorted(set(names)) if n.startswith(incomplete)]


def complete_benchmarks(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    reg = _registry()
    return _items(reg.benchmark_types if reg else (), incomplete)


def complete_datasets(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    reg = _registry()
    return _items(reg.datasets if reg else (), incomplete)


def complete_dataset_spec(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """TYPE=DATASET: the type (--benchmark's, when given) then the registered datasets."""
    reg = _registry()
    if reg is None:
        return []
    type_id, sep, _ = incomplete.partition("=")
    if not sep:
        benchmark = ctx.params.get("benchmark")
        types = [benchmark] if benchmark else list(reg.benchmark_types)
        return _items((f"{t}=" for t in types), incomplete)
    return _items((f"{type_id}={d}" for d in reg.datasets), incomplete)


def complete_adapters(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    reg = _registry()
    return _items(reg.adapters if reg else (), incomplete)


def complete_profiles(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    try:
        found = installed_profiles()
    except Exception:
        return []
    return _items((path.parent.name for _, path in found), incomplete, {path.parent.name: plugin for plugin, path in found})


COMPLETERS = {"benchmark": complete_benchmarks, "dataset": complete_datasets, "dataset_spec": complete_dataset_spec,
              "adapter": complete_adapters, "profile": complete_profiles}
