"""Which predictions are the same value as another run's, so that their scores can be taken from it.

A type's `score_case` is a function of the case, its answer and the prediction: rescoring must
reproduce a run byte for byte (docs/architecture.md, "Benchmark types"). So a case whose
prediction is the same value as the one another run scored, on the same case and answer, scores
the same, and `scoring.score_run(like=...)` takes that run's score instead of scoring it again: a
candidate, and the controls, whose predictions mostly did not change since the baseline are
scored only where they changed.

"The same value" is stricter than `==`, which takes 1, 1.0 and True for one another and 0.0 for
-0.0, and a record's own `__eq__` may say anything: the same types all the way down; equal str,
int and bool and None; floats equal with the same sign (NaN never); lists and tuples of such;
dicts of such with the same keys in the same order; attrs records of such, field by field. Any
other value is the same only as itself. For a record class whose attrs-made `__eq__` already
compares exactly that way (fields of str, int, bool, None, such records and lists or tuples of
them), `==` is used: in C but for one generated method a case.
"""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Sequence
from operator import eq
from typing import Any

import attrs

_SCALARS = frozenset({str, int, bool, type(None)})  # == on two of one of these types is the same value


def same_value(a: Any, b: Any) -> bool:
    """Whether `a` and `b` are the same value (see above)."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind in _SCALARS:
        return bool(a == b)
    if kind is float:
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if kind is list or kind is tuple:
        return len(a) == len(b) and all(map(same_value, a, b))
    if kind is dict:
        return len(a) == len(b) and all(map(same_value, a, b)) and all(map(same_value, a.values(), b.values()))
    names = _field_names(kind)
    return names is not None and all(same_value(getattr(a, name), getattr(b, name)) for name in names)


def unchanged(ours: Sequence[Any], theirs: Sequence[Any]) -> list[bool]:
    """For each position, whether our value is the same value as theirs."""
    kinds = set(map(type, ours)) | set(map(type, theirs))
    if len(kinds) == 1 and _exact_eq(kinds.pop()):
        return list(map(eq, ours, theirs))
    return list(map(same_value, ours, theirs))


_FIELDS: dict[type, tuple[str, ...] | None] = {}
_EXACT: dict[type, bool] = {}


def _field_names(cls: type) -> tuple[str, ...] | None:
    """An attrs record class's field names (None for any other class)."""
    try:
        return _FIELDS[cls]
    except KeyError:
        names = _FIELDS[cls] = tuple(f.name for f in attrs.fields(cls)) if attrs.has(cls) else None
        return names


def _exact_eq(cls: type) -> bool:
    """Whether `==` on two records of `cls` is `same_value`: an attrs-made `__eq__` over every
    field (no field left out of it, none compared by a key), each field a str, int, bool, None,
    a record of such, or a list or tuple of one of these (the converter builds exactly those types)."""
    try:
        return _EXACT[cls]
    except KeyError:
        pass
    _EXACT[cls] = False  # a class that refers to itself is compared the long way
    _EXACT[cls] = exact = _attrs_eq_of_plain_fields(cls)
    return exact


def _attrs_eq_of_plain_fields(cls: type) -> bool:
    if not (isinstance(cls, type) and attrs.has(cls)):
        return False
    code = getattr(cls.__eq__, "__code__", None)
    if code is None or "attrs generated" not in code.co_filename:
        return False
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # annotations that do not resolve: compared the long way
        return False
    for field in attrs.fields(cls):
        if not field.eq or field.eq_key is not None or field.name not in hints:
            return False
        if not _exact_hint(hints[field.name]):
            return False
    return True


def _exact_hint(hint: Any) -> bool:
    """A str, int, bool or None, a record of such, an Optional one, or a list or tuple[X, ...] of one."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return all(map(_exact_hint, args))
    if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
        return _exact_hint(args[0])
    return hint in _SCALARS or _exact_eq(hint)
