"""datasets.HeldValues: a dataset's answers and a compared run's predictions held compactly give,
on every look-up, exactly the value validation (or reading the predictions) made."""

from __future__ import annotations

import math

import attrs

from envirobench.datasets import HeldValues, structurer_of


@attrs.frozen
class Band:
    start: int
    end: int


@attrs.frozen
class Nested:
    rows: tuple[int, ...]
    bands: tuple[Band, ...]
    note: str | None = None


@attrs.frozen
class Flat:
    count: int


def held(cls: type, raws: dict[str, object]) -> HeldValues:
    make = structurer_of(cls)
    values = HeldValues(make)
    for key, raw in raws.items():
        values.hold(key, make(raw), raw)
    return values


def test_nested_values_come_back_equal_and_in_order() -> None:
    raws = {
        "b": {"rows": [300, 1000], "bands": [{"start": 1, "end": 2}], "note": None},
        "a": {"rows": [], "bands": [{"start": 5, "end": 9}, {"start": 10, "end": 12}], "note": "é \u2028"},
    }
    values = held(Nested, raws)
    assert list(values) == ["b", "a"] and len(values) == 2
    assert values["b"] == Nested((300, 1000), (Band(1, 2),), None)
    assert values["a"] == Nested((), (Band(5, 9), Band(10, 12)), "é \u2028")
    assert "a" in values and "c" not in values and values.get("c") is None
    assert dict(values.items()) == {"b": values["b"], "a": values["a"]}


def test_what_json_text_would_not_give_back_is_held_as_made() -> None:
    @attrs.frozen
    class Floats:
        values: tuple[float, ...]

    # 1e400 reads as infinity, which orjson writes as null; 2**70 is beyond orjson's integers.
    values = held(Floats, {"inf": {"values": [math.inf, -0.0]}, "big": {"values": [2**70]}})
    assert values["inf"].values[0] == math.inf and math.copysign(1.0, values["inf"].values[1]) == -1.0
    assert values["big"].values == (2**70,)


def test_flat_values_are_the_objects_made() -> None:
    made = Flat(3)
    values = HeldValues(structurer_of(Flat))
    values.hold("c1", made, {"count": 3})
    assert values["c1"] is made
