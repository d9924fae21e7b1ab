"""The command groups import a command's module only when it is used (cli/common.py,
LazyGroup), so `envirobench --help` and `plugins list` start fast (docs/performance.md). Their
one-line helps are written twice, in the lazy table and in the command's docstring: held equal here."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from envirobench.cli.common import LazyGroup
from envirobench.cli.main import main


def lazy_groups(group: click.Group, ctx: click.Context):
    if isinstance(group, LazyGroup):
        yield group
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            yield from lazy_groups(command, ctx)


def test_every_lazy_help_is_the_commands_own():
    ctx = click.Context(main)
    groups = list(lazy_groups(main, ctx))
    assert {g.name for g in groups} >= {"main", "datasets", "plugins"}
    for group in groups:
        for name, (_, short) in group.lazy.items():
            command = group.get_command(ctx, name)
            assert command is not None, f"{group.name} {name}: its module has no such command"
            assert command.name == name
            assert command.get_short_help_str(limit=1000) == short, f"{group.name} {name}: the lazy table's help differs from the command's"


@pytest.mark.parametrize("argv", [["--help"], ["plugins", "list"], ["datasets", "--help"]])
def test_listing_commands_imports_none_of_the_others(argv, modules_imported_by):
    loaded = {m for m in modules_imported_by(argv) if m.startswith("envirobench.cli.") or m in ("jinja2", "envirobench.runs")}
    expected = {"envirobench.cli.common", "envirobench.cli.main"} | ({"envirobench.cli.plugins"} if argv[0] == "plugins" else set())
    expected |= {"envirobench.cli.datasets"} if argv[0] == "datasets" else set()
    assert loaded == expected


def test_an_unknown_command_is_a_usage_error():
    result = CliRunner().invoke(main, ["nosuch"])
    assert result.exit_code == 2 and "No such command 'nosuch'" in result.output
