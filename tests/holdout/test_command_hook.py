"""Core's `envirobench_commands` hook, which adds `submit` and `holdout`: a plugin's command is
listed in `envirobench --help` from its one-line help, imported only when used, never shadows one
of core's, and a second plugin claiming the same name is refused naming both."""

from __future__ import annotations

import types

import pytest
from click.testing import CliRunner

from envirobench import hookimpl, plugins
from envirobench.cli import main
from envirobench.errors import EnviroBenchError


def commands_plugin(**targets: str) -> types.SimpleNamespace:
    @hookimpl
    def envirobench_commands(register):
        for name, target in targets.items():
            register(name, target, f"The {name} command of a test plugin.")

    return types.SimpleNamespace(envirobench_commands=envirobench_commands)


def test_the_holdout_commands_are_listed_and_run(use_registry, public_registry):
    use_registry(public_registry)
    listing = CliRunner().invoke(main, ["--help"])
    assert listing.exit_code == 0
    assert "submit " in listing.output and "holdout " in listing.output
    assert public_registry.registered_by("holdout")["commands"] == ["holdout", "submit"]
    assert CliRunner().invoke(main, ["holdout", "--help"]).exit_code == 0


def test_a_plugin_command_never_shadows_cores_and_a_duplicate_is_refused(use_registry):
    registry = plugins.build_registry(extra=[("mine", commands_plugin(run="envirobench_holdout.cli:submit_command"))])
    use_registry(registry)
    shown = CliRunner().invoke(main, ["run", "--help"])
    assert "Run one system on one benchmark" in shown.output  # core's run, not the plugin's
    with pytest.raises(EnviroBenchError, match="command 'submit' is registered twice: by plugin 'holdout' and by plugin 'again'"):
        plugins.build_registry(extra=[("again", commands_plugin(submit="envirobench_holdout.cli:submit_command"))])
    with pytest.raises(EnviroBenchError, match="'module:attribute'"):
        plugins.build_registry(extra=[("bad", commands_plugin(other="no_colon_here"))])
