"""The one strict converter: JSON values to attrs records and back.

Strict means: unknown keys are refused, scalars must already have the right JSON type (no silent
"3" -> 3, no bool where a number is expected), text must be encodable (no lone surrogate), and
every problem is reported as a `$.path` message that a user can act on.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import attrs
import cattrs
import cattrs.cols
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError
from cattrs.v import format_exception as _cattrs_format_exception

from .benchmark import CaseScore, ErrorKey
from .errors import EnviroBenchError

T = TypeVar("T")


def _strict_int(value: Any, _type: type) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an integer, got {_json_type(value)}")
    return value


def _strict_float(value: Any, _type: type) -> float:
    # A JSON number without a fraction (3) is a valid float; a bool or a string is not.
    if type(value) not in (int, float):
        raise TypeError(f"expected a number, got {_json_type(value)}")
    return float(value)


def _strict_str(value: Any, _type: type) -> str:
    if type(value) is not str:
        raise TypeError(f"expected a string, got {_json_type(value)}")
    if not value.isascii():
        # A lone surrogate ("\ud800" in JSON) reads fine but fails every later write (a report,
        # a request, a message): refused here, where the field is known (docs/datasets.md,
        # Reading files).
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValueError(f"text with a lone surrogate ({value[exc.start]!r} at character {exc.start}) cannot be encoded as UTF-8") from None
    return value


def _strict_bool(value: Any, _type: type) -> bool:
    if type(value) is not bool:
        raise TypeError(f"expected true or false, got {_json_type(value)}")
    return value


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def _check_sequence(value: Any, _type: Any) -> None:
    if not isinstance(value, list):
        raise TypeError(f"expected an array, got {_json_type(value)}")


def _check_mapping(value: Any, _type: Any) -> None:
    if not isinstance(value, dict):
        raise TypeError(f"expected an object, got {_json_type(value)}")


def make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    conv.register_structure_hook(int, _strict_int)
    conv.register_structure_hook(float, _strict_float)
    conv.register_structure_hook(str, _strict_str)
    conv.register_structure_hook(bool, _strict_bool)

    # cattrs would happily turn a string into a tuple of characters or a list of pairs into a
    # dict: only JSON arrays become sequences and only JSON objects become mappings. The
    # element hooks still come from `conv`, so nested values are just as strict.
    def sequence_factory(t: Any, c: cattrs.Converter) -> Any:
        if getattr(t, "__origin__", None) is tuple:
            inner = cattrs.cols.homogenous_tuple_structure_factory(t, c)
        else:
            inner = cattrs.cols.list_structure_factory(t, c)

        def hook(value: Any, type_: Any) -> Any:
            _check_sequence(value, type_)
            return inner(value, type_)

        return hook

    def mapping_factory(t: Any, c: cattrs.Converter) -> Any:
        inner = cattrs.cols.mapping_structure_factory(t, c)

        def hook(value: Any, type_: Any) -> Any:
            _check_mapping(value, type_)
            return inner(value, type_)

        return hook

    conv.register_structure_hook_factory(_is_homogeneous_sequence, sequence_factory)
    conv.register_structure_hook_factory(
        lambda t: getattr(t, "__origin__", None) is dict, mapping_factory
    )
    # A case's score, as metrics.json stores it: errors are arrays of JSON scalars.
    conv.register_structure_hook(CaseScore, _structure_case_score)
    conv.register_unstructure_hook(CaseScore, CaseScore.to_json)
    return conv


_SCALARS = (str, int, float, bool, type(None))


def _structure_error_key(value: Any, _type: Any = ErrorKey) -> ErrorKey:
    if not isinstance(value, list) or not value or not all(isinstance(part, _SCALARS) for part in value):
        raise TypeError(f"an error must be a non-empty array of JSON scalars, got {_json_type(value)}")
    return tuple(value)


def _structure_case_score(value: Any, _type: Any) -> CaseScore:
    _check_mapping(value, _type)
    extra = set(value) - {"errors", "metrics"}
    if extra:
        raise TypeError(f"unknown field(s) {_names(extra)}")
    errors, metrics = value.get("errors"), value.get("metrics")
    if not isinstance(errors, list):
        raise TypeError(f"errors must be an array, got {_json_type(errors)}")
    if not isinstance(metrics, dict):
        raise TypeError(f"metrics must be an object, got {_json_type(metrics)}")
    for name, number in metrics.items():
        if type(number) not in (int, float):
            raise TypeError(f"metric {name!r} must be a number, got {_json_type(number)}")
    return CaseScore(tuple(_structure_error_key(e) for e in errors), {k: float(v) for k, v in metrics.items()})


def _is_homogeneous_sequence(t: Any) -> bool:
    origin = getattr(t, "__origin__", None)
    if origin is list:
        return True
    args = getattr(t, "__args__", ())
    return origin is tuple and len(args) == 2 and args[1] is Ellipsis


converter = make_converter()


def _names(names: Iterable[str]) -> str:
    """Field names for a one-line message: as they are when plainly printable, else quoted with
    their escapes (a name can be any JSON string, newlines included)."""
    return ", ".join(name if name.isprintable() and name.strip() == name and name else repr(name) for name in sorted(names))


def _format_exception(exc: BaseException, type_: Any) -> str:
    if isinstance(exc, ForbiddenExtraKeysError):
        return f"unknown field(s) {_names(exc.extra_fields)}"
    if isinstance(exc, KeyError):
        return "required field missing"
    if isinstance(exc, (TypeError, ValueError)) and str(exc) and not str(exc).startswith("__init__"):
        return str(exc)
    if isinstance(exc, TypeError) and isinstance(type_, type) and type_.__module__ != "builtins":
        return "expected an object"
    return _cattrs_format_exception(exc, type_)


def error_messages(exc: BaseException, path: str = "$") -> list[str]:
    """`$.path` messages for a structuring failure, one per problem."""
    if isinstance(exc, (ClassValidationError, IterableValidationError)):
        return cattrs.transform_error(exc, path=path, format_exception=_format_exception)
    return [f"{_format_exception(exc, None)} @ {path}"]


def structure(
    value: Any,
    cls: type[T],
    *,
    file: str | None = None,
    line: int | None = None,
    path: str = "$",
) -> T:
    """Structure `value` into `cls` or raise an EnviroBenchError naming file, line and field."""
    fast = fast_structurer(cls)
    if fast is not None:
        made = fast(value)
        if made is not MISS:
            return made  # type: ignore[no-any-return]
    if not isinstance(value, dict) and hasattr(cls, "__attrs_attrs__"):
        raise EnviroBenchError(f"expected an object, got {_json_type(value)}", file=file, line=line, field=path)
    try:
        return converter.structure(value, cls)
    except Exception as exc:  # cattrs raises several exception types; all mean "bad input"
        if _holds_recursion_error(exc):  # a value nested as deep as a recursive class allows
            raise EnviroBenchError("nested too deeply to read", file=file, line=line, field=path) from None
        messages = error_messages(exc, path)
        first = messages[0]
        message, _, field = first.rpartition(" @ ")
        more = f" (and {len(messages) - 1} more problem(s): {'; '.join(messages[1:4])})" if len(messages) > 1 else ""
        raise EnviroBenchError(message + more, file=file, line=line, field=field or path) from None


def _holds_recursion_error(exc: BaseException) -> bool:
    stack = [exc]
    while stack:
        current = stack.pop()
        if isinstance(current, RecursionError):
            return True
        stack.extend(getattr(current, "exceptions", ()))
    return False


def unstructure(value: Any) -> Any:
    cls = value.__class__
    hook = _UNSTRUCTURE_HOOKS.get(cls)
    if hook is None:
        # The converter's own hook for the class (what converter.unstructure looks up each
        # call), kept: hooks are registered once, in make_converter.
        hook = _UNSTRUCTURE_HOOKS[cls] = converter.get_unstructure_hook(cls)
    return hook(value)


_UNSTRUCTURE_HOOKS: dict[type, Callable[[Any], Any]] = {}


# -- the fast path for plain records -----------------------------------------------------------
# A run structures hundreds of thousands of small records (dataset lines, inputs, answers,
# predictions). For a record class whose fields are all plain (str, int, float, bool, Any,
# dict[str, Any], another such record, or one of these or None), `fast_structurer` makes a
# function that takes a value only when it is exactly right (a dict with just the record's keys,
# every scalar of its exact JSON type, every string encodable), builds the record as the
# converter would, and otherwise returns MISS: the caller then asks the strict converter, which
# builds the same record or gives its `$.path` message. Nothing is accepted that the converter
# refuses (a test holds the two together).

MISS: Any = object()
_FAST: dict[Any, Callable[[Any], Any] | None] = {}
# Classes with hooks of their own in make_converter: never given a fast path.
_OWN_HOOKS = (CaseScore,)


def fast_structurer(cls: Any) -> Callable[[Any], Any] | None:
    """The fast path of a plain record class (see above), None for any other type."""
    try:
        return _FAST[cls]
    except KeyError:
        pass
    except TypeError:  # an unhashable type: never a record class
        return None
    _FAST[cls] = None  # a class that refers to itself gets no fast path
    _FAST[cls] = made = _make_fast(cls)
    return made


def _make_fast(cls: Any) -> Callable[[Any], Any] | None:
    if not (isinstance(cls, type) and attrs.has(cls)) or issubclass(cls, _OWN_HOOKS):
        return None
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # annotations that do not resolve: the converter decides
        return None
    names: dict[str, Any] = {"_cls": cls, "_MISS": MISS, "_str": _plain_str, "_dict": _plain_dict}
    required: list[str] = []
    optional: list[str] = []
    body: list[str] = []
    for index, field in enumerate(attrs.fields(cls)):
        if not field.init or field.alias != field.name or field.name not in hints:
            return None
        var = f"v{index}"
        check = _field_check(hints[field.name], var, names)
        if check is None:
            return None
        if field.default is attrs.NOTHING:
            required.append(field.name)
            body.append(f"    {var} = o[{field.name!r}]")
            body.extend("    " + line for line in check)
        else:
            optional.append(field.name)
            body.append(f"    {var} = o.get({field.name!r}, _MISS)")
            body.append(f"    if {var} is not _MISS:")
            body.append("        n += 1")
            body.extend("        " + line for line in check)
            body.append(f"        kw[{field.name!r}] = {var}")
    # Required fields by position (attrs puts them before defaulted ones), unless keyword-only.
    args = ", ".join(f"v{i}" if not f.kw_only else f"{f.name}=v{i}" for i, f in enumerate(attrs.fields(cls)) if f.name in required)
    source = "\n".join([
        "def fast(o):",
        "  if o.__class__ is not dict:",
        "    return _MISS",
        "  try:",
        f"    n = {len(required)}",
        *(["    kw = {}"] if optional else []),
        *body,
        "    if n != len(o):",  # a key the record does not have
        "      return _MISS",
        f"    return _cls({args}{', ' if args and optional else ''}{'**kw' if optional else ''})",
        "  except Exception:",
        "    return _MISS",
    ])
    exec(compile(source, f"<fast structure {cls.__qualname__}>", "exec"), names)
    return names["fast"]  # type: ignore[no-any-return]


def _field_check(hint: Any, var: str, names: dict[str, Any]) -> list[str] | None:
    """Lines that check `var` (and convert it as the converter would), returning MISS when it is
    not exactly right; None when the type has no fast path."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = typing.get_args(hint)
        if len(args) != 2 or type(None) not in args:
            return None
        inner = _field_check(next(a for a in args if a is not type(None)), var, names)
        if inner is None:
            return None
        return [f"if {var} is not None:", *("  " + line for line in inner)]
    if hint is str:
        names["str"] = str
        return [f"if {var}.__class__ is not str or not ({var}.isascii() or _str({var})):", "  return _MISS"]
    if hint is int or hint is bool:
        names[hint.__name__] = hint
        return [f"if {var}.__class__ is not {hint.__name__}:", "  return _MISS"]
    if hint is float:
        names["float"] = float
        names["int"] = int
        return [f"if {var}.__class__ is not float and {var}.__class__ is not int:", "  return _MISS", f"{var} = float({var})"]
    if hint is typing.Any:
        return []
    if typing.get_origin(hint) is dict and typing.get_args(hint) == (str, typing.Any):
        return [f"{var} = _dict({var})", f"if {var} is _MISS:", "  return _MISS"]
    if isinstance(hint, type) and attrs.has(hint):
        inner_fast = fast_structurer(hint)
        if inner_fast is None:
            return None
        name = f"_fast_{len(names)}"
        names[name] = inner_fast
        return [f"{var} = {name}({var})", f"if {var} is _MISS:", "  return _MISS"]
    return None


def _plain_str(value: Any) -> bool:
    """A string the converter takes as it is: exactly a str, encodable as UTF-8."""
    if value.__class__ is not str:
        return False
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _plain_dict(value: Any) -> Any:
    """A copy of a JSON object whose keys the converter takes (dict[str, Any]), else MISS."""
    if value.__class__ is not dict:
        return MISS
    try:
        plain = "".join(value).isascii()  # every key a str (join refuses anything else), all ASCII
    except TypeError:
        return MISS
    if not plain:
        for key in value:
            if not _plain_str(key):
                return MISS
    return dict(value)


def structurer(cls: type[T]) -> Callable[[Any], T]:
    """`converter.structure(value, cls)` as a function of the value, through the fast path
    when the class has one: the same record, or the converter's own exception."""
    fast = fast_structurer(cls)
    slow = converter.structure
    if fast is None:
        return lambda value: slow(value, cls)

    def structure_one(value: Any) -> T:
        made = fast(value)
        return slow(value, cls) if made is MISS else made  # type: ignore[no-any-return]

    return structure_one
