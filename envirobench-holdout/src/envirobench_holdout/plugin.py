"""The holdout's plugin: it adds `envirobench submit` and `envirobench holdout` to the command line.

Registered lazily ("module:attribute"), so `envirobench --help` imports nothing of the service."""

from envirobench import hookimpl


@hookimpl
def envirobench_commands(register):
    register("submit", "envirobench_holdout.cli:submit_command", "Send an unscored run of a sealed dataset to a holdout service to be scored.")
    register("holdout", "envirobench_holdout.cli:holdout_group", "The sealed-holdout scoring service: serve it, manage teams, keys and rounds, verify its ledger.")
