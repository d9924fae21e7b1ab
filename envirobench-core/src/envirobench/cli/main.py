"""The `envirobench` command group: every command, each defined in the module of its job.

Conventions (cli/common.py): a user mistake exits 1 with a message naming file, line and
field; a usage error exits 2; a gate that did not pass under --require-no-regressions exits 3;
diagnostics go to stderr; `--json` is for machines.
"""

from __future__ import annotations

import importlib

import click

from .. import __version__
from ..plugins import CommandEntry, plugin_commands
from .common import CONTEXT_SETTINGS, LazyGroup

EPILOG = """\b
Exit status: 0 done; 1 a user mistake or a technical failure of the system under test (nothing
scored); 2 a usage error; 3 the gate did not pass under --require-no-regressions.
Shell completion (bash; zsh and fish likewise): eval "$(_ENVIROBENCH_COMPLETE=bash_source envirobench)"
"""

# Every command: where it is defined ("module:attribute" under envirobench.cli) and its one-line
# help. A command's module is imported only when the command is used, so `envirobench --help`
# starts fast (docs/performance.md); tests/core/test_cli.py holds each help to the command's own.
COMMANDS = {
    "bench": ("bench:bench_group", "Saved profiles: how a plugin runs a benchmark (benchmarks/NAME/bench.json)."),
    "benchmarks": ("datasets:benchmarks_command", "Every registered benchmark type."),
    "categories": ("leaderboard:categories_command", "The six categories: tasks, weights and component-score formulas."),
    "datasets": ("datasets:datasets_group", "Registered datasets (without a subcommand: list them)."),
    "leaderboard": ("leaderboard:leaderboard_command", "Category scores of every system in RUN_DIR or RESULTS_DIR (folders of run directories)."),
    "merge": ("merge:merge_command", "Merge the shards of a run (`envirobench run --shard I/N`) into one run of every case."),
    "plugins": ("plugins:plugins_group", "Installed plugins and what they register."),
    "review": ("report:review_group", "Review a run's changes: draft an interpretation, then check it."),
    "run": ("run:run_command", "Run one system on one benchmark, score it, pair it with a baseline and apply the gate."),
    "runs": ("runs:runs_group", "The runs in results directories."),
    "schemas": ("schemas:schemas_command", "JSON Schemas of every format, generated from the classes core uses."),
    "score": ("run:score_command", "Rescore a finished run from its saved predictions, without calling the adapter."),
    "serve": ("report:serve_command", "Serve a run directory read-only on 127.0.0.1 (GET and HEAD only) until Ctrl-C."),
    "stores": ("stores:stores_command", "Configured store names and the store schemes plugins register."),
    "validate-dataset": ("datasets:validate_dataset_command", "Verify every pinned file and schema of DATASET (a registered ID or a directory)."),
}


class MainGroup(LazyGroup):
    """Core's commands, then those plugins add (the `envirobench_commands` hook), each imported
    only when used. A plugin's command never shadows one of core's."""

    def _plugin_commands(self) -> dict[str, CommandEntry]:
        return {name: entry for name, entry in plugin_commands().items() if name not in self.lazy}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self._plugin_commands()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name in self.lazy:
            return super().get_command(ctx, cmd_name)
        entry = self._plugin_commands().get(cmd_name)
        if entry is None:
            return None
        module, _, attribute = entry.target.partition(":")
        self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return self.commands[cmd_name]

    def lazy_help(self, name: str) -> str:
        return self.lazy[name][1] if name in self.lazy else self._plugin_commands()[name].help


@click.group(cls=MainGroup, lazy=COMMANDS, context_settings=CONTEXT_SETTINGS, epilog=EPILOG)
@click.version_option(__version__, "-V", "--version", prog_name="envirobench")
def main() -> None:
    """EnviroBench: measure AI systems that read environmental documents."""
