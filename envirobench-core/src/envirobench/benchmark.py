"""The benchmark type: what is measured, how a case is scored and how a run is summarised.

A type is one class deriving from `BenchmarkType` (docs/architecture.md, "Benchmark types"). Its
schemas are attrs classes read by the strict converter; its scores are `CaseScore`s keyed by
profile. Which category a type belongs to is not said here: `envirobench.categories` is the one
definition of the categories and their tasks.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Mapping, Sequence, Set
from functools import reduce
from operator import add, attrgetter, itemgetter
from typing import Any, ClassVar, Literal

import attrs

Scalar = str | int | float | bool | None
ErrorKey = tuple[Scalar, ...]
Tier = Literal["component", "document", "site"]

TIERS = ("component", "document", "site")
SCHEMA_NAMES = ("Input", "Answer", "Prediction")  # a type's schemas, by their class attribute names


@attrs.frozen
class CaseScore:
    """One case in one profile.

    `errors` are comparable values, so the same mistake in two runs is the same error; the gate
    works on them alone. `metrics` are numbers (counts or shares) used by `summarize`.
    """

    errors: tuple[ErrorKey, ...] = ()
    metrics: Mapping[str, float] = attrs.field(factory=dict)

    @property
    def correct(self) -> bool:
        return not self.errors

    def to_json(self) -> dict[str, Any]:
        return {"errors": [list(e) for e in self.errors], "metrics": dict(self.metrics)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CaseScore:
        return cls(errors=tuple(tuple(e) for e in data["errors"]), metrics=dict(data["metrics"]))


@attrs.frozen
class Case:
    """A case as a type sees it: ID, category, and the input structured into the type's class."""

    id: str
    category: str
    input: Any


@attrs.frozen
class Curve:
    """A line chart a type gives the report from a run's summary (e.g. a risk-coverage curve).

    Numbers only: core draws the SVG itself (report_curves.py), so a type never supplies markup.
    `points` are (x, y) pairs in the order the line joins them; `caption` says how to read it."""

    title: str
    x_label: str
    y_label: str
    points: tuple[tuple[float, float], ...]
    caption: str = ""


class BenchmarkType:
    """Base class of every benchmark type. Subclasses set the class attributes and score_case."""

    ID: ClassVar[str]
    FORMAT: ClassVar[str]
    LABEL: ClassVar[str]
    SCORING_VERSION: ClassVar[str]
    TIER: ClassVar[Tier]
    PROFILES: ClassVar[tuple[str, ...]]
    HEADLINE: ClassVar[tuple[str, ...]]
    VIEWER: ClassVar[str] = "json"
    # The input's fields that name the source files a case uses (each a dataset-relative path, or
    # a sequence of them), in order: what `source_files` returns unless a type overrides it.
    SOURCE_FIELDS: ClassVar[tuple[str, ...]] = ()
    # What `cluster` groups cases by, in words ("document"): recorded with the run's intervals.
    # Required when `cluster` is overridden.
    CLUSTER_UNIT: ClassVar[str | None] = None
    # A baseline's or control's per-case scores are read back from its metrics.json rather than
    # computed again (docs/runs.md, "What happens"), which pays when scoring a case costs more
    # than reading its score back, about 25 µs a case (docs/performance.md). A type whose scoring
    # is cheaper than that sets this False: its compared runs are always rescored.
    REUSE_SCORES: ClassVar[bool] = True

    Input: ClassVar[type]
    Answer: ClassVar[type]
    Prediction: ClassVar[type]

    REQUIRED = ("ID", "FORMAT", "LABEL", "SCORING_VERSION", "TIER", "PROFILES", "HEADLINE", "Input", "Answer", "Prediction")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A type's schemas are, unless it sets them, the classes its module names `Input`,
        `Answer` and `Prediction` (or those it inherits): the convention every category keeps, so
        that a type class does not name its own module's classes again."""
        super().__init_subclass__(**kwargs)
        module = sys.modules.get(cls.__module__)
        for name in SCHEMA_NAMES:
            schema = getattr(module, name, None)
            if not hasattr(cls, name) and isinstance(schema, type):
                setattr(cls, name, schema)

    def source_files(self, case_input: Any) -> Sequence[str]:
        """Dataset-relative paths of the source files a case's input uses (copied for the adapter):
        by default the paths its `SOURCE_FIELDS` hold."""
        paths: list[str] = []
        for name in self.SOURCE_FIELDS:
            value = getattr(case_input, name)
            if isinstance(value, str):
                paths.append(value)
            else:
                paths.extend(value)
        return tuple(paths)

    def check_prediction(self, case: Case, prediction: Any) -> None:
        """Refuse a prediction that is well formed but does not fit its case's input (a list of the
        wrong length, say) by raising ValueError with the reason; the run then fails as a technical
        failure naming the case, never a score. It sees the input only, never the answer, so a
        sealed run (answers on a scoring service) is checked the same way. Default: every
        well-formed prediction fits."""

    def score_case(self, case: Case, answer: Any, prediction: Any) -> Mapping[str, CaseScore | None]:
        """Score one case in every profile. A profile that cannot score this case maps to None."""
        raise NotImplementedError

    def summarize(self, profile: str, scores: Sequence[CaseScore]) -> dict[str, float]:
        """Headline metrics of one profile over a run (or over a resample of its cases: see
        docs/architecture.md, "Benchmark types"); it must not depend on the order of `scores`.

        By default `summarize_totals` of the sums of the per-case metrics, the mean of every
        metric unless that is overridden. A type whose headline is a function of those sums
        alone should override `summarize_totals` rather than this: its intervals are then
        computed from the sums, far faster on large runs. No scores: no headline ({})."""
        totals, count = metric_totals(scores)
        return self.summarize_totals(profile, totals, count) if count else {}

    def summarize_totals(self, profile: str, totals: Mapping[str, float], cases: int) -> dict[str, float]:
        """Headline metrics from the sum of each per-case metric over `cases` cases (a metric no
        case has is absent); used only while `summarize` is not overridden. Default: the means.
        Core calls it only with `cases` >= 1 (over no cases there is no headline: core gives
        {} itself), so an override needs no guard against dividing by zero."""
        return {name: total / cases for name, total in totals.items()}

    def cluster(self, case: Case) -> str | None:
        """The key of the cluster a case belongs to, when cases are not independent (the pages of
        one document, the tables of one report): intervals resample whole clusters. None (the
        default): the case is a cluster of its own. Name the unit in `CLUSTER_UNIT`."""
        return None

    def is_worse(self, profile: str, baseline: CaseScore, candidate: CaseScore) -> bool:
        """Did the candidate make a mistake the baseline did not make? (A regression.)"""
        if not candidate.errors or candidate.errors == baseline.errors:
            return False  # the common cases, without building sets
        return bool(set(candidate.errors) - set(baseline.errors))

    def disagree(self, profile: str, a: CaseScore, b: CaseScore) -> bool:
        """Do two runs disagree on a case? Used with controls to find unstable cases."""
        return a.errors != b.errors and set(a.errors) != set(b.errors)

    def curves(self, profile: str, summary: Mapping[str, float]) -> Sequence[Curve]:
        """Line charts for the report, drawn from one run's summary in `profile` (the metrics
        `summarize` returned, headline and the rest): one line per compared run. Default: none."""
        return ()

    @classmethod
    def describe(cls) -> dict[str, Any]:
        return {
            "id": cls.ID,
            "label": cls.LABEL,
            "format": cls.FORMAT,
            "scoring_version": cls.SCORING_VERSION,
            "tier": cls.TIER,
            "profiles": list(cls.PROFILES),
            "headline": list(cls.HEADLINE),
            "viewer": cls.VIEWER,
        }


def check_type_class(cls: Any) -> list[str]:
    """Problems that make a class unusable as a benchmark type (empty when fine)."""
    if not (isinstance(cls, type) and issubclass(cls, BenchmarkType)):
        return [f"{cls!r} is not a subclass of envirobench.BenchmarkType"]
    problems = [f"missing class attribute {name}" for name in BenchmarkType.REQUIRED if not hasattr(cls, name)]
    if problems:
        return problems
    if "CATEGORIES" in vars(cls):
        problems.append("CATEGORIES is not read: envirobench.categories says which category a task belongs to; remove it")
    if cls.TIER not in TIERS:
        problems.append(f"TIER must be one of {', '.join(TIERS)}, not {cls.TIER!r}")
    if not cls.PROFILES:
        problems.append("PROFILES must name at least one profile (the first is the default gate)")
    if not cls.HEADLINE:
        problems.append("HEADLINE must name at least one metric (the first is the primary measure)")
    for name in ("Input", "Answer", "Prediction"):
        if not attrs.has(getattr(cls, name)):
            problems.append(f"{name} must be an attrs class")
    if cls.score_case is BenchmarkType.score_case:
        problems.append("score_case is not implemented")
    if cls.cluster is not BenchmarkType.cluster and not cls.CLUSTER_UNIT:
        problems.append('cluster() is overridden: name what it groups cases by in CLUSTER_UNIT (e.g. "document")')
    return problems


def metric_totals(scores: Iterable[CaseScore]) -> tuple[dict[str, float], int]:
    """The sum of each metric over the scores (in order of first appearance), and their number.

    Each metric is added up one score after another, from 0.0, so the float is the same whatever
    path computes it. When every score has the same metrics (runs share equal score objects, so
    this is checked once per distinct object), a metric's values are added without a Python
    loop (`reduce(add, ...)`: the same additions in the same order)."""
    scores = scores if isinstance(scores, list) else list(scores)
    distinct = dict(zip(map(id, scores), scores, strict=True)).values()
    names = None
    for score in distinct:
        own = tuple(score.metrics)
        if names is None:
            names = own
        elif own != names:
            return _metric_totals(scores)
    all_metrics = map(attrgetter("metrics"), scores) if names is None or len(names) == 1 else list(map(attrgetter("metrics"), scores))
    return {name: reduce(add, map(itemgetter(name), all_metrics), 0.0) for name in names or ()}, len(scores)


def _metric_totals(scores: Iterable[CaseScore]) -> tuple[dict[str, float], int]:
    totals: dict[str, float] = {}
    count = 0
    for score in scores:
        count += 1
        for name, value in score.metrics.items():
            totals[name] = totals.get(name, 0.0) + value
    return totals, count


def mean_metrics(scores: Iterable[CaseScore]) -> dict[str, float]:
    totals, count = metric_totals(scores)
    return {name: total / count for name, total in totals.items()} if count else {}


def f1(tp: float, fp: float, fn: float) -> float:
    """F1 from pooled counts; 1.0 when there was nothing to find and nothing was claimed."""
    denominator = 2 * tp + fp + fn
    return 1.0 if denominator == 0 else 2 * tp / denominator


def share(numerator: float, denominator: float) -> float:
    return 1.0 if denominator == 0 else numerator / denominator


def precision_recall(prefix: str, tp: float, fp: float, fn: float) -> dict[str, float]:
    """`<prefix>_precision` and `<prefix>_recall` from pooled counts, each left out where it is
    undefined: precision when nothing was claimed, recall when there was nothing to find. (A
    system that claims nothing has no precision, not a perfect one; core shows a metric a run
    lacks as n/a.)"""
    out = {}
    if tp + fp:
        out[f"{prefix}_precision"] = tp / (tp + fp)
    if tp + fn:
        out[f"{prefix}_recall"] = tp / (tp + fn)
    return out


# The per-case counts of a matching, by their usual names; `set_counts` writes them and
# `pooled_f1` reads their run totals, so that a type states its matching rather than its counts.
TP_FP_FN = ("true_positives", "false_positives", "false_negatives")


def set_counts(truth: Set[Any], predicted: Set[Any], names: Sequence[str] = TP_FP_FN) -> dict[str, float]:
    """A case's counts of a set matching, as a CaseScore's metrics: the items in both (true
    positives), those predicted only (false positives) and those true only (false negatives),
    named by `names` in that order."""
    tp, fp, fn = names
    return {tp: float(len(truth & predicted)), fp: float(len(predicted - truth)), fn: float(len(truth - predicted))}


def pooled_f1(prefix: str, totals: Mapping[str, float], names: Sequence[str] = TP_FP_FN) -> dict[str, float]:
    """`<prefix>_f1` and `precision_recall`'s `<prefix>_precision` and `<prefix>_recall` from a
    run's totals of the true positive, false positive and false negative counts `names`: the
    three a type reports for one matching pooled over its cases."""
    tp, fp, fn = (totals[name] for name in names)
    return {f"{prefix}_f1": f1(tp, fp, fn), **precision_recall(prefix, tp, fp, fn)}


# -- field validators the types' schemas share (attrs validators: each raises ValueError naming the field)


def pdf_path(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    """A dataset-relative path that names a PDF file."""
    if not value.lower().endswith(".pdf"):
        raise ValueError(f"{attribute.name} must name a PDF file, got {value!r}")


def not_blank(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    """Text with more than white space in it."""
    if not value.strip():
        raise ValueError(f"{attribute.name} is empty")


def finite(value: float) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value)
