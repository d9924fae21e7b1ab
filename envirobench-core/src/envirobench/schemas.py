"""JSON Schemas generated from the same attrs classes the strict converter reads.

Adapters in any language validate themselves against these; a test fails when the committed
copies under docs/schemas drift from the code (`envirobench schemas --output docs/schemas`).
"""

from __future__ import annotations

import collections.abc
import os
import types
import typing
from pathlib import Path
from typing import Any

import attrs

from .errors import EnviroBenchError
from .jsonio import atomic_write_text, dumps
from .plugins import Registry
from .profiles import BenchProfile, ProfileOverlay
from .protocol import AdapterRequest, AdapterResult, CaseLine
from .records import AnswerRecord, CaseRecord, Manifest
from .review import Interpretation
from .rundir import Comparison, Metrics, ReviewBrief, RunRecord
from .stores.transfer import RunArchive

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE_ID = "https://envirobench.org/schemas/"


def schema_for(cls: type, *, title: str | None = None, schema_id: str | None = None) -> dict[str, Any]:
    """A self-contained schema: nested attrs classes go into `$defs`."""
    defs: dict[str, Any] = {}
    body = _object_schema(cls, defs)
    schema: dict[str, Any] = {"$schema": DRAFT}
    if schema_id:
        schema["$id"] = BASE_ID + schema_id
    schema["title"] = title or cls.__name__
    schema.update(body)
    if defs:
        schema["$defs"] = dict(sorted(defs.items()))
    return schema


def _object_schema(cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for field in attrs.fields(cls):
        properties[field.name] = _type_schema(hints[field.name], defs)
        if field.default is attrs.NOTHING:
            required.append(field.name)
    out: dict[str, Any] = {"type": "object"}
    doc = (cls.__doc__ or "").strip()
    if doc and not doc.startswith(cls.__name__ + "("):
        out["description"] = " ".join(doc.split())
    out.update({"properties": properties, "required": required, "additionalProperties": False})
    return out


def _type_schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return {}
    if tp is str:
        return {"type": "string"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is type(None):
        return {"type": "null"}
    if origin is typing.Literal:
        return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_type_schema(a, defs) for a in args]}
    if origin in (list, tuple) and (origin is list or (len(args) == 2 and args[1] is Ellipsis)):
        return {"type": "array", "items": _type_schema(args[0], defs)}
    if origin is tuple:
        return {"type": "array", "prefixItems": [_type_schema(a, defs) for a in args], "items": False}
    if origin in (dict, collections.abc.Mapping):
        return {"type": "object", "additionalProperties": _type_schema(args[1], defs)}
    if attrs.has(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # reserve first: recursive types terminate
            defs[name] = _object_schema(tp, defs)
        return {"$ref": f"#/$defs/{name}"}
    raise TypeError(f"no JSON Schema mapping for {tp!r}")


def all_schemas(registry: Registry) -> dict[str, dict[str, Any]]:
    """Relative file name -> schema, for core's formats and every registered type."""
    out = {
        "manifest.schema.json": schema_for(Manifest, title="EnviroBench dataset manifest", schema_id="manifest.schema.json"),
        "case.schema.json": schema_for(CaseRecord, title="One line of cases.jsonl", schema_id="case.schema.json"),
        "answer.schema.json": schema_for(AnswerRecord, title="One line of answers.jsonl", schema_id="answer.schema.json"),
        "adapter-request.schema.json": schema_for(AdapterRequest, title="envirobench.adapter.v1 request", schema_id="adapter-request.schema.json"),
        "adapter-result.schema.json": schema_for(AdapterResult, title="envirobench.adapter.v1 result", schema_id="adapter-result.schema.json"),
        "adapter-case-line.schema.json": schema_for(CaseLine, title="envirobench.adapter.v1 one line of the optional cases.jsonl (the prediction in the type's format)",
                                                    schema_id="adapter-case-line.schema.json"),
        "bench-overlay.schema.json": schema_for(ProfileOverlay, title="envirobench.bench-overlay.v1 a project's promotions over an installed profile", schema_id="bench-overlay.schema.json"),
        "bench.schema.json": schema_for(BenchProfile, title="envirobench.bench.v1 saved profile (benchmarks/NAME/bench.json)", schema_id="bench.schema.json"),
        "run-archive.schema.json": schema_for(RunArchive, title="envirobench.run-archive.v1 listing of a run archived in a store", schema_id="run-archive.schema.json"),
        "run.schema.json": schema_for(RunRecord, title="envirobench.run.v1 run.json of a run directory", schema_id="run.schema.json"),
        "metrics.schema.json": schema_for(Metrics, title="envirobench.metrics.v1 metrics.json of a scored run", schema_id="metrics.schema.json"),
        "comparison.schema.json": schema_for(Comparison, title="envirobench.comparison.v1 comparison.json of a scored run", schema_id="comparison.schema.json"),
        "review-brief.schema.json": schema_for(ReviewBrief, title="envirobench.review-brief.v1 review-brief.json of a scored run", schema_id="review-brief.schema.json"),
        "interpretation.schema.json": schema_for(Interpretation, title="envirobench.interpretation.v1 a reviewer's interpretation.json", schema_id="interpretation.schema.json"),
    }
    for type_id, (cls, _) in sorted(registry.benchmark_types.items()):
        for part, attr in (("input", "Input"), ("answer", "Answer"), ("prediction", "Prediction")):
            name = f"{type_id}/{part}.schema.json"
            out[name] = schema_for(getattr(cls, attr), title=f"{cls.FORMAT} {part}", schema_id=name)
        predictions = f"{type_id}/predictions.schema.json"
        out[predictions] = {
            "$schema": DRAFT,
            "$id": BASE_ID + predictions,
            "title": f"{cls.FORMAT} predictions file: case ID -> prediction",
            "type": "object",
            "additionalProperties": {"$ref": "prediction.schema.json"},
        }
    return out


def write_schemas(registry: Registry, output: Path) -> list[Path]:
    """Write every schema under `output` (`envirobench schemas --output`). Every path is checked
    before anything is written: `output` and the folders under it must be directories or not
    exist yet, no schema's place may be a directory; a refusal is one EnviroBenchError naming the
    path, with nothing written. A write that fails nonetheless (permissions, a full disk) is one too."""
    schemas = {output / name: schema for name, schema in all_schemas(registry).items()}
    for path in schemas:
        _check_directory(path.parent, output)
        if path.is_dir() and not path.is_symlink():
            raise EnviroBenchError(f"--output {output}: {path} is a directory, where a schema file goes; nothing was written")
    written = []
    for path, schema in schemas.items():
        try:
            atomic_write_text(path, dumps(schema))
        except OSError as exc:
            raise EnviroBenchError(f"--output {output}: cannot write {path}: {exc.strerror}" + (f" ({len(written)} schema file(s) written before it)" if written else "")) from None
        written.append(path)
    return written


def _check_directory(path: Path, output: Path) -> None:
    """`path` is a directory, or nothing yet, and so are the nearest of its parents that exist."""
    if path.is_dir():
        return
    if os.path.lexists(path):
        what = ("a broken symbolic link" if not path.exists() else "a symbolic link to a file") if path.is_symlink() else "a file"
        raise EnviroBenchError(f"--output {output}: {path} is {what}, not a directory; nothing was written")
    if path.parent != path:
        _check_directory(path.parent, output)
