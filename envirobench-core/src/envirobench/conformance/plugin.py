"""The pytest plugin (entry point `pytest11: envirobench`): options for the automatic mode.

`pytest --envirobench-conformance` runs the conformance suite over every installed benchmark type
(each of its registered datasets); `--envirobench-types=a,b` over those types only. Given without
paths, the session collects only the suite; given with paths, the suite is added to them.

Where plugin autoloading is off (PYTEST_DISABLE_PLUGIN_AUTOLOAD), load it by its entry-point name,
`-p envirobench`. (Not by this module's path: with autoloading on, pytest would then register the
module twice, under two names, and refuse.)

This module must stay cheap to import and must change nothing in a session that does not ask
for the suite: it registers three options and nothing else (no fixtures, no markers; in a session
that asks for the suite under pytest-xdist's `--dist loadscope`, a scheduler: scheduling.py). EnviroBench
itself is imported only in sessions that ask for the suite. It never imports the automatic mode
(auto.py): pytest collects that module as a test file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .options import selected_types

AUTO_MODULE = Path(__file__).with_name("auto.py")


def pytest_addoption(parser):
    group = parser.getgroup("envirobench", "EnviroBench conformance suite")
    group.addoption(
        "--envirobench-conformance",
        action="store_true",
        default=False,
        help="Run the EnviroBench conformance suite over every installed benchmark type.",
    )
    group.addoption(
        "--envirobench-types",
        default=None,
        metavar="TYPE[,TYPE...]",
        help="Run the EnviroBench conformance suite over these benchmark types only (implies --envirobench-conformance).",
    )
    group.addoption(
        "--envirobench-every-dataset",
        action="store_true",
        default=False,
        help="Make the run-lifecycle checks on every dataset of a type, not once per type (on its smallest dataset).",
    )


def enabled(config) -> bool:
    return bool(config.getoption("envirobench_conformance", False)) or selected_types(config) is not None


class _TargetScheduling:
    """Registered in an xdist controller under `--dist loadscope` (see scheduling.py)."""

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_make_scheduler(self, config, log):
        # Imported here: it imports pytest-xdist and EnviroBench, which only this hook needs.
        from .scheduling import TargetScopeScheduling

        return TargetScopeScheduling(config, log)


def pytest_configure(config):
    if not enabled(config):
        return
    if config.pluginmanager.hasplugin("xdist") and getattr(config.option, "dist", "no") == "loadscope" and getattr(config.option, "numprocesses", None):
        config.pluginmanager.register(_TargetScheduling(), "envirobench-conformance-scheduling")
    auto = str(AUTO_MODULE)
    if config.args_source == pytest.Config.ArgsSource.ARGS:
        if auto not in config.args:
            config.args.append(auto)
    else:  # no paths given: only the suite, not the project's testpaths
        config.args[:] = [auto]
    wanted = selected_types(config)
    if wanted is not None:  # an unknown type is a usage error now, not a collection error later
        # Imported here, not above: this module loads in every pytest session, EnviroBench only
        # in the sessions that ask for the suite.
        from .session import load_installed_registry

        registry = load_installed_registry(config)
        if isinstance(registry, Exception):
            raise pytest.UsageError(f"envirobench conformance: the installed plugins do not load: {registry}")
        unknown = [t for t in wanted if t not in registry.benchmark_types]
        if unknown:
            known = ", ".join(sorted(registry.benchmark_types)) or "none"
            raise pytest.UsageError(f"--envirobench-types: unknown benchmark type(s) {', '.join(unknown)}; installed: {known}")
