"""The `envirobench` command group: every command, each defined in the module of its job.

Conventions (cli/common.py): a user mistake exits 1 with a message naming file, line and
field; a usage error exits 2; a gate that did not pass under --require-no-regressions exits 3;
diagnostics go to stderr; `--json` is for machines.
"""

from __future__ import annotations

import click

from .. import __version__
from .bench import bench_group
from .common import CONTEXT_SETTINGS
from .datasets import benchmarks_command, datasets_group, schemas_command, validate_dataset_command
from .leaderboard import categories_command, leaderboard_command
from .merge import merge_command
from .plugins import plugins_group
from .report import review_group, serve_command
from .run import run_command, score_command
from .runs import runs_group
from .stores import datasets_pull, datasets_push, stores_command

EPILOG = """\b
Exit status: 0 done; 1 a user mistake or a technical failure of the system under test (nothing
scored); 2 a usage error; 3 the gate did not pass under --require-no-regressions.
Shell completion (bash; zsh and fish likewise): eval "$(_ENVIROBENCH_COMPLETE=bash_source envirobench)"
"""


@click.group(context_settings=CONTEXT_SETTINGS, epilog=EPILOG)
@click.version_option(__version__, "-V", "--version", prog_name="envirobench")
def main() -> None:
    """EnviroBench: measure AI systems that read environmental documents."""


datasets_group.add_command(datasets_push)
datasets_group.add_command(datasets_pull)

for command in (
    plugins_group,
    benchmarks_command,
    datasets_group,
    validate_dataset_command,
    schemas_command,
    run_command,
    score_command,
    merge_command,
    runs_group,
    serve_command,
    review_group,
    bench_group,
    stores_command,
    categories_command,
    leaderboard_command,
):
    main.add_command(command)
