"""A category package's declaration: what its BenchmarkPackage registers, readable without importing it.

A package's entry point (`extract = "envirobench_extract.package:PACKAGE"`) imports every type
module of the package, and with them the scoring code. `envirobench --help`, `plugins list` and
`datasets` need none of it: they read `declared.json`, written beside the entry point's module
(`envirobench_extract/declared.json`), which says what the package registers:

    {"declaration": 1, "entry_point": "envirobench_extract.package:PACKAGE",
     "package": "envirobench_extract", "visibility": "public", "store": null,
     "materialise": null, "viewers": ["table-structure"],
     "types": [{"id": "table-separators", "module": "envirobench_extract.table_separators",
                "viewer": "table-grid", "datasets": {"synthetic-v1": "extract/table-separators-synthetic-v1"}}, ...]}

It is generated from the package (`python -m envirobench.declaration`, which rewrites the
declaration of every installed package plugin) and checked against it whenever the package is
imported (envirobench.plugins): a declaration that no longer says what the package registers is
refused with the command that regenerates it. A package without one is imported, as any plugin.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import json
import sys
from collections.abc import Callable, Mapping
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .errors import EnviroBenchError

if TYPE_CHECKING:
    from .authoring import BenchmarkPackage

ENTRY_POINT_GROUP = "envirobench"  # the entry points of plugins (envirobench.plugins)
FILE = "declared.json"
FORMAT = 1
REGENERATE = "python -m envirobench.declaration"


@dataclasses.dataclass(frozen=True, slots=True)
class DeclaredType:
    """A benchmark type as its package declares it: enough to list it, never to score with it."""

    id: str
    module: str
    viewer: str
    datasets: Mapping[str, str]  # dataset folder -> dataset ID


@dataclasses.dataclass(frozen=True, slots=True)
class Declaration:
    """A package plugin's declaration, read from `path`; `directory` is the package's directory."""

    path: Path
    package: str
    directory: Path
    visibility: str
    store: str | None
    materialise: str | None  # "module:function", the package's `materialise`
    viewers: tuple[str, ...]
    types: tuple[DeclaredType, ...]


def declaration_of(package: BenchmarkPackage, entry_point: str) -> dict[str, Any]:
    """The declaration of an imported package, as `declared.json` holds it."""
    materialise = package.materialise
    return {
        "declaration": FORMAT,
        "entry_point": entry_point,
        "package": package.name,
        "visibility": package.visibility,
        "store": package.store,
        "materialise": None if materialise is None else f"{materialise.__module__}:{materialise.__qualname__}",
        "viewers": list(package.viewers),
        "types": [
            {"id": layout.id, "module": layout.module, "viewer": layout.type.VIEWER, "datasets": dict(layout.datasets)}
            for layout in package.layouts.values()
        ],
    }


def render(declaration: dict[str, Any]) -> str:
    return json.dumps(declaration, indent=2, ensure_ascii=False) + "\n"


def package_directory(package: str) -> Path | None:
    """The directory of a package (dotted names too), found without importing it or its parents:
    the first search location of its top-level package, then its subfolders."""
    top, *rest = package.split(".")
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    if not locations:
        return None
    return Path(locations[0]).joinpath(*rest)


def path_for(entry_point_value: str) -> Path | None:
    """Where the declaration of the plugin an entry point names would be (None: it cannot have one)."""
    module, sep, attribute = entry_point_value.partition(":")
    if not sep or not attribute or "." not in module:
        return None
    directory = package_directory(module.strip().rpartition(".")[0])
    return None if directory is None else directory / FILE


def read(entry_point: metadata.EntryPoint) -> Declaration | None:
    """The declaration of an installed plugin, if it has one; its package is not imported."""
    value = getattr(entry_point, "value", None)
    path = path_for(value) if isinstance(value, str) else None
    if path is None or not path.is_file():
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if raw.get("declaration") != FORMAT or raw.get("entry_point") != value:
            return None  # another format, or another entry point's: the plugin is imported instead
        directory = package_directory(raw["package"])
        if directory is None:
            return None
        return Declaration(
            path=path,
            package=raw["package"],
            directory=directory,
            visibility=raw["visibility"],
            store=raw["store"],
            materialise=raw["materialise"],
            viewers=tuple(raw["viewers"]),
            types=tuple(DeclaredType(t["id"], t["module"], t["viewer"], dict(t["datasets"])) for t in raw["types"]),
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise EnviroBenchError(f"cannot read the plugin declaration ({type(exc).__name__}: {exc}); regenerate it with `{REGENERATE}`", file=path) from None


def check(package: BenchmarkPackage, entry_point: metadata.EntryPoint) -> None:
    """Refuse a declaration that does not say what the imported package registers."""
    value = getattr(entry_point, "value", None)
    path = path_for(value) if isinstance(value, str) else None
    if path is None or not path.is_file():
        return
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        found = f"unreadable: {exc}"
    if isinstance(found, dict) and (found.get("declaration") != FORMAT or found.get("entry_point") != value):
        return  # not this entry point's declaration (`read` leaves it too)
    if found != declaration_of(package, value):
        raise EnviroBenchError(
            f"plugin {entry_point.name!r}: {FILE} does not say what its package registers; "
            f"regenerate it with `{REGENERATE}`",
            file=path,
        )


class DeclaredPackage:
    """A package plugin read from its declaration, the package not imported: it registers its
    types (as `DeclaredType`s), its datasets and its viewers as the BenchmarkPackage does, so the
    one `plugins.PackageHooks` serves both."""

    def __init__(self, declared: Declaration) -> None:
        self.declared = declared

    def __repr__(self) -> str:
        return f"DeclaredPackage({str(self.declared.path)!r})"

    def register_types(self, register: Callable[..., None]) -> None:
        for declared_type in self.declared.types:
            register(declared_type)

    def register_datasets(self, register: Callable[..., None]) -> None:
        authoring = _authoring()
        declared = self.declared
        # The layouts BenchmarkPackage would make, each type a stand-in holding its ID and viewer
        # only: the type module is not imported.
        layouts = [
            authoring.TypeLayout(type(t.id, (), {"ID": t.id, "VIEWER": t.viewer}), t.module,
                                 declared.directory / authoring.BENCHMARKS_DIR / t.id, t.datasets)
            for t in declared.types
        ]
        materialise = _import_target(declared.materialise) if declared.materialise else None
        authoring.register_package_datasets(layouts, register, package=declared.package, materialise=materialise,
                                            visibility=declared.visibility, store=declared.store)

    def register_viewers(self, register: Callable[..., None]) -> None:
        _authoring().register_package_viewers(self.declared.directory, self.declared.viewers, register)


def _import_target(target: str) -> Any:
    module, _, attribute = target.partition(":")
    found: Any = importlib.import_module(module)
    for part in attribute.split("."):
        found = getattr(found, part)
    return found


def is_package(loaded: object) -> bool:
    """Whether an entry point loaded a BenchmarkPackage. Nothing is one before envirobench.authoring
    is imported: asked first, so that loading hook modules only (`envirobench --help`) does not
    import it."""
    authoring = sys.modules.get("envirobench.authoring")
    return authoring is not None and isinstance(loaded, authoring.BenchmarkPackage)


def _authoring() -> ModuleType:
    # Imported when a declared package's datasets or viewers are registered, not with this module:
    # `envirobench --help` reads declarations and needs none of the authoring layer.
    from . import authoring

    return authoring


def write_all() -> list[Path]:
    """Write the declaration of every installed package plugin (an entry point naming a
    BenchmarkPackage); returns the files written."""
    written = []
    for entry_point in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        loaded = entry_point.load()
        if not is_package(loaded):
            continue
        path = path_for(entry_point.value)
        if path is None:
            raise EnviroBenchError(f"plugin {entry_point.name!r}: its entry point {entry_point.value!r} names no module in a package")
        text = render(declaration_of(loaded, entry_point.value))
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # python -m envirobench.declaration
    for written_path in write_all():
        sys.stdout.write(f"{written_path}\n")
