"""Answer isolation: does anything the adapter was shown hold an answer?

The fixture adapter of the `correct` run records what it was shown: the request it read, its
working directory's entries and a copy of every file under the request's input directory. This
module searches that record. The answers searched for are each case's answer exactly as
`answers.jsonl` holds it. The rule, case by case:

1. The answer file and the dataset: no file in the input directory is a link, is named
   `answers.jsonl` or has its bytes; neither the request nor any file holds the path of the
   dataset directory or of its answer file.
2. Whole answers: the answer object must not be found in the request, nor in any file. In the
   request and in files that parse as JSON (or JSON Lines) it is compared as a JSON value with
   every object inside them, so formatting and key order do not matter; in other files (text,
   PDF, images) its JSON serialisations are searched as bytes (compact or spaced, keys sorted or
   in file order, indented by 2 or 4).
3. Answer parts: the same for every object inside the answer that has at least two fields (a
   band `{"start": 22, "end": 35}`, a record). Types whose answers legitimately repeat an object
   offered in the input (choosing one record among several) turn this off with
   `ISOLATION_ANSWER_PARTS = False` on their conformance class.
4. Answer fields: for every field of the answer, at any depth, as name and value
   (`"rows": [41, 68]`, `"count": 3`): the case's own input (in the request, or a JSON source file
   the case uses) must not hold an object with a field of that name and an equal value; the
   other source files the case uses must not hold the field serialised as JSON text
   (`"count":3`, `"count": 3`).

Bare scalars are never searched on their own: an extraction task's answer legitimately occurs in
its input ("MW-12" is in the field note and in the answer), multiple choice offers the right
option among others, and small numbers occur everywhere. A scalar counts only within its answer
field (rule 4) or its answer object (rules 2 and 3). Null, "", [] and {} are never searched.
Rule 2 in the request covers every case's answer; in files and for rules 3 and 4, each file is
searched for the answers of the cases that use it (files no case uses: for every answer).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .. import datasets as ds
from .harness import SNAPSHOT_INPUT, SNAPSHOT_REQUEST, SNAPSHOT_SEEN, Harness

_EMPTY = (None, "", [], {})
_MAX_PARSE_BYTES = 64 << 20
_JSON_SUFFIXES = (".json", ".jsonl", ".geojson", ".ndjson")


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def serialisations(value: Any) -> set[bytes]:
    """The ways a JSON value is commonly written, as UTF-8 bytes."""
    out = set()
    for sort_keys in (True, False):
        for separators in ((",", ":"), (", ", ": ")):
            for ensure_ascii in (False, True):
                out.add(json.dumps(value, sort_keys=sort_keys, separators=separators, ensure_ascii=ensure_ascii))
        for indent in (2, 4):
            out.add(json.dumps(value, sort_keys=sort_keys, indent=indent, ensure_ascii=False))
    return {s.encode("utf-8") for s in out}


def walk(value: Any, path: str = "$") -> Iterator[tuple[str, Any]]:
    """(JSON path, value) for the value and everything inside it."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, f"{path}.{key}" if key.isidentifier() else f"{path}[{json.dumps(key)}]")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, f"{path}[{i}]")


def answer_objects(answer: Any, *, parts: bool) -> list[tuple[str, Any]]:
    """Rules 2 and 3: the whole answer, and (with `parts`) each object inside it with >= 2 fields."""
    out = [("the whole answer", answer)]
    if parts:
        for path, value in walk(answer):
            if path != "$" and isinstance(value, dict) and len(value) >= 2:
                out.append((f"answer part {path}", value))
    return out


def answer_fields(answer: Any) -> list[tuple[str, str, Any]]:
    """Rule 4: (path, field name, value) for every non-empty field of the answer."""
    out = []
    for path, value in walk(answer):
        if isinstance(value, dict):
            for key, item in value.items():
                if item not in _EMPTY:
                    out.append((f"{path}.{key}", key, item))
    return out


def object_index(value: Any) -> dict[str, str]:
    """Canonical JSON of every object inside `value` -> the first path where it occurs."""
    index: dict[str, str] = {}
    for path, item in walk(value):
        if isinstance(item, dict):
            index.setdefault(canonical(item), path)
    return index


def field_index(value: Any) -> dict[tuple[str, str], str]:
    """(field name, canonical value) of every field of every object inside `value` -> its path."""
    index: dict[tuple[str, str], str] = {}
    for path, item in walk(value):
        if isinstance(item, dict):
            for key, field_value in item.items():
                index.setdefault((key, canonical(field_value)), f"{path}.{key}")
    return index


def parse_json_file(path: Path, data: bytes) -> list[Any] | None:
    """The JSON values a file holds (one, or one per line of JSON Lines), or None if it is not JSON."""
    if len(data) > _MAX_PARSE_BYTES:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    stripped = text.strip()
    if not stripped or (stripped[0] not in "[{" and not path.name.endswith(_JSON_SUFFIXES)):
        return None
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    values = []
    for line in text.splitlines():
        if line.strip():
            try:
                values.append(json.loads(line))
            except ValueError:
                return None
    return values or None


def find_leaks(h: Harness, *, parts: bool = True) -> list[str]:
    """Every way the `correct` run's adapter could have read an answer (empty when none)."""
    snapshot = h.snapshot_dir
    request_bytes = (snapshot / SNAPSHOT_REQUEST).read_bytes()
    request = json.loads(request_bytes)
    seen = json.loads((snapshot / SNAPSHOT_SEEN).read_text(encoding="utf-8"))
    answers: Mapping[str, Any] = h.raw_answers
    leaks: list[str] = []

    # Which cases use which file of the input directory.
    users: dict[str, list[str]] = {}
    for cid in h.case_ids:
        for relative in h.btype.source_files(h.cases[cid].input):
            users.setdefault(relative, []).append(cid)

    # Rule 1.
    answers_path = h.dataset.root / ds.ANSWERS
    answers_sha = hashlib.sha256(answers_path.read_bytes()).hexdigest()
    paths = {str(h.dataset.root), str(h.dataset.root.resolve()), str(answers_path), str(answers_path.resolve())}
    path_needles = {p.encode("utf-8") for p in paths} | {json.dumps(p)[1:-1].encode("utf-8") for p in paths}
    for needle in sorted(path_needles):
        if needle in request_bytes:
            leaks.append(f"the request holds the dataset's path {needle.decode()!r}")

    # Rule 2 in the request, for every case's answer.
    request_objects = object_index(request)
    for cid in h.case_ids:
        for label, value in answer_objects(answers[cid], parts=parts):
            where = request_objects.get(canonical(value))
            if where is not None:
                leaks.append(f"the request holds {label} of case {cid!r} at {where}")

    # Rule 4 in each case's own input, as the request carries it.
    for case in request.get("cases", []):
        cid = case.get("id")
        if cid not in answers:
            continue
        fields = field_index(case.get("input"))
        for path, key, value in answer_fields(answers[cid]):
            where = fields.get((key, canonical(value)))
            if where is not None:
                leaks.append(f"case {cid!r}: its input carries answer field {path} ({key!r} = {canonical(value)[:80]}) at {where.replace('$', '$.input', 1)}")

    # Rules 1 to 4 in every file of the input directory. A case's answer objects and fields are
    # listed once however many files the case uses; their serialisations are made only for a file
    # that holds every key of the object (or the field's name) followed by ":", which each of them
    # contains: a site's record is megabytes of PDF, its answer ~100,000 objects whose ~15 forms
    # each cost a json.dumps, and a PDF holds none of their keys so quoted.
    by_case: dict[str, tuple[list[tuple[str, str, Any]], list[tuple[str, str, str, Any]]]] = {}
    texts_of: dict[tuple[str | None, str], set[bytes]] = {}

    def searches(cid: str) -> tuple[list[tuple[str, str, Any]], list[tuple[str, str, str, Any]]]:
        if cid not in by_case:
            by_case[cid] = (
                [(label, canonical(value), value) for label, value in answer_objects(answers[cid], parts=parts)],
                [(path, key, canonical(value), value) for path, key, value in answer_fields(answers[cid])],
            )
        return by_case[cid]

    def object_texts(canon: str, value: Any) -> set[bytes]:
        if (None, canon) not in texts_of:
            texts_of[None, canon] = serialisations(value)
        return texts_of[None, canon]

    def field_texts(key: str, canon: str, value: Any) -> set[bytes]:
        if (key, canon) not in texts_of:
            texts_of[key, canon] = _field_texts(key, value)
        return texts_of[key, canon]

    for entry in seen["files"]:
        relative = entry["path"]
        if entry["link"]:
            leaks.append(f"input/{relative} is a link (to {entry['target']}); the adapter must get copies, never links")
            continue
        if relative.rsplit("/", 1)[-1] == ds.ANSWERS:
            leaks.append(f"input/{relative} is named {ds.ANSWERS}")
        data = (snapshot / SNAPSHOT_INPUT / relative).read_bytes()
        if hashlib.sha256(data).hexdigest() == answers_sha:
            leaks.append(f"input/{relative} is a copy of the dataset's {ds.ANSWERS}")
            continue
        for needle in sorted(path_needles):
            if needle in data:
                leaks.append(f"input/{relative} holds the dataset's path {needle.decode()!r}")
        case_ids = users.get(relative) or h.case_ids
        values = parse_json_file(Path(relative), data)
        objects: dict[str, str] = {}
        fields: dict[tuple[str, str], str] = {}
        for i, value in enumerate(values or ()):
            prefix = "$" if len(values or ()) == 1 else f"line {i + 1} $"
            for key, where in object_index(value).items():
                objects.setdefault(key, where.replace("$", prefix, 1))
            for key, where in field_index(value).items():
                fields.setdefault(key, where.replace("$", prefix, 1))
        # Every serialisation of every answer object and field of these cases that the file could
        # hold (all its keys quoted there), searched for in one pass over the file.
        searched = [searches(cid) for cid in case_ids]
        keys = {key for objs, flds in searched for *_, value in objs if isinstance(value, dict) for key in value}
        keys |= {key for _, flds in searched for _, key, _, _ in flds}
        quoted = {key for key in keys if any(text in data for text in _key_texts(key))}
        texts: dict[tuple[str, ...], set[bytes]] = {}  # (label, canon) or (path, key, canon)
        for objs, flds in searched:
            for label, canon, value in objs:
                if not isinstance(value, dict) or quoted.issuperset(value):
                    texts[label, canon] = object_texts(canon, value)
            for path, key, canon, value in flds:
                if key in quoted:
                    texts[path, key, canon] = field_texts(key, canon, value)
        found = found_in(data, {text for group in texts.values() for text in group})
        for cid, (objs, flds) in zip(case_ids, searched, strict=True):
            for label, canon, _ in objs:
                where = objects.get(canon)
                if where is None and not found.isdisjoint(texts.get((label, canon), ())):
                    where = "(as JSON text)"
                if where is not None:
                    leaks.append(f"input/{relative} holds {label} of case {cid!r} at {where}")
            for path, key, canon, _ in flds:
                where = fields.get((key, canon))
                if where is None and not found.isdisjoint(texts.get((path, key, canon), ())):
                    where = "(as JSON text)"
                if where is not None:
                    leaks.append(f"input/{relative} (used by case {cid!r}) holds answer field {path} ({key!r} = {canon[:80]}) at {where}")
    return list(dict.fromkeys(leaks))


def _key_texts(key: str) -> set[bytes]:
    """A key as every serialisation writes it before its value: quoted (non-ASCII as is, or
    escaped), then ":" (compact, spaced and indented forms alike)."""
    return {json.dumps(key, ensure_ascii=False).encode("utf-8") + b":", json.dumps(key).encode("ascii") + b":"}


def _field_texts(key: str, value: Any) -> set[bytes]:
    name = json.dumps(key, ensure_ascii=False)
    out = set()
    for text in serialisations(value):
        body = text.decode("utf-8")
        out.add(f"{name}:{body}".encode())
        out.add(f"{name}: {body}".encode())
    return out


def found_in(data: bytes, needles: set[bytes]) -> set[bytes]:
    """The needles that occur in `data`: exactly {n for n in needles if n in data}, in one pass
    per distinct first byte instead of one search of the whole data per needle. At each place
    where a needle's first byte occurs, its first PREFIX bytes are looked up, and only needles
    starting so are compared whole."""
    found: set[bytes] = set()
    groups: dict[int, dict[bytes, list[bytes]]] = {}
    for needle in needles:
        if needle:
            groups.setdefault(needle[0], {}).setdefault(needle[:_PREFIX], []).append(needle)
    for first, by_prefix in groups.items():
        lengths = sorted({len(prefix) for prefix in by_prefix})
        byte = bytes((first,))
        at = data.find(byte)
        while at != -1:
            for length in lengths:
                for needle in by_prefix.get(data[at : at + length], ()):
                    if needle not in found and data.startswith(needle, at):
                        found.add(needle)
            at = data.find(byte, at + 1)
    return found


_PREFIX = 12


def check_input_view(h: Harness) -> list[str]:
    """What the adapter was shown is exactly the input-only view core promises: the requested
    cases with their inputs as the dataset holds them, the source files they use (byte copies),
    and nothing else in its working directory."""
    snapshot = h.snapshot_dir
    request = json.loads((snapshot / SNAPSHOT_REQUEST).read_bytes())
    seen = json.loads((snapshot / SNAPSHOT_SEEN).read_text(encoding="utf-8"))
    problems = []
    ids = [case.get("id") for case in request.get("cases", [])]
    if ids != h.case_ids:
        problems.append(f"the request's cases are not the dataset's unretired cases in order (got {len(ids)}, expected {len(h.case_ids)})")
    for case in request.get("cases", []):
        cid = case.get("id")
        if cid in h.raw_inputs and case.get("input") != h.raw_inputs[cid]:
            problems.append(f"case {cid!r}: the request's input differs from cases.jsonl")
    expected = sorted({p for cid in h.case_ids for p in h.btype.source_files(h.cases[cid].input)})
    got = sorted(entry["path"] for entry in seen["files"])
    if got != expected:
        extra = sorted(set(got) - set(expected))
        missing = sorted(set(expected) - set(got))
        problems.append(f"the input directory is not exactly the source files the cases use (extra: {extra[:5]}, missing: {missing[:5]})")
    for relative in sorted(set(got) & set(expected)):
        copy = snapshot / SNAPSHOT_INPUT / relative
        if copy.is_file() and copy.read_bytes() != (h.dataset.root / relative).read_bytes():
            problems.append(f"input/{relative} differs from the dataset's file")
    if sorted(seen["cwd_listing"]) != ["input", "output", "request.json"]:
        problems.append(f"the adapter's working directory holds more than request.json, input/ and output/: {seen['cwd_listing']}")
    return problems
