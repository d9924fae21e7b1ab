"""`envirobench merge`: join the shards of a run into one run (envirobench.merge; docs/runs.md,
"Repeats, shards and merging"; docs/scale-out.md)."""

from __future__ import annotations

from pathlib import Path

import click

from ..merge import merge_shards
from ..rundir import read_run
from ..shards import local_shards, pull_shards, read_shard
from ..stores.config import open_store
from .common import CONTEXT_SETTINGS, ProgressBars, registry, user_errors
from .run import report_outcome


@click.command("merge", context_settings=CONTEXT_SETTINGS)
@click.argument("shard_dirs", nargs=-1, metavar="[SHARD_DIR]...", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option("--run", "run_id", required=True, help="The ID of the merged run (the --run its shards were made with); it is written to RESULTS/RUN_ID.")
@click.option("--results", "results_dir", default="results", show_default=True, type=click.Path(path_type=Path, file_okay=False),
              help="Where the merged run goes, where shards are looked for when no SHARD_DIR is given, and where --store's are restored.")
@click.option("--store", "store_spec", metavar="NAME|URL", help="First restore into RESULTS the shards of RUN_ID this store holds (each file checksum-verified).")
@click.option("--benchmark", metavar="TYPE", help="With --store: the shards' benchmark type (default: that of a shard at hand).")
@click.option("--dataset", metavar="DATASET", help="The shards' dataset on this machine: a registered ID or a directory (default: where the shards found it).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable verdict on stdout.")
@user_errors
def merge_command(shard_dirs, run_id, results_dir, store_spec, benchmark, dataset, as_json):
    """Merge the shards of a run (`envirobench run --shard I/N`) into one run of every case.

    The shards are the SHARD_DIRs, or else every RESULTS/RUN_ID.shard-I-of-N (with --store:
    those at hand and those restored from the store). They must be every shard, once, each
    completed, all of one configuration (dataset, adapter, model, options, benchmark and scoring
    versions, core version, budget, gate, targets, baseline, controls); a missing, duplicated,
    failed or foreign shard is refused, naming it. The merged run joins their saved predictions
    and is scored as `envirobench score` scores any run: its metrics.json and comparison.json are
    those of the same run made unsharded. Cost is summed, wall time the slowest shard's.

    Exit status as for `envirobench run`: 3 when the run was made with --require-no-regressions
    and the gate did not pass.
    """
    reg = registry()
    given = list(shard_dirs)
    if store_spec:
        store = open_store(store_spec, reg)
        if benchmark is None:
            at_hand = given or local_shards(results_dir, run_id)
            if not at_hand:
                raise click.UsageError("--benchmark is needed to find the shards in the store (no shard is at hand to tell it)")
            benchmark = read_run(at_hand[0]).benchmark.id
        with ProgressBars() as progress:
            pulled = pull_shards(store, run_id, benchmark, results_dir, skip=[read_shard(p).record.run_id for p in given], on_progress=progress)
        for path in pulled:
            click.echo(f"restored {path} from {store.url} (every file checksum-verified)", err=True)
    if not given or store_spec:
        seen = {p.resolve() for p in given}
        given += [p for p in local_shards(results_dir, run_id) if p.resolve() not in seen]
    if not given:
        raise click.UsageError(f"no shards of {run_id!r}: give their directories, or make them under {results_dir} (as {run_id}.shard-I-of-N), or name the --store they are in")
    with ProgressBars() as progress:
        outcome = merge_shards(given, run_id, reg, results_dir=results_dir, dataset=dataset, on_progress=progress)
    record = read_run(outcome.run_dir)
    if not as_json:
        click.echo(f"merged {len(record.merged_from)} shards: {', '.join(record.merged_from)}")
    report_outcome(outcome, record.require_no_regressions, as_json, extra={"merged_from": list(record.merged_from)})
