"""The machinery behind the conformance suite: real runs of a type through core's own code paths.

`Harness` resolves a type, its dataset and its prediction fixtures, and makes runs with
`envirobench.runs.execute_run` using a *fixture adapter*: a small executable written into a temporary
directory that answers every requested case from `correct.json` or `wrong.json` (or, in its
malformed modes, breaks the protocol on purpose). It can also record what it was shown (the
request, its working directory and every file under the input directory) so the isolation check
can look for answers there. Nothing here imports pytest; failures are `ConformanceError`s.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import datasets as ds
from ..authoring import FIXTURE_FILES, fixtures_dir_for
from ..benchmark import BenchmarkType, CaseScore, ErrorKey
from ..converter import structure, unstructure
from ..errors import EnviroBenchError
from ..jsonio import dumps_line, read_json
from ..plugins import Registry
from ..rundir import ADAPTER_DIR, Metrics, RunRecord, read_metrics, read_run
from ..runs import Outcome, RunSpec, execute_run

CORRECT, WRONG = FIXTURE_FILES

ADAPTER_MODES = ("ok", "missing-case", "extra-case", "invalid-prediction")
NOT_A_CASE = "envirobench-conformance-not-a-case"
INVALID_PREDICTION = {"__not_a_field__": 1}
SNAPSHOT_INPUT = "input"
SNAPSHOT_REQUEST = "request.json"
SNAPSHOT_SEEN = "seen.json"
SNAPSHOT_DIR = "snapshot"  # in the adapter's output


class ConformanceError(AssertionError):
    """A type, its dataset or its fixtures do not conform. The message says what to fix."""


def default_fixtures_dir(dataset_dir: Path) -> Path:
    """The convention of envirobench.authoring: the dataset `benchmarks/<type>/datasets/<folder>/`
    has its fixtures in `benchmarks/<type>/fixtures/<folder>/`."""
    return fixtures_dir_for(dataset_dir)


# The fixture adapter. Its configuration is baked in when it is written, so the request core
# sends it carries no options at all: it is exactly the request a real adapter would get.
_ADAPTER_SOURCE = '''\
#!{python}
"""EnviroBench conformance fixture adapter (written by envirobench.conformance.harness).

Answers every requested case from a prediction fixture; its mode may break the protocol on
purpose; with a snapshot directory it records what it was shown.
"""
import json
import os
import shutil
import sys

CONFIG = json.loads({config!r})


def probe(paths):
    """What of each path the adapter could read: a file's bytes, a directory's entries."""
    found = {{}}
    for path in paths:
        try:
            if os.path.isdir(path):
                found[path] = "listed" if os.listdir(path) else "empty"
            else:
                with open(path, "rb") as fh:
                    fh.read(1)
                found[path] = "read"
        except OSError as exc:
            found[path] = type(exc).__name__
    return found


def snapshot(request_path, raw, request, target):
    os.makedirs(target)
    with open(os.path.join(target, "{request_file}"), "wb") as fh:
        fh.write(raw)
    input_dir = request["input_dir"]
    files = []
    for dirpath, dirnames, filenames in os.walk(input_dir):
        links = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
        for name in sorted(filenames + links):
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, input_dir).replace(os.sep, "/")
            link = os.path.islink(full)
            files.append({{"path": rel, "link": link, "target": os.readlink(full) if link else None}})
            if not link:
                copy = os.path.join(target, "{input_dir}", rel)
                os.makedirs(os.path.dirname(copy), exist_ok=True)
                shutil.copyfile(full, copy)
    seen = {{
        "request_path": request_path,
        "cwd": os.getcwd(),
        "cwd_listing": sorted(os.listdir(".")),
        "input_dir": input_dir,
        "files": files,
        "probe": probe(CONFIG["probe"]),
    }}
    with open(os.path.join(target, "{seen_file}"), "w") as fh:
        json.dump(seen, fh, indent=1, sort_keys=True)


def main(argv):
    if len(argv) != 5 or argv[0] != "run" or argv[1] != "--request" or argv[3] != "--output":
        print("usage: adapter run --request FILE --output DIR", file=sys.stderr)
        return 2
    request_path, output = argv[2], argv[4]
    with open(request_path, "rb") as fh:
        raw = fh.read()
    request = json.loads(raw)
    if CONFIG["snapshot"]:  # into its output: adapter/{snapshot_dir}/ of the run
        snapshot(request_path, raw, request, os.path.join(output, "{snapshot_dir}"))
    fixture = CONFIG["predictions"]
    ids = [case["id"] for case in request["cases"]]
    predictions = {{cid: fixture[cid] for cid in ids if cid in fixture}}
    mode = CONFIG["mode"]
    if mode == "missing-case":
        predictions.pop(ids[0], None)
    elif mode == "extra-case":
        predictions[{not_a_case!r}] = fixture[ids[0]]
    elif mode == "invalid-prediction":
        predictions[ids[0]] = {invalid!r}
    with open(os.path.join(output, "predictions.json"), "w", encoding="utf-8") as fh:
        json.dump(predictions, fh, ensure_ascii=False)
    result = {{
        "id": request["benchmark"]["id"],
        "status": "completed",
        "format": request["benchmark"]["format"],
        "data": "predictions.json",
        "adapter": {{"name": "envirobench-conformance-fixture-adapter", "version": "1"}},
        "systems": [{{"role": "candidate", "model": request["model"], "cost_usd": 0.0,
                     "execution_failures": 0, "unpriced_attempts": 0}}],
    }}
    with open(os.path.join(output, "adapter-result.json"), "w", encoding="utf-8") as fh:
        json.dump(result, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
'''


def write_fixture_adapter(path: Path, predictions: Path, *, mode: str = "ok", snapshot: bool = False, probe: Sequence[str] = ()) -> Path:
    """Write an executable fixture adapter answering from `predictions` (a fixture file).

    The fixture is embedded in the script, so the adapter reads nothing outside its workspace and
    runs in core's sandbox like any adapter. With `snapshot` it records what it was shown in its
    output (`adapter/snapshot/` of the run), and whether it could read each path of `probe`."""
    if mode not in ADAPTER_MODES:
        raise ValueError(f"unknown fixture adapter mode {mode!r}; one of {', '.join(ADAPTER_MODES)}")
    config = json.dumps({"predictions": read_json(predictions), "mode": mode, "snapshot": snapshot, "probe": list(probe)}, ensure_ascii=False)
    source = _ADAPTER_SOURCE.format(
        python=sys.executable,
        config=config,
        request_file=SNAPSHOT_REQUEST,
        input_dir=SNAPSHOT_INPUT,
        seen_file=SNAPSHOT_SEEN,
        snapshot_dir=SNAPSHOT_DIR,
        not_a_case=NOT_A_CASE,
        invalid=INVALID_PREDICTION,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source, encoding="utf-8")
    path.chmod(0o755)
    return path


class Harness:
    """One benchmark type with one of its datasets and its fixtures, and the runs made of them.

    Runs are made lazily and kept for the life of the harness (one test class), so every check
    reads the same correct, wrong and paired runs. Checks that modify a run work on a copy.
    """

    # The shared runs: name -> (fixture, baseline run name, control run names).
    SHARED_RUNS: Mapping[str, tuple[str, str | None, tuple[str, ...]]] = {
        "correct": (CORRECT, None, ()),
        "wrong": (WRONG, None, ()),
        "wrong-vs-correct": (WRONG, "correct", ()),
        "wrong-vs-correct-control-wrong": (WRONG, "correct", ("wrong",)),
        "correct-vs-correct": (CORRECT, "correct", ()),
        "wrong-vs-wrong": (WRONG, "wrong", ()),
    }

    def __init__(self, registry: Registry, type_id: str, dataset: str | os.PathLike[str], workdir: Path, fixtures_dir: Path | None = None) -> None:
        self.registry = registry
        self.type_id = type_id
        self.workdir = Path(workdir)
        self.results = self.workdir / "results"
        try:
            self.btype: BenchmarkType = registry.benchmark_type(type_id)
        except EnviroBenchError as exc:
            raise ConformanceError(str(exc)) from None
        self.dataset_spec = str(dataset)
        try:
            self.dataset = ds.load_dataset(self.dataset_spec, registry)
        except EnviroBenchError as exc:
            raise ConformanceError(f"dataset {self.dataset_spec!r} does not validate: {exc}") from None
        if self.dataset.manifest.benchmark != type_id:
            raise ConformanceError(f"dataset {self.dataset.id!r} is for benchmark {self.dataset.manifest.benchmark!r}, not {type_id!r}")
        self.fixtures_dir = Path(fixtures_dir) if fixtures_dir is not None else default_fixtures_dir(self.dataset.root)
        self.cases = self.dataset.cases(self.btype)
        self.answers = self.dataset.answers(self.btype)
        self.raw_answers = {rec.id: rec.answer for _, rec in self.dataset.iter_answer_records()}
        self.raw_inputs = {rec.id: rec.input for rec in self.dataset.raw_inputs()}
        self.case_ids = list(self.cases)
        self._runs: dict[str, Path] = {}
        self._counter = 0

    # -- fixtures --------------------------------------------------------------------------------

    def fixture_path(self, name: str) -> Path:
        path = self.fixtures_dir / name
        if not path.is_file():
            raise ConformanceError(
                f"no prediction fixture {path}. Every dataset benchmarks/<type>/datasets/<folder>/ has its "
                f"fixtures in benchmarks/<type>/fixtures/<folder>/: {CORRECT} (predictions with no error in any "
                f"profile) and {WRONG} (predictions with known errors); override the `fixtures_dir` fixture if "
                "yours live elsewhere"
            )
        return path

    def fixture(self, name: str) -> dict[str, Any]:
        path = self.fixture_path(name)
        try:
            value = read_json(path)
        except EnviroBenchError as exc:
            raise ConformanceError(str(exc)) from None
        if not isinstance(value, dict):
            raise ConformanceError(f"{path}: a fixture must be a JSON object mapping case IDs to predictions")
        return value

    def fixture_predictions(self, name: str) -> dict[str, Any]:
        """The fixture's predictions for the dataset's (unretired) cases, structured by the type."""
        raw = self.fixture(name)
        path = self.fixture_path(name)
        missing = [cid for cid in self.case_ids if cid not in raw]
        if missing:
            raise ConformanceError(f"{path} has no prediction for {len(missing)} case(s) of {self.dataset.id}: {', '.join(missing[:5])}")
        out = {}
        for cid in self.case_ids:
            try:
                out[cid] = structure(raw[cid], self.btype.Prediction, file=str(path), path=f"$[{json.dumps(cid)}]")
            except EnviroBenchError as exc:
                raise ConformanceError(f"{exc} (not a valid {self.btype.FORMAT} prediction)") from None
        return out

    def score(self, case_id: str, answer: Any, prediction: Any) -> dict[str, CaseScore | None]:
        by_profile = self.btype.score_case(self.cases[case_id], answer, prediction)
        return {profile: by_profile.get(profile) for profile in self.btype.PROFILES}

    # -- runs ------------------------------------------------------------------------------------

    def adapter(self, fixture: str, *, mode: str = "ok", snapshot: bool = False) -> Path:
        self._counter += 1
        return write_fixture_adapter(
            self.workdir / "adapters" / f"adapter-{self._counter}-{mode}", self.fixture_path(fixture), mode=mode, snapshot=snapshot,
            probe=self.probe_paths() if snapshot else (),
        )

    def probe_paths(self) -> list[str]:
        """What the snooping `correct` run tries to read: where the answers and other runs are."""
        return [str(self.dataset.root), str(self.dataset.root / ds.ANSWERS), str(self.results), str(self.fixtures_dir)]

    def run(
        self,
        run_id: str,
        fixture: str,
        *,
        mode: str = "ok",
        baseline: Path | None = None,
        controls: Sequence[Path] = (),
        gates: Sequence[str] | None = None,
        targets: Sequence[str] = (),
        snapshot: bool = False,
    ) -> Outcome:
        """Make one run with envirobench.runs.execute_run, in core's default sandbox (`auto`: under
        bubblewrap when it is installed) without the network; gates default to every profile."""
        spec = RunSpec(
            adapter=str(self.adapter(fixture, mode=mode, snapshot=snapshot)),
            run_id=run_id,
            model="envirobench-conformance/fixture",
            benchmark=self.type_id,
            dataset=self.dataset_spec,
            budget_usd=0.0,
            baseline=baseline,
            controls=tuple(controls),
            targets=tuple(targets),
            gates=tuple(self.btype.PROFILES if gates is None else gates),
            results_dir=self.results,
            timeout_s=600,
            sandbox="auto",
            network=False,
        )
        return execute_run(spec, self.registry)

    def shared_run(self, name: str) -> Path:
        """One of SHARED_RUNS, made on first use; it must complete."""
        if name not in self._runs:
            fixture, baseline, controls = self.SHARED_RUNS[name]
            outcome = self.run(
                name,
                fixture,
                baseline=self.shared_run(baseline) if baseline else None,
                controls=[self.shared_run(c) for c in controls],
                snapshot=name == "correct",
            )
            if outcome.status != "completed":
                raise ConformanceError(f"the {name} run (predictions from {fixture}) did not complete: {outcome.message}")
            self._runs[name] = outcome.run_dir
        return self._runs[name]

    @property
    def snapshot_dir(self) -> Path:
        """What the fixture adapter was shown in the `correct` run (it saved it in its output)."""
        return self.shared_run("correct") / ADAPTER_DIR / SNAPSHOT_DIR

    def copy_run(self, name: str, new_name: str) -> Path:
        """A copy of a shared run to rescore or review without touching the original."""
        target = self.workdir / "copies" / new_name
        shutil.copytree(self.shared_run(name), target, symlinks=True)
        return target

    # -- reading runs ----------------------------------------------------------------------------

    @staticmethod
    def metrics(run_dir: Path) -> Metrics:
        return read_metrics(run_dir)

    @staticmethod
    def run_record(run_dir: Path) -> RunRecord:
        return read_run(run_dir)

    def candidate_errors(self, run_dir: Path) -> dict[str, dict[str, tuple[ErrorKey, ...] | None]]:
        """profile -> case ID -> the candidate's errors (None where the profile did not score it)."""
        out: dict[str, dict[str, tuple[ErrorKey, ...] | None]] = {p: {} for p in self.btype.PROFILES}
        for cid, entry in self.metrics(run_dir).cases.items():
            for profile in self.btype.PROFILES:
                score = entry.runs["candidate"][profile]
                out[profile][cid] = None if score is None else score.errors
        return out

    def error_cases(self, run_dir: Path, profile: str) -> list[str]:
        return [cid for cid, errors in self.candidate_errors(run_dir)[profile].items() if errors]

    # -- dataset revisions -----------------------------------------------------------------------

    def rekey_change(self) -> tuple[str, Any] | None:
        """(case ID, new answer as JSON) such that the correct predictions score differently on
        that case against the new answer. Tried in order: a wrong.json prediction that is also a
        valid answer (the natural "the key was wrong" correction), then another case's answer."""
        correct = self.fixture_predictions(CORRECT)
        correct_raw, wrong_raw = self.fixture(CORRECT), self.fixture(WRONG)
        candidates: list[tuple[str, Any]] = []
        for cid in self.case_ids:
            if cid in wrong_raw and _canonical(wrong_raw[cid]) != _canonical(correct_raw.get(cid)):
                candidates.append((cid, wrong_raw[cid]))
        answers = list(self.raw_answers.items())
        for cid in self.case_ids:
            for other, answer in answers:
                if other != cid and _canonical(answer) != _canonical(self.raw_answers[cid]):
                    candidates.append((cid, answer))
                    break
        for cid, new_answer in candidates:
            try:
                structured = structure(new_answer, self.btype.Answer)
            except EnviroBenchError:
                continue
            if _scores_json(self.score(cid, structured, correct[cid])) != _scores_json(self.score(cid, self.answers[cid], correct[cid])):
                return cid, new_answer
        return None

    def make_revision(self, name: str, *, answers: Mapping[str, Any] | None = None, change_input: bool = False) -> tuple[Path, str]:
        """A copy of the dataset as its next version, re-pinned with write_manifest.

        `answers` replaces those cases' answers (inputs untouched: it can be re-keyed to);
        `change_input` alters one input file (a source file the first case uses, else the first
        case's record) so its input digest differs. Returns (directory, what changed)."""
        target = self.workdir / "revisions" / name
        shutil.copytree(self.dataset.root, target, symlinks=False)
        (target / ds.MANIFEST).unlink()
        changed = ""
        if answers:
            lines = (target / ds.ANSWERS).read_text(encoding="utf-8").splitlines(keepends=True)
            out = []
            for line in lines:
                record = json.loads(line) if line.strip() else None
                if record is not None and record.get("id") in answers:
                    line = dumps_line({**record, "answer": answers[record["id"]]})
                out.append(line)
            (target / ds.ANSWERS).write_text("".join(out), encoding="utf-8")
            changed = ds.ANSWERS
        if change_input:
            first = self.case_ids[0]
            sources = list(self.btype.source_files(self.cases[first].input))
            if sources:
                path = target / sources[0]
                path.write_bytes(path.read_bytes() + b"\n")
                changed = sources[0]
            else:
                lines = (target / ds.CASES).read_text(encoding="utf-8").splitlines(keepends=True)
                out = []
                for line in lines:
                    record = json.loads(line) if line.strip() else None
                    if record is not None and record.get("id") == first:
                        line = dumps_line({**record, "category": record["category"] + "-changed"})
                    out.append(line)
                (target / ds.CASES).write_text("".join(out), encoding="utf-8")
                changed = ds.CASES
        m = self.dataset.manifest
        ds.write_manifest(
            target,
            dataset_id=m.id,
            version=m.version + 1,
            benchmark=m.benchmark,
            title=m.title,
            description=m.description,
            visibility=m.visibility,
            generator=m.generator,
            retired=m.retired,
        )
        return target, changed


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _scores_json(scores: Mapping[str, CaseScore | None]) -> str:
    return _canonical({p: None if s is None else unstructure(s.to_json()) for p, s in scores.items()})
