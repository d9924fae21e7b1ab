"""One way for a package to bring benchmark types: list them once, keep their files in fixed places.

A category package (or a private plugin) declares its types in one list:

    PACKAGE = BenchmarkPackage("envirobench_extract", types=(TableSeparators, TableStructure, ...))

and its `plugin.py` hands the hooks to it (`PACKAGE.register_types(register)`, ...). Everything
else about a type is found by convention, from the type's ID and the name of its module:

    <package>/<module>.py                               the type class, and DATASETS: folder -> dataset ID
    <package>/benchmarks/<type ID>/datasets/<folder>/   each dataset of the type
    <package>/benchmarks/<type ID>/fixtures/<folder>/   correct.json and wrong.json for that dataset
    <package>/benchmarks/<type ID>/bench.json           the saved profile
    <package>/generate/<module>.py                      generate(output_dir, folder) -> Manifest and
                                                        write_fixtures(dataset_dir, fixtures_dir)
    <package>/viewers/<name>.js (and .css)              each viewer the package registers

A dataset folder named with `dev` or `test` as one of its hyphenated words (`synthetic-dev-v1`)
is registered as that split (`split_of`): a leaderboard pins a task's test split.

So adding a type to a package is: the type module, its generator, its data folder and one entry
in the list. `envirobench.generation` builds the package's generator command from the same list;
the conformance suite finds the fixtures by the same convention (`fixtures_dir_for`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType

import attrs

from .benchmark import BenchmarkType, check_type_class
from .errors import EnviroBenchError

BENCHMARKS_DIR = "benchmarks"
DATASETS_DIR = "datasets"
FIXTURES_DIR = "fixtures"
PROFILE_FILE = "bench.json"
GENERATE_PACKAGE = "generate"
VIEWERS_DIR = "viewers"
FIXTURE_FILES = ("correct.json", "wrong.json")


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
        package, _, name = self.module.rpartition(".")
        return f"{package}.{GENERATE_PACKAGE}.{name}"

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
    datasets are private, and core refuses to upload them to a public store."""

    def __init__(
        self,
        package: str,
        types: Sequence[type[BenchmarkType]],
        *,
        visibility: str = "public",
        store: str | None = None,
        viewers: Sequence[str] = (),
    ) -> None:
        self.name = package
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
        for layout in self.layouts.values():
            for folder, dataset_id in layout.datasets.items():
                register(dataset_id, layout.dataset_dir(folder), visibility=self.visibility, store=self.store, split=split_of(folder))

    def register_viewers(self, register: Callable[..., None]) -> None:
        for name in self.viewers:
            script = self.directory / VIEWERS_DIR / f"{name}.js"
            style = self.directory / VIEWERS_DIR / f"{name}.css"
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
