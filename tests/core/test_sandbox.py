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
import os
import secrets as secrets_module
import socket
import subprocess
import sys
import time
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner
from scripted_adapters import adapter_executable

from envirobench import plugins, sandbox
from envirobench.cli import main
from envirobench.errors import EnviroBenchError
from envirobench.runs import RunSpec, execute_run
from envirobench.testing import toy_plugin, write_count_dataset

ADAPTERS = Path(__file__).parent / "adapters"
ALLOWED_ENV = {"PATH", "LANG", "LANGUAGE", "TZ", "PYTHONPATH", "HOME", "TMPDIR"}
ALLOWED_ENV |= {"PWD", "SHLVL", "OLDPWD", "_"}  # set by the /bin/sh wrapper that starts the test adapters


def wrapper(directory: Path, script: str, *, interpreter: str = sys.executable) -> Path:
    """The scripted adapter as one executable file run by `interpreter` (its `#!` line): the
    sandbox shows the file, not the test directory it comes from."""
    return adapter_executable(directory / Path(script).stem, script, interpreter=interpreter)


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
    # Another results tree (a project's results/ while --results points elsewhere).
    other_results = world["root"] / "project" / "results" / "earlier"
    other_results.mkdir(parents=True)
    (other_results / "comparison.json").write_bytes((world["results"] / "base" / "comparison.json").read_bytes())
    looked = [world["results"], world["results"] / "base", world["dataset"], world["other"], world["home"], other_results, other_results / "comparison.json",
              world["home"] / ".aws" / "credentials", world["store"], world["config"], world["root"] / "visible.txt", world["bin"], world["root"].parent]
    seen, record = snoop(world, "snoop", network=False, look=looked, connect=server, adapter_env=("PASSED_TOKEN",), options={"ptrace": "1"})
    assert record["sandbox"] == {"kind": "bwrap", "network": False, "env": ["PASSED_TOKEN"], "allow": [], "cache": None}
    text = json.dumps(seen)
    for value in world["answers"].values():
        assert str(value) not in text
    for secret in ("AKIA-SECRET-KEY", "gcloud-secret-token", "home-secret-notes", "store-secret-object", "env-secret-token"):
        assert secret not in text
    look = seen["look"]
    # Not shown at all: none of them is on the allow-list, nor is a file beside the results
    # tree; of the adapter's own directory, only its executable is there.
    for path in (world["results"], world["results"] / "base", world["dataset"], world["other"], world["home"], other_results,
                 other_results / "comparison.json", world["home"] / ".aws" / "credentials", world["store"], world["config"], world["root"] / "visible.txt"):
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
    assert record["sandbox"] == {"kind": "bwrap", "network": True, "env": [], "allow": [], "cache": None}


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
    assert json.loads((results / "r" / "run.json").read_text())["sandbox"] == {"kind": "none", "network": True, "env": [], "allow": [], "cache": None}


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
        (["--sandbox-allow", "/"], "the whole filesystem cannot be allowed"),
        (["--sandbox-allow", "/envirobench-no-such-path"], "--sandbox-allow /envirobench-no-such-path: no such file or directory"),
        (["--sandbox", "none", "--sandbox-allow", "/usr"], "cannot be combined with --sandbox none"),
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


# -- the attacks that got through the deny-list sandbox (issue 31) -------------------------------


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@example.org", "-c", "user.name=t", *args], check=True, capture_output=True)


def test_a_checkouts_git_history_and_answers_stay_hidden_even_when_allowed(bwrap, world):
    """Finding 1: `git show HEAD:<dataset>/answers.jsonl` from inside. The checkout is not on the
    allow-list; and a careless --sandbox-allow of the whole checkout still shows no .git, no
    answers.jsonl and no fixtures."""
    repo = world["root"] / "checkout"
    data = repo / "pkg" / "benchmarks" / "count-words" / "datasets" / "secret-v1"
    data.mkdir(parents=True)
    (data / "answers.jsonl").write_bytes((world["dataset"] / "answers.jsonl").read_bytes())
    fixtures = repo / "pkg" / "benchmarks" / "count-words" / "fixtures" / "secret-v1"
    fixtures.mkdir(parents=True)
    (fixtures / "correct.json").write_bytes((world["dataset"] / "answers.jsonl").read_bytes())
    (repo / "README").write_text("visible-in-the-allowed-checkout\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "data")
    adapter = wrapper(repo / "adapters", "sandbox_snoop_adapter.py")
    relative = "pkg/benchmarks/count-words/datasets/secret-v1/answers.jsonl"
    for run_id, allow in (("git-not-allowed", ()), ("git-allowed", (str(repo),))):
        seen, record = snoop(world, run_id, network=False, adapter=adapter, options={"git": str(repo), "git_file": relative},
                             look=[repo / ".git", repo / ".git" / "HEAD", data / "answers.jsonl", fixtures, fixtures / "correct.json", repo / "README"],
                             sandbox_allow=allow)
        text = json.dumps(seen)
        assert not any(str(value) in text for value in world["answers"].values()), run_id
        assert seen["git"]["status"] != 0
        assert record["sandbox"]["allow"] == [str(repo.resolve())] * len(allow)
        look = seen["look"]
        assert not look[str(repo / ".git" / "HEAD")]["exists"] and look[str(repo / ".git")].get("entries", []) == []
        assert look[str(data / "answers.jsonl")].get("text", "") == ""
        assert look[str(fixtures)].get("entries", []) == []
        assert look[str(repo / "README")].get("text") == ("visible-in-the-allowed-checkout\n" if allow else None)


def test_answers_shipped_in_installed_distributions_stay_hidden(bwrap, world, tmp_path):
    """Finding 2: the shipped copies of answer keys and fixtures. Found by what they are, in the
    Python environments the sandbox shows: from a distribution's file list (RECORD) in an
    installation it does not walk, and by a walk of a virtual environment; neither dataset is
    registered."""
    answers = (world["dataset"] / "answers.jsonl").read_bytes()
    installation = world["root"] / "python"
    site = installation / "lib" / "python3.11" / "site-packages"
    shipped = site / "plug" / "benchmarks" / "count-words" / "datasets" / "synthetic-v1" / "answers.jsonl"
    fixture = site / "plug" / "benchmarks" / "count-words" / "fixtures" / "synthetic-v1" / "correct.json"
    for path in (shipped, fixture):
        path.parent.mkdir(parents=True)
        path.write_bytes(answers)
    (site / "plug" / "__init__.py").write_text("")
    info = site / "plug-1.0.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("".join(f"{p.relative_to(site)},sha256=x,1\n" for p in (shipped, fixture, site / "plug" / "__init__.py")))
    (installation / "bin").mkdir()
    (installation / "bin" / "python3").symlink_to(sys.executable)
    venv = world["root"] / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    walked = next((venv / "lib").glob("python3*")) / "site-packages" / "other" / "benchmarks" / "t" / "datasets" / "d" / "answers.jsonl"
    walked.parent.mkdir(parents=True)
    walked.write_bytes(answers)
    (venv / "bin" / "tool").write_text(f"#!{venv / 'bin' / 'python'}\n")
    adapter = wrapper(world["bin"], "sandbox_snoop_adapter.py", interpreter=str(installation / "bin" / "python3"))
    shown = site / "plug" / "__init__.py"
    seen, _ = snoop(world, "installed", network=False, adapter=adapter, look=[shipped, fixture, fixture.parent, shown, walked],
                    sandbox_allow=(str(venv),))
    look = seen["look"]
    assert look[str(shown)]["exists"]  # the installation is shown...
    assert look[str(shipped)].get("text", "") == "" and look[str(fixture.parent)].get("entries", []) == []  # ...its answers are not
    assert not look[str(fixture)]["exists"] and look[str(walked)].get("text", "") == ""
    assert not any(str(value) in json.dumps(seen) for value in world["answers"].values())


def test_no_network_cuts_unix_sockets_too(bwrap, world):
    """Finding 4: a socket bound on the host, in a directory the sandbox shows, accepted a
    connection under --no-network. Sockets in what is shown are hidden; the host's abstract
    sockets are in another network namespace."""
    allowed = world["root"] / "allowed"
    allowed.mkdir()
    name = f"@envirobench-test-{secrets_module.token_hex(6)}"
    servers = []
    for address in (str(allowed / "answers.sock"), name):
        server = socket.socket(socket.AF_UNIX)
        server.bind("\0" + name[1:] if address.startswith("@") else address)
        server.listen(4)
        servers.append(server)
    try:
        seen, _ = snoop(world, "unix", network=False, options={"unix": json.dumps([str(allowed / "answers.sock"), name])},
                        sandbox_allow=(str(allowed),))
    finally:
        for server in servers:
            server.close()
    assert all(result.startswith("refused") for result in seen["unix"].values()), seen["unix"]
    assert len(seen["unix"]) == 2


def test_an_interpreter_behind_a_version_managers_shim_starts(bwrap, world, monkeypatch):
    """Finding 7: `#!/usr/bin/env python3` where python3 is a version manager's shim in the
    (hidden) home failed with status 127. The shim's manager root is shown."""
    root = world["home"] / ".fakeenv"
    (root / "versions" / "3" / "bin").mkdir(parents=True)
    (root / "versions" / "3" / "bin" / "python").symlink_to(sys.executable)
    (root / "shims").mkdir()
    shim = root / "shims" / "envirobench-test-python"
    shim.write_text(f'#!/bin/sh\nexec "{root}/versions/3/bin/python" "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{root / 'shims'}:{os.environ['PATH']}")
    adapter = wrapper(world["bin"], "sandbox_snoop_adapter.py", interpreter="/usr/bin/env envirobench-test-python")
    seen, _ = snoop(world, "shim", network=False, adapter=adapter, look=[world["home"] / "notes.txt", world["home"] / ".aws"])
    assert not seen["look"][str(world["home"] / "notes.txt")]["exists"] and not seen["look"][str(world["home"] / ".aws")]["exists"]


def test_an_adapter_that_cannot_start_in_the_sandbox_is_told_how_to_allow_it(bwrap, world):
    adapter = wrapper(world["bin"], "sandbox_snoop_adapter.py", interpreter="/usr/bin/env envirobench-no-such-interpreter")
    spec = RunSpec(adapter=str(adapter), run_id="nostart", model="m", benchmark="count-words", dataset="test/secret-v1", budget_usd=0,
                   results_dir=world["results"], sandbox="bwrap", network=False)
    outcome = execute_run(spec, world["registry"])
    assert outcome.status == "failed"
    assert "could not start in the sandbox (exit status 127" in outcome.message and "envirobench-no-such-interpreter" in outcome.message
    assert "--sandbox-allow PATH" in outcome.message


def test_a_wrapper_that_runs_a_script_the_sandbox_does_not_show_is_told_how_to_allow_it(bwrap, world):
    """The common shell wrapper `exec python /elsewhere/adapter.py`: the script is not shown, so
    Python exits with status 2; the message says so and names --sandbox-allow, which then works."""
    script = world["root"] / "elsewhere" / "adapter.py"
    script.parent.mkdir()
    script.write_text((ADAPTERS / "sandbox_snoop_adapter.py").read_text())
    adapter = world["bin"] / "wrapper"
    adapter.write_text(f'#!/bin/sh\nexec {sys.executable} {script} "$@"\n')
    adapter.chmod(0o755)
    spec = RunSpec(adapter=str(adapter), run_id="wrapped", model="m", benchmark="count-words", dataset="test/secret-v1", budget_usd=0,
                   results_dir=world["results"], sandbox="bwrap", network=False)
    outcome = execute_run(spec, world["registry"])
    assert outcome.status == "failed"
    assert "failed in the sandbox, perhaps for want of a file it does not show (exit status 2" in outcome.message
    assert "No such file or directory" in outcome.message and "--sandbox-allow PATH" in outcome.message
    allowed = execute_run(attrs.evolve(spec, run_id="wrapped-allowed", sandbox_allow=(str(script),)), world["registry"])
    assert allowed.status == "completed", allowed.message


def test_the_adapter_cache_is_its_own_and_kept_between_runs(bwrap, world):
    """--adapter-cache: read-write in the sandbox, named by ENVIROBENCH_ADAPTER_CACHE, kept from
    one run to the next; a host socket in it is hidden like any other."""
    cache = world["root"] / "cache"
    first, record = snoop(world, "cache-1", network=False, adapter_cache=cache)
    assert first["cache"] == {} and first["env"]["ENVIROBENCH_ADAPTER_CACHE"] == str(cache.resolve())
    assert record["sandbox"]["cache"] == str(cache.resolve())
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(cache / "host.sock"))
    server.listen(1)
    try:
        second, _ = snoop(world, "cache-2", network=False, adapter_cache=cache, options={"unix": json.dumps([str(cache / "host.sock")])})
    finally:
        server.close()
    assert second["cache"] == {"cache-1.txt": "left by cache-1"}
    assert second["unix"][str(cache / "host.sock")].startswith("refused")
    assert (cache / "cache-2.txt").read_text() == "left by cache-2"


def test_answer_keys_copied_into_the_adapter_cache_stay_hidden(bwrap, world):
    """The cache is read-write and kept between runs, and core never writes in it; an answer key
    or a type's fixtures someone copied into it are still hidden (it is walked like any tree
    shown), while the adapter's own entries (the reference adapter's OCR pages) are there."""
    cache = world["root"] / "cache-with-keys"
    key = cache / "copied" / "answers.jsonl"
    fixtures = cache / "pkg" / "benchmarks" / "count-words" / "fixtures"
    own = cache / "envirobench-reference-adapter" / "ocr" / "ab" / "ab12.json"
    for folder in (key.parent, fixtures, own.parent):
        folder.mkdir(parents=True)
    answers = (world["dataset"] / "answers.jsonl").read_bytes()
    key.write_bytes(answers)
    (fixtures / "correct.json").write_bytes(answers)
    own.write_text('{"words": []}')
    seen, _ = snoop(world, "cache-keys", network=False, adapter_cache=cache, look=[key, fixtures, fixtures / "correct.json", own])
    look = seen["look"]
    assert look[str(key)].get("text", "") == "" and look[str(fixtures)].get("entries", []) == []
    assert look[str(fixtures / "correct.json")]["exists"] is False
    assert look[str(own)]["text"] == '{"words": []}'
    text = json.dumps(seen)
    for value in world["answers"].values():
        assert str(value) not in text


@pytest.mark.parametrize("where", ["results", "inside-results", "dataset", "holds-dataset", "home", "credentials", "root"])
def test_an_adapter_cache_that_shares_anything_with_core_is_refused(world, where):
    cache = {"results": world["results"], "inside-results": world["results"] / "base" / "cache", "dataset": world["dataset"],
             "holds-dataset": world["root"] / "data", "home": world["home"], "credentials": world["home"] / ".aws" / "cache",
             "root": Path("/")}[where]
    spec = RunSpec(adapter=str(wrapper(world["bin"], "fake_adapter.py")), run_id=f"cache-{where}", model="m", benchmark="count-words",
                   dataset="test/secret-v1", budget_usd=0, results_dir=world["results"], sandbox="none", adapter_cache=cache)
    with pytest.raises(EnviroBenchError, match=r"--adapter-cache .*: it (holds|lies inside) .*give the adapter a directory of its own"):
        execute_run(spec, world["registry"])
    assert not (world["results"] / f"cache-{where}").exists() and not (world["results"] / "base" / "cache").exists()
    assert not (world["home"] / ".aws" / "cache").exists()


def test_an_adapter_cache_in_the_home_is_fine(world, tmp_path):
    cache = world["home"] / ".cache" / "envirobench-adapters" / "fake"
    spec = RunSpec(adapter=str(wrapper(world["bin"], "fake_adapter.py")), run_id="cache-home", model="m", benchmark="count-words",
                   dataset="test/secret-v1", budget_usd=0, results_dir=world["results"], sandbox="none", adapter_cache=cache)
    assert execute_run(spec, world["registry"]).status == "completed" and cache.is_dir()
