"""The sandbox (docs/runs.md, "The sandbox"): what a snooping or hostile adapter can reach in it.

The sandbox is an allow-list: the system, the adapter's executable with its interpreters and
their Python environments, what --sandbox-allow names, the workspace. The secrets here live
outside /tmp (which the sandbox replaces), beside the adapter and inside what is allowed, so
that what is shown and what is hidden inside it are both tested. These tests need bubblewrap
and say so when it is missing (bin/test installs it); the warnings and refusals of `--sandbox`
are tested without it.
"""

from __future__ import annotations

import json
import secrets as secrets_module
import socket
import sys
import time
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from envirobench import plugins, sandbox
from envirobench.cli import main
from envirobench.runs import RunSpec, execute_run
from envirobench.testing import toy_plugin, write_count_dataset

ADAPTERS = Path(__file__).parent / "adapters"
ALLOWED_ENV = {"PATH", "LANG", "LANGUAGE", "TZ", "PYTHONPATH", "HOME", "TMPDIR"}
ALLOWED_ENV |= {"PWD", "SHLVL", "OLDPWD", "_"}  # set by the /bin/sh wrapper that starts the test adapters


def wrapper(directory: Path, script: str, *, interpreter: str = sys.executable) -> Path:
    """The scripted adapter as one executable file run by `interpreter` (its `#!` line): the
    sandbox shows the file, not the test directory it comes from."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / Path(script).stem
    path.write_text(f"#!{interpreter}\n" + (ADAPTERS / script).read_text())
    path.chmod(0o755)
    return path


@pytest.fixture
def server():
    """A TCP server on 127.0.0.1 (it never answers; connecting is the test)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    yield f"127.0.0.1:{sock.getsockname()[1]}"
    sock.close()


@pytest.fixture
def world(outside_tmp, monkeypatch):
    """Secrets where an adapter could look for them: a dataset with fresh answers (and a second
    registered one), a finished run whose comparison.json holds them, a home with credentials, a
    file store; beside them a file that must stay visible, and the adapter's executable in the
    results tree's parent directory, which must stay reachable."""
    root = outside_tmp
    base = 10**11 + secrets_module.randbelow(10**11)
    answers = {f"c{i:06d}": base + i * 13 for i in range(6)}
    dataset = write_count_dataset(root / "data" / "secret-v1", 6, dataset_id="test/secret-v1", answer_overrides=answers)
    other = write_count_dataset(root / "data" / "other-v1", 3, dataset_id="test/other-v1")
    home = root / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "credentials").write_text("aws_secret_access_key = AKIA-SECRET-KEY\n")
    (home / ".config" / "gcloud").mkdir(parents=True)
    (home / ".config" / "gcloud" / "token").write_text("gcloud-secret-token\n")
    (home / "notes.txt").write_text("home-secret-notes\n")
    store = root / "store"
    store.mkdir()
    (store / "object.json").write_text("store-secret-object\n")
    config = root / "stores.toml"
    config.write_text(f'[stores.team]\nurl = "{store.as_uri()}"\n')
    (root / "visible.txt").write_text("visible-beside-the-results\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("ENVIROBENCH_STORES", str(config))
    monkeypatch.setenv("SECRET_TOKEN", "env-secret-token")
    monkeypatch.setenv("PASSED_TOKEN", "passed-on-purpose")
    registry = plugins.build_registry(extra=[("toy", toy_plugin(("test/secret-v1", dataset), ("test/other-v1", other)))])
    results = root / "results"
    fake = wrapper(root / "bin", "fake_adapter.py")
    spec = RunSpec(adapter=str(fake), run_id="base", model="m", benchmark="count-words", dataset="test/secret-v1", budget_usd=0, results_dir=results)
    assert execute_run(spec, registry).status == "completed"
    assert str(base) in (results / "base" / "comparison.json").read_text()
    return {"root": root, "answers": answers, "dataset": dataset, "other": other, "home": home, "store": store,
            "config": config, "registry": registry, "results": results, "bin": root / "bin"}


def snoop(world, run_id, *, network, look=(), connect=None, adapter=None, options=None, **kw):
    adapter = adapter or wrapper(world["bin"], "sandbox_snoop_adapter.py")
    options = {"look": json.dumps([str(p) for p in look]), **(options or {})}
    if connect:
        options["connect"] = connect
    spec = RunSpec(adapter=str(adapter), run_id=run_id, model="m", benchmark="count-words", dataset="test/secret-v1", budget_usd=0,
                   results_dir=world["results"], baseline=world["results"] / "base", sandbox="bwrap", network=network, options=options, **kw)
    outcome = execute_run(spec, world["registry"])
    assert outcome.status == "completed", outcome.message
    record = json.loads((outcome.run_dir / "run.json").read_text())
    return json.loads((outcome.run_dir / "adapter" / "seen.json").read_text()), record


def test_a_snooping_adapter_finds_nothing_it_should_not(bwrap, world, server):
    looked = [world["results"], world["results"] / "base", world["dataset"], world["other"], world["home"],
              world["home"] / ".aws" / "credentials", world["store"], world["config"], world["root"] / "visible.txt", world["bin"], world["root"].parent]
    seen, record = snoop(world, "snoop", network=False, look=looked, connect=server, adapter_env=("PASSED_TOKEN",), options={"ptrace": "1"})
    assert record["sandbox"] == {"kind": "bwrap", "network": False, "env": ["PASSED_TOKEN"], "allow": []}
    text = json.dumps(seen)
    for value in world["answers"].values():
        assert str(value) not in text
    for secret in ("AKIA-SECRET-KEY", "gcloud-secret-token", "home-secret-notes", "store-secret-object", "env-secret-token"):
        assert secret not in text
    look = seen["look"]
    # Not shown at all: none of them is on the allow-list, nor is a file beside the results
    # tree; of the adapter's own directory, only its executable is there.
    for path in (world["results"], world["results"] / "base", world["dataset"], world["other"], world["home"],
                 world["home"] / ".aws" / "credentials", world["store"], world["config"], world["root"] / "visible.txt"):
        assert not look[str(path)]["exists"], path
    assert look[str(world["bin"])]["entries"] == ["sandbox_snoop_adapter"]
    # The root holds the system and the paths that lead to what is shown, nothing else (here
    # /var/tmp leads to the adapter, /root or /usr to the Python it runs on).
    assert not {"home", "run", "srv", "opt", "mnt", "media", "boot", "sys"} & set(seen["root_listing"])
    assert look[str(world["root"].parent)]["entries"] == [world["root"].name]
    assert {"usr", "etc", "tmp", "proc", "dev"} <= set(seen["root_listing"])
    # /etc without what no unprivileged program reads, even for an adapter that runs as root.
    assert seen["etc_shadow"].get("text", "") == ""
    # ptrace is closed: it cannot stop the sandbox's init (or anything else) and hang the run.
    assert set(seen["ptrace"].values()) == {"Operation not permitted"}
    # Its environment: the allow-list, its own HOME and TMPDIR, and what --adapter-env named.
    assert set(seen["env"]) - ALLOWED_ENV - {k for k in seen["env"] if k.startswith("LC_")} == {"PASSED_TOKEN"}
    assert seen["env"]["PASSED_TOKEN"] == "passed-on-purpose" and seen["env"]["TMPDIR"] == "/tmp"
    assert seen["env"]["HOME"] != str(world["home"]) and seen["env"]["HOME"].endswith("/home")
    assert seen["cwd_listing"] == ["input", "output", "request.json"]
    # No network, its own processes only, no capabilities, a read-only world but for its output.
    assert seen["connect"].startswith("refused")
    assert len(seen["pids"]) < 10 and "--args" in seen["pid1"] and str(world["results"]) not in seen["pid1"]
    assert int(seen["cap_eff"], 16) == 0
    assert seen["writes"]["tmp"] == "written"
    assert seen["writes"]["input"] != "written" and seen["writes"]["root"] != "written" and seen["writes"]["request"] != "written"
    assert all(target.startswith("pipe:") for target in seen["fds"].values())


def test_the_network_is_there_unless_refused(bwrap, world, server):
    seen, record = snoop(world, "net", network=True, connect=server)
    assert seen["connect"] == "connected"
    assert record["sandbox"] == {"kind": "bwrap", "network": True, "env": [], "allow": []}


@pytest.mark.slow
def test_in_the_sandbox_nothing_outlives_the_adapter(bwrap, world, tmp_path, monkeypatch):
    tmpdir = world["root"] / "tmpdir"  # outside /tmp: the sandbox hides the temporary directory too
    tmpdir.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmpdir))
    monkeypatch.setattr("tempfile.tempdir", None)
    hostile = wrapper(world["bin"], "hostile_adapter.py")
    published = world["results"] / "det" / "adapter" / "predictions.json"
    spec = RunSpec(adapter=str(hostile), run_id="det", model="m", benchmark="count-words", dataset="test/secret-v1", budget_usd=0,
                   results_dir=world["results"], sandbox="bwrap", network=False,
                   options={"mode": "detach", "delay": "1", "target": str(published)})
    outcome = execute_run(spec, world["registry"])
    assert outcome.status == "completed", outcome.message
    before = published.read_bytes()
    time.sleep(1.5)
    assert published.read_bytes() == before
    assert processes_with(str(tmpdir)) == []
    started = time.monotonic()
    slow = attrs.evolve(spec, run_id="slow", options={"mode": "detach", "sleep": "30"}, timeout_s=1)
    outcome = execute_run(slow, world["registry"])
    assert outcome.status == "failed" and "timeout" in outcome.message and time.monotonic() - started < 6
    assert processes_with(str(tmpdir)) == [] and list(tmpdir.iterdir()) == []


def test_another_runs_files_are_out_of_reach(bwrap, world):
    hostile = wrapper(world["bin"], "hostile_adapter.py")
    target = world["results"] / "base" / "adapter" / "predictions.json"
    before = target.read_bytes()
    spec = RunSpec(adapter=str(hostile), run_id="vandal", model="m", benchmark="count-words", dataset="test/secret-v1", budget_usd=0,
                   results_dir=world["results"], sandbox="bwrap", network=False, options={"mode": "overwrite", "target": str(target)})
    outcome = execute_run(spec, world["registry"])
    assert outcome.status == "failed"  # it could not write there
    assert target.read_bytes() == before


def processes_with(token: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if token.encode() in (entry / "cmdline").read_bytes() and (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()[0] != b"Z":
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


# -- choosing the sandbox (no bubblewrap needed) ------------------------------------------------


def cli_run(use_registry, toy_registry, fake, results, *extra):
    use_registry(toy_registry)
    args = ["run", "--adapter", str(fake), "--run", "r", "--model", "m", "--benchmark", "count-words",
            "--dataset", "count-words=test/count-words-v1", "--budget", "0", "--results", str(results), *extra]
    return CliRunner().invoke(main, args)


def test_sandbox_none_warns(use_registry, toy_registry, fake, results):
    result = cli_run(use_registry, toy_registry, fake, results, "--sandbox", "none")
    assert result.exit_code == 0, result.output
    assert "warning: --sandbox none: the adapter runs without a sandbox" in result.output
    assert json.loads((results / "r" / "run.json").read_text())["sandbox"] == {"kind": "none", "network": True, "env": [], "allow": []}


def test_auto_without_bubblewrap_warns_and_runs(use_registry, toy_registry, fake, results, monkeypatch):
    monkeypatch.setattr(sandbox, "find_bwrap", lambda: (None, "bubblewrap (bwrap) is not installed"))
    result = cli_run(use_registry, toy_registry, fake, results, "--no-network")
    assert result.exit_code == 0, result.output
    assert "warning: no sandbox: bubblewrap (bwrap) is not installed" in result.output
    assert "--no-network cannot be enforced" in result.output
    assert json.loads((results / "r" / "run.json").read_text())["sandbox"]["kind"] == "none"


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--sandbox", "bwrap"], "--sandbox bwrap: bubblewrap (bwrap) is not installed"),
        (["--sandbox", "none", "--no-network"], "--no-network needs the sandbox"),
        (["--adapter-env", "ENVIROBENCH_TEST_UNSET_VARIABLE"], "is not set in this environment"),
        (["--adapter-env", "HOME"], "core sets HOME"),
        (["--adapter-env", "A=B"], "is not an environment variable name"),
    ],
)
def test_sandbox_refusals_write_nothing(use_registry, toy_registry, fake, results, monkeypatch, extra, fragment):
    monkeypatch.setattr(sandbox, "find_bwrap", lambda: (None, "bubblewrap (bwrap) is not installed"))
    result = cli_run(use_registry, toy_registry, fake, results, *extra)
    assert result.exit_code == 1 and fragment in result.output and "Traceback" not in result.output
    assert not results.exists() or list(results.iterdir()) == []


def test_without_the_sandbox_the_environment_is_the_same_allow_list(use_registry, toy_registry, adapter_bin, results, monkeypatch):
    monkeypatch.setenv("SECRET_TOKEN", "env-secret-token")
    monkeypatch.setenv("PASSED_TOKEN", "passed-on-purpose")
    snooper = adapter_bin("sandbox_snoop_adapter.py")
    result = cli_run(use_registry, toy_registry, snooper, results, "--sandbox", "none", "--adapter-env", "PASSED_TOKEN")
    assert result.exit_code == 0, result.output
    env = json.loads((results / "r" / "adapter" / "seen.json").read_text())["env"]
    assert "SECRET_TOKEN" not in env and env["PASSED_TOKEN"] == "passed-on-purpose"
    assert set(env) - ALLOWED_ENV - {k for k in env if k.startswith("LC_")} == {"PASSED_TOKEN"}
