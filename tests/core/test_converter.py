from __future__ import annotations

import attrs
import pytest

from envirobench.converter import structure
from envirobench.errors import EnviroBenchError


@attrs.frozen
class Inner:
    start: int
    end: int


@attrs.frozen
class Outer:
    name: str
    ratio: float
    flag: bool
    bands: tuple[Inner, ...]
    tags: list[str] = attrs.field(factory=list)
    extra: dict[str, int] = attrs.field(factory=dict)
    note: str | None = None


GOOD = {"name": "a", "ratio": 1, "flag": True, "bands": [{"start": 1, "end": 2}]}


def test_good_value_structures_with_int_accepted_as_float():
    value = structure(GOOD, Outer)
    assert value.ratio == 1.0 and isinstance(value.ratio, float)
    assert value.bands == (Inner(1, 2),)


@pytest.mark.parametrize(
    ("patch", "field", "fragment"),
    [
        ({"name": 3}, "$.name", "expected a string"),
        ({"ratio": "0.5"}, "$.ratio", "expected a number"),
        ({"ratio": True}, "$.ratio", "expected a number"),
        ({"flag": 1}, "$.flag", "expected true or false"),
        ({"bands": [{"start": "3", "end": 2}]}, "$.bands[0].start", "expected an integer"),
        ({"bands": [{"start": 1.0, "end": 2}]}, "$.bands[0].start", "expected an integer"),
        ({"bands": "ab"}, "$.bands", "expected an array"),
        ({"tags": "x"}, "$.tags", "expected an array"),
        ({"extra": [["a", 1]]}, "$.extra", "expected an object"),
        ({"extra": {"a": "1"}}, "$.extra['a']", "expected an integer"),
        ({"note": 5}, "$.note", ""),
        ({"bands": [{"start": 1, "end": 2, "mid": 1}]}, "$.bands[0]", "unknown field(s) mid"),
        ({"surprise": 1}, "$", "unknown field(s) surprise"),
    ],
)
def test_strict_errors_name_the_field(patch, field, fragment):
    with pytest.raises(EnviroBenchError) as info:
        structure({**GOOD, **patch}, Outer, file="x.json", line=4)
    err = info.value
    assert err.file == "x.json" and err.line == 4
    assert err.field == field
    assert fragment in err.message


def test_missing_field_named():
    data = dict(GOOD)
    del data["flag"]
    with pytest.raises(EnviroBenchError) as info:
        structure(data, Outer)
    assert info.value.field == "$.flag"
    assert "required field missing" in info.value.message


def test_not_an_object():
    with pytest.raises(EnviroBenchError, match="expected an object, got an array"):
        structure([1], Outer)


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"name": "a\ud800"}, "$.name"),
        ({"tags": ["ok", "\udfff"]}, "$.tags[1]"),
        ({"extra": {"k\udc00": 1}}, "$.extra['k\\udc00']"),
        ({"note": "\ud83d"}, "$.note"),
    ],
)
def test_text_that_cannot_be_encoded_is_refused_where_it_is(patch, field):
    # A lone surrogate reads from JSON ("\ud800" escaped) but fails every later write.
    with pytest.raises(EnviroBenchError) as info:
        structure({**GOOD, **patch}, Outer, file="x.json", line=2)
    assert info.value.field == field and "lone surrogate" in info.value.message
    str(info.value).encode("utf-8")  # the message itself is printable


def test_text_beyond_ascii_is_fine():
    assert structure({**GOOD, "name": "µg/L \U0001f600"}, Outer).name == "µg/L \U0001f600"


@attrs.frozen
class Node:
    child: Node | None = None


def test_a_value_nested_too_deeply_for_a_recursive_class():
    value: dict | None = None
    for _ in range(5000):
        value = {"child": value}
    with pytest.raises(EnviroBenchError) as info:
        structure(value, Node, file="x.json")
    assert info.value.field == "$" and info.value.message == "nested too deeply to read"
