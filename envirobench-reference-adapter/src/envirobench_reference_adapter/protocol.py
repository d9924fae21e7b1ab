"""The reference adapter on the adapter kit (`envirobench-adapter-kit`, protocol `envirobench.adapter.v1`).

The kit reads and checks the request (format, budget, each case's input structured by the
type's `Input` record, each source path inside the input directory), runs the cases, validates
each prediction against the type's `Prediction` before writing it, and writes `progress.jsonl`,
`predictions.json`, `kit-report.json` (each case's status, wall time and failure) and
`adapter-result.json` (each case's cost, always 0, and wall time, which core shows per site for
the site-tier types). This module adds what is the reference adapter's own:

- one predict function per solver (a module of `solvers`), registered for the benchmark type it
  declares;
- its options, checked for the requested type before any case starts: `variant` (a name or an
  alias the solver's `SERVES` declares, resolved here once for the run; `default`, the
  option's default, is an alias every solver has)
  and `jitter=SEED` (perturb each image to emulate run-to-run variation; empty: none).

A case that cannot be processed (an unreadable or missing image, say) does not stop the run: the
kit counts it in `execution_failures` and leaves it out of `predictions.json` rather than giving
it an empty prediction, which could be scored; the reference system never makes up an answer it
did not compute. The solvers read only the files the kit resolved under the input directory.

Cases run one at a time by default (`max_concurrency=1`): the solvers keep the OCR engine and
page renderings in module-level caches that are not made for threads, and a site case already
keeps a core busy; `--max-concurrency` is the kit's if a user wants more.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

import numpy as np

from envirobench_adapter_kit import Adapter, Case, Context

from . import NAME, __version__, solvers
from .site_record.pages import PAGES_READ

# Benchmark ID -> its solver module: every module of the `solvers` package (see its docstring
# for what a solver declares).
SOLVERS: dict[str, ModuleType] = solvers.discover()
# The adapter's options and their defaults: "default" is an alias of every solver's default variant.
OPTIONS = {"variant": "default", "jitter": ""}


def resolve_options(benchmark_id: str, options: Mapping[str, str]) -> dict[str, str]:
    """The options a case of `benchmark_id` is solved with: the variant's alias resolved to its
    name, once for the run. Unknown variants and malformed seeds are refused, never ignored: a
    typo would otherwise silently run a different system than the one the user asked for."""
    variant = SOLVERS[benchmark_id].SERVES.resolve(options["variant"])
    jitter = options["jitter"]
    if jitter and not (jitter.isascii() and jitter.isdigit()):
        raise ValueError(f"$.options.jitter: jitter must be a non-negative integer seed, not {jitter!r}")
    return {"variant": variant, "jitter": jitter}


def case_jitter(seed: str, case_id: str) -> np.random.Generator | None:
    """A generator seeded by (jitter seed, case ID): reruns with the same seed agree exactly."""
    if not seed:
        return None
    digest = hashlib.sha256(f"{int(seed)}:{case_id}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "big"))


def predictor(solver: ModuleType) -> Callable[[Case, Context], Any]:
    def predict(case: Case, ctx: Context) -> Any:
        # A site solver reads hundreds of pages: it reports them as it goes (site_record.PAGES_READ).
        token = PAGES_READ.set(lambda done, total: ctx.progress(done, total, unit="pages"))
        try:
            return solver.solve(case.parsed, case.sources, ctx.options["variant"], jitter=case_jitter(ctx.options["jitter"], case.id))
        finally:
            PAGES_READ.reset(token)

    predict.__name__ = f"predict_{solver.SERVES.benchmark.replace('-', '_')}"
    return predict


ADAPTER = Adapter(NAME, __version__, options=OPTIONS, max_concurrency=1, max_attempts=1, resolve_options=resolve_options)
for _benchmark_id, _solver in SOLVERS.items():
    ADAPTER.predict(_benchmark_id)(predictor(_solver))
