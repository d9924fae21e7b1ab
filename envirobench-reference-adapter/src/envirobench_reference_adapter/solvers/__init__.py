"""The adapter's solvers: one module in this package per benchmark type it answers.

Every module here is a solver and declares, at module level:

- `SERVES`, a `serves.Serves`: the benchmark type it solves (`table-separators`, each ID in one
  module only), its variants and its default; the protocol layer resolves the `variant` option
  (an alias too) against it once per run, so `solve` gets a variant's name;
- `solve(input, sources, variant, jitter=None)`: the prediction, as JSON-ready data. `input` is
  the case's input structured by core's converter into the type's `Input` record (the adapter
  kit does it, with the type's published class); `sources` maps each file the type says the case
  reads (input-directory-relative) to its checked path; `jitter`, a numpy Generator or None,
  perturbs the pixels it reads (see the `jitter` option).

No solver parses or checks its input: the kit refuses a malformed one before any case runs, and
what a solver derives from the record (database-listings' address parts, say) it derives in
`solve`. A solver reads the record's fields by name (`case_input.document`) without importing
its class (see below); `site_record.case` describes the record the four site types share.

`discover()` finds them with `pkgutil.iter_modules`, so adding a type to the adapter is adding
one module here. Code shared by several solvers lives beside this package (`layout`, `ocr`,
`pdftext`, `quantities`, `results_tables`, `site_record`), not in it.

A solver reads the case's own input only: none of them imports a category package (the adapter
is the system under test and must not reach a dataset's answer key).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from envirobench import EnviroBenchError

from ..serves import Serves

FUNCTIONS = ("solve",)


def discover(package: str = __name__) -> dict[str, ModuleType]:
    """Benchmark ID -> solver module, for every module of `package`, checked.

    A module without SERVES (or any other part of the contract), or two modules serving the same
    benchmark type, is an EnviroBenchError: a solver that is silently skipped would make the
    adapter refuse its benchmark with no word of why."""
    root = importlib.import_module(package)
    solvers: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(root.__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{package}.{info.name}")
        check_solver(module)
        benchmark_id = module.SERVES.benchmark
        other = solvers.get(benchmark_id)
        if other is not None:
            raise EnviroBenchError(
                f"solvers {other.__name__} and {module.__name__} both serve {benchmark_id!r}; one module per benchmark type"
            )
        solvers[benchmark_id] = module
    return solvers


def check_solver(module: ModuleType) -> None:
    """Raise EnviroBenchError unless `module` declares everything a solver must."""
    where = f"solver module {module.__name__}"
    missing = [] if isinstance(getattr(module, "SERVES", None), Serves) else ["SERVES"]
    missing += [name for name in FUNCTIONS if not callable(getattr(module, name, None))]
    if missing:
        raise EnviroBenchError(f"{where} lacks {', '.join(missing)}; every module in {__name__} is a solver (see its docstring)")
