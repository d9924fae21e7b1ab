"""The structured output asked of the model: the type's published prediction schema (core's
`schema_for` of its `Prediction`, the body of `schemas/<type>/prediction.schema.json`).

OpenAI's strict mode (`"strict": true`) accepts a subset of JSON Schema: every property
required, no free-form maps (`additionalProperties` a schema) and no untyped values. Where a
type's schema has optional properties, the strict form makes them required and nullable, and a
null the model gives for one whose published schema does not allow null is dropped before the
prediction is checked (so the type's default applies). A schema with a map cannot be strict;
`strict=auto` (the default) then sends it with `"strict": false` (servers that decode by grammar,
vLLM, llama.cpp, Ollama, follow it all the same; OpenAI takes it as guidance).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from envirobench import schema_for

Schema = dict[str, Any]


@dataclass(frozen=True)
class ResponseSchema:
    name: str
    published: Schema  # as published (without $schema, $id)
    sent: Schema  # what the request carries
    strict: bool

    def response_format(self) -> dict[str, Any]:
        return {"type": "json_schema", "json_schema": {"name": self.name, "schema": self.sent, "strict": self.strict}}

    def clean(self, value: Any) -> Any:
        """The model's JSON with the nulls of the strict form dropped (see the module's docstring)."""
        if self.strict:
            _drop_nulls(value, self.published, self.published.get("$defs", {}))
        return value


def response_schema(type_id: str, prediction_cls: type, strict: str) -> ResponseSchema:
    published = {k: v for k, v in schema_for(prediction_cls).items() if k not in ("$schema", "$id")}
    can_be_strict = not _has_free_form(published)
    if strict == "true" and not can_be_strict:
        raise ValueError(f"$.options.strict: the {type_id} prediction schema has a map or an untyped value, which strict mode cannot take; "
                         "use strict=auto or strict=false")
    use_strict = can_be_strict if strict == "auto" else strict == "true"
    sent = _strict_form(copy.deepcopy(published)) if use_strict else published
    return ResponseSchema(type_id.replace("-", "_")[:64], published, sent, use_strict)


def _has_free_form(schema: Any) -> bool:
    if isinstance(schema, dict):
        if schema == {}:
            return True
        if schema.get("type") == "object" and schema.get("additionalProperties") is not False:
            return True
        named = [v for k in ("properties", "$defs") for v in schema.get(k, {}).values()]  # maps of name -> schema
        return any(_has_free_form(v) for v in named) or any(_has_free_form(schema[k]) for k in ("items", "anyOf") if k in schema)
    if isinstance(schema, list):
        return any(_has_free_form(v) for v in schema)
    return False


def _accepts_null(schema: Schema, defs: Schema) -> bool:
    schema = _resolve(schema, defs)
    return schema.get("type") == "null" or any(_accepts_null(s, defs) for s in schema.get("anyOf", ()))


def _resolve(schema: Schema, defs: Schema) -> Schema:
    ref = schema.get("$ref")
    return defs[ref.rsplit("/", 1)[-1]] if isinstance(ref, str) else schema


def _strict_form(schema: Any) -> Any:
    if isinstance(schema, dict):
        for key in ("properties", "$defs"):
            if key in schema:
                schema[key] = {k: _strict_form(v) for k, v in schema[key].items()}
        for key in ("items", "anyOf"):
            if key in schema:
                schema[key] = _strict_form(schema[key])
        if schema.get("type") == "object" and "properties" in schema:
            optional = [p for p in schema["properties"] if p not in schema.get("required", [])]
            for name in optional:
                schema["properties"][name] = {"anyOf": [schema["properties"][name], {"type": "null"}]}
            schema["required"] = list(schema["properties"])
    elif isinstance(schema, list):
        return [_strict_form(s) for s in schema]
    return schema


def _drop_nulls(value: Any, schema: Schema, defs: Schema) -> None:
    schema = _resolve(schema, defs)
    if "anyOf" in schema:
        kind = "object" if isinstance(value, dict) else "array" if isinstance(value, list) else None
        for branch in schema["anyOf"]:
            if kind is not None and _resolve(branch, defs).get("type") == kind:
                _drop_nulls(value, branch, defs)
        return
    if isinstance(value, dict) and "properties" in schema:
        required = set(schema.get("required", ()))
        for name in list(value):
            sub = schema["properties"].get(name)
            if sub is None:
                continue
            if value[name] is None and name not in required and not _accepts_null(sub, defs):
                del value[name]
            else:
                _drop_nulls(value[name], sub, defs)
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for item in value:
            _drop_nulls(item, schema["items"], defs)
