"""jsonio reads and writes through orjson where orjson gives exactly what the standard library's
json gives, and through json everywhere else: these hold every fast path to json, value for
value and byte for byte, refusals included (jsonio's docstring lists where they differ).
"""

from __future__ import annotations

import json
import math
import random
import struct
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envirobench import jsonio
from envirobench.errors import EnviroBenchError

FUZZ = settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# The floats orjson spells otherwise than json (below 1e-4) and every other kind, big integers
# beyond 64 bits, strings with every escape and lone surrogates.
floats = st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([1e-05, -1e-05, 1e-07, 2.5e-09, 1e-10, 5e-324, 1e16, 1e22, 0.0001, -0.0, 1.0])
strings = st.text(max_size=12) | st.text(alphabet="\x00\x1f\x7f\"\\/\u2028é\ud800e-0.0000null", max_size=12)
scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | floats | strings
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner) | st.dictionaries(strings, inner, max_size=5), max_leaves=30)
TOKENS = [*'{}[]":,\\0123456789abcdefDEFnultrsx .-+eE\n\t\r\x00', "\\ud800", "\\udc00", "\\u00e9", "é", "\ufeff", "NaN", "1e400", "9" * 20, "true", "null", '""']
json_ish = st.lists(st.sampled_from(TOKENS), max_size=80).map("".join)


def json_dumps(value, indent=2):
    """jsonio.dumps as it was (json alone)."""
    return json.dumps(value, indent=indent, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"


def json_line(value):
    return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"


def outcome(make, *args):
    """What a writer or reader gives: its result, or the kind of its refusal and its words."""
    try:
        return "value", make(*args)
    except (ValueError, TypeError, RecursionError) as exc:
        return type(exc).__name__, str(exc)


def same_value(got, expected) -> bool:
    """Equal, and equal in kind (1, 1.0 and True differ) and order: json's own text of each."""
    return json.dumps(got) == json.dumps(expected)


@FUZZ
@given(values)
def test_dumps_and_dumps_line_are_json_byte_for_byte(value):
    assert outcome(jsonio.dumps, value) == outcome(json_dumps, value)
    assert outcome(jsonio.dumps_line, value) == outcome(json_line, value)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), {"a": [1, float("nan")]}, [None, float("inf")]])
def test_nan_and_infinity_are_refused_as_json_refuses_them(value):
    """orjson writes them as null; jsonio never does."""
    for dump in (jsonio.dumps, jsonio.dumps_line):
        with pytest.raises(ValueError, match="Out of range float values are not JSON compliant"):
            dump(value)


def test_every_float_is_spelled_as_json_spells_it():
    """orjson's shortest digits are json's; where its spelling differs (below 1e-4) json writes."""
    rng = random.Random(5)
    for _ in range(20_000):
        bits = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        for x in (bits, rng.random() * 10.0 ** rng.randint(-12, 20)):
            if math.isfinite(x):
                assert jsonio.dumps_line([x]) == f"[{x!r}]\n"


def test_orjson_does_the_common_work():
    """Not json in disguise: a plain document is orjson's text (the fast path is taken)."""
    value = {"id": "c1", "input": {"text": "a b", "n": [1, 2.5]}, "flag": True}
    assert jsonio.fast_dumps(value, jsonio._LINE) == orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE)
    assert jsonio.fast_dumps({"a": None}, jsonio._LINE) is None  # null: json checks it for NaN
    assert jsonio.fast_dumps([1e-05], jsonio._LINE) is None and jsonio.fast_dumps(["page-1", 10.00001], jsonio._LINE) is not None
    assert jsonio.fast_loads(b'{"a": [1, 2.5]}') == {"a": [1, 2.5]}
    assert jsonio.fast_loads(b"[12345678901234567890123]") is jsonio._NOT_READ  # orjson would give a float


@FUZZ
@given(json_ish | values.map(lambda v: json.dumps(v, ensure_ascii=False)))
def test_loads_is_json_value_for_value_and_refusal_for_refusal(text):
    """`object_pairs_hook=dict` takes json's way: the reference."""
    got, expected = outcome(jsonio.loads, text), outcome(lambda t: jsonio.loads(t, object_pairs_hook=dict), text)
    assert got[0] == expected[0]
    assert same_value(got[1], expected[1]) if got[0] == "value" else got == expected


def test_deep_nesting_big_numbers_and_surrogates_read_as_before():
    assert jsonio.loads("[123456789012345678901234567890, -9223372036854775809]") == [123456789012345678901234567890, -9223372036854775809]
    assert jsonio.loads("1e400") == math.inf
    with pytest.raises(jsonio.JSONInputError, match="nested too deeply"):
        jsonio.loads("[" * 100_000 + "]" * 100_000)
    with pytest.raises(jsonio.JSONInputError, match="lone surrogate") as info:
        jsonio.loads('{"a": ["x", "\\udc00"]}')
    assert info.value.field == "$.a[1]"
    with pytest.raises(json.JSONDecodeError, match="Expecting value"):  # json's words, never orjson's
        jsonio.loads("[1,]")


@FUZZ
@given(st.lists(json_ish | values.map(lambda v: json.dumps(v, ensure_ascii=False)), max_size=6))
def test_iter_jsonl_reads_each_line_as_the_checked_reader_does(tmp_path_factory, lines):
    """Line by line: orjson's value where it reads one, else the checked way's value or refusal
    (the same EnviroBenchError, with the file and the line)."""
    path = Path(tmp_path_factory.mktemp("jsonl")) / "x.jsonl"
    text = "\n".join(line.replace("\n", " ").replace("\r", " ") for line in lines) + "\n"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    expected: list = []
    try:
        for number, raw in enumerate(path.read_bytes().split(b"\n")[:-1], start=1):
            if not (raw + b"\n").isspace():
                expected.append((number, jsonio.parse_json(jsonio._decode_line(raw + b"\n", path, number), file=path, line=number)))
    except EnviroBenchError as exc:
        expected.append(str(exc))
    got: list = []
    try:
        got.extend(jsonio.iter_jsonl(path))
    except EnviroBenchError as exc:
        got.append(str(exc))
    assert json.dumps(got) == json.dumps(expected)


def test_read_json_reads_bytes_and_names_problems_as_before(tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(b'{"a": [1, 2]}')
    assert jsonio.read_json(path) == {"a": [1, 2]}
    path.write_bytes(b'{"a": [1, 2]')
    with pytest.raises(EnviroBenchError, match=r"not valid JSON: Expecting ',' delimiter \(column 13\)"):
        jsonio.read_json(path)
    path.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(EnviroBenchError, match="not UTF-8 text"):
        jsonio.read_json(path)


@FUZZ
@given(values)
def test_dumps_compact_is_json_in_the_keys_own_order(value):
    """The report's data: json's compact text, keys unsorted (refusals json's)."""
    def json_compact(v):
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"), allow_nan=False)

    assert outcome(jsonio.dumps_compact, value) == outcome(json_compact, value)
