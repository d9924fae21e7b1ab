"""The authoring layer: everything a plugin author needs to write benchmark types and their data.

A benchmark type, its records, its scores, its datasets' generator and its prediction fixtures
are written against this module alone (docs/api.md, "Authoring"):

    from envirobench.authoring import BenchmarkType, CaseScore, FixturePlan, write_dataset, ...

(the same names are importable from `envirobench`). It imports nothing from the harness — plugin
loading, stores, runs, reports — so a generator, and the regeneration stamp that pins every file a
generator reads (tests/regeneration-verified.json), depends on this module and the few it is built
on (benchmark, converter, errors, jsonio, records) and on nothing else in core. The harness builds
on it, never the other way round (docs/architecture.md, "Layers").

## A package's types, and where their files are

A category package (or a private plugin) declares its types in one list:

    PACKAGE = BenchmarkPackage("envirobench_extract", types=(TableSeparators, TableStructure, ...))

and points its `envirobench` entry point at it (`extract = "envirobench_extract.package:PACKAGE"`):
core registers the package's types, datasets and viewers (envirobench.plugins), so a package
needs no hook module of its own. Everything else about a type is found by convention, from the
type's ID and the name of its module:

    <package>/<module>.py                               the type class, and DATASETS: folder -> dataset ID
    <package>/benchmarks/<type ID>/datasets/<folder>/   each dataset of the type
    <package>/benchmarks/<type ID>/fixtures/<folder>/   correct.json and wrong.json for that dataset
    <package>/benchmarks/<type ID>/bench.json           the saved profile
    <package>/generate/<module>.py                      generate(output_dir, folder) -> Manifest, and
                                                        FIXTURES, the type's FixturePlan
    <package>/viewers/<name>.js (and .css)              each viewer the package registers

A dataset folder named with `dev` or `test` as one of its hyphenated words (`synthetic-dev-v1`)
is registered as that split (`split_of`): a leaderboard pins a task's test split.

So adding a type to a package is: the type module, its generator, its data folder and one entry
in the list. `generator_command` builds the package's generator command from the same list; the
conformance suite finds the fixtures by the same convention (`fixtures_dir_for`).

## The generator command

A package's `generate/__main__.py` is two lines:

    from envirobench.authoring import generator_command
    from ..package import PACKAGE

    generator_command(PACKAGE)(prog_name=...)

and `python -m PACKAGE.generate TYPE [--dataset FOLDER] [--output DIR] [--fixtures DIR]` then
(re)generates any dataset of any of its types. Without --output the shipped dataset is
regenerated in place, with its fixtures: the new files are written beside it and swapped in, so an
interrupted run leaves the old dataset whole. Any other output directory must be absent or empty.

## What generators write

The dataset files (`write_dataset`: assets, cases.jsonl, answers.jsonl, and manifest.json by
`write_manifest`, which pins every file by `sha256_file`), and the prediction fixtures
(`FixturePlan`: correct.json from the answer key, wrong.json with a list of deliberate mistakes
planted on the cases that fit them, `plant_mistakes`). A generator's `generate` usually starts
from `dataset_writer`, which fills in what the type and its folder already say:

    def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
        write = dataset_writer(MyType, dataset, seed=SEED, version=VERSION)
        ...
        return write(output_dir, cases, title=..., description=...)

Length: the whole authoring surface a plugin author reads, in the order a type is written — where
its files go, the command that generates them, what a generator writes, the fixtures — each part
short and used with the others; the records, scores and JSON helpers it names live in their own
modules already.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import importlib
import re
import shutil
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any, Generic, Protocol, TypeVar

import attrs
import click

from .benchmark import (
    BenchmarkType,
    Case,
    CaseScore,
    Curve,
    ErrorKey,
    Scalar,
    Tier,
    check_type_class,
    f1,
    mean_metrics,
    not_blank,
    pdf_path,
    pooled_f1,
    precision_recall,
    set_counts,
    share,
)
from .converter import structure, unstructure
from .errors import EnviroBenchError
from .jsonio import atomic_write_text, dumps, dumps_line, iter_jsonl, read_json, write_json
from .records import (
    DATASET_FORMAT,
    AnswerRecord,
    CaseRecord,
    DatasetIdentity,
    FileEntry,
    Generator,
    Manifest,
    Retirement,
)

__all__ = [  # the authoring names (docs/api.md, "Authoring"); a test holds them and the docs together
    "DATA_LICENSE",
    "AnswerRecord",
    "BenchmarkPackage",
    "BenchmarkType",
    "Case",
    "CaseRecord",
    "CaseScore",
    "Curve",
    "DatasetIdentity",
    "EnviroBenchError",
    "ErrorKey",
    "FileEntry",
    "FixturePlan",
    "GeneratedCase",
    "Generator",
    "Manifest",
    "Retirement",
    "Scalar",
    "Tier",
    "TypeLayout",
    "copy_fields",
    "dataset_id_of",
    "dataset_writer",
    "document_cases",
    "dumps",
    "dumps_line",
    "f1",
    "generator_command",
    "iso_date",
    "iter_jsonl",
    "mean_metrics",
    "not_blank",
    "pdf_path",
    "plant_mistakes",
    "pooled_f1",
    "precision_recall",
    "read_answers",
    "read_categories",
    "read_json",
    "read_manifest",
    "set_counts",
    "sha256_file",
    "share",
    "split_of",
    "structure",
    "unstructure",
    "write_by_case",
    "write_dataset",
    "write_json",
    "write_manifest",
]

# -- a field validator the records of several categories share ---------------------------------

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def iso_date(instance: Any, attribute: attrs.Attribute, value: str | None) -> None:
    """attrs validator: a calendar date written YYYY-MM-DD ("2023-03-28"), or None (a field that
    may be absent says so in its type). ValueError naming the field otherwise."""
    if value is None:
        return
    if not _ISO_DATE.fullmatch(value):
        raise ValueError(f"{attribute.name} is not an ISO date (YYYY-MM-DD): {value[:40]!r}")
    try:
        _dt.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{attribute.name} is not a calendar date (an ISO date YYYY-MM-DD): {value!r}") from None


# -- a package's types and the places of their files --------------------------------------------

BENCHMARKS_DIR = "benchmarks"
DATASETS_DIR = "datasets"
FIXTURES_DIR = "fixtures"
PROFILE_FILE = "bench.json"
GENERATE_PACKAGE = "generate"
VIEWERS_DIR = "viewers"
FIXTURE_FILES = ("correct.json", "wrong.json")


def _generator_module_of(type_module: str) -> str:
    """Where the generator of the type defined in `type_module` is: `<package>.generate.<module>`."""
    package, _, name = type_module.rpartition(".")
    return f"{package}.{GENERATE_PACKAGE}.{name}"


def fixtures_dir_for(dataset_dir: Path) -> Path:
    """Where the prediction fixtures of the dataset at `benchmarks/<type>/datasets/<folder>/` are:
    `benchmarks/<type>/fixtures/<folder>/`."""
    dataset_dir = Path(dataset_dir)
    return dataset_dir.parent.parent / FIXTURES_DIR / dataset_dir.name


@attrs.frozen
class TypeLayout:
    """Where one type's files are: its datasets, fixtures, profile and generator."""

    type: type[BenchmarkType]
    module: str  # the type module, e.g. envirobench_extract.table_separators
    root: Path  # <package>/benchmarks/<type ID>
    datasets: Mapping[str, str]  # dataset folder -> dataset ID

    @property
    def id(self) -> str:
        return self.type.ID

    @property
    def generator_module(self) -> str:
        return _generator_module_of(self.module)

    @property
    def profile(self) -> Path:
        return self.root / PROFILE_FILE

    def folder(self, name: str | None = None) -> str:
        """A dataset folder of the type; with no name, its only one."""
        if name is None:
            if len(self.datasets) != 1:
                raise EnviroBenchError(f"benchmark type {self.id!r} has {len(self.datasets)} datasets ({', '.join(self.datasets)}); name one")
            return next(iter(self.datasets))
        if name not in self.datasets:
            raise EnviroBenchError(f"benchmark type {self.id!r} has no dataset {name!r} (it has: {', '.join(self.datasets)})")
        return name

    def dataset_id(self, name: str | None = None) -> str:
        return self.datasets[self.folder(name)]

    def dataset_dir(self, name: str | None = None) -> Path:
        return self.root / DATASETS_DIR / self.folder(name)

    def fixtures_dir(self, name: str | None = None) -> Path:
        return fixtures_dir_for(self.dataset_dir(name))


class BenchmarkPackage:
    """The benchmark types of one package, with their datasets, fixtures, profiles and viewers.

    `visibility` and `store` apply to every dataset the package registers: a private plugin's
    datasets are private, and core refuses to upload them to a public store. `materialise`, for a
    package whose datasets are assembled on first use rather than shipped whole (Site: its
    records ship once for every type), gives the directory a dataset is registered from:
    `materialise(layout, folder)`; one that fails is left unregistered, with a warning."""

    def __init__(
        self,
        package: str,
        types: Sequence[type[BenchmarkType]],
        *,
        visibility: str = "public",
        store: str | None = None,
        viewers: Sequence[str] = (),
        materialise: Callable[[TypeLayout, str], Path] | None = None,
    ) -> None:
        self.name = package
        self.materialise = materialise
        self.directory = _package_dir(package)
        self.visibility = visibility
        self.store = store
        self.viewers = tuple(viewers)
        layouts: dict[str, TypeLayout] = {}
        for cls in types:
            problems = check_type_class(cls)
            if problems:
                raise EnviroBenchError(f"package {package!r}: {getattr(cls, 'ID', cls)!r} is not a usable benchmark type: " + "; ".join(problems))
            if cls.ID in layouts:
                raise EnviroBenchError(f"package {package!r} lists benchmark type {cls.ID!r} twice")
            if not cls.__module__.startswith(package + "."):
                raise EnviroBenchError(f"package {package!r}: type {cls.ID!r} is defined in {cls.__module__}, outside the package")
            layouts[cls.ID] = TypeLayout(cls, cls.__module__, self.directory / BENCHMARKS_DIR / cls.ID, _declared_datasets(cls, package))
        self.layouts: Mapping[str, TypeLayout] = layouts

    def __repr__(self) -> str:
        return f"BenchmarkPackage({self.name!r}, types={list(self.layouts)!r})"

    @property
    def types(self) -> tuple[type[BenchmarkType], ...]:
        return tuple(layout.type for layout in self.layouts.values())

    def layout(self, type_id: str) -> TypeLayout:
        try:
            return self.layouts[type_id]
        except KeyError:
            raise EnviroBenchError(f"package {self.name!r} has no benchmark type {type_id!r} (it has: {', '.join(self.layouts)})") from None

    # -- the hooks -------------------------------------------------------------------------------

    def register_types(self, register: Callable[..., None]) -> None:
        for layout in self.layouts.values():
            register(layout.type)

    def register_datasets(self, register: Callable[..., None]) -> None:
        register_package_datasets(self.layouts.values(), register, package=self.name, materialise=self.materialise,
                                  visibility=self.visibility, store=self.store)

    def register_viewers(self, register: Callable[..., None]) -> None:
        register_package_viewers(self.directory, self.viewers, register)


def register_package_datasets(
    layouts: Iterable[TypeLayout], register: Callable[..., None], *, package: str,
    materialise: Callable[[TypeLayout, str], Path] | None, visibility: str, store: str | None,
) -> None:
    """Register every dataset of these layouts, each where the package keeps it (or where
    `materialise` puts it). One loop for a package imported (`BenchmarkPackage`) and a package read
    from its declaration without importing it (`envirobench.declaration.DeclaredPackage`)."""
    for layout in layouts:
        for folder, dataset_id in layout.datasets.items():
            if materialise is None:
                directory = layout.dataset_dir(folder)
            else:
                try:
                    directory = materialise(layout, folder)
                except (EnviroBenchError, OSError) as exc:
                    # Left out with a warning naming why (a file of the installed package
                    # missing or altered, a cache that cannot be written), so that every other
                    # dataset and category still works.
                    warnings.warn(f"{package}: dataset {dataset_id} is not available: {exc}", stacklevel=2)
                    continue
            register(dataset_id, directory, visibility=visibility, store=store, split=split_of(folder))


def register_package_viewers(directory: Path, viewers: Iterable[str], register: Callable[..., None]) -> None:
    """Register a package's viewers from `<package>/viewers/<name>.js` (and `.css` when there is one)."""
    for name in viewers:
        script = directory / VIEWERS_DIR / f"{name}.js"
        style = directory / VIEWERS_DIR / f"{name}.css"
        register(name, script=script.read_text(encoding="utf-8"), style=style.read_text(encoding="utf-8") if style.is_file() else "")


def split_of(folder: str) -> str | None:
    """The split a dataset folder's name declares: "dev" or "test" as one of its hyphenated words
    (`synthetic-dev-v1`, `synthetic-test-v1`), else None (a type with one dataset)."""
    words = set(folder.split("-"))
    found = [split for split in ("dev", "test") if split in words]
    return found[0] if len(found) == 1 else None


def _package_dir(package: str) -> Path:
    module: ModuleType | None = sys.modules.get(package)
    paths = getattr(module, "__path__", None)
    if not paths:
        raise EnviroBenchError(f"{package!r} is not an imported package; declare a BenchmarkPackage inside the package it describes")
    return Path(next(iter(paths)))


def _declared_datasets(cls: type[BenchmarkType], package: str) -> dict[str, str]:
    module = sys.modules[cls.__module__]
    declared = getattr(module, "DATASETS", None)
    where = f"package {package!r}: {cls.__module__}.DATASETS"
    if not isinstance(declared, Mapping) or not declared:
        raise EnviroBenchError(f"{where} must map each dataset folder under benchmarks/{cls.ID}/datasets/ to its dataset ID")
    for folder, dataset_id in declared.items():
        if not isinstance(folder, str) or not folder or "/" in folder or folder.startswith("."):
            raise EnviroBenchError(f"{where}: {folder!r} is not a folder name")
        if not isinstance(dataset_id, str) or not dataset_id.strip():
            raise EnviroBenchError(f"{where}: the dataset ID of {folder!r} must be a non-empty string")
    return dict(declared)


# -- the manifest: every file pinned by size and SHA-256 ----------------------------------------

MANIFEST = "manifest.json"
CASES = "cases.jsonl"
ANSWERS = "answers.jsonl"
#: A manifest larger than this is refused before it is read (docs/datasets.md, Reading files):
#: a million files pin in about 150 MiB.
MAX_MANIFEST_BYTES = 256 << 20
HASH_CHUNK = 1 << 20  # bytes read at a time when hashing a file


def sha256_file(path: Path) -> str:
    """The SHA-256 of a file's bytes (hex), read a chunk at a time."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        while chunk := handle.read(HASH_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def digest_of(entries: list[FileEntry]) -> str:
    """A digest over (path, SHA-256) pairs, independent of listing order."""
    digest = hashlib.sha256()
    for entry in sorted(entries, key=lambda e: e.path):
        digest.update(f"{entry.path}\t{entry.sha256}\n".encode())
    return "sha256:" + digest.hexdigest()


def read_manifest(root: Path) -> Manifest:
    """A dataset directory's manifest, read strictly (its files are not verified here: that is
    envirobench.datasets.load_dataset's work)."""
    root = Path(root)
    path = root / MANIFEST
    if not root.is_dir():
        raise EnviroBenchError("not a dataset directory", file=root)
    if path.is_symlink():
        raise EnviroBenchError(f"{MANIFEST} is a symbolic link; a dataset holds regular files only", file=path)
    return structure(read_json(path, max_bytes=MAX_MANIFEST_BYTES), Manifest, file=str(path))


def write_manifest(
    root: str | Path,
    *,
    dataset_id: str,
    version: int,
    benchmark: str,
    title: str,
    description: str = "",
    visibility: str = "public",
    generator: Generator | None = None,
    retired: tuple[Retirement, ...] = (),
    license: str = "",
) -> Manifest:
    """Pin every file under `root` (for generators): sizes, SHA-256s and both digests."""
    root = Path(root)
    entries = []
    for full in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = full.relative_to(root).as_posix()
        if rel == MANIFEST:
            continue
        role = "cases" if rel == CASES else "answers" if rel == ANSWERS else "source"
        entries.append(FileEntry(rel, full.stat().st_size, sha256_file(full), role))
    manifest = Manifest(
        format=DATASET_FORMAT,
        id=dataset_id,
        version=version,
        benchmark=benchmark,
        title=title,
        description=description,
        visibility=visibility,  # type: ignore[arg-type]
        generator=generator,
        files=tuple(entries),
        input_digest=digest_of([e for e in entries if e.role != "answers"]),
        answer_digest=digest_of([e for e in entries if e.role == "answers"]),
        retired=retired,
        license=license,
    )
    atomic_write_text(root / MANIFEST, dumps(unstructure(manifest)))
    return manifest


# -- the generator command ----------------------------------------------------------------------

def generator_module(layout: TypeLayout) -> ModuleType:
    """The type's generator module, checked to provide generate() and its fixtures' plan."""
    try:
        module = importlib.import_module(layout.generator_module)
    except ModuleNotFoundError as exc:
        top = layout.module.partition(".")[0]
        if exc.name and not exc.name.startswith(top):
            # A category installed without its generators' dependencies (they are an extra).
            dist = (metadata.packages_distributions().get(top) or [top])[0]
            raise EnviroBenchError(
                f"{layout.generator_module} needs {exc.name!r}, which is not installed: generating datasets needs "
                f"the `generate` extra: pip install '{dist}[generate]'"
            ) from None
        raise
    if not callable(getattr(module, "generate", None)):
        raise EnviroBenchError(f"{layout.generator_module} has no function generate(); see envirobench.authoring for the convention")
    write_fixtures(module)  # checked now, before a dataset is written
    return module


def write_fixtures(module: ModuleType) -> Callable[[Path, Path], object]:
    """A generator module's fixture writer: its FIXTURES plan's `write`, or a plugin's own
    `write_fixtures(dataset_dir, fixtures_dir)` function."""
    plan = getattr(module, "FIXTURES", None)
    if isinstance(plan, FixturePlan):
        return plan.write
    if callable(getattr(module, "write_fixtures", None)):
        return module.write_fixtures
    raise EnviroBenchError(f"{module.__name__} has no FIXTURES (a FixturePlan) nor a write_fixtures() function; see envirobench.authoring")


def generate_dataset(layout: TypeLayout, folder: str, output: Path, fixtures: Path | None = None) -> None:
    """Write dataset `folder` of the type into `output` (absent or empty), and its fixtures."""
    module = generator_module(layout)
    if output.exists() and any(output.iterdir()):
        raise EnviroBenchError(f"{output} is not empty; generate into a new or empty directory")
    module.generate(output, folder)
    if fixtures is not None:
        write_fixtures(module)(output, fixtures)


def regenerate_in_place(layout: TypeLayout, folder: str) -> Path:
    """Regenerate a shipped dataset and its fixtures where they are; returns the dataset directory."""
    module = generator_module(layout)
    directory = layout.dataset_dir(folder)
    _swap_in(directory, lambda fresh: module.generate(fresh, folder))
    write_fixtures(module)(directory, layout.fixtures_dir(folder))
    return directory


def _swap_in(directory: Path, write: Callable[[Path], object]) -> None:
    fresh = directory.with_name(f".{directory.name}.new")
    stale = directory.with_name(f".{directory.name}.old")
    for leftover in (fresh, stale):  # from an earlier interrupted run
        shutil.rmtree(leftover, ignore_errors=True)
    try:
        write(fresh)
        if directory.exists():
            directory.rename(stale)
        fresh.rename(directory)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
        shutil.rmtree(stale, ignore_errors=True)


def generator_command(package: BenchmarkPackage) -> click.Command:
    """`python -m PACKAGE.generate TYPE ...` for every type of `package`."""

    @click.command(context_settings={"help_option_names": ["-h", "--help"]}, help=f"Generate the synthetic datasets of {package.name}.")
    @click.argument("type_id", metavar="TYPE", type=click.Choice(sorted(package.layouts)))
    @click.option("--dataset", "folder", metavar="FOLDER", help="One dataset of the type (its folder under datasets/) [default: every one].")
    @click.option("--output", type=click.Path(file_okay=False, path_type=Path), help="Write the dataset here instead of regenerating the shipped one (needs --dataset when the type has several).")
    @click.option("--fixtures", type=click.Path(file_okay=False, path_type=Path), help=f"With --output: also write {' and '.join(FIXTURE_FILES)} here.")
    def main(type_id: str, folder: str | None, output: Path | None, fixtures: Path | None) -> None:
        layout = package.layout(type_id)
        try:
            if output is None:
                if fixtures is not None:
                    raise click.UsageError("--fixtures goes with --output; in place, the shipped fixtures are regenerated")
                for name in [layout.folder(folder)] if folder else list(layout.datasets):
                    directory = regenerate_in_place(layout, name)
                    click.echo(f"regenerated {directory} and {layout.fixtures_dir(name)}", err=True)
                return
            name = layout.folder(folder)
            generate_dataset(layout, name, output, fixtures)
            click.echo(f"wrote {layout.dataset_id(name)} to {output}" + (f" and its fixtures to {fixtures}" if fixtures else ""), err=True)
        except EnviroBenchError as exc:
            raise click.ClickException(str(exc)) from None

    return main


# -- what generators write ---------------------------------------------------------------------

# A case as a generator yields it: (case ID, category, input, answer).
GeneratedCase = tuple[str, str, Any, Any]


def dataset_id_of(datasets: Mapping[str, str], folder: str) -> str:
    """The ID of a type's dataset `folder` (a key of its module's DATASETS), for the manifest."""
    try:
        return datasets[folder]
    except KeyError:
        raise EnviroBenchError(
            f"no dataset folder {folder!r} to generate (there are: {', '.join(datasets)})"
        ) from None


# The public synthetic datasets are CC BY 4.0 (the code that makes them is Apache-2.0).
DATA_LICENSE = "CC-BY-4.0"


def write_dataset(
    output_dir: Path,
    cases: Callable[[Path], Iterable[GeneratedCase]],
    *,
    dataset_id: str,
    version: int,
    benchmark: str,
    title: str,
    description: str,
    generator: Generator,
    input_json: Callable[[Any], Any] = unstructure,
    visibility: str = "public",
    license: str = DATA_LICENSE,
) -> Manifest:
    """Write a whole dataset into `output_dir` (absent or empty) and return its manifest.

    `cases(output_dir)` writes each case's assets under output_dir/assets as it yields the case
    (the folder is removed again when none are written); each case's input (as `input_json` gives
    it) goes to cases.jsonl, its answer to answers.jsonl. A private plugin's datasets are
    `visibility="private"`, with its own licence (or "" for none)."""
    output_dir = Path(output_dir)
    if output_dir.exists() and any(output_dir.iterdir()):
        raise EnviroBenchError("refusing to generate into a non-empty directory", file=output_dir)
    (output_dir / "assets").mkdir(parents=True, exist_ok=True)
    with (
        (output_dir / "cases.jsonl").open("w", encoding="utf-8", newline="\n") as cases_file,
        (output_dir / "answers.jsonl").open("w", encoding="utf-8", newline="\n") as answers_file,
    ):
        for case_id, category, case_input, answer in cases(output_dir):
            cases_file.write(
                dumps_line({"id": case_id, "category": category, "input": input_json(case_input)})
            )
            answers_file.write(dumps_line({"id": case_id, "answer": unstructure(answer)}))
    if not any((output_dir / "assets").iterdir()):
        (output_dir / "assets").rmdir()
    return write_manifest(
        output_dir,
        dataset_id=dataset_id,
        version=version,
        benchmark=benchmark,
        title=title,
        description=description,
        generator=generator,
        license=license,
        visibility=visibility,
    )


def dataset_writer(
    benchmark_type: type[BenchmarkType],
    folder: str,
    *,
    seed: int,
    version: int,
    generator: str | None = None,
) -> Callable[..., Manifest]:
    """`write_dataset` for dataset `folder` of `benchmark_type`, filled in but for what a generator
    writes: the result is called as `write(output_dir, cases, title=..., description=...)` (and
    takes write_dataset's other keywords). The dataset ID is the folder's in the type module's
    DATASETS (an unknown folder is refused here, before anything is drawn), the benchmark is the
    type's ID and the generator `generator` seeded `seed`; by default the type's generator module
    (`<package>.generate.<module>`, the one the generator command runs)."""
    datasets = _declared_datasets(benchmark_type, benchmark_type.__module__.partition(".")[0])
    return functools.partial(
        write_dataset,
        dataset_id=dataset_id_of(datasets, folder),
        version=version,
        benchmark=benchmark_type.ID,
        generator=Generator(name=generator or _generator_module_of(benchmark_type.__module__), seed=seed),
    )


class PlannedDocument(Protocol):
    case_id: str  # a planned case of a type whose case is one document


P = TypeVar("P", bound=PlannedDocument)


def document_cases(
    planned: Iterable[P], render: Callable[[P, str], tuple[bytes, str, Any, Any]], suffix: str = ".pdf"
) -> Callable[[Path], Iterator[GeneratedCase]]:
    """write_dataset's `cases` for a type whose case is one document: for each planned case (in
    order; anything with a `case_id`), render(planned, path) returns the document's bytes and the
    case's category, input and answer, and the document is written at `path`,
    assets/<case ID><suffix>, before the case is yielded."""

    def cases(root: Path) -> Iterator[GeneratedCase]:
        for item in planned:
            path = f"assets/{item.case_id}{suffix}"
            document, category, case_input, answer = render(item, path)
            (root / path).write_bytes(document)
            yield item.case_id, category, case_input, answer

    return cases


R = TypeVar("R")  # an attrs record class of a type's schema


def copy_fields(cls: type[R], source: object, **given: Any) -> R:
    """A record of the attrs class `cls` whose fields are `source`'s attributes of the same names,
    but those `given`: a type's answer or input built from the synthetic model's object that
    carries its fields (`copy_fields(Record, truth)`, `copy_fields(Answer, facts,
    report_date=facts.report_date.isoformat())`)."""
    fields = {f.name: getattr(source, f.name) for f in attrs.fields(cls) if f.name not in given}  # type: ignore[arg-type]
    return cls(**fields, **given)


def read_answers(dataset_dir: Path, answer_cls: type) -> dict[str, Any]:
    """A dataset's answer key: {case ID: answer}, structured as `answer_cls`."""
    path = Path(dataset_dir) / "answers.jsonl"
    return {
        record["id"]: structure(
            record["answer"], answer_cls, file=str(path), line=lineno, path="$.answer"
        )
        for lineno, record in iter_jsonl(path)
    }


def write_by_case(path: Path, predictions: dict[str, Any]) -> None:
    """One JSON object, one case per line (canonical JSON: sorted keys, no spaces)."""
    lines = [dumps_line({case: predictions[case]})[1:-2] for case in sorted(predictions)]
    atomic_write_text(path, "{\n" + ",\n".join(lines) + "\n}\n")


# -- the deliberate mistakes of wrong.json ------------------------------------------------------


class Mistake(Protocol):
    why: str  # what the deliberate mistake is, for the message when no case fits it


M = TypeVar("M", bound=Mistake)


def read_categories(dataset_dir: Path) -> dict[str, str]:
    """Case ID -> its category, in the dataset's order."""
    return {record["id"]: record["category"] for _, record in iter_jsonl(Path(dataset_dir) / "cases.jsonl")}


def plant_mistakes(mistakes: Sequence[M], case_ids: Iterable[str], fits: Callable[[M, str], bool], unit: str = "case") -> dict[str, M]:
    """Case ID -> the deliberate mistake a wrong.json fixture makes there: each mistake on the first
    case (in `case_ids` order) that `fits` it and no other mistake took. EnviroBenchError when none
    fits, so a regenerated dataset that lost the case a mistake needs fails loudly."""
    ids = list(case_ids)
    taken: dict[str, M] = {}
    for mistake in mistakes:
        case_id = next((c for c in ids if c not in taken and fits(mistake, c)), None)
        if case_id is None:
            raise EnviroBenchError(f"no {unit} fits the deliberate mistake: {mistake.why}")
        taken[case_id] = mistake
    return taken


# -- the prediction fixtures --------------------------------------------------------------------

A = TypeVar("A")  # a type's Answer


@attrs.frozen
class FixturePlan(Generic[A, M]):
    """How a type's prediction fixtures are made from a dataset's answer key.

    correct.json holds `correct(answer)` for every case; wrong.json is the same but on each case
    `planted(dataset_dir, answers)` chose for a deliberate mistake (usually with plant_mistakes),
    where it holds `wrong(mistake, answer, correct_prediction)`. A generator module names its plan
    `FIXTURES`; the generator command calls `FIXTURES.write(dataset_dir, fixtures_dir)`, and the
    category's tests read the planted mistakes back to check each one scores as it should.

    `wrong` gets the correct prediction itself (the one correct.json holds): it returns a changed
    copy and leaves its argument as it is. Each file is written by `file_writer`, one case a line
    (`write_by_case`) unless a type's fixtures were published in another layout (Extract's
    indented ones, `write_json`): the plan keeps a shipped file's bytes."""

    answer: type[A]  # the type's Answer class, to read answers.jsonl with
    correct: Callable[[A], Any]  # the prediction a perfect system makes (JSON)
    planted: Callable[[Path, dict[str, A]], Mapping[str, M]]  # case ID -> its deliberate mistake
    wrong: Callable[[M, A, Any], Any]  # (mistake, answer, correct prediction) -> the wrong prediction
    file_writer: Callable[[Path, dict[str, Any]], None] = write_by_case  # (path, {case ID: prediction})

    @staticmethod
    def first_fitting(
        mistakes: Sequence[M],
        fits: Callable[[M, Any], bool] | None = None,
        *,
        category: Callable[[M], str] | None = None,
        answer: type | None = None,
        unit: str = "case",
    ) -> Callable[..., dict[str, M]]:
        """The `planted` most types' plans share: each mistake on the first case (in the
        dataset's order) that no earlier mistake took (plant_mistakes), of category
        `category(mistake)` when `category` is given, whose answer `fits(mistake, answer)` accepts
        when `fits` is given. The plan passes the answer key; called as planted(dataset_dir)
        alone (a test reading the planted mistakes back) it reads the key as `answer`."""

        def planted(dataset_dir: Path, answers: Mapping[str, Any] | None = None) -> dict[str, M]:
            categories = read_categories(dataset_dir)
            if fits is not None and answers is None:
                if answer is None:
                    raise EnviroBenchError("FixturePlan.first_fitting: `fits` reads the answers; name the answer class")
                answers = read_answers(dataset_dir, answer)

            def chosen(mistake: M, case_id: str) -> bool:
                if category is not None and categories[case_id] != category(mistake):
                    return False
                return fits is None or fits(mistake, answers[case_id])

            return plant_mistakes(mistakes, categories, chosen, unit)

        return planted

    def write(self, dataset_dir: Path, fixtures_dir: Path) -> dict[str, M]:
        """Write correct.json and wrong.json into `fixtures_dir`; returns the planted mistakes."""
        dataset_dir, fixtures_dir = Path(dataset_dir), Path(fixtures_dir)
        answers: dict[str, A] = read_answers(dataset_dir, self.answer)
        correct = {case_id: self.correct(answer) for case_id, answer in answers.items()}
        mistakes = dict(self.planted(dataset_dir, answers))
        wrong = {
            case_id: self.wrong(mistakes[case_id], answers[case_id], prediction) if case_id in mistakes else prediction
            for case_id, prediction in correct.items()
        }
        fixtures_dir.mkdir(parents=True, exist_ok=True)
        self.file_writer(fixtures_dir / FIXTURE_FILES[0], correct)
        self.file_writer(fixtures_dir / FIXTURE_FILES[1], wrong)
        return mistakes
