"""The run directory's large records as JSON text, written in pieces: metrics.json and comparison.json.

The generic converter walks every attribute of every object, and the text of a 100,000-case
metrics.json is over a hundred megabytes. These give the text of `dumps(unstructure(record),
indent=None)` (a test holds them to it) case by case, converting each shared score once (runs
intern equal scores, so most cases share a handful) and never holding the whole text.

Split from rundir.py, which says what a run directory holds (its record classes); this module
says how the largest of them are written fast; it imports rundir, never the other way round.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from .converter import unstructure
from .jsonio import atomic_write_chunks, dumps_member, stream_document
from .rundir import COMPARISON_FILE, METRICS_FILE, CaseMetrics, Comparison, ComparisonCase, Metrics

if TYPE_CHECKING:
    from .benchmark import CaseScore
    from .protocol import AdapterRequest


def write_metrics(run_dir: Path, metrics: Metrics) -> str:
    """Write metrics.json and return its SHA-256 (run.json's `metrics_sha256`). Compact, and in
    pieces: a 100,000-case run has hundreds of thousands of scores."""
    return atomic_write_chunks(Path(run_dir) / METRICS_FILE, metrics_text(metrics))


def write_comparison(run_dir: Path, comparison: Comparison, batches: Iterable[Sequence[ComparisonCase]] | None = None) -> None:
    """comparison.json; `batches`, when given, are its cases in order, a batch at a time (a run
    passes the batches it also encodes for the report, so each case is made once)."""
    atomic_write_chunks(Path(run_dir) / COMPARISON_FILE, comparison_text(comparison, batches))


def metrics_text(metrics: Metrics) -> Iterator[str]:
    head = unstructure(attrs.evolve(metrics, cases={}))
    return stream_document(head, "cases", _cases_text(metrics))


def _cases_text(metrics: Metrics) -> Iterator[str]:
    # Most cases share their scores (scoring.SharedScores: one object per distinct score, one
    # {profile: score} mapping per distinct combination), so the text of each is made once and
    # joined, not encoded again for every case. Keys are by id(): every object stays alive in
    # `metrics` while this runs. The caches are bounded: a type whose every score differs
    # gains nothing from them and must not hold a second copy of the file.
    score_text: dict[int, str] = {}
    by_profile_text: dict[tuple[int, ...], str] = {}

    def score(value: CaseScore | None) -> str:
        if value is None:
            return "null"
        found = score_text.get(id(value))
        if found is None:
            found = _keep(score_text, id(value), dumps_member(value.to_json()), _TEXT_CACHE)
        return found

    def by_profile(scores: Mapping[str, CaseScore | None]) -> str:
        key = tuple(id(s) for s in scores.values()) + tuple(map(id, scores))
        found = by_profile_text.get(key)
        if found is None:
            members = ", ".join(f"{dumps_member(p)}: {score(s)}" for p, s in sorted(scores.items()))
            found = _keep(by_profile_text, key, "{" + members + "}", _TEXT_CACHE)
        return found

    small_text: dict[Any, str] = {}  # labels, categories and buckets: usually a handful of distinct values

    def small(value: Any) -> str:
        found = small_text.get(value)
        if found is None:
            found = _keep(small_text, value, dumps_member(value if not isinstance(value, tuple) else dict(value)), _TEXT_CACHE)
        return found

    # A case's {label: {profile: score}} and {profile: bucket} mappings are usually shared by
    # many cases (outputs.build_metrics): the text of a case after its ID is kept by the two
    # mappings (alive in `metrics`) and its category, so most cases only join it to their ID.
    entry_text: dict[tuple[int, int, str], str] = {}

    def entry(value: CaseMetrics) -> str:
        key = (id(value.runs), id(value.bucket), value.category)
        found = entry_text.get(key)
        if found is None:
            runs = ", ".join(f"{small(label)}: {by_profile(scores)}" for label, scores in sorted(value.runs.items()))
            bucket = small(tuple(value.bucket.items()))
            found = _keep(entry_text, key, f'{{"bucket": {bucket}, "category": {small(value.category)}, "runs": {{{runs}}}}}', _CASE_CACHE)
        return found

    def name(cid: str) -> str:
        return f'"{cid}"' if (cid.isascii() and cid.isalnum()) or _PLAIN.fullmatch(cid) else dumps_member(cid)

    def batch_text(batch: Sequence[str]) -> str:
        plain = all(map(str.isascii, batch)) and all(map(str.isalnum, batch))  # the usual IDs: quoted as they are
        names = map('"{}"'.format, batch) if plain else map(name, batch)
        return "{" + ", ".join(map("{}: {}".format, names, map(entry, map(metrics.cases.__getitem__, batch)))) + "}"

    yield from _in_batches(sorted(metrics.cases), batch_text)  # sorted, as dumps orders the keys


def _keep(texts: dict[Any, str], key: Any, text: str, limit: int) -> str:
    """Keep `text` under `key` in a bounded cache of texts (emptied when it holds `limit`)."""
    if len(texts) >= limit:
        texts.clear()
    texts[key] = text
    return text


_PLAIN = re.compile(r"[A-Za-z0-9_.:@+-]*")  # a string json writes as it is, between quotes
_TEXT_CACHE = 50_000  # texts of distinct scores (and of their combinations) kept while writing metrics.json
_CASE_CACHE = 1_000  # texts of cases' shared mappings of runs and buckets


def request_text(request: AdapterRequest) -> str:
    """adapter-request.json's text, `dumps(unstructure(request), indent=None)` (a test holds it
    to that): its cases, a thousand at a time, as plain dicts, not through the converter one
    RequestCase at a time (a 100,000-case request is megabytes)."""
    head = unstructure(attrs.evolve(request, cases=()))
    as_dicts = _as_dicts(("id", "input"))
    return "".join(stream_document(head, "cases", _in_batches(request.cases, lambda batch: dumps_member(as_dicts(batch)))))


def comparison_text(comparison: Comparison, batches: Iterable[Sequence[ComparisonCase]] | None = None) -> Iterator[str]:
    head = unstructure(attrs.evolve(comparison, cases=()))
    as_dicts = _as_dicts(("id", "category", "input", "answer", "predictions"))
    batches = comparison_batches(comparison) if batches is None else batches
    return stream_document(head, "cases", _joined(dumps_member(as_dicts(batch)) for batch in batches))


def comparison_batches(comparison: Comparison) -> Iterator[Sequence[ComparisonCase]]:
    """The comparison's cases in order, a batch at a time (a new run's cases are made as they are
    sliced: outputs.ComparisonCases)."""
    return in_slices(comparison.cases)


def in_slices(items: Sequence[Any], size: int = 1000) -> Iterator[Sequence[Any]]:
    """`items` in order, `size` at a time: the batches the large records are read and written in."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _as_dicts(fields: tuple[str, ...]) -> Callable[[Sequence[Any]], list[dict[str, Any]]]:
    """A batch of records as the dicts the converter makes of them, for records whose `fields`
    (two or more) are already plain JSON values: read with one attrgetter, not through the
    converter's per-attribute dispatch record by record (the reason it is fast)."""
    values = attrgetter(*fields)
    return lambda batch: [dict(zip(fields, values(record), strict=True)) for record in batch]


def _in_batches(items: Sequence[Any], text_of: Callable[[Sequence[Any]], str], size: int = 1000) -> Iterator[str]:
    """The JSON text of an object or array whose members are `items`, a batch at a time: each batch
    is dumped as one object or array and its braces are joined to the next."""
    if not items:
        return iter([text_of(items)])
    return _joined(map(text_of, in_slices(items, size)))


def _joined(texts: Iterable[str], empty: str = "[]") -> Iterator[str]:
    """One JSON array (or object) in pieces from the texts of consecutive non-empty ones: `[a, b]`
    and `[c]` give `[a, b, c]`; `empty` when there are none."""
    close = None
    for text in texts:
        yield text[:-1] if close is None else ", " + text[1:-1]
        close = text[-1]
    yield empty if close is None else close
