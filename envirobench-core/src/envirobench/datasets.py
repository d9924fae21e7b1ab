"""Datasets: a directory with manifest.json, cases.jsonl, answers.jsonl and sources.

Every file is pinned by size and SHA-256. Identity is ID + version + digest; the manifest keeps an
input digest (cases and source files) apart from an answer digest so a corrected answer key with
unchanged inputs can re-key old runs, and the digest covers both and every other field of the
manifest (docs/datasets.md, Identity). Validation refuses anything altered, missing, unlisted,
linked, escaping the directory, or failing the type's schemas, naming file, line and field.
"""

from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import os
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

import attrs
import orjson

# The format's writing half (for generators) is the authoring layer's; re-exported for the harness.
from .authoring import ANSWERS, CASES, MANIFEST, digest_of, read_manifest, sha256_file
from .authoring import MAX_MANIFEST_BYTES as MAX_MANIFEST_BYTES
from .authoring import write_manifest as write_manifest
from .benchmark import BenchmarkType, Case
from .converter import MISS, fast_structurer, structure, unstructure
from .errors import EnviroBenchError
from .jsonio import dumps_line, iter_jsonl, read_json
from .plugins import Registry
from .records import (
    AnswerRecord,
    CaseRecord,
    DatasetIdentity,
    FileEntry,
    Manifest,
    SealedNote,
)

#: Marks a sealed dataset (docs/holdout.md): its manifest pins answers.jsonl like any other, but the
#: file is not here; a scoring service holds it. A run on it is unscored (runs.py).
SEALED = "sealed.json"
#: The manifest fields the dataset digest leaves out: they are digests themselves.
DIGEST_FIELDS = ("input_digest", "answer_digest")


def manifest_digest(manifest: Manifest) -> str:
    """SHA-256 of the manifest's canonical JSON without its two digest fields.

    Canonical: the manifest as the converter reads it (every field present, defaults filled
    in), keys sorted, no whitespace, UTF-8 (`dumps_line` without its newline)."""
    fields = {k: v for k, v in unstructure(manifest).items() if k not in DIGEST_FIELDS}
    return "sha256:" + hashlib.sha256(dumps_line(fields).removesuffix("\n").encode("utf-8")).hexdigest()


def dataset_digest(manifest: Manifest) -> str:
    """The dataset's digest: its input digest, answer digest and manifest digest together."""
    text = f"{manifest.input_digest}\n{manifest.answer_digest}\n{manifest_digest(manifest)}\n"
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def files_only_digest(input_digest: str, answer_digest: str) -> str:
    """The digest earlier versions (0.1.0) gave a dataset: its files only, not the rest of the
    manifest. Only for recognising copies stored under it (stores/transfer.py); never an identity."""
    return "sha256:" + hashlib.sha256(f"{input_digest}\n{answer_digest}\n".encode()).hexdigest()


def check_relative_path(path: str, *, file: Path, field: str) -> PurePosixPath:
    """A dataset path must be relative, POSIX, and stay inside the directory."""
    if not path or "\\" in path or "\x00" in path:
        raise EnviroBenchError(f"path {path!r} must be a non-empty POSIX path (no backslash, no NUL)", file=file, field=field)
    pure = PurePosixPath(path)
    if pure.is_absolute():
        raise EnviroBenchError(f"path {path!r} is absolute; dataset paths are relative to the dataset directory", file=file, field=field)
    if ".." in pure.parts or "." in path.split("/"):
        raise EnviroBenchError(f"path {path!r} contains '..' or '.'; dataset paths must stay inside the directory", file=file, field=field)
    return pure


@attrs.frozen
class Dataset:
    """A validated dataset. Cases and answers are read on demand (streamed), never cached here."""

    root: Path
    manifest: Manifest

    @property
    def id(self) -> str:
        return self.manifest.id

    @functools.cached_property
    def identity(self) -> DatasetIdentity:
        # Cached: the digest hashes the whole manifest, which pins every file.
        m = self.manifest
        return DatasetIdentity(m.id, m.version, dataset_digest(m), m.input_digest, m.answer_digest)

    @property
    def sealed(self) -> bool:
        return is_sealed(self.root)

    @property
    def retired(self) -> dict[str, str]:
        return {r.case: r.reason for r in self.manifest.retired}

    def iter_case_records(self) -> Iterator[tuple[int, CaseRecord]]:
        path = self.root / CASES
        for lineno, value in iter_jsonl(path):
            yield lineno, structure(value, CaseRecord, file=str(path), line=lineno)

    def iter_answer_records(self) -> Iterator[tuple[int, AnswerRecord]]:
        path = self.root / ANSWERS
        for lineno, value in iter_jsonl(path):
            yield lineno, structure(value, AnswerRecord, file=str(path), line=lineno)

    def cases(self, btype: BenchmarkType, *, include_retired: bool = False) -> dict[str, Case]:
        """Cases in file order with inputs structured into the type's Input class."""
        retired = self.retired
        path = str(self.root / CASES)
        out: dict[str, Case] = {}
        for lineno, rec in self.iter_case_records():
            if rec.id in retired and not include_retired:
                continue
            out[rec.id] = Case(rec.id, rec.category, structure(rec.input, btype.Input, file=path, line=lineno, path="$.input"))
        return out

    def answers(self, btype: BenchmarkType) -> dict[str, Any]:
        path = str(self.root / ANSWERS)
        return {
            rec.id: structure(rec.answer, btype.Answer, file=path, line=lineno, path="$.answer")
            for lineno, rec in self.iter_answer_records()
        }

    def raw_inputs(self) -> Iterator[CaseRecord]:
        for _, rec in self.iter_case_records():
            yield rec


def is_sealed(root: Path) -> bool:
    """Whether the directory is a sealed dataset's public part: `sealed.json` (a regular file,
    valid) in place of its answer key."""
    path = root / SEALED
    if path.is_symlink():
        raise EnviroBenchError(f"{SEALED} is a symbolic link; a dataset holds regular files only", file=path)
    if not path.is_file():
        return False
    structure(read_json(path, max_bytes=1 << 16), SealedNote, file=str(path))
    return True


def check_no_link(root: Path, rel: str, *, file: Path, field: str) -> None:
    """Refuse a path inside the dataset that is, or passes through, a symbolic link.

    A link to answers.jsonl would hand the answer key to the adapter as an input file, and a link
    leaving the directory would pin whatever it points at: a dataset holds regular files only."""
    current = root
    parts = PurePosixPath(rel).parts
    for depth, part in enumerate(parts, start=1):
        current = current / part
        if not current.is_symlink():
            continue
        shown = "/".join(parts[:depth])
        what = f"{shown!r}" if depth == len(parts) else f"{shown!r} (on the way to {rel!r})"
        target = os.readlink(current)
        resolved = current.resolve()
        real_root = root.resolve()
        if resolved != real_root and real_root not in resolved.parents:
            raise EnviroBenchError(f"{what} is a link leaving the dataset directory (a symbolic link to {target}); a dataset holds regular files only", file=file, field=field)
        raise EnviroBenchError(f"{what} is a symbolic link (to {target}); a dataset holds regular files only, never links", file=file, field=field)


def verify_files(root: Path, manifest: Manifest) -> bool:
    """Every listed file present with its size and SHA-256; nothing unlisted; nothing escaping.
    Returns whether the dataset is sealed (`is_sealed`), read here once for the caller too."""
    mpath = root / MANIFEST
    if mpath.is_symlink():
        raise EnviroBenchError(f"{MANIFEST} is a symbolic link; a dataset holds regular files only", file=mpath)
    sealed = is_sealed(root)
    listed: dict[str, FileEntry] = {}
    roles: dict[str, int] = {"cases": 0, "answers": 0}
    # One lstat a file: the directories on its way are checked for links once, not once per file
    # (a dataset of 30,000 page images in a few hundred folders), with plain strings, not Paths.
    base = os.fspath(root)
    not_links: set[str] = set()
    for index, entry in enumerate(manifest.files):
        field = f"$.files[{index}].path"
        check_relative_path(entry.path, file=mpath, field=field)
        if entry.path in listed:
            raise EnviroBenchError(f"file {entry.path!r} is listed twice", file=mpath, field=field)
        if entry.path == MANIFEST:
            raise EnviroBenchError("the manifest must not list itself", file=mpath, field=field)
        listed[entry.path] = entry
        if entry.role in roles:
            roles[entry.role] += 1
            expected = CASES if entry.role == "cases" else ANSWERS
            if entry.path != expected:
                raise EnviroBenchError(f"the {entry.role} file must be {expected!r}", file=mpath, field=field)
        parts = entry.path.split("/")
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            if folder not in not_links:
                if os.path.islink(os.path.join(base, folder)):
                    check_no_link(root, entry.path, file=mpath, field=field)  # raises, naming the link
                not_links.add(folder)
        try:
            status = os.lstat(os.path.join(base, entry.path))
        except (FileNotFoundError, NotADirectoryError):
            status = None
        if status is not None and stat.S_ISLNK(status.st_mode):
            check_no_link(root, entry.path, file=mpath, field=field)  # raises, naming the link
        # The path holds no '..' (check_relative_path) and passes through no link, so nothing
        # takes it outside the directory.
        if sealed and entry.role == "answers":
            if status is not None:
                raise EnviroBenchError(f"a sealed dataset ({SEALED}) must not hold its answer key {entry.path!r}", file=mpath, field=field)
            continue
        if status is None:
            raise EnviroBenchError(f"listed file {entry.path!r} is missing", file=mpath, field=field)
        if not stat.S_ISREG(status.st_mode):
            raise EnviroBenchError(f"listed path {entry.path!r} is not a regular file", file=mpath, field=field)
        size = status.st_size
        if size != entry.size:
            raise EnviroBenchError(f"{entry.path!r} has {size} bytes, the manifest pins {entry.size}: the file was altered", file=mpath, field=f"$.files[{index}].size")
    # A sealed dataset's answer key is not here to hash.
    present = [(i, e) for i, e in enumerate(manifest.files) if not (sealed and e.role == "answers")]
    for (index, entry), actual in zip(present, hash_files([root / e.path for _, e in present]), strict=True):
        if actual != entry.sha256:
            raise EnviroBenchError(f"{entry.path!r} has SHA-256 {actual}, the manifest pins {entry.sha256}: the file was altered", file=mpath, field=f"$.files[{index}].sha256")
    for role, count in roles.items():
        if count != 1:
            raise EnviroBenchError(f"the manifest must list exactly one {role} file", file=mpath, field="$.files")
    answer_key = listed[ANSWERS]
    for index, entry in enumerate(manifest.files):
        if entry.role == "source" and answer_key.size and entry.sha256 == answer_key.sha256:
            # Adapters get the source files: one with the answer key's bytes hands it over.
            raise EnviroBenchError(f"{entry.path!r} has the same bytes as {ANSWERS}; the answer key must never be an input", file=mpath, field=f"$.files[{index}].sha256")
    for dirpath, dirnames, filenames in os.walk(base):
        folder = os.path.relpath(dirpath, base).replace(os.sep, "/")
        for name in sorted(filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]):
            rel = name if folder == "." else f"{folder}/{name}"
            if rel == MANIFEST or (sealed and rel == SEALED):
                continue
            if rel not in listed:
                mode = os.lstat(os.path.join(dirpath, name)).st_mode
                kind = "symbolic link" if stat.S_ISLNK(mode) else "file" if stat.S_ISREG(mode) else "special file"
                raise EnviroBenchError(f"unlisted {kind} {rel!r} in the dataset directory; add it to the manifest or remove it", file=mpath, field="$.files")
    check_digests(manifest, mpath)
    return sealed


HASH_THREADS = min(8, os.cpu_count() or 1)


def hash_files(paths: Sequence[Path]) -> list[str]:
    """The SHA-256 of each file, in order, hashed by several threads at once: hashlib releases the
    GIL while it hashes, so on a multi-core machine a dataset of many files verifies faster than
    one core can hash it. Every byte is read and hashed each time (no cache: a file changed
    since must always be caught)."""
    if len(paths) < 2 or HASH_THREADS < 2:
        return [sha256_file(path) for path in paths]
    with concurrent.futures.ThreadPoolExecutor(max_workers=HASH_THREADS, thread_name_prefix="envirobench-hash") as pool:
        return list(pool.map(sha256_file, paths))


def check_digests(manifest: Manifest, mpath: Path | str) -> None:
    """The manifest's input and answer digests are those of its file list."""
    inputs = [e for e in manifest.files if e.role != "answers"]
    answers = [e for e in manifest.files if e.role == "answers"]
    if digest_of(inputs) != manifest.input_digest:
        raise EnviroBenchError(f"input_digest does not match the listed files (expected {digest_of(inputs)})", file=mpath, field="$.input_digest")
    if digest_of(answers) != manifest.answer_digest:
        raise EnviroBenchError(f"answer_digest does not match the listed files (expected {digest_of(answers)})", file=mpath, field="$.answer_digest")


class HeldValues(Mapping[str, Any]):
    """Structured values by case ID (a dataset's answers, a compared run's predictions), each held
    as it was made or, when its JSON value nests arrays or objects, as that value's compact JSON
    bytes, made again by `make` (the structurer that first made it, so the same value) each time
    it is looked up. A structured record of nested tuples and records takes several times its
    text in memory (a 100,000-case table-separators dataset: 285 MiB made, 139 MiB with its
    answers held; docs/performance.md, "Memory: nested values held as text"), at the price of
    structuring it again on each look-up; a flat record ({"count": 3}) is held as made, as small
    and free to look up. Never modified once built."""

    __slots__ = ("_held", "_make")

    def __init__(self, make: Callable[[Any], Any]):
        self._held: dict[str, Any] = {}
        self._make = make

    @staticmethod
    def worth_it(raw: Any) -> bool:
        """Whether values shaped like the JSON value `raw` are worth holding as text (it nests
        arrays or objects); a collection whose first value is not is kept as a plain dict."""
        return type(raw) is list or type(raw) is dict and any(type(v) is list or type(v) is dict for v in raw.values())

    def hold(self, key: str, made: Any, raw: Any) -> None:
        """Hold `made`, structured from the JSON value `raw`, under `key` (see above)."""
        if self.worth_it(raw):
            try:
                data = orjson.dumps(raw)
            except orjson.JSONEncodeError:  # an integer beyond 64 bits, a lone surrogate: held as made
                data = None
            # orjson writes NaN and the infinities (read from 1e400) as null: held as made, then.
            if data is not None and (b"null" not in data or orjson.loads(data) == raw):
                # A copy of its size: orjson's own bytes keep the 4 KiB buffer it wrote them into.
                self._held[key] = memoryview(data).tobytes()
                return
        self._held[key] = made

    def __getitem__(self, key: str) -> Any:
        value = self._held[key]
        return self._make(orjson.loads(value)) if type(value) is bytes else value

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self._held else default

    def __contains__(self, key: object) -> bool:
        return key in self._held

    def __iter__(self) -> Iterator[str]:
        return iter(self._held)

    def __len__(self) -> int:
        return len(self._held)


def structurer_of(cls: type, file: Path | None = None) -> Callable[..., Any]:
    """A function making `cls` from its JSON value as validation does: the class's fast path, else
    the strict converter, whose refusal names `file` and the `line` and `path` the call gives."""
    fast = _fast_or_none(cls)
    where = None if file is None else str(file)

    def make(value: Any, line: int | None = None, path: str = "$") -> Any:
        made = fast(value)
        return made if made is not MISS else structure(value, cls, file=where, line=line, path=path)

    return make


@attrs.frozen
class Contents:
    """A validated dataset with its cases (retired ones left out) and answers, structured once."""

    dataset: Dataset
    cases: dict[str, Case]
    answers: Mapping[str, Any]  # a dict, or a HeldValues for answers worth holding as text
    raw_inputs: dict[str, Any]  # each case's input exactly as cases.jsonl has it: what adapters get
    sealed: bool = False  # the answer key is held by a scoring service: `answers` is empty


def validate(root: str | Path, registry: Registry) -> Dataset:
    """Load and fully validate a dataset directory; raise EnviroBenchError on the first problem."""
    return validate_contents(root, registry).dataset


def validate_contents(root: str | Path, registry: Registry) -> Contents:
    """Validate a dataset and keep what validation structured, so a run parses each file once."""
    root = Path(root)
    manifest = read_manifest(root)
    mpath = root / MANIFEST
    btype = _type_for(manifest, registry, mpath)
    if manifest.version < 1:
        raise EnviroBenchError(f"version must be 1 or more (revisions count from 1), not {manifest.version}", file=mpath, field="$.version")
    sealed = verify_files(root, manifest)
    sources = {e.path for e in manifest.files if e.role == "source"}
    case_ids: dict[str, int] = {}
    cases_path = root / CASES
    dataset = Dataset(root, manifest)
    cases: dict[str, Case] = {}
    answers: dict[str, Any] = {}
    held: HeldValues | None = None  # the answers, when the first shows them worth holding as text
    raw_inputs: dict[str, Any] = {}
    uses_sources = type(btype).source_files is not BenchmarkType.source_files
    make_input = structurer_of(btype.Input, cases_path)
    for lineno, (case_id, category, raw_input) in _lines(cases_path, CaseRecord, lambda r: (r.id, r.category, r.input)):
        if not case_id.strip():
            raise EnviroBenchError(f"case ID {case_id!r} is empty; every case needs one to be run, scored and compared by", file=cases_path, line=lineno, field="$.id")
        if case_id in case_ids:
            raise EnviroBenchError(f"duplicate case ID {case_id!r} (first on line {case_ids[case_id]})", file=cases_path, line=lineno, field="$.id")
        case_ids[case_id] = lineno
        case_input = make_input(raw_input, lineno, "$.input")
        cases[case_id] = Case(case_id, category, case_input)
        raw_inputs[case_id] = raw_input
        for src in btype.source_files(case_input) if uses_sources else ():
            if src not in sources:
                raise EnviroBenchError(f"the input uses {src!r}, which the manifest does not list as a source file", file=cases_path, line=lineno, field="$.input")
    answers_path = root / ANSWERS
    answered: dict[str, int] = {}
    make_answer = structurer_of(btype.Answer, answers_path)
    answer_lines = () if sealed else _lines(answers_path, AnswerRecord, lambda r: (r.id, r.answer))
    for lineno, (case_id, raw_answer) in answer_lines:
        if case_id not in case_ids:
            raise EnviroBenchError(f"answer for {case_id!r}, which is not a case in {CASES}", file=answers_path, line=lineno, field="$.id")
        if case_id in answered:
            raise EnviroBenchError(f"duplicate answer for {case_id!r} (first on line {answered[case_id]})", file=answers_path, line=lineno, field="$.id")
        answered[case_id] = lineno
        answer = make_answer(raw_answer, lineno, "$.answer")
        if held is not None:
            held.hold(case_id, answer, raw_answer)
            continue
        if not answers and HeldValues.worth_it(raw_answer):
            held = HeldValues(structurer_of(btype.Answer))
            held.hold(case_id, answer, raw_answer)
            continue
        answers[case_id] = answer
    for case_id, lineno in case_ids.items() if not sealed else ():
        if case_id not in answered:
            raise EnviroBenchError(f"case {case_id!r} (line {lineno}) has no answer in {ANSWERS}", file=cases_path, line=lineno, field="$.id")
    for index, retirement in enumerate(manifest.retired):
        if retirement.case not in case_ids:
            raise EnviroBenchError(f"retires {retirement.case!r}, which is not a case", file=mpath, field=f"$.retired[{index}].case")
        if not retirement.reason.strip():
            raise EnviroBenchError("a retirement must state its reason", file=mpath, field=f"$.retired[{index}].reason")
    for retirement in manifest.retired:
        del cases[retirement.case], raw_inputs[retirement.case]
    return Contents(dataset, cases, answers if held is None else held, raw_inputs, sealed)


def _lines(path: Path, record: type, fields_of: Any) -> Iterator[tuple[int, tuple[Any, ...]]]:
    """(line number, the record's field values) for each line of a JSONL file of `record`s,
    through the record's fast path (the converter's own record, or its `$.path` refusal)."""
    fast = _fast_or_none(record)
    for lineno, value in iter_jsonl(path):
        made = fast(value)
        yield lineno, fields_of(made if made is not MISS else structure(value, record, file=str(path), line=lineno))


def _fast_or_none(cls: type) -> Any:
    """The fast path of a type's record class, or a function that always says MISS."""
    return fast_structurer(cls) or (lambda value: MISS)


def _type_for(manifest: Manifest, registry: Registry, mpath: Path) -> BenchmarkType:
    try:
        return registry.benchmark_type(manifest.benchmark)
    except EnviroBenchError as exc:
        raise EnviroBenchError(exc.message, file=mpath, field="$.benchmark") from None


def resolve(name_or_path: str | Path, registry: Registry) -> tuple[Path, str]:
    """A registered dataset ID or a directory path -> (directory, visibility)."""
    key = str(name_or_path)
    if key in registry.datasets:
        source = registry.datasets[key]
        return source.path, source.visibility
    path = Path(key)
    if (path / MANIFEST).is_file():
        manifest = read_manifest(path)
        return path, manifest.visibility
    known = ", ".join(sorted(registry.datasets)) or "none"
    raise EnviroBenchError(f"unknown dataset {key!r}: not a registered dataset ({known}) nor a directory with {MANIFEST}")


def load_dataset(name_or_path: str | Path, registry: Registry) -> Dataset:
    """A registered dataset ID or a directory, every pinned file and schema verified."""
    return load_contents(name_or_path, registry).dataset


def load_contents(name_or_path: str | Path, registry: Registry) -> Contents:
    """A registered dataset ID or a directory, validated, with its cases and answers."""
    path, _ = resolve(name_or_path, registry)
    contents = validate_contents(path, registry)
    key = str(name_or_path)
    if key in registry.datasets and contents.dataset.id != key:
        raise EnviroBenchError(f"registered as {key!r} but its manifest says {contents.dataset.id!r}", file=path / MANIFEST, field="$.id")
    return contents
