"""A sharded run on a real Slurm cluster: the documented array script, submitted as it is.

The test starts a one-node cluster of its own in a temporary directory (Debian's munge, slurmctld
and slurmd, which bin/test installs): munged as the `munge` user on a socket of its own,
slurmctld and slurmd as root on free ports, configured by a `slurm.conf` named by SLURM_CONF. It
submits docs/scale-out/slurm-array.sh as a 4-task array (`sbatch --array=0-3 --wait`) with a
`file:` store between the tasks, merges the shards from the store into a results directory of
its own, and compares metrics.json and comparison.json with the same run made unsharded, byte for
byte. Every daemon it started is stopped on the way out, whatever happened.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "docs" / "scale-out" / "slurm-array.sh"
ENVIROBENCH = str(Path(sys.executable).with_name("envirobench"))
SBIN = ("/usr/sbin", "/usr/bin", "/sbin", "/bin")
PROGRAMS = {"munged": "munge", "slurmctld": "slurmctld", "slurmd": "slurmd", "sbatch": "slurm-client", "sinfo": "slurm-client"}
MUNGE_KEY = Path("/etc/munge/munge.key")

pytestmark = pytest.mark.slow


def program(name: str) -> str | None:
    return shutil.which(name) or next((f"{d}/{name}" for d in SBIN if os.access(f"{d}/{name}", os.X_OK)), None)


def why_not() -> str | None:
    """Why a cluster cannot be started here (None: it can)."""
    missing = sorted({package for name, package in PROGRAMS.items() if program(name) is None})
    if missing:
        return f"Debian's {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed (bin/test installs slurmctld, slurmd, slurm-client and munge)"
    if os.geteuid() != 0:
        return "the cluster's daemons run as root (SlurmUser=root) and munged as the munge user: this needs root"
    try:
        pwd.getpwnam("munge")
    except KeyError:
        return "there is no munge user (the munge package makes it)"
    if not MUNGE_KEY.is_file():
        return f"{MUNGE_KEY} is missing (the munge package makes it)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(check, what: str, timeout: float, logs: list[Path]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    shown = "\n".join(f"--- {p}:\n{p.read_text(errors='replace')[-3000:]}" for p in logs if p.exists())
    raise AssertionError(f"{what} within {timeout} s\n{shown}")


SLURM_CONF = """\
ClusterName=envirobench-test
SlurmctldHost={host}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={base}/munge/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
StateSaveLocation={base}/state
SlurmdSpoolDir={base}/spool
SlurmctldPidFile={base}/slurmctld.pid
SlurmdPidFile={base}/slurmd.pid
SlurmctldLogFile={base}/slurmctld.log
SlurmdLogFile={base}/slurmd.log
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
NodeName={host} CPUs={cpus} State=UNKNOWN
PartitionName=envirobench Nodes={host} Default=YES MaxTime=INFINITE State=UP
"""


@pytest.fixture
def cluster():
    """A one-node Slurm cluster: `env` runs Slurm's commands against it."""
    problem = why_not()
    if problem:
        pytest.skip(f"no Slurm cluster can be started here: {problem}")
    # Not under pytest's private temporary directory: the munge user must reach its socket.
    base = Path(tempfile.mkdtemp(prefix="envirobench-slurm-", dir="/tmp"))
    base.chmod(0o755)
    started: list[subprocess.Popen] = []
    logs = [base / "munge" / "munged.log", base / "slurmctld.log", base / "slurmd.log", base / "daemons.out"]
    try:
        munge_dir = base / "munge"
        munge_dir.mkdir(mode=0o755)
        munge = pwd.getpwnam("munge")
        os.chown(munge_dir, munge.pw_uid, munge.pw_gid)
        for name in ("state", "spool"):
            (base / name).mkdir()
        out = (base / "daemons.out").open("ab")
        started.append(subprocess.Popen(
            [program("munged"), "--foreground", f"--socket={munge_dir}/munge.socket", f"--pid-file={munge_dir}/munged.pid",
             f"--log-file={munge_dir}/munged.log", f"--seed-file={munge_dir}/munged.seed"],
            user=munge.pw_uid, group=munge.pw_gid, extra_groups=[], stdout=out, stderr=out, stdin=subprocess.DEVNULL,
        ))
        wait_for(lambda: (munge_dir / "munge.socket").exists(), "munged did not make its socket", 20, logs)
        host = socket.gethostname().split(".")[0]
        conf = base / "slurm.conf"
        conf.write_text(SLURM_CONF.format(host=host, base=base, ctld_port=free_port(), d_port=free_port(), cpus=os.cpu_count() or 1))
        env = {**os.environ, "SLURM_CONF": str(conf)}
        started.append(subprocess.Popen([program("slurmctld"), "-D"], env=env, stdout=out, stderr=out, stdin=subprocess.DEVNULL))
        started.append(subprocess.Popen([program("slurmd"), "-D"], env=env, stdout=out, stderr=out, stdin=subprocess.DEVNULL))

        def idle() -> bool:
            found = subprocess.run([program("sinfo"), "-h", "-o", "%t"], env=env, capture_output=True, text=True)
            return found.returncode == 0 and found.stdout.strip() == "idle"

        wait_for(idle, "the node did not come up idle", 60, logs)
        yield types.SimpleNamespace(env=env, base=base, logs=logs)
    finally:
        for proc in reversed(started):  # slurmd, slurmctld, munged: only what this test started
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        shutil.rmtree(base, ignore_errors=True)


def test_the_documented_array_script_shards_a_run_that_merges_into_the_unsharded_run(cluster, tmp_path):
    store = f"file://{tmp_path / 'store'}"
    env = {**cluster.env, "RUN_ID": "ts-slurm", "STORE": store, "ENVIROBENCH": ENVIROBENCH}
    # The same run, made in one piece (the script's command without --shard, --store and --resume),
    # while the array runs: `sbatch --wait` polls the job at growing intervals (up to 10 s), time
    # this run would otherwise leave the machine idle.
    whole = tmp_path / "whole"
    unsharded = subprocess.Popen(
        [ENVIROBENCH, "run", "--adapter", "reference", "--model", "reference/projection-profiles", "--benchmark", "table-separators",
         "--dataset", "table-separators=envirobench/table-separators-synthetic-v1", "--budget", "0", "--no-network",
         "--run", "ts-slurm", "--results", str(whole)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        submitted = subprocess.run(
            [program("sbatch"), "--wait", "--array=0-3", f"--output={tmp_path}/task-%A_%a.out", f"--chdir={tmp_path}", str(SCRIPT)],
            env=env, capture_output=True, text=True, timeout=900,
        )
        _, unsharded_stderr = unsharded.communicate(timeout=600)
    finally:
        if unsharded.poll() is None:
            unsharded.kill()
            unsharded.wait()
    task_logs = "\n".join(f"--- {p.name}:\n{p.read_text(errors='replace')[-3000:]}" for p in sorted(tmp_path.glob("task-*.out")))
    assert submitted.returncode == 0, submitted.stdout + submitted.stderr + task_logs
    assert len(list(tmp_path.glob("task-*.out"))) == 4
    assert "archived ts-slurm.shard-" in task_logs

    # Anywhere else (here a results directory of its own), from the store alone.
    merged = tmp_path / "merged"
    merge = subprocess.run([ENVIROBENCH, "merge", "--run", "ts-slurm", "--store", store, "--benchmark", "table-separators", "--results", str(merged)],
                           capture_output=True, text=True, timeout=600)
    assert merge.returncode == 0, merge.stderr
    assert "merged 4 shards: ts-slurm.shard-0-of-4, ts-slurm.shard-1-of-4, ts-slurm.shard-2-of-4, ts-slurm.shard-3-of-4" in merge.stdout

    assert unsharded.returncode == 0, unsharded_stderr
    for name in ("metrics.json", "comparison.json", "review-brief.json"):
        assert (merged / "ts-slurm" / name).read_bytes() == (whole / "ts-slurm" / name).read_bytes(), name

    # Resuming: the whole array again skips every shard, since the store holds them all.
    again = subprocess.run([program("sbatch"), "--wait", "--array=0-3", f"--output={tmp_path}/again-%A_%a.out", f"--chdir={tmp_path}", str(SCRIPT)],
                           env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stdout + again.stderr
    assert all("skipped (--resume)" in p.read_text() for p in tmp_path.glob("again-*.out"))
