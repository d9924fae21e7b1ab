"""Pinning one dataset identity per task, so every run on a task's board used the same data.

In this order:

1. `--pin TASK=DATASET`: a digest (`sha256:...`, compared with the run's `dataset.digest`) or a
   registered dataset ID / dataset directory, which is loaded and verified; its identity is pinned.
2. The dataset the installed plugins register for the task (verified by loading it); of a
   task's dev and test splits, the test split (systems are measured on it). Several registered datasets for one
   task otherwise are ambiguous: choose one with `--pin`.
3. Otherwise, from the runs themselves: their one identity when they agree; when they differ only
   by revision of one dataset ID, the highest revision (older runs must be re-keyed with
   `envirobench score`); anything else is ambiguous and needs `--pin`.

A run whose identity differs from its task's pin is refused with the reason (`Pin.mismatch`).

The runs are rescored against the pinned dataset, so it must be on this machine: `load_pinned`
gives its contents, loaded once for all of a task's runs (the dataset a pin loaded to verify it,
or the first of the runs' recorded sources and the registered datasets that holds exactly the
pinned identity).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from .. import categories as cats
from .. import datasets
from ..errors import EnviroBenchError
from ..plugins import Registry
from .runs import Identity, RunEntry


@attrs.frozen
class Pin:
    """The dataset identity a task's runs must have, and how it was chosen."""

    task: str
    identity: Identity
    source: str  # how it was chosen, for readers
    # The pinned dataset, when pinning it loaded it (a registered dataset or a dataset --pin).
    contents: datasets.Contents | None = attrs.field(default=None, eq=False, repr=False)

    def accepts(self, identity: Identity) -> bool:
        if self.identity.id is None:
            return identity.digest == self.identity.digest
        return identity.key == self.identity.key

    def mismatch(self, identity: Identity) -> str:
        pinned = self.identity
        head = f"dataset {identity.describe()} differs from the version pinned for {self.task}: {pinned.describe()} ({self.source})"
        if pinned.id is not None and identity.id == pinned.id and identity.version == pinned.version:
            if pinned.input_digest and identity.input_digest == pinned.input_digest:
                return head + "; same inputs, another answer key: re-key the run with `envirobench score`"
            return head + "; same ID and version but other content"
        if pinned.id is not None and identity.id == pinned.id and identity.version != pinned.version:
            return head + "; another revision: re-key or rerun it on the pinned revision"
        return head

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "dataset": self.identity.to_json(), "source": self.source}


def parse_pin(text: str) -> tuple[str, str]:
    """`TASK=DATASET` -> (task, dataset); EnviroBenchError when malformed or not a task."""
    task_id, sep, value = text.partition("=")
    task_id, value = task_id.strip(), value.strip()
    if not sep or not task_id or not value:
        raise EnviroBenchError(f"--pin {text!r}: expected TASK=DIGEST or TASK=DATASET")
    if task_id not in cats.all_tasks():
        raise EnviroBenchError(f"--pin {text!r}: {task_id!r} is not a task of any category in {cats.SCORING_VERSION}")
    return task_id, value


def resolve_pins(
    runs: Sequence[RunEntry],
    explicit: Mapping[str, str] | None = None,
    registry: Registry | None = None,
    notes: list[str] | None = None,
) -> dict[str, Pin]:
    """The dataset identity pinned for every task that has runs (or an explicit pin)."""
    notes = notes if notes is not None else []
    pins = {task_id: _explicit_pin(task_id, value, registry) for task_id, value in (explicit or {}).items()}
    tasks_with_runs = sorted({run.task for run in runs})
    # Reading every registered manifest is only worth it when some task still needs a pin.
    registered = _registered_by_task(registry, notes) if registry is not None and any(t not in pins for t in tasks_with_runs) else {}
    for task_id in tasks_with_runs:
        if task_id in pins:
            continue
        candidates = registered.get(task_id, [])
        tests = [c for c in candidates if registry is not None and registry.datasets[c].split == "test"]
        if len(candidates) > 1 and len(tests) == 1:
            candidates = tests  # systems are measured on the test split; dev is what they were made on
        elif len(tests) > 1:
            # Several test splits (Site: the three public sites and the many-sites split): the one
            # the task's runs on a test split were all made on; runs on both: the user chooses.
            made_on = {run.identity.id for run in runs if run.task == task_id and run.identity.id in tests}
            if len(made_on) == 1:
                candidates = sorted(made_on)
        if len(candidates) > 1:
            raise EnviroBenchError(
                f"task {task_id!r} has several registered datasets ({', '.join(candidates)}): "
                f"choose the one to pin with --pin {task_id}=DATASET"
            )
        if candidates:
            try:
                contents = datasets.load_contents(candidates[0], registry)
            except EnviroBenchError as exc:
                raise EnviroBenchError(f"cannot pin task {task_id!r}: the registered dataset {candidates[0]!r} is not valid: {exc}") from None
            split = " (test split)" if candidates[0] in tests else ""
            pins[task_id] = Pin(task_id, _identity_of(contents.dataset), f"installed registered dataset {candidates[0]}{split}", contents)
            continue
        pins[task_id] = _pin_from_runs(task_id, [run for run in runs if run.task == task_id])
    return pins


def _identity_of(dataset: datasets.Dataset) -> Identity:
    ident = dataset.identity
    return Identity(ident.id, ident.version, ident.digest, ident.input_digest, ident.answer_digest)


def _explicit_pin(task_id: str, value: str, registry: Registry | None) -> Pin:
    if value.startswith("sha256:"):
        return Pin(task_id, Identity(None, None, value), f"--pin {task_id}={value}")
    if registry is None:
        raise EnviroBenchError(f"--pin {task_id}={value}: loading a dataset needs the plugin registry")
    contents = datasets.load_contents(value, registry)
    dataset = contents.dataset
    if dataset.manifest.benchmark != task_id:
        raise EnviroBenchError(f"--pin {task_id}={value}: that dataset is for benchmark {dataset.manifest.benchmark!r}, not {task_id!r}")
    return Pin(task_id, _identity_of(dataset), f"--pin {task_id}={value}", contents)


def _registered_by_task(registry: Registry, notes: list[str]) -> dict[str, list[str]]:
    by_task: dict[str, list[str]] = {}
    for dataset_id, source in sorted(registry.datasets.items()):
        try:
            manifest = datasets.read_manifest(Path(source.path))
        except EnviroBenchError as exc:
            notes.append(f"registered dataset {dataset_id!r} is unreadable and pins nothing: {exc}")
            continue
        by_task.setdefault(manifest.benchmark, []).append(dataset_id)
    return by_task


def _pin_from_runs(task_id: str, runs: Sequence[RunEntry]) -> Pin:
    counts = Counter(run.identity.key for run in runs)
    by_key = {run.identity.key: run.identity for run in runs}
    if len(counts) == 1:
        return Pin(task_id, next(iter(by_key.values())), "the one dataset its runs used (no registered dataset)")
    ids = {key[0] for key in counts}
    if len(ids) == 1:
        latest = max(key[1] for key in counts)
        at_latest = [key for key in counts if key[1] == latest]
        if len(at_latest) == 1:
            return Pin(task_id, by_key[at_latest[0]], "the highest revision its runs used (no registered dataset)")
    listing = "; ".join(f"{by_key[key].describe()}: {n} run(s)" for key, n in sorted(counts.items(), key=lambda kv: str(kv[0])))
    raise EnviroBenchError(
        f"task {task_id!r} has runs on several datasets and none is registered ({listing}): "
        f"choose one with --pin {task_id}=DIGEST"
    )


def load_pinned(pin: Pin, runs: Sequence[RunEntry], registry: Registry) -> datasets.Contents:
    """The pinned dataset's cases and answers, to rescore `runs` (runs the pin accepts) against.

    The dataset the pin loaded, else the first that holds exactly the pinned identity among the
    sources the runs recorded and then the datasets registered for the task, each verified by
    loading it. EnviroBenchError naming every place tried when none does (the task's runs are
    then refused with it: a run is never scored against answers that are not the pinned ones).
    """
    if pin.contents is not None:
        return pin.contents
    tried: list[str] = []
    for source in _sources(pin, runs, registry):
        try:
            path, _ = datasets.resolve(source, registry)
            # The manifest alone tells a dataset that is not the pinned one: only the right one is verified.
            if _holds(pin, datasets.Dataset(path, datasets.read_manifest(path)), source, tried):
                contents = datasets.load_contents(source, registry)
                if _holds(pin, contents.dataset, source, tried):
                    return contents
        except EnviroBenchError as exc:
            tried.append(f"{source}: {exc}")
    digest_only = "a digest pin names no dataset; " if pin.identity.id is None else ""
    places = "; ".join(tried) if tried else "no run records where its dataset was and no registered dataset has this identity"
    raise EnviroBenchError(
        f"the dataset pinned for {pin.task}, {pin.identity.describe()}, is not on this machine, so the runs cannot be "
        f"rescored against its answers ({digest_only}tried: {places}); give its directory with --pin {pin.task}=DIR"
    )


def _sources(pin: Pin, runs: Sequence[RunEntry], registry: Registry) -> Iterator[str]:
    """Where the pinned dataset may be: the runs' recorded sources, then registered datasets
    whose manifest has the pinned identity (read only when the runs' sources did not do)."""
    sources = list(dict.fromkeys(run.dataset_source for run in runs))
    yield from sources
    for dataset_id, registered in sorted(registry.datasets.items()):
        if dataset_id in sources:
            continue
        try:
            manifest = datasets.read_manifest(Path(registered.path))
        except EnviroBenchError:
            continue  # resolve_pins notes the registered datasets that do not read
        if _holds(pin, datasets.Dataset(Path(registered.path), manifest)):
            yield dataset_id


def _holds(pin: Pin, dataset: datasets.Dataset, source: str = "", tried: list[str] | None = None) -> bool:
    """Is `dataset` exactly the pinned one (same benchmark and identity)? If not, say so in `tried`."""
    found = _identity_of(dataset)
    if dataset.manifest.benchmark == pin.task and pin.accepts(found):
        return True
    if tried is not None:
        tried.append(f"{source} holds {found.describe()}, for benchmark {dataset.manifest.benchmark!r}")
    return False
