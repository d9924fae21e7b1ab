"""Small benchmark types for testing the conformance suite: one sound, and deliberately broken ones.

Each is a variant of core's count-words test type (count the words of a text), written as a
plugin object with a dataset and its prediction fixtures laid out by the documented convention:
`<root>/benchmarks/<type>/datasets/v1/` and `<root>/benchmarks/<type>/fixtures/v1/{correct,wrong}.json`.
The test files that pytester writes import this module and build what they need in a temporary
directory.
"""

from __future__ import annotations

import json
import types
from pathlib import Path

import attrs

from envirobench import hookimpl
from envirobench.authoring import write_manifest
from envirobench.benchmark import CaseScore
from envirobench.jsonio import dumps_line
from envirobench.testing import CountWords

N_CASES = 10
OFF_BY = {"c000001": 2, "c000004": -3, "c000007": 5}  # wrong.json's mistakes (beyond "near")


class SoundCount(CountWords):
    """Core's count-words type, as it is: it must pass every check."""


class LenientCount(CountWords):
    """Broken: its scorer never finds a mistake, so wrong.json scores no errors."""

    ID = "lenient-count"
    FORMAT = "envirobench.lenient-count.v1"
    SCORING_VERSION = "envirobench.lenient-count.scores.v1"

    def score_case(self, case, answer, prediction):
        return {profile: CaseScore((), {"accuracy": 1.0}) for profile in self.PROFILES}


class StatefulCount(CountWords):
    """Broken: its scorer keeps state between calls (a case scored before scores a mistake), so
    a prediction unchanged from the baseline's would not score what the baseline's scored."""

    ID = "stateful-count"
    FORMAT = "envirobench.stateful-count.v1"
    SCORING_VERSION = "envirobench.stateful-count.scores.v1"

    def __init__(self):
        self.seen = set()

    def score_case(self, case, answer, prediction):
        again = case.id in self.seen
        self.seen.add(case.id)
        if again:
            return {profile: CaseScore((("scored-again",),), {"accuracy": 0.0}) for profile in self.PROFILES}
        return super().score_case(case, answer, prediction)


@attrs.frozen
class LeakyInput:
    text: str
    count: int  # the answer, carried in the input: every adapter can read it


class LeakyInputCount(CountWords):
    """Broken: its input carries the answer value."""

    ID = "leaky-input-count"
    FORMAT = "envirobench.leaky-input-count.v1"
    SCORING_VERSION = "envirobench.leaky-input-count.scores.v1"
    Input = LeakyInput


@attrs.frozen
class SidecarInput:
    text: str
    notes: str  # a source file: the generator's notes, which hold every answer


class LeakySidecarCount(CountWords):
    """Broken: every case names a source file that holds the answer key."""

    ID = "leaky-sidecar-count"
    FORMAT = "envirobench.leaky-sidecar-count.v1"
    SCORING_VERSION = "envirobench.leaky-sidecar-count.scores.v1"
    Input = SidecarInput
    SOURCE_FIELDS = ("notes",)


class LeakyLogCount(LeakySidecarCount):
    """Broken: every case names a text file (not JSON) in which the generator logged each answer."""

    ID = "leaky-log-count"
    FORMAT = "envirobench.leaky-log-count.v1"
    SCORING_VERSION = "envirobench.leaky-log-count.scores.v1"


class BrokenViewerCount(CountWords):
    """Broken: its viewer throws on every case."""

    ID = "broken-viewer-count"
    FORMAT = "envirobench.broken-viewer-count.v1"
    SCORING_VERSION = "envirobench.broken-viewer-count.scores.v1"
    VIEWER = "broken-viewer"


class MislabelledSeparators(CountWords):
    """Broken: it takes the ID of a task of the Extract category, with another label."""

    ID = "table-separators"
    LABEL = "Separators of tables"
    FORMAT = "envirobench.mislabelled-table-separators.v1"
    SCORING_VERSION = "envirobench.mislabelled-table-separators.scores.v1"


BROKEN_VIEWER_SCRIPT = """
(function () {
  const EB = (window.EnviroBench = window.EnviroBench || {});
  EB.viewers = EB.viewers || {};
  EB.viewers["broken-viewer"] = { render() { throw new Error("this viewer always fails"); } };
})();
"""

TYPES = {cls.ID: cls for cls in (SoundCount, LenientCount, StatefulCount, LeakyInputCount, LeakySidecarCount, LeakyLogCount, BrokenViewerCount, MislabelledSeparators)}


def _text(i: int) -> str:
    return " ".join(["benzene", "toluene", "xylene", "PCE", "TCE", "vinyl", "chloride"][: 1 + i % 7])


def write_benchmark(root: Path, type_id: str, *, fixtures: bool = True) -> Path:
    """Write the type's dataset (and fixtures) under root/benchmarks/<type>/; return the dataset dir."""
    base = Path(root) / "benchmarks" / type_id
    dataset = base / "datasets" / "v1"
    dataset.mkdir(parents=True, exist_ok=True)
    counts = {}
    with (dataset / "cases.jsonl").open("w") as cases, (dataset / "answers.jsonl").open("w") as answers:
        for i in range(N_CASES):
            cid = f"c{i:06d}"
            text = _text(i)
            counts[cid] = len(text.split())
            case_input: dict = {"text": text}
            if type_id == LeakyInputCount.ID:
                case_input["count"] = counts[cid]
            if type_id == LeakySidecarCount.ID:
                case_input["notes"] = "notes/generator.json"
            if type_id == LeakyLogCount.ID:
                case_input["notes"] = "notes/generator.log"
            cases.write(dumps_line({"id": cid, "category": "short" if i % 2 else "long", "input": case_input}))
            answers.write(dumps_line({"id": cid, "answer": {"count": counts[cid]}}))
    if type_id == LeakySidecarCount.ID:
        (dataset / "notes").mkdir(exist_ok=True)
        notes = {"seed": 7, "answers": {cid: {"count": n} for cid, n in counts.items()}}
        (dataset / "notes" / "generator.json").write_text(json.dumps(notes, indent=2))
    if type_id == LeakyLogCount.ID:
        (dataset / "notes").mkdir(exist_ok=True)
        log = "".join(f"{cid} written; answer {json.dumps({'count': n})}\n" for cid, n in counts.items())
        (dataset / "notes" / "generator.log").write_text("seed 7\n" + log)
    write_manifest(dataset, dataset_id=f"test/{type_id}-v1", version=1, benchmark=type_id, title=f"{type_id} (conformance test)")
    if fixtures:
        (base / "fixtures" / "v1").mkdir(parents=True, exist_ok=True)
        correct = {cid: {"count": n} for cid, n in counts.items()}
        wrong = {cid: {"count": n + OFF_BY.get(cid, 0)} for cid, n in counts.items()}
        (base / "fixtures" / "v1" / "correct.json").write_text(json.dumps(correct, indent=2))
        (base / "fixtures" / "v1" / "wrong.json").write_text(json.dumps(wrong, indent=2))
    return dataset


def plugin(type_id: str, dataset_dir: Path) -> types.SimpleNamespace:
    """A plugin object registering one toy type and its dataset."""
    cls = TYPES[type_id]

    @hookimpl
    def envirobench_benchmark_types(register):
        register(cls)

    @hookimpl
    def envirobench_datasets(register):
        register(f"test/{type_id}-v1", dataset_dir, visibility="private")

    @hookimpl
    def envirobench_viewers(register):
        if cls is BrokenViewerCount:
            register("broken-viewer", script=BROKEN_VIEWER_SCRIPT)

    return types.SimpleNamespace(
        envirobench_benchmark_types=envirobench_benchmark_types,
        envirobench_datasets=envirobench_datasets,
        envirobench_viewers=envirobench_viewers,
    )
