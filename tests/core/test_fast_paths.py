"""The fast paths of a run's per-case work give exactly what the strict, general paths give.

Each fast path takes only what it is sure of and hands everything else to the general path (the
strict converter, the checked JSON reader): these tests hold them together on good and bad input.
"""

from __future__ import annotations

import itertools
import json
import random
import typing
from typing import Any

import attrs
import pytest

from envirobench import jsonio, scoring
from envirobench.converter import MISS, converter, fast_structurer, structure
from envirobench.errors import EnviroBenchError
from envirobench.records import AnswerRecord, CaseRecord
from envirobench.rundir import CaseCounts, RunRef
from envirobench.testing import CountPrediction


@attrs.frozen
class Mixed:
    name: str
    share: float
    flag: bool
    extra: dict[str, Any]
    inner: RunRef | None = None
    count: int = 3


VALUES = [
    None, 0, 1, -7, 2**70, 1.5, 2.0, True, False, "", "x", "caf\u00e9", "\ud800", "a:b", [], [1], {}, {"a": 1},
    {"\ud800": 1}, {"caf\u00e9": [1]},
]


def candidates(cls: type) -> list[object]:
    """Objects with the class's keys, each given every value, plus missing, extra and odd keys."""
    names = [f.name for f in attrs.fields(cls)]
    hints = typing.get_type_hints(cls)
    good = {n: _good(hints[n]) for n in names}
    out: list[object] = [good, dict(reversed(list(good.items()))), None, [], "x", {**good, "other": 1}]
    for name in names:
        out.append({k: v for k, v in good.items() if k != name})
        out.extend({**good, name: value} for value in VALUES)
    return out


def _good(hint: object) -> object:
    if RunRef in typing.get_args(hint):
        return {"label": "baseline", "run_id": "b", "path": "/p"}
    if typing.get_origin(hint) is dict:
        return {"k": [1, {"z": None}]}
    plain = next((a for a in typing.get_args(hint) if a is not type(None)), hint)  # X | None: X
    return {str: "s", int: 4, float: 0.5, bool: True}[plain]


@pytest.mark.parametrize("cls", [CaseRecord, AnswerRecord, RunRef, CaseCounts, CountPrediction, Mixed])
def test_the_fast_structurer_takes_only_what_the_converter_takes_and_makes_the_same(cls):
    fast = fast_structurer(cls)
    assert fast is not None
    taken = 0
    for value in candidates(cls):
        made = fast(value)
        try:
            expected = converter.structure(value, cls)
        except Exception:  # noqa: BLE001 - refused by the converter: the fast path must not take it
            assert made is MISS, value
            continue
        if made is not MISS:
            taken += 1
            assert made == expected and type(made) is type(expected)
            assert [type(getattr(made, f.name)) for f in attrs.fields(cls)] == [type(getattr(expected, f.name)) for f in attrs.fields(cls)]
        assert structure(value, cls) == expected  # located structuring, fast or not
    assert taken > 0


def test_a_refused_value_keeps_the_converters_message():
    with pytest.raises(EnviroBenchError) as fast_way:
        structure({"id": "c1", "category": 3, "input": {}}, CaseRecord, file="cases.jsonl", line=4)
    assert fast_way.value.field == "$.category" and fast_way.value.line == 4 and "expected a string" in fast_way.value.message


def _documents(rng: random.Random, n: int) -> list[str]:
    keys = ["a", "b", "a:b", "c", ":"]
    texts = []
    for _ in range(n):
        def value(depth: int) -> str:
            kind = rng.random()
            if depth > 3 or kind < 0.3:
                return rng.choice(['1', '"x"', '"y:z"', 'null', '"::"', '2.5'])
            if kind < 0.6:
                return "[" + ", ".join(value(depth + 1) for _ in range(rng.randint(0, 3))) + "]"
            members = [f'{json.dumps(rng.choice(keys))} : {value(depth + 1)}' for _ in range(rng.randint(0, 4))]
            return "{" + ",".join(members) + "}"
        texts.append(value(0))
    return texts


def _checked_way(text: str) -> object:
    try:
        return ("value", jsonio.loads(text, object_pairs_hook=scoring._refuse_duplicate_keys))
    except ValueError as exc:
        return ("refused", type(exc).__name__)


def test_duplicate_keys_are_found_without_the_hook_exactly_when_the_hook_finds_them(tmp_path):
    rng = random.Random(20)
    for text in itertools.chain(_documents(rng, 3000), ['{"a": 1, "a": 2}', '{"x": {"a:": 1, "a:": 1}}', '{"a": "\\u003a"}', '["\\u003a", {"a": 1}]']):
        expected = _checked_way(text)
        found = scoring._without_duplicates(text, jsonio.loads(text)) if "\\u003" not in text else None
        if found is not None:
            assert found == (expected[0] == "value"), text
        path = tmp_path / "predictions.json"
        try:
            got = ("value", scoring.parse_output_json(text.encode(), path, refuse_duplicates=True))
        except scoring.TechnicalFailure as exc:
            got = ("refused", exc.message)
        assert got[0] == expected[0], text
        if got[0] == "value":
            assert got[1] == expected[1] and json.dumps(got[1]) == json.dumps(expected[1])
        else:
            assert "appears more than once" in got[1]


def test_too_deep_documents_are_still_refused(tmp_path):
    for depth, refused in ((64, False), (65, True)):
        text = '{"a": ' * depth + "1" + "}" * depth
        if refused:
            with pytest.raises(scoring.TechnicalFailure, match="nested deeper"):
                scoring.parse_output_json(text.encode(), tmp_path / "p.json", refuse_duplicates=True)
        else:
            scoring.parse_output_json(text.encode(), tmp_path / "p.json", refuse_duplicates=True)


@pytest.mark.parametrize("line", ['{"a": 1}', ' {"a": 1}', '{"a": 1} ', '{"a": 1}\r', '\t[1, 2]\t', '"x"', "3", '{"a": 1} x', '{"a": 1}{}', "nul", '{"a": 1',
                                  '{"a": NaN}', "\x0c{}"])
def test_a_jsonl_line_reads_as_decode_reads_it(tmp_path, line):
    path = tmp_path / "lines.jsonl"
    path.write_bytes((line + "\n").encode())
    try:
        expected = ("value", jsonio.parse_json(line + "\n", file=path, line=1))
    except EnviroBenchError as exc:
        expected = ("refused", exc.message)
    try:
        got = ("value", [v for _, v in jsonio.iter_jsonl(path)][0])
    except EnviroBenchError as exc:
        got = ("refused", exc.message)
    assert got == expected


def test_metric_totals_add_each_metric_case_by_case_whichever_path():
    from envirobench.benchmark import CaseScore, _metric_totals, metric_totals

    rng = random.Random(19)
    for _ in range(300):
        one = [CaseScore((), {"a": rng.choice([rng.random(), 1e16, -3, 2.5, -0.0])}) for _ in range(4)]
        two = [CaseScore((), {"a": rng.random(), "b": rng.random()}) for _ in range(3)]
        for pool in (one, two, two + [CaseScore((), {"b": 1.0})], [CaseScore(), *one]):
            scores = [rng.choice(pool) for _ in range(rng.randint(0, 40))]
            assert metric_totals(scores) == _metric_totals(scores)
            assert list(metric_totals(scores)[0]) == list(_metric_totals(scores)[0])  # first appearance


def test_a_runs_headlines_from_counted_scores_are_the_case_by_case_summary():
    """summarize_run adds up whole-number metrics from each distinct score's number of cases
    (statistics.counted_totals): exactly the floats, in the order of names, that summarize gives
    adding case by case; fractions, huge sums, other metric names, NaN, booleans and a profile
    some case lacks take the case-by-case path."""
    from envirobench.benchmark import CaseScore
    from envirobench.pairing import summarize_run
    from envirobench.scoring import SharedScores
    from envirobench.testing import CountWords

    btype = CountWords()
    rng = random.Random(23)
    values = [0.0, 1.0, -0.0, 3, -2, 0.5, 2.0**52, 2.0**60, float("nan"), True, 7.0]
    for _ in range(300):
        pool = [CaseScore((("e", k),) * rng.randint(0, 1), {"accuracy": rng.choice(values), **({"b": 1.0} if rng.random() < 0.1 else {})})
                for k in range(rng.randint(1, 4))]
        shared = SharedScores(btype.PROFILES)
        ids = [f"c{i}" for i in range(rng.randint(0, 60))]
        scores = {cid: shared.case([rng.choice(pool), rng.choice(pool + [None] * (rng.random() < 0.2))]) for cid in ids}
        got = summarize_run(btype, ids, scores)
        for profile in btype.PROFILES:
            column = [scores[cid][profile] for cid in ids]
            if any(s is None for s in column):
                assert got[profile] is None
                continue
            expected = btype.summarize(profile, column)
            assert json.dumps(got[profile]) == json.dumps(expected)  # the same floats (NaN included), the same order


def test_distinct_keeps_each_object_once_by_identity_in_order():
    """identity.distinct: equal objects that are not one stay apart; one object seen twice is one."""
    from envirobench.identity import distinct

    a, b, c = [1], [1], [2]
    assert list(distinct([a, c, b, a, c]).values()) == [a, c, b]
    assert [id(x) for x in distinct([a, c, b, a, c]).values()] == [id(a), id(c), id(b)]
    assert distinct([]) == {}
