"""Sharded runs: `run --shard I/N` on a deterministic slice of the cases, `envirobench merge` back
into one run whose outputs are the unsharded run's byte for byte, shards through a store, resuming
with the missing shards only, and what merge refuses (docs/runs.md, "Repeats, shards and merging").

Shards run in processes of their own, side by side, with the count-words test type and the
scripted fake adapter (no sandbox: the sandbox is tested in test_sandbox.py and, for shards on a
real cluster, in tests/e2e/test_slurm.py).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
import yaml

from envirobench import rundir
from envirobench.errors import EnviroBenchError
from envirobench.leaderboard.runs import RunRefused
from envirobench.leaderboard.runs import read_run as board_read_run
from envirobench.merge import merge_shards
from envirobench.runs import rescore_run
from envirobench.shards import (
    Shard,
    assign_shards,
    parse_shard,
    repeat_run_ids,
    shard_from_environment,
    shard_run_id,
)

REPO = Path(__file__).resolve().parents[2]
# The configuration of the run under test: a baseline, a control and targets, two of them in
# different shards, so pairing, the gate and the targets all cross shard boundaries.
OFF = "c000003:2,c000005:1,c000008:-1,c000010:3"
TARGETS = ("--target-case", "c000007", "--target-case", "c000002", "--target-case", "c000011")


def args(fake, results: Path, run_id: str, *extra: str, off: str = OFF) -> list[str]:
    return ["run", "--adapter", str(fake), "--run", run_id, "--model", "test/model", "--benchmark", "count-words",
            "--dataset", "count-words=test/count-words-v1", "--budget", "1", "--sandbox", "none", "--results", str(results),
            "--adapter-option", f"off={off}", *extra]


def finish(proc) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


def ok(proc) -> str:
    code, out, err = finish(proc)
    assert code == 0, err
    return out


@pytest.fixture
def paired(toy_cli, fake, tmp_path):
    """A baseline and a control (in `tmp_path/compared`), and the paired run's arguments."""
    compared = tmp_path / "compared"
    ok(toy_cli(*args(fake, compared, "base", off="c000001:1,c000003:1")))
    ok(toy_cli(*args(fake, compared, "ctl", off="c000001:1,c000008:2")))
    return ["--baseline-run", str(compared / "base"), "--control-run", str(compared / "ctl"), *TARGETS, "--gate", "exact", "--gate", "near"]


def run_shards(toy_cli, fake, results: Path, pairing: list[str], *, count=4, indexes=None, extra=(), env=None):
    """Start the shards side by side (each a process of its own); wait for all."""
    procs = [toy_cli(*args(fake, results, "exp", *pairing, "--shard", f"{i}/{count}", *extra), env=env or {}) for i in (indexes if indexes is not None else range(count))]
    return [finish(p) for p in procs]


WALL = re.compile(rb"([Ww]all time) [0-9.]+ s")


def same_outputs(a: Path, b: Path) -> None:
    """metrics.json and comparison.json byte for byte; review-brief.json, summary.md and the report
    too, but for the wall time (a property of each run, not of its predictions)."""
    for name in ("metrics.json", "comparison.json", "review-brief.json"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    for name in ("summary.md", "report.html"):
        assert WALL.sub(rb"\1 T s", (a / name).read_bytes()) == WALL.sub(rb"\1 T s", (b / name).read_bytes()), name


def test_four_shards_in_parallel_merge_into_the_unsharded_run_byte_for_byte(toy_cli, fake, tmp_path, paired, toy_registry):
    whole, sharded = tmp_path / "whole", tmp_path / "sharded"
    unsharded = toy_cli(*args(fake, whole, "exp", *paired))
    shards = run_shards(toy_cli, fake, sharded, paired)
    ok(unsharded)
    assert [code for code, _, _ in shards] == [0] * 4, [err for _, _, err in shards]
    assert "shard 0/4 of a sharded run" in shards[0][1]

    merged = ok(toy_cli("merge", "--run", "exp", "--results", str(sharded)))
    assert "merged 4 shards: exp.shard-0-of-4, exp.shard-1-of-4, exp.shard-2-of-4, exp.shard-3-of-4" in merged
    same_outputs(whole / "exp", sharded / "exp")

    run = rundir.read_run(sharded / "exp")
    assert run.merged_from == tuple(f"exp.shard-{i}-of-4" for i in range(4))
    assert run.shard is None and run.partial is None and run.status == "completed"
    assert run.gate == rundir.read_run(whole / "exp").gate and run.gate.targets == ("c000007", "c000002", "c000011")
    # Every case in exactly one shard, each its share of the cases and of the budget.
    parts = [rundir.read_run(sharded / f"exp.shard-{i}-of-4") for i in range(4)]
    assert sum(p.shard.cases for p in parts) == 12 and {p.shard.cases for p in parts} == {3}
    assert [p.budget_usd for p in parts] == [0.25] * 4 and run.budget_usd == 1.0
    assert all(p.partial.selected_by == f"--shard {i}/4" for i, p in enumerate(parts))
    # A target outside a shard is no error there; the shard's gate checks those among its cases.
    assert sorted(t for p in parts for t in p.gate.targets) == sorted(run.gate.targets)
    # adapter/ holds the joined predictions and every other file the shards' adapters wrote.
    files = run.adapter_output.files
    assert {"adapter-result.json", "predictions.json", "shards/0/adapter-result.json", "shards/3/progress.jsonl"} <= set(files)
    assert sorted(json.loads((sharded / "exp" / "adapter" / "predictions.json").read_text())) == [f"c{i:06d}" for i in range(12)]
    assert (sharded / "exp" / "shards" / "2" / "shard-run.json").read_bytes() == (sharded / "exp.shard-2-of-4" / "run.json").read_bytes()
    assert (sharded / "exp" / "adapter.log").read_text().count("== shard ") == 4

    # `runs list` tells shards and the merged run apart.
    listed = json.loads(ok(toy_cli("runs", "list", str(sharded), "--json")))["runs"]
    by_id = {e["run_id"]: e for e in listed}
    assert by_id["exp"]["merged_from"] == list(run.merged_from) and by_id["exp"]["shard"] is None
    assert by_id["exp.shard-2-of-4"]["shard"] == {"index": 2, "count": 4}
    table = ok(toy_cli("runs", "list", str(sharded)))
    assert "completed (merged from 4 shards)" in table and "completed (shard 2/4: 3 of 12)" in table

    # A rescore of the merged run changes nothing, as of any run.
    before = {name: (sharded / "exp" / name).read_bytes() for name in rundir.RESCORED_FILES}
    rescore_run(sharded / "exp", toy_registry)
    assert {name: (sharded / "exp" / name).read_bytes() for name in rundir.RESCORED_FILES} == before


def test_cost_is_summed_and_wall_time_is_the_slowest_shards(toy_cli, fake, tmp_path):
    results = tmp_path / "results"
    assert [c for c, _, _ in run_shards(toy_cli, fake, results, [], count=3, extra=("--adapter-option", "cost=0.125"))] == [0] * 3
    ok(toy_cli("merge", "--run", "exp", "--results", str(results)))
    run = rundir.read_run(results / "exp")
    parts = [rundir.read_run(results / f"exp.shard-{i}-of-3") for i in range(3)]
    assert run.cost_usd == 0.375 and [s.cost_usd for s in run.systems] == [0.375]
    assert run.wall_time_s == max(p.wall_time_s for p in parts)
    assert run.created_at == min(p.created_at for p in parts)
    result = json.loads((results / "exp" / "adapter" / "adapter-result.json").read_text())
    assert result["systems"][0]["cost_usd"] == 0.375 and result["adapter"] == {"name": "fake-adapter", "version": "1.0"}


def test_a_shards_cases_depend_on_the_case_ids_alone():
    ids = [f"case-{i}" for i in range(103)]
    assigned = assign_shards(ids, 4)
    shuffled = ids[:]
    random.Random(7).shuffle(shuffled)
    assert assign_shards(shuffled, 4) == assigned  # not the order the cases come in
    sizes = [sum(1 for s in assigned.values() if s == k) for k in range(4)]
    assert sorted(sizes) == [25, 26, 26, 26]  # dealt round-robin: no shard empty, none one case larger than another
    assert assign_shards(ids, 4) == assign_shards(list(reversed(ids)), 4)
    # Small datasets too: every shard has a case.
    assert set(assign_shards([f"c{i:06d}" for i in range(4)], 4).values()) == {0, 1, 2, 3}


def test_shard_and_repeat_names():
    assert parse_shard("0/4") == Shard(0, 4) and parse_shard("3/4").describe() == "3/4"
    assert shard_run_id("exp", Shard(2, 4)) == "exp.shard-2-of-4"
    assert repeat_run_ids("exp", 3) == ["exp-1", "exp-2", "exp-3"]
    for bad, says in [("4/4", "numbered 0 to 3"), ("1/1", "at least 2 shards"), ("1-4", "must be I/N"), ("a/4", "must be I/N"), ("", "must be I/N")]:
        with pytest.raises(EnviroBenchError, match=says):
            parse_shard(bad)
    with pytest.raises(EnviroBenchError, match="--shard-count goes with --shard auto"):
        parse_shard("0/4", count=4)


def test_shard_auto_reads_kubernetes_and_slurm():
    k8s = {"JOB_COMPLETION_INDEX": "2"}
    assert shard_from_environment({**k8s, "ENVIROBENCH_SHARD_COUNT": "4"}) == Shard(2, 4)
    assert shard_from_environment(k8s, count=3) == Shard(2, 3)
    assert parse_shard("auto", count=5, environ=k8s) == Shard(2, 5)
    with pytest.raises(EnviroBenchError, match="gives each task only its index.*--shard-count N or ENVIROBENCH_SHARD_COUNT=N"):
        shard_from_environment(k8s)
    slurm = {"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4"}
    assert shard_from_environment(slurm) == Shard(1, 4)
    assert shard_from_environment({**slurm, "ENVIROBENCH_SHARD_COUNT": "8"}) == Shard(1, 8)
    # `sbatch --array=2` reruns one task: an array of one, so the count must be given.
    with pytest.raises(EnviroBenchError, match="rerunning some of its tasks alone give the number of shards"):
        shard_from_environment({"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "1"})
    assert shard_from_environment({"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "1", "ENVIROBENCH_SHARD_COUNT": "4"}) == Shard(2, 4)
    with pytest.raises(EnviroBenchError, match=r"number a sharded array from 0 \(--array=0-3\)"):
        shard_from_environment({"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"})
    with pytest.raises(EnviroBenchError, match="both JOB_COMPLETION_INDEX .* and SLURM_ARRAY_TASK_ID"):
        shard_from_environment({**k8s, **slurm})
    with pytest.raises(EnviroBenchError, match="neither JOB_COMPLETION_INDEX"):
        shard_from_environment({})
    with pytest.raises(EnviroBenchError, match="JOB_COMPLETION_INDEX='x' is not a number"):
        shard_from_environment({"JOB_COMPLETION_INDEX": "x"}, count=2)


def test_shard_auto_in_a_kubernetes_indexed_job(toy_cli, fake, tmp_path, paired):
    """Each task of an Indexed Job gets JOB_COMPLETION_INDEX only; the count comes from
    ENVIROBENCH_SHARD_COUNT, as the documented manifest sets it."""
    manifest = yaml.safe_load((REPO / "docs" / "scale-out" / "indexed-job.yaml").read_text())
    spec = manifest["spec"]
    container = spec["template"]["spec"]["containers"][0]
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert spec["completionMode"] == "Indexed" and spec["completions"] == int(env["ENVIROBENCH_SHARD_COUNT"])
    assert "--shard auto" in " ".join(container["command"] + container.get("args", []))

    whole, sharded = tmp_path / "whole", tmp_path / "sharded"
    unsharded = toy_cli(*args(fake, whole, "exp", *paired))
    tasks = [toy_cli(*args(fake, sharded, "exp", *paired, "--shard", "auto"), env={"JOB_COMPLETION_INDEX": str(i), "ENVIROBENCH_SHARD_COUNT": "4"}) for i in range(4)]
    ok(unsharded)
    for task in tasks:
        ok(task)
    assert sorted(p.name for p in sharded.iterdir()) == [f"exp.shard-{i}-of-4" for i in range(4)]
    ok(toy_cli("merge", "--run", "exp", "--results", str(sharded), "--json"))
    same_outputs(whole / "exp", sharded / "exp")
    # Without the count, a task says where to give it.
    code, _, err = finish(toy_cli(*args(fake, tmp_path / "other", "exp", "--shard", "auto"), env={"JOB_COMPLETION_INDEX": "0"}))
    assert code == 1 and "--shard-count N or ENVIROBENCH_SHARD_COUNT=N" in err
    assert not (tmp_path / "other").exists()


def test_shards_through_a_store_and_resuming_with_the_missing_ones(toy_cli, fake, tmp_path, paired):
    """Each shard on a machine of its own (a results directory of its own), sharing nothing but a
    store; a run interrupted after two shards resumes with the other two only."""
    store = f"file://{tmp_path / 'store'}"
    machines = [tmp_path / f"machine-{i}" for i in range(4)]
    for i in (0, 2):
        ok(toy_cli(*args(fake, machines[i], "exp", *paired, "--shard", f"{i}/4", "--store", store)))
    merger = tmp_path / "merger"
    code, _, err = finish(toy_cli("merge", "--run", "exp", "--results", str(merger), "--store", store, "--benchmark", "count-words"))
    assert code == 1
    assert "2 of the 4 shards are missing: 1, 3 (found: 0, 2)" in err and "--shard 1/4, --shard 3/4" in err and "--resume" in err
    assert not (merger / "exp").exists()

    # The whole batch again with --resume: the shards in the store are skipped, the others made.
    procs = [toy_cli(*args(fake, machines[i], "exp", *paired, "--shard", f"{i}/4", "--store", store, "--resume")) for i in range(4)]
    outputs = [finish(p) for p in procs]
    assert [c for c, _, _ in outputs] == [0] * 4
    assert "already made, in " in outputs[0][2] and "skipped (--resume)" in outputs[2][2]
    assert "archived exp.shard-1-of-4" in outputs[1][2]
    # Without --resume a shard the store holds is refused before anything runs.
    code, _, err = finish(toy_cli(*args(fake, tmp_path / "machine-5", "exp", *paired, "--shard", "1/4", "--store", store)))
    assert code == 1 and "already holds a count-words run 'exp.shard-1-of-4'" in err and "--resume" in err

    out = ok(toy_cli("merge", "--run", "exp", "--results", str(merger), "--store", store, "--benchmark", "count-words"))
    assert "merged 4 shards" in out
    whole = tmp_path / "whole"
    ok(toy_cli(*args(fake, whole, "exp", *paired)))
    same_outputs(whole / "exp", merger / "exp")


def test_merge_refuses_a_missing_duplicated_foreign_or_failed_shard(toy_cli, fake, tmp_path, toy_registry):
    results, other = tmp_path / "results", tmp_path / "other"
    run_shards(toy_cli, fake, results, [], count=3)
    shard = [results / f"exp.shard-{i}-of-3" for i in range(3)]

    def refused(*dirs, run_id="merged"):
        with pytest.raises(EnviroBenchError) as info:
            merge_shards(list(dirs), run_id, toy_registry, results_dir=tmp_path / "out")
        assert not (tmp_path / "out" / "merged").exists()
        return str(info.value)

    assert "1 of the 3 shards are missing: 1 (found: 0, 2)" in refused(shard[0], shard[2])
    # The same shard made twice (on two machines) is a duplicate, not a shard of its own.
    ok(toy_cli(*args(fake, other, "exp", "--shard", "1/3")))
    says = refused(*shard, other / "exp.shard-1-of-3")
    assert "shard 1/3 is there twice" in says and str(other / "exp.shard-1-of-3") in says
    # A shard of another configuration (another model) is foreign, and named.
    foreign = toy_cli(*[("other/model" if a == "test/model" else a) for a in args(fake, tmp_path / "foreign", "exp", "--shard", "2/3")])
    ok(foreign)
    says = refused(shard[0], shard[1], tmp_path / "foreign" / "exp.shard-2-of-3")
    assert "is a foreign shard: its $.model is \"other/model\"" in says and "\"test/model\"" in says
    # A shard of another number of shards is foreign too.
    ok(toy_cli(*args(fake, tmp_path / "four", "exp", "--shard", "3/4")))
    assert "$.shard.count" in refused(*shard, tmp_path / "four" / "exp.shard-3-of-4")
    # So is a shard paired otherwise, or with other targets.
    ok(toy_cli(*args(fake, tmp_path / "targets", "exp", "--shard", "0/3", "--target-case", "c000001")))
    assert "$.shard.targets" in refused(tmp_path / "targets" / "exp.shard-0-of-3", shard[1], shard[2])
    # A failed shard is refused with what to do.
    code, _, _ = finish(toy_cli(*args(fake, tmp_path / "failed", "exp", "--shard", "2/3", "--adapter-option", "mode=crash")))
    assert code == 1
    says = refused(shard[0], shard[1], tmp_path / "failed" / "exp.shard-2-of-3")
    assert "did not complete" in says and "make that shard again alone" in says
    # A run that is no shard, and a merged run that exists, are refused.
    ok(toy_cli(*args(fake, tmp_path / "plain", "exp")))
    assert "not a shard of a sharded run" in refused(tmp_path / "plain" / "exp", *shard)
    (tmp_path / "out" / "taken").mkdir(parents=True)
    assert "already exists" in refused(*shard, run_id="taken")
    # The command says the same, with exit status 1.
    code, _, err = finish(toy_cli("merge", str(shard[0]), str(shard[2]), "--run", "merged", "--results", str(tmp_path / "out")))
    assert code == 1 and "missing: 1" in err


def test_a_shard_is_never_a_baseline_a_control_or_on_a_leaderboard(toy_cli, fake, tmp_path, toy_registry):
    results = tmp_path / "results"
    ok(toy_cli(*args(fake, results, "exp", "--shard", "0/2")))
    shard = results / "exp.shard-0-of-2"
    for option in ("--baseline-run", "--control-run"):
        code, _, err = finish(toy_cli(*args(fake, results, "cand", option, str(shard))))
        assert code == 1 and "is shard 0/2 of a sharded run" in err and "envirobench merge" in err and "$.shard" in err
    with pytest.raises(RunRefused, match="shard 0/2 of a sharded run"):
        board_read_run(shard, toy_registry)
    # Its summary and report say what it is and what to do: merge.
    summary = (shard / "summary.md").read_text()
    assert "**Shard 0 of 2 (0 to 1): 6 of 12 cases.**" in summary and "Partial run" not in summary
    assert "merge them into the run of every case: `envirobench merge --run exp`" in summary
    assert "<code>envirobench merge --run exp</code>" in (shard / "report.html").read_text()
    # Rescoring a shard keeps it a shard of its own cases.
    before = rundir.read_run(shard)
    rescore_run(shard, toy_registry)
    after = rundir.read_run(shard)
    assert after.shard == before.shard and after.partial == before.partial and after.history == ()


def test_shard_options_are_checked_before_anything_runs(toy_cli, fake, tmp_path):
    results = tmp_path / "results"
    for extra, says in [
        (("--shard", "0/4", "--limit", "2"), "--shard cannot be combined with --case or --limit"),
        (("--shard", "4/4"), "numbered 0 to 3"),
        (("--shard", "0/13"), "the dataset has 12 case(s), fewer than 13 shards"),
        (("--shard", "0/4", "--shard-count", "4"), "--shard-count goes with --shard auto"),
    ]:
        code, _, err = finish(toy_cli(*args(fake, results, "exp", *extra)))
        assert code in (1, 2) and says in err, err
    assert not results.exists() or not any(results.iterdir())


def test_the_slurm_array_script_is_the_documented_one():
    doc = (REPO / "docs" / "scale-out.md").read_text()
    script = (REPO / "docs" / "scale-out" / "slurm-array.sh").read_text()
    assert "docs/scale-out/slurm-array.sh" in doc and "docs/scale-out/indexed-job.yaml" in doc
    assert "--shard auto" in script and "--resume" in script and "--store" in script
