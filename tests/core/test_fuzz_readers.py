"""Fuzzing every reader of outside input with hypothesis: whatever the bytes, a reader gives a
value or a one-line refusal (an EnviroBenchError, a TechnicalFailure for what an adapter wrote),
never another exception. The example budget is fixed and the search derandomised, so CI runs the
same examples every time and stays fast; hypothesis shrinks a failure to its smallest input.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envirobench import (
    authoring,
    converter,
    datasets,
    jsonio,
    profiles,
    protocol,
    records,
    review,
    rundir,
    scoring,
)
from envirobench.errors import EnviroBenchError, TechnicalFailure
from envirobench.plugins import build_registry
from envirobench.testing import CountWords, toy_plugin, write_count_dataset

FUZZ = settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5), max_leaves=30)
# Text that looks like JSON, with the characters that break parsers: escapes (lone surrogates
# among them), brackets, quotes, control characters, non-ASCII.
TOKENS = [*'{}[]":,\\0123456789abcdefDEFnultrsx .-+eE\n\t\x00', "\\ud800", "\\udc00", "\\u00e9", "é", "\u2028", "true", "null", '""']
json_ish = st.lists(st.sampled_from(TOKENS), max_size=120).map("".join)
raw_bytes = st.binary(max_size=300)
deep = st.integers(min_value=1, max_value=200_000).map(lambda n: "[" * n + "]" * n)


def mutations(document: str) -> st.SearchStrategy[str]:
    """A valid document with a few characters replaced, inserted or cut."""

    def mutate(edits: list[tuple[int, str, int]]) -> str:
        text = document
        for position, insert, cut in edits:
            at = position % (len(text) + 1)
            text = text[:at] + insert + text[at + cut :]
        return text

    return st.lists(st.tuples(st.integers(0, 10_000), st.text(alphabet='{}[]":,0\\\x00ud8', max_size=3), st.integers(0, 3)), min_size=1, max_size=4).map(mutate)


def any_text(document: str) -> st.SearchStrategy[str]:
    return json_ish | deep | mutations(document) | json_values.map(lambda v: json.dumps(v, ensure_ascii=False))


def write(directory: Path, name: str, data: bytes | str) -> Path:
    path = directory / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
    return path


def refused_or_read(read, *, allowed=(EnviroBenchError,)):
    """Run a reader; a refusal of the allowed kind is an answer, any other exception fails."""
    with contextlib.suppress(*allowed):
        read()


MANIFEST = json.dumps({"format": "envirobench.dataset.v1", "id": "t/x", "version": 1, "benchmark": "count-words", "title": "x", "visibility": "public",
                       "files": [{"path": "cases.jsonl", "size": 1, "sha256": "0" * 64, "role": "cases"}], "input_digest": "sha256:0", "answer_digest": "sha256:0"})
RESULT = json.dumps({"id": "count-words", "status": "completed", "format": "envirobench.count-words.v1", "data": "predictions.json",
                     "adapter": {"name": "a", "version": "1"}, "systems": [{"role": "candidate", "model": "m", "cost_usd": 0.0, "execution_failures": 0, "unpriced_attempts": 0}]})


@FUZZ
@given(st.one_of(any_text(MANIFEST), raw_bytes))
def test_json_documents_read_or_are_refused(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = write(Path(tmp), "doc.json", data)
        refused_or_read(lambda: jsonio.read_json(path))
        refused_or_read(lambda: list(jsonio.iter_jsonl(path)))


@FUZZ
@given(st.one_of(any_text(MANIFEST), raw_bytes))
def test_manifests_read_or_are_refused(data):
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp), "manifest.json", data)
        refused_or_read(lambda: datasets.read_manifest(Path(tmp)))


@FUZZ
@given(st.lists(st.one_of(any_text('{"id": "c000000", "category": "short", "input": {"text": "word"}}'), raw_bytes), min_size=1, max_size=4))
def test_case_lines_of_a_pinned_dataset_read_or_are_refused(lines):
    with tempfile.TemporaryDirectory() as tmp:
        root = write_count_dataset(Path(tmp) / "ds", 2)
        with (root / "cases.jsonl").open("ab") as cases:
            for line in lines:
                cases.write((line if isinstance(line, bytes) else line.encode("utf-8", "surrogatepass")).replace(b"\n", b" ") + b"\n")
        authoring.write_manifest(root, dataset_id="test/count-words-v1", version=1, benchmark=CountWords.ID, title="fuzz")
        registry = build_registry(extra=[("toy", toy_plugin())])
        refused_or_read(lambda: datasets.validate_contents(root, registry))


RECORDS = (records.Manifest, protocol.AdapterResult, protocol.AdapterRequest, rundir.RunRecord, rundir.Metrics, rundir.ReviewBrief, review.Interpretation, profiles.BenchProfile, profiles.ProfileOverlay)


@FUZZ
@given(st.sampled_from(RECORDS), json_values | json_values.map(lambda v: {"format": "x", "id": v, "files": [v], "runs": v, "profiles": {"p": v}}))
def test_every_record_structures_or_is_refused_with_a_field(cls, value):
    try:
        converter.structure(value, cls, file="fuzz.json")
    except EnviroBenchError as exc:
        assert exc.field and exc.field.startswith("$") and "\n" not in exc.message


@FUZZ
@given(st.one_of(any_text(RESULT), any_text('{"c000000": {"count": 1}}'), raw_bytes))
def test_what_an_adapter_wrote_parses_or_is_a_technical_failure(data):
    payload = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
    refused_or_read(lambda: scoring.parse_output_json(payload, Path("predictions.json"), refuse_duplicates=True), allowed=(TechnicalFailure,))


@FUZZ
@given(st.one_of(any_text('{"format": "envirobench.interpretation.v1", "run_id": "r", "status": "draft", "findings": []}'), raw_bytes))
def test_interpretations_give_problems_never_exceptions(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = write(Path(tmp), "interpretation.json", data)
        value, problems = review.check_interpretation_file(path, ["c1"], run_id="r", profiles=["p"])
        assert (value is None) == bool(problems)


@FUZZ
@given(st.one_of(any_text('{"format": "envirobench.bench.v1", "benchmark": "b", "dataset": "d", "adapter": "a", "adapters": {}, "store": "s"}'), raw_bytes))
def test_profiles_read_or_are_refused(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = write(Path(tmp), "bench.json", data)
        refused_or_read(lambda: profiles.load_profile(path))
