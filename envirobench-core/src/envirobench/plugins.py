"""Loading plugins once, and the registry of everything they registered.

Plugins are distributions with an entry point in the `envirobench` group. The environment
variable ENVIROBENCH_LOAD_PLUGINS (comma-separated distribution or entry-point names, as `plugins
list` prints them; empty means none) restricts which are loaded; a name that matches no installed
plugin is a warning. A plugin that fails to import is recorded (`Registry.failures`) and skipped:
`plugins list` shows the error, other commands warn in one line, and asking for something only it
would have registered says so. Every registration is attributed to its plugin, and a duplicate ID
is refused with a message naming both plugins.

An entry point names a module of hook implementations, or a `BenchmarkPackage` (a category's
`"envirobench_x.package:PACKAGE"`): a package's hooks are always the same three — its types, its
datasets and its viewers — so core provides them (`PackageHooks`) and a package writes none.

Start-up does not grow with the packages: a package's `declared.json` (envirobench.declaration)
says what it registers, so `envirobench --help` (`plugin_commands`), `plugins list` and `datasets`
(`declared_registry`) read it instead of importing the package and its scoring code
(`DeclaredPackage`). Every other command imports the packages (`get_registry`), and the declaration
of each is checked against what it registers. This module imports no more than it needs for that.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

from . import __version__, builtin, declaration, hookspecs
from .declaration import DeclaredPackage, DeclaredType
from .errors import EnviroBenchError
from .hookspecs import hookimpl

if TYPE_CHECKING:
    from .authoring import BenchmarkPackage
    from .benchmark import BenchmarkType

ENTRY_POINT_GROUP = declaration.ENTRY_POINT_GROUP  # "envirobench"
LOAD_PLUGINS_ENV = "ENVIROBENCH_LOAD_PLUGINS"
CORE_PLUGIN = "envirobench-core"

HOOKS = (
    ("envirobench_benchmark_types", "benchmark_types"),
    ("envirobench_datasets", "datasets"),
    ("envirobench_viewers", "viewers"),
    ("envirobench_stores", "stores"),
    ("envirobench_adapters", "adapters"),
    ("envirobench_commands", "commands"),
)


@dataclasses.dataclass(frozen=True, slots=True)
class PluginInfo:
    name: str  # the entry point's name, or "envirobench-core" for core's own hooks
    distribution: str
    version: str
    hooks: tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class PluginFailure:
    """An installed plugin that could not be imported, and why; it registers nothing."""

    name: str
    distribution: str
    version: str
    error: str


SPLITS = ("dev", "test")  # a dataset's split: developed on (dev), or measured on (test)


@dataclasses.dataclass(frozen=True, slots=True)
class DatasetSource:
    id: str
    path: Path
    visibility: str
    plugin: str
    store: str | None = None  # the store the dataset is published in (a URL or a configured name)
    split: str | None = None  # "dev" or "test" (leaderboards pin the test split: docs/datasets.md), or None


@dataclasses.dataclass(frozen=True, slots=True)
class Viewer:
    name: str
    script: str
    style: str
    plugin: str


@dataclasses.dataclass(frozen=True, slots=True)
class StoreScheme:
    scheme: str
    factory: Callable[..., Any]
    plugin: str


@dataclasses.dataclass(frozen=True, slots=True)
class AdapterEntry:
    name: str
    command: tuple[str, ...]
    plugin: str


@dataclasses.dataclass(frozen=True, slots=True)
class CommandEntry:
    """A command a plugin adds to the command line: "module:attribute" of a click command."""

    name: str
    target: str
    help: str
    plugin: str


@dataclasses.dataclass(slots=True, weakref_slot=True)
class Registry:
    """Everything the loaded plugins registered, keyed by ID."""

    plugins: list[PluginInfo] = dataclasses.field(default_factory=list)
    failures: list[PluginFailure] = dataclasses.field(default_factory=list)
    warnings: list[str] = dataclasses.field(default_factory=list)
    benchmark_types: dict[str, tuple[type[BenchmarkType], str]] = dataclasses.field(default_factory=dict)
    datasets: dict[str, DatasetSource] = dataclasses.field(default_factory=dict)
    viewers: dict[str, Viewer] = dataclasses.field(default_factory=dict)
    stores: dict[str, StoreScheme] = dataclasses.field(default_factory=dict)
    adapters: dict[str, AdapterEntry] = dataclasses.field(default_factory=dict)
    commands: dict[str, CommandEntry] = dataclasses.field(default_factory=dict)
    # Types a package declares but that were not imported (`declared_registry`): listed, never run.
    declared_types: dict[str, tuple[DeclaredType, str]] = dataclasses.field(default_factory=dict)
    # The entry points of the declared packages not imported yet, by plugin name: asking for a
    # declared type by ID (`benchmark_type`) imports its package, and only that one.
    packages: dict[str, metadata.EntryPoint] = dataclasses.field(default_factory=dict, repr=False, compare=False)

    def registered_by(self, plugin: str) -> dict[str, list[str]]:
        types = {**self.benchmark_types, **self.declared_types}
        return {
            "benchmark_types": sorted(k for k, (_, p) in types.items() if p == plugin),
            "datasets": sorted(k for k, v in self.datasets.items() if v.plugin == plugin),
            "viewers": sorted(k for k, v in self.viewers.items() if v.plugin == plugin),
            "stores": sorted(k for k, v in self.stores.items() if v.plugin == plugin),
            "adapters": sorted(k for k, v in self.adapters.items() if v.plugin == plugin),
            "commands": sorted(k for k, v in self.commands.items() if v.plugin == plugin),
        }

    def benchmark_type(self, type_id: str) -> BenchmarkType:
        if type_id not in self.benchmark_types and type_id in self.declared_types:
            self.import_package(self.declared_types[type_id][1])
        try:
            cls, _ = self.benchmark_types[type_id]
        except KeyError:
            known = ", ".join(sorted({*self.benchmark_types, *self.declared_types})) or "none (is a category plugin installed?)"
            raise EnviroBenchError(f"unknown benchmark type {type_id!r}; registered: {known}{self.failed_note()}") from None
        return cls()

    def import_package(self, plugin: str) -> None:
        """Import a package plugin read from its declaration, and register its types in place of
        the declared ones: its declaration checked against it, every type checked as any plugin's."""
        entry_point = self.packages.pop(plugin)
        try:
            package = entry_point.load()
        except Exception as exc:
            version = entry_point.dist.version if entry_point.dist else "unknown"
            raise EnviroBenchError(f"plugin {plugin!r} ({distribution_of(entry_point)} {version}) failed to load: {type(exc).__name__}: {exc}") from None
        if not isinstance(plugin_object(package), PackageHooks):
            raise EnviroBenchError(f"plugin {plugin!r} has a {declaration.FILE} but its entry point names no BenchmarkPackage")
        declaration.check(package, entry_point)
        for type_id in [k for k, (_, owner) in self.declared_types.items() if owner == plugin]:
            del self.declared_types[type_id]
        package.register_types(_register_functions(self, plugin)["envirobench_benchmark_types"])

    def failed_note(self) -> str:
        """For a 'not found' message: the plugins that might have registered it but failed to load."""
        if not self.failures:
            return ""
        return "; plugin(s) that failed to load: " + ", ".join(f"{f.name} ({f.error})" for f in self.failures)

    def viewer(self, name: str) -> Viewer:
        try:
            return self.viewers[name]
        except KeyError:
            raise EnviroBenchError(f"unknown viewer {name!r}; registered: {', '.join(sorted(self.viewers))}") from None


def _claim(table: dict[str, Any], key: str, kind: str, plugin: str, owner: Callable[[Any], str]) -> None:
    if key in table:
        raise EnviroBenchError(
            f"{kind} {key!r} is registered twice: by plugin {owner(table[key])!r} and by plugin {plugin!r}"
        )


def _register_functions(registry: Registry, plugin: str) -> dict[str, Callable[..., None]]:
    def register_type(cls: Any) -> None:
        if isinstance(cls, DeclaredType):  # a declared package's type, not imported (DeclaredPackage)
            _claim({**registry.benchmark_types, **registry.declared_types}, cls.id, "benchmark type", plugin, lambda v: v[1])
            registry.declared_types[cls.id] = (cls, plugin)
            return
        # Imported with the first type registered: the benchmark module pulls in the converter,
        # which reading declarations (`envirobench --help`) does without.
        from .benchmark import check_type_class

        problems = check_type_class(cls)
        if problems:
            raise EnviroBenchError(f"plugin {plugin!r} registered an invalid benchmark type {getattr(cls, 'ID', cls)!r}: " + "; ".join(problems))
        _claim({**registry.benchmark_types, **registry.declared_types}, cls.ID, "benchmark type", plugin, lambda v: v[1])
        registry.benchmark_types[cls.ID] = (cls, plugin)

    def register_dataset(dataset_id: str, directory: str | Path, visibility: str = "public", store: str | None = None,
                         split: str | None = None) -> None:
        if visibility not in ("public", "private"):
            raise EnviroBenchError(f"plugin {plugin!r}: dataset {dataset_id!r} visibility must be public or private")
        if split not in (None, *SPLITS):
            raise EnviroBenchError(f"plugin {plugin!r}: dataset {dataset_id!r} split must be one of {', '.join(SPLITS)} or None, not {split!r}")
        if store is not None and (not isinstance(store, str) or not store.strip()):
            raise EnviroBenchError(f"plugin {plugin!r}: dataset {dataset_id!r} store must be a store URL or name")
        _claim(registry.datasets, dataset_id, "dataset", plugin, lambda v: v.plugin)
        registry.datasets[dataset_id] = DatasetSource(dataset_id, Path(directory), visibility, plugin, store, split)

    def register_viewer(name: str, script: str, style: str = "") -> None:
        _claim(registry.viewers, name, "viewer", plugin, lambda v: v.plugin)
        registry.viewers[name] = Viewer(name, script, style, plugin)

    def register_store(scheme: str, factory: Callable[..., Any]) -> None:
        _claim(registry.stores, scheme, "store scheme", plugin, lambda v: v.plugin)
        registry.stores[scheme] = StoreScheme(scheme, factory, plugin)

    def register_adapter(name: str, command: str | Iterable[str]) -> None:
        argv = (command,) if isinstance(command, str) else tuple(command)
        if not argv:
            raise EnviroBenchError(f"plugin {plugin!r}: adapter {name!r} has an empty command")
        _claim(registry.adapters, name, "adapter", plugin, lambda v: v.plugin)
        registry.adapters[name] = AdapterEntry(name, argv, plugin)

    def register_command(name: str, target: str, help: str = "") -> None:
        if not isinstance(target, str) or target.count(":") != 1 or not all(target.split(":")):
            raise EnviroBenchError(f"plugin {plugin!r}: command {name!r} must name its click command as 'module:attribute', not {target!r}")
        _claim(registry.commands, name, "command", plugin, lambda v: v.plugin)
        registry.commands[name] = CommandEntry(name, target, help, plugin)

    return {
        "envirobench_benchmark_types": register_type,
        "envirobench_datasets": register_dataset,
        "envirobench_viewers": register_viewer,
        "envirobench_stores": register_store,
        "envirobench_adapters": register_adapter,
        "envirobench_commands": register_command,
    }


def allowed_distributions() -> set[str] | None:
    """The ENVIROBENCH_LOAD_PLUGINS allow-list, normalised; None when unset (load everything)."""
    value = os.environ.get(LOAD_PLUGINS_ENV)
    if value is None:
        return None
    return {_normalise(name) for name in value.split(",") if name.strip()}


def _normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def is_allowed(entry_point: metadata.EntryPoint, allowed: set[str] | None) -> bool:
    """Whether the allow-list names this plugin, by its distribution or its entry-point name."""
    return allowed is None or bool({_normalise(entry_point.name), _normalise(distribution_of(entry_point))} & allowed)


def distribution_of(entry_point: metadata.EntryPoint) -> str:
    return entry_point.dist.name if entry_point.dist else entry_point.name


def _described(entry_point: metadata.EntryPoint) -> tuple[str, str]:
    """(distribution, version) of an entry point, as distribution_of and `dist.version` give them,
    from one reading of its metadata (a Distribution parses its METADATA again for each of them)."""
    dist = entry_point.dist
    if dist is None:
        return entry_point.name, "unknown"
    if isinstance(dist, metadata.Distribution):
        found = dist.metadata
        return found["Name"], found["Version"]
    return dist.name, dist.version


def installed_entry_points() -> list[metadata.EntryPoint]:
    """Every entry point of the `envirobench` group, by name."""
    return sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name)


class PackageHooks:
    """The hooks of a plugin that is one BenchmarkPackage: its types, datasets and viewers. A
    package read from its declaration (`declaration.DeclaredPackage`) registers through it alike."""

    def __init__(self, package: BenchmarkPackage) -> None:
        self.package = package

    def __repr__(self) -> str:
        return f"PackageHooks({self.package!r})"

    @hookimpl
    def envirobench_benchmark_types(self, register: Callable[..., None]) -> None:
        self.package.register_types(register)

    @hookimpl
    def envirobench_datasets(self, register: Callable[..., None]) -> None:
        self.package.register_datasets(register)

    @hookimpl
    def envirobench_viewers(self, register: Callable[..., None]) -> None:
        self.package.register_viewers(register)


def plugin_object(loaded: object) -> object:
    """What an entry point (or an `extra` plugin) loads, as pluggy registers it: a module of hook
    implementations as it is, a BenchmarkPackage as its PackageHooks."""
    return PackageHooks(loaded) if declaration.is_package(loaded) else loaded


@dataclasses.dataclass(frozen=True, slots=True)
class Loaded:
    """What make_plugin_manager found: the manager, the plugins in it, and what went wrong."""

    manager: pluggy.PluginManager
    plugins: list[PluginInfo]
    failures: list[PluginFailure]
    warnings: list[str]
    declared: dict[str, metadata.EntryPoint] = dataclasses.field(default_factory=dict)  # read from a declaration, by plugin name


def make_plugin_manager(extra: Iterable[tuple[str, object]] = (), *, declared: bool = False) -> Loaded:
    """Load core's own hooks, the allowed entry points and `extra` (name, module) pairs. With
    `declared`, a package plugin with a declaration is read from it (`DeclaredPackage`), not
    imported; without, an imported package's declaration is checked against it."""
    entry_points = installed_entry_points()
    described = {ep.name: _described(ep) for ep in entry_points}
    pm = pluggy.PluginManager("envirobench")
    pm.add_hookspecs(hookspecs)
    infos: list[PluginInfo] = []
    core_version = __version__  # metadata.version(CORE_PLUGIN), read once by `import envirobench`

    def add(loaded: object, name: str, dist: str, version: str) -> None:
        module = plugin_object(loaded)
        if pm.get_plugin(name) is not None:
            raise EnviroBenchError(f"two plugins are named {name!r} (distributions {pm_dist[name]!r} and {dist!r})")
        pm.register(module, name=name)
        pm_dist[name] = dist
        hooks = tuple(h.name for h in pm.get_hookcallers(module) or ())
        infos.append(PluginInfo(name, dist, version, tuple(sorted(hooks))))

    pm_dist: dict[str, str] = {}
    add(builtin, CORE_PLUGIN, CORE_PLUGIN, core_version)
    allowed = allowed_distributions()
    failures: list[PluginFailure] = []
    declared_eps: dict[str, metadata.EntryPoint] = {}
    for ep in entry_points:
        dist_name, version = described[ep.name]
        if allowed is not None and not {_normalise(ep.name), _normalise(dist_name)} & allowed:
            continue  # as is_allowed(ep, allowed)
        found = declaration.read(ep) if declared else None
        if found is not None:
            add(PackageHooks(DeclaredPackage(found)), ep.name, dist_name, version)
            declared_eps[ep.name] = ep
            continue
        try:
            module = ep.load()
        except Exception as exc:  # a broken plugin must not take every command down with it
            failures.append(PluginFailure(ep.name, dist_name, version, f"{type(exc).__name__}: {exc}"))
            continue
        if isinstance(plugin_object(module), PackageHooks):
            declaration.check(module, ep)  # type: ignore[arg-type]
        add(module, ep.name, dist_name, version)
    for name, module in extra:
        add(module, name, name, "unregistered")
    # A misspelled hook name (envirobench_dataset, say) must fail loudly, not be ignored.
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise EnviroBenchError(f"a plugin implements an unknown hook: {exc}") from None
    warnings = []
    known = {_normalise(n) for ep in entry_points for n in (ep.name, described[ep.name][0])}
    for name in sorted((allowed or set()) - known):
        installed = ", ".join(sorted({f"{ep.name} ({described[ep.name][0]})" for ep in entry_points})) or "none"
        warnings.append(f"{LOAD_PLUGINS_ENV} names {name!r}, which is no installed plugin (installed: {installed})")
    return Loaded(pm, infos, failures, warnings, declared_eps)


def plugin_commands() -> dict[str, CommandEntry]:
    """The commands the installed plugins add, calling only that hook: `envirobench --help`
    must not run every plugin's dataset hooks (which may materialise data) to list them, nor
    import a package plugin that has a declaration (a package adds no commands)."""
    global _commands
    if _given or _loaded is not None:
        return get_registry().commands
    allow_list = os.environ.get(LOAD_PLUGINS_ENV)
    if _commands is None or _commands[0] != allow_list:  # kept: `--help` asks three times
        loaded = make_plugin_manager(declared=True)
        registry = Registry(plugins=loaded.plugins)
        _call_hooks(loaded.manager, registry, ("envirobench_commands",))
        _commands = (allow_list, registry.commands)
    return _commands[1]


def _call_hooks(pm: pluggy.PluginManager, registry: Registry, hook_names: Iterable[str]) -> None:
    for hook_name in hook_names:
        caller = getattr(pm.hook, hook_name)
        # Call each plugin's implementation on its own so every registration is attributed.
        for impl in caller.get_hookimpls():  # registration order: core first
            register = _register_functions(registry, impl.plugin_name)[hook_name]
            impl.function(register=register)


def build_registry(extra: Iterable[tuple[str, object]] = (), *, declared: bool = False) -> Registry:
    """The registry of core, the allowed installed plugins and `extra`; with `declared`, package
    plugins with a declaration are read from it, not imported (`declared_registry`)."""
    loaded = make_plugin_manager(extra, declared=declared)
    pm = loaded.manager
    registry = Registry(plugins=loaded.plugins, failures=loaded.failures, warnings=loaded.warnings, packages=loaded.declared)
    _call_hooks(pm, registry, (name for name, _ in HOOKS))
    named = [(cls.ID, cls.VIEWER) for cls, _ in registry.benchmark_types.values()]
    named += [(t.id, t.viewer) for t, _ in registry.declared_types.values()]
    for name, viewer_name in named:
        if viewer_name not in registry.viewers:
            raise EnviroBenchError(
                f"benchmark type {name!r} names viewer {viewer_name!r}, which no plugin registers "
                f"(registered: {', '.join(sorted(registry.viewers))})"
            )
    return registry


_loaded: Registry | None = None  # the installed plugins' registry, once loaded
_given: list[Registry] = []  # registries given with using_registry, innermost last
_commands: tuple[str | None, dict[str, CommandEntry]] | None = None  # plugin_commands(), by allow-list


def get_registry() -> Registry:
    """The registry in force: the innermost `using_registry`, else the installed plugins'
    (loaded once per process)."""
    global _loaded
    if _given:
        return _given[-1]
    if _loaded is None:
        _loaded = build_registry()
    return _loaded


def declared_registry() -> Registry:
    """What `plugins list` and `datasets` show: the registry in force once loaded or given, else
    the installed plugins' with each package plugin read from its declaration (its types in
    `declared_types`), which imports no package's scoring code. Not kept: a command that needs
    the types themselves calls get_registry()."""
    if _given or _loaded is not None:
        return get_registry()
    return build_registry(declared=True)


@contextlib.contextmanager
def using_registry(registry: Registry) -> Iterator[Registry]:
    """Run code against `registry` instead of the installed plugins: every command and function
    that asks for the registry gets this one until the block ends. For tests and for programs
    that embed EnviroBench with plugins of their own:

        with using_registry(build_registry(extra=[("mine", my_plugin)])):
            main(["run", ...])
    """
    _given.append(registry)
    try:
        yield registry
    finally:
        _given.pop()


def reset_registry() -> None:
    """Forget the loaded registry, so the next get_registry() loads the plugins again (after a
    change to ENVIROBENCH_LOAD_PLUGINS, say)."""
    global _loaded, _commands
    _loaded = _commands = None


def resolve_adapter(registry: Registry, name_or_path: str) -> tuple[str, ...]:
    """An adapter name registered by a plugin, or a path to an executable."""
    if name_or_path in registry.adapters:
        return registry.adapters[name_or_path].command
    path = Path(name_or_path)
    if path.exists() or os.sep in name_or_path:
        if not path.is_file() or not os.access(path, os.X_OK):
            raise EnviroBenchError(f"adapter {name_or_path!r} is not an executable file")
        return (str(path.resolve()),)
    found = shutil.which(name_or_path)
    if found:
        return (found,)
    known = ", ".join(sorted(registry.adapters)) or "none"
    raise EnviroBenchError(f"unknown adapter {name_or_path!r}: not a registered adapter ({known}) nor an executable")
