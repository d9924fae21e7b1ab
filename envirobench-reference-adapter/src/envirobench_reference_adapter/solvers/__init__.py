"""The adapter's solvers: one module in this package per benchmark type it answers.

Every module here is a solver and declares, at module level:

- `BENCHMARK_ID`: the benchmark type it solves (`table-separators`), each ID in one module only;
- `FORMAT`: the type's prediction format (`envirobench.table-separators.v1`);
- `VARIANTS`, `VARIANT_ALIASES` (alias -> variant) and `DEFAULT_VARIANT`;
- `parse_input(raw, where)`: the case's input, checked strictly (ValueError naming the field);
- `source_files(input)`: the input-directory-relative files the case reads;
- `solve(input, sources, variant, jitter=None)`: the prediction, as JSON-ready data (`jitter`, a
  numpy Generator or None, perturbs the pixels it reads; see the `jitter` option);
- optionally `PER_CASE_USAGE = True` (site-tier types, where one case is a whole site): the
  adapter result then reports each case's cost (0) and wall time, which core shows per site.

`discover()` finds them with `pkgutil.iter_modules`, so adding a type to the adapter is adding
one module here. Code shared by several solvers lives beside this package (`layout`, `ocr`,
`pdftext`, `quantities`, `results_tables`, `inputs`), not in it.

A solver reads the case's own input only: none of them imports a category package (the adapter
is the system under test and must not reach a dataset's answer key).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from envirobench import EnviroBenchError

CONSTANTS = ("BENCHMARK_ID", "FORMAT", "VARIANTS", "VARIANT_ALIASES", "DEFAULT_VARIANT")
FUNCTIONS = ("parse_input", "source_files", "solve")


def discover(package: str = __name__) -> dict[str, ModuleType]:
    """Benchmark ID -> solver module, for every module of `package`, checked.

    A module without BENCHMARK_ID (or any other part of the contract), or two modules with the
    same BENCHMARK_ID, is an EnviroBenchError: a solver that is silently skipped would make the
    adapter refuse its benchmark with no word of why."""
    root = importlib.import_module(package)
    solvers: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(root.__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{package}.{info.name}")
        check_solver(module)
        other = solvers.get(module.BENCHMARK_ID)
        if other is not None:
            raise EnviroBenchError(
                f"solvers {other.__name__} and {module.__name__} both declare BENCHMARK_ID {module.BENCHMARK_ID!r}; "
                "one module per benchmark type"
            )
        solvers[module.BENCHMARK_ID] = module
    return solvers


def check_solver(module: ModuleType) -> None:
    """Raise EnviroBenchError unless `module` declares everything a solver must."""
    where = f"solver module {module.__name__}"
    missing = [name for name in CONSTANTS if not hasattr(module, name)]
    missing += [name for name in FUNCTIONS if not callable(getattr(module, name, None))]
    if missing:
        raise EnviroBenchError(f"{where} lacks {', '.join(missing)}; every module in {__name__} is a solver (see its docstring)")
    for name in ("BENCHMARK_ID", "FORMAT", "DEFAULT_VARIANT"):
        value = getattr(module, name)
        if not isinstance(value, str) or not value:
            raise EnviroBenchError(f"{where}: {name} must be a non-empty string, not {value!r}")
    variants = tuple(module.VARIANTS)
    if not variants or not all(isinstance(v, str) and v for v in variants):
        raise EnviroBenchError(f"{where}: VARIANTS must name at least one variant")
    if module.DEFAULT_VARIANT not in variants:
        raise EnviroBenchError(f"{where}: DEFAULT_VARIANT {module.DEFAULT_VARIANT!r} is not one of VARIANTS ({', '.join(variants)})")
    for alias, variant in dict(module.VARIANT_ALIASES).items():
        if alias in variants or variant not in variants:
            raise EnviroBenchError(f"{where}: VARIANT_ALIASES maps {alias!r} to {variant!r}; an alias must name one of VARIANTS and not be one")
