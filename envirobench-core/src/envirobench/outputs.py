"""The files a scored run writes, but the report: metrics.json, comparison.json,
review-brief.json and summary.md (report.py writes report.html from the first two); and how a
rescore replaces them all as one step.

All are pure functions of the scores, the answer key and the saved predictions (no clocks), so
rescoring an unchanged run reproduces them byte for byte.

A rescore (`runs.rescore_run`) never writes into the run directory: a kill at any moment leaves
either the old consistent set or the new one. `staged_outputs` makes a hidden
`.<run-id>.rescore-*` directory beside the run holding every file core does not write again
(adapter/, adapter.log, adapter-request.json, interpretation.json, and report-assets/ as a
starting point), hard-linked, copied where links are not possible; the rescore writes
metrics.json, comparison.json, review-brief.json, summary.md, report.html, report-assets/ and,
last, run.json there; `swap_into_place` exchanges the two directories with one
`renameat2(RENAME_EXCHANGE)`, atomic on Linux file systems, and the old set, now in the hidden
directory, is removed (run.json first, so that a leftover never reads as a run). A whole-directory
exchange was chosen over renaming file after file with run.json last: a kill between two renames
would leave a new metrics.json beside the old run.json, which any reader of both takes for one
run. Where the exchange is not supported the directories are swapped by two renames, and a kill
between them leaves the run in the hidden directory. A leftover hidden directory (a kill before
the swap, or before the old set was removed) is removed by the next rescore of the run; one still
being built is locked (flock) and kept. Two rescores of one run at once both complete, and the
last swap wins.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from . import statistics
from .benchmark import BenchmarkType, Case
from .compared import ComparedRun
from .converter import converter, unstructure
from .errors import EnviroBenchError
from .jsonio import atomic_write_text
from .pairing import Gate, summarize_run
from .rundir import (
    BASELINE,
    CANDIDATE,
    COMPARISON_FORMAT,
    METRICS_FORMAT,
    RESCORED_FILES,
    REVIEW_BRIEF_FORMAT,
    REVIEW_GROUPS,
    RUN_FILE,
    SUMMARY_FILE,
    BriefGroups,
    CaseMetrics,
    ComparedRunLabel,
    Comparison,
    ComparisonCase,
    GateSummary,
    Metrics,
    MetricsBenchmark,
    MetricsDataset,
    ProfileMetrics,
    ReviewBrief,
    RunRecord,
    write_review_brief,
)
from .rundir_text import in_slices, write_metrics
from .scoring import RunScores
from .sites import site_rows
from .system import exchange_paths, remove_unlocked
from .templating import environment, format_interval, format_number, format_signed, metric_is_count


def build_metrics(
    record: RunRecord,
    btype: BenchmarkType,
    cases: Mapping[str, Case],
    scores: RunScores,
    baseline: ComparedRun | None,
    controls: Sequence[ComparedRun],
    gate: Gate,
) -> Metrics:
    case_ids = list(cases)
    units = statistics.Units.of(btype, cases)
    runs = [(CANDIDATE, scores)] + ([(BASELINE, baseline.scores)] if baseline else []) + [(c.label, c.scores) for c in controls]
    headlines = {label: summarize_run(btype, case_ids, run_scores) for label, run_scores in runs}
    bucket_index: dict[str, dict[str, str]] = {}
    profiles: dict[str, ProfileMetrics] = {}
    for profile in btype.PROFILES:
        pairing = gate.by_profile[profile]
        bucket_index[profile] = pairing.bucket_of()
        cand = headlines[CANDIDATE][profile]
        base = headlines[BASELINE][profile] if baseline else None
        # The statistics of docs/runs.md, "Statistics": they inform, the gate never reads them.
        intervals = paired = None
        if cand is not None:
            cand_scores = statistics.profile_scores(units, scores, profile)
            intervals = statistics.headline_intervals(btype, profile, units, cand_scores)
            if baseline and base is not None:
                base_scores = statistics.profile_scores(units, baseline.scores, profile)
                paired = statistics.paired_comparison(btype, profile, units, cand_scores, base_scores)
        profiles[profile] = ProfileMetrics(
            available=pairing.available,
            gated=profile in gate.profiles,
            status=pairing.status,
            headline=cand,
            baseline_headline=base,
            change={m: cand[m] - base[m] for m in cand if m in base} if cand and base else None,
            controls_headline={c.label: headlines[c.label][profile] for c in controls},
            buckets={name: len(ids) for name, ids in pairing.buckets.items()},
            regressions=pairing.regressions,
            unstable_regressions=pairing.unstable_regressions,
            improvements=pairing.improvements,
            unstable=pairing.unstable,
            failing_targets=pairing.failing_targets,
            intervals=intervals,
            paired=paired,
        )
    # Equal {profile: bucket} and {label: {profile: score}} mappings are one shared object each
    # (never modified): runs intern equal scores (scoring.SharedScores), so few combinations occur,
    # a 100,000-case run holds a handful of these dicts, and rundir_text.metrics_text converts each once.
    shared_buckets: dict[tuple[str | None, ...], dict[str, str | None]] = {}
    shared_scores: dict[tuple[int, ...], dict[str, Any]] = {}
    per_case: dict[str, CaseMetrics] = {}
    labels = [label for label, _ in runs]
    for case_id, case in cases.items():
        bucket_key = tuple(bucket_index[profile].get(case_id) for profile in btype.PROFILES)
        buckets = shared_buckets.get(bucket_key)
        if buckets is None:
            buckets = shared_buckets[bucket_key] = dict(zip(btype.PROFILES, bucket_key, strict=True))
        case_scores = [run_scores[case_id] for _, run_scores in runs]
        # Keyed by the score objects' identities: they stay alive in `runs`, so an id is never reused.
        scores_key = tuple(map(id, case_scores))
        by_run = shared_scores.get(scores_key)
        if by_run is None:
            by_run = shared_scores[scores_key] = dict(zip(labels, case_scores, strict=True))
        per_case[case_id] = CaseMetrics(case.category, buckets, by_run)
    identity = record.dataset
    return Metrics(
        format=METRICS_FORMAT,
        run_id=record.run_id,
        benchmark=MetricsBenchmark(btype.ID, btype.SCORING_VERSION, tuple(btype.PROFILES), tuple(btype.HEADLINE)),
        dataset=MetricsDataset(identity.id, identity.version, identity.digest, identity.input_digest, identity.answer_digest),
        runs=tuple(label for label, _ in runs),
        gate=GateSummary(gate.status, gate.profiles, gate.targets),
        profiles=profiles,
        cases=per_case,
        bootstrap=statistics.bootstrap_spec(btype, units),
    )


def build_comparison(
    record: RunRecord,
    cases: Mapping[str, Case],
    answers: Mapping[str, Any],
    predictions: Mapping[str, Any],
    baseline: ComparedRun | None,
    controls: Sequence[ComparedRun],
) -> Comparison:
    runs = [(CANDIDATE, record.run_id, predictions)]
    if baseline:
        runs.append((BASELINE, baseline.run_id, baseline.predictions))
    runs += [(c.label, c.run_id, c.predictions) for c in controls]
    return Comparison(
        format=COMPARISON_FORMAT,
        run_id=record.run_id,
        runs=tuple(ComparedRunLabel(label, run_id) for label, run_id, _ in runs),
        cases=ComparisonCases(cases, answers, [(label, preds) for label, _, preds in runs]),
    )


class ComparisonCases(Sequence[ComparisonCase]):
    """comparison.json's cases, made a batch at a time from the run's cases, answers and predictions
    when they are read: a 100,000-case run never holds them all as JSON trees beside the objects
    they are made from. Made anew on each read: a run's writing reads them once, a slice at a
    time (runs.write_scored hands each slice to comparison.json and to the report's case data)."""

    def __init__(self, cases: Mapping[str, Case], answers: Mapping[str, Any], runs: Sequence[tuple[str, Mapping[str, Any]]]):
        self._ids = list(cases)
        self._cases, self._answers, self._runs = cases, answers, runs

    def __len__(self) -> int:
        return len(self._ids)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return self._made(self._ids[index])
        return self._made([self._ids[index]])[0]

    def __iter__(self) -> Iterator[ComparisonCase]:
        for ids in in_slices(self._ids):
            yield from self._made(ids)

    def _made(self, ids: Sequence[str]) -> list[ComparisonCase]:
        """The cases of `ids`. Each column (the inputs, the answers, each run's predictions) is
        unstructured as a whole: values of one class share one converter hook (_unstructured),
        which is what makes this fast, rather than the converter dispatching value by value."""
        cases = [self._cases[case_id] for case_id in ids]
        inputs = _unstructured([case.input for case in cases])
        answers = _unstructured([self._answers[case_id] for case_id in ids])
        # A run without a prediction for a case: null (no value is unstructured to None but None).
        labels = [label for label, _ in self._runs]
        by_run = [list(_unstructured([predictions.get(case_id) for case_id in ids])) for _, predictions in self._runs]
        per_case = zip(*by_run, strict=True)  # every comparison has a candidate run
        return [ComparisonCase(case_id, case.category, case_input, answer, dict(zip(labels, predictions, strict=True)))
                for case_id, case, case_input, answer, predictions in zip(ids, cases, inputs, answers, per_case, strict=True)]


def _unstructured(values: list[Any]) -> Iterator[Any]:
    """`unstructure` of each value; when they are all of one class (a batch of one run's
    predictions, of the inputs or the answers), its converter hook is looked up once for all."""
    kinds = set(map(type, values))
    if len(kinds) != 1:
        return map(unstructure, values)
    return map(converter.get_unstructure_hook(kinds.pop()), values)



def build_review_brief(record: RunRecord, cases: Mapping[str, Case], gate: Gate) -> ReviewBrief:
    """Changed cases grouped into worse, better, noisy and remaining, by category, per gated profile."""
    profiles = {}
    for profile in gate.profiles:
        buckets = gate.by_profile[profile].buckets
        profiles[profile] = BriefGroups(**{group: _by_category(buckets[group], cases) for group in REVIEW_GROUPS})
    return ReviewBrief(
        format=REVIEW_BRIEF_FORMAT,
        run_id=record.run_id,
        gate=gate.status,
        baseline=record.pairing.baseline.run_id if record.pairing.baseline else None,
        profiles=profiles,
    )


def _by_category(ids: Sequence[str], cases: Mapping[str, Case]) -> dict[str, tuple[str, ...]]:
    grouped: dict[str, list[str]] = {}
    for cid in ids:
        grouped.setdefault(cases[cid].category, []).append(cid)
    return {category: tuple(grouped[category]) for category in sorted(grouped)}


_ENV = environment(html=False)


def _md(value: Any) -> str:
    """Escape text from datasets and adapters so it cannot change the Markdown's structure."""
    text = str(value)
    for char in "\\`*_{}[]<>()#+!|":
        text = text.replace(char, "\\" + char)
    return text.replace("\n", " ")


_ENV.filters["md"] = _md
_ENV.filters["signed"] = lambda v, count=False: "n/a" if v is None else format_signed(v, count)
_ENV.filters["p_value"] = statistics.format_p
_ENV.filters["fmt"] = format_number
_ENV.filters["interval"] = format_interval
_ENV.globals["is_count"] = metric_is_count


def render_summary(record: RunRecord, btype: BenchmarkType, metrics: Metrics, cases: Mapping[str, Case], limit: int = 25) -> str:
    def error_sets(cid: str, profile: str) -> tuple[set[tuple[Any, ...]], set[tuple[Any, ...]]]:
        runs = metrics.cases[cid].runs
        cand = runs[CANDIDATE][profile]
        base = (runs.get(BASELINE) or {}).get(profile)
        return set(cand.errors if cand else ()), set(base.errors if base else ())

    def listed(errors: set[tuple[Any, ...]], shown: int = 3) -> list[str]:
        """A few errors in natural order (row 2 before row 10), then how many more."""
        ordered = sorted(errors, key=lambda e: [(0, x, "") if isinstance(x, (int, float)) else (1, 0, str(x)) for x in e])
        words = [" ".join(str(x) for x in e) for e in ordered[:shown]]
        if len(ordered) > shown:
            words.append(f"and {len(ordered) - shown} more")
        return words

    def new_errors(cid: str, profile: str) -> list[str]:
        cand, base = error_sets(cid, profile)
        return listed(cand - base)

    def fixed_errors(cid: str, profile: str) -> list[str]:
        cand, base = error_sets(cid, profile)
        return listed(base - cand)

    return _ENV.get_template("summary.md.j2").render(
        run=record,
        btype=btype,
        metrics=metrics,
        cases=cases,
        limit=limit,
        new_errors=new_errors,
        fixed_errors=fixed_errors,
        # How the intervals were computed, said once, when there are any (metrics written before
        # core computed them have none, and their summary reads as it did).
        spec=metrics.bootstrap if any(m.intervals for m in metrics.profiles.values()) else None,
        sites=site_rows(record, btype, metrics),
    )


def write_outputs(run_dir: Path, record: RunRecord, btype: BenchmarkType, cases: Mapping[str, Case], metrics: Metrics, gate: Gate) -> str:
    """Write metrics.json (built by build_metrics), review-brief.json and summary.md; return the
    SHA-256 of metrics.json. The report is built from the metrics and the comparison, which
    runs.write_scored writes."""
    metrics_sha256 = write_metrics(run_dir, metrics)
    write_review_brief(run_dir, build_review_brief(record, cases, gate))
    atomic_write_text(run_dir / SUMMARY_FILE, render_summary(record, btype, metrics, cases))
    return metrics_sha256


# -- replacing a run's outputs as one step (see the module docstring) ---------------------------

def _rescore_prefix(run: Path) -> str:
    return f".{run.name}.rescore-"


def _remove_stale_rescores(run: Path) -> None:
    """Hidden rescore directories of this run that no living rescore holds (left by a kill)."""
    remove_unlocked(run.parent, _rescore_prefix(run), _remove_run_copy)


def _remove_run_copy(path: Path) -> None:
    """Remove a hidden copy of a run, run.json first so that what is left never reads as a run."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path / RUN_FILE)
    shutil.rmtree(path, ignore_errors=True)


def _link_entry(entry: os.DirEntry[str], target: Path) -> None:
    """Hard-link (copy where linking is not possible) a file or a tree into `target`; links are
    made again as links, never followed."""
    source = Path(entry.path)
    if entry.is_symlink():
        os.symlink(os.readlink(source), target)
    elif entry.is_dir(follow_symlinks=False):
        os.mkdir(target, 0o777)  # less the umask, like every directory of a run
        with os.scandir(source) as entries:
            for inner in entries:
                _link_entry(inner, target / inner.name)
    else:
        try:
            os.link(source, target, follow_symlinks=False)
        except OSError:
            shutil.copy2(source, target, follow_symlinks=False)


@contextlib.contextmanager
def staged_outputs(run_dir: Path) -> Iterator[Path]:
    """A hidden directory beside the run, holding everything of the run that a rescore does not
    write again; removed on the way out (after `swap_into_place` it holds the old set)."""
    run = Path(os.path.realpath(run_dir))
    _remove_stale_rescores(run)
    try:
        staged = Path(tempfile.mkdtemp(prefix=_rescore_prefix(run), dir=run.parent))
    except OSError as exc:
        raise EnviroBenchError(f"cannot rescore: no new set of outputs can be written beside the run ({exc.strerror})", file=run.parent) from None
    lock = os.open(staged, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        os.chmod(staged, os.stat(run).st_mode & 0o7777)
        with os.scandir(run) as entries:
            for entry in entries:
                if entry.name not in RESCORED_FILES and not (entry.name.startswith(".") and entry.name.endswith(".tmp")):
                    _link_entry(entry, staged / entry.name)
        yield staged
    finally:
        os.close(lock)
        _remove_run_copy(staged)


def swap_into_place(staged: Path, run_dir: Path) -> None:
    """Put the staged directory in the run's place as one step; the old set goes to `staged`."""
    run = Path(os.path.realpath(run_dir))
    if exchange_paths(staged, run):
        return
    aside = staged.with_name(staged.name + ".old")
    os.rename(run, aside)
    try:
        os.rename(staged, run)
    except OSError:
        os.rename(aside, run)
        raise
    os.rename(aside, staged)  # the old set, removed with the staged directory
