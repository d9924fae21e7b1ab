"""The hooks a plugin may implement. Each receives a `register` callback (docs/architecture.md, "Plugins")."""

import pluggy

hookspec = pluggy.HookspecMarker("envirobench")
hookimpl = pluggy.HookimplMarker("envirobench")


@hookspec
def envirobench_benchmark_types(register):
    """Register benchmark type classes: `register(TypeClass)`."""


@hookspec
def envirobench_datasets(register):
    """Register dataset sources: `register(dataset_id, directory, visibility="public", store=None, split=None)`.

    `split` is "dev" (what systems are developed on) or "test" (what they are measured on) for a
    type with both: a leaderboard pins a task's test split when several datasets are registered.

    `store` (a store URL or configured name) is where the dataset is published: `envirobench
    datasets push/pull ID` use it when no --store is given. A public dataset's store must be public.
    """


@hookspec
def envirobench_viewers(register):
    """Register report viewers: `register(name, script=JS_SOURCE, style=CSS_SOURCE)`."""


@hookspec
def envirobench_stores(register):
    """Register object-store schemes: `register(scheme, factory)`; factory(url, visibility) -> store."""


@hookspec
def envirobench_adapters(register):
    """Register named adapters: `register(name, command)`; command is an argv list or executable path."""


@hookspec
def envirobench_commands(register):
    """Register commands of the `envirobench` command line: `register(name, target, help)`.

    `target` is "module:attribute" naming a click command, imported only when the command is
    used (as core's own are), and `help` its one-line help for `envirobench --help`. A name core
    already uses is refused.
    """
