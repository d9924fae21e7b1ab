from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from scripted_adapters import adapter_executable
from toy_fixtures import no_installed_plugins, toy_registry_of  # noqa: F401 (a fixture in force in this folder)

from envirobench import plugins
from envirobench.runs import RunSpec, execute_run
from envirobench.sandbox import find_bwrap


@pytest.fixture
def toy_registry(count_dataset):
    return toy_registry_of(count_dataset)


ADAPTERS = Path(__file__).parent / "adapters"


@pytest.fixture
def adapter_bin(tmp_path):
    """adapter_bin("snoop_adapter.py") -> an executable running that scripted adapter."""
    return lambda script: adapter_executable(tmp_path / f"{Path(script).stem}-bin", script)


@pytest.fixture
def fake(adapter_bin):
    return adapter_bin("fake_adapter.py")


@pytest.fixture
def umask():
    """umask(mask): the process's umask for the rest of the test (the old one is restored)."""
    old = os.umask(0o022)
    os.umask(old)
    yield os.umask
    os.umask(old)


@pytest.fixture
def results(tmp_path):
    return tmp_path / "results"


@pytest.fixture
def make_spec(fake, results):
    """RunSpec for the count-words test dataset with the fake adapter; options drive its behaviour.

    Without the sandbox unless a test asks for one (`sandbox="bwrap"`): most of core's tests are
    about what core does whatever the machine, and test_sandbox.py covers the sandbox."""

    def make(run_id, *, adapter=None, options=None, budget_usd=1.0, **kw):
        kw.setdefault("sandbox", "none")
        return RunSpec(
            adapter=str(adapter or fake),
            run_id=run_id,
            model="test/model",
            benchmark="count-words",
            dataset=kw.pop("dataset", "test/count-words-v1"),
            budget_usd=budget_usd,
            options=options or {},
            results_dir=kw.pop("results_dir", results),
            **kw,
        )

    return make


@pytest.fixture
def make_run(make_spec, toy_registry):
    """Make a completed run; `off` puts count errors on chosen cases ("c000001:1,c000004:-2")."""

    def run(run_id, off="", registry=None, **kw):
        outcome = execute_run(make_spec(run_id, options={"off": off}, **kw), registry or toy_registry)
        assert outcome.status == "completed", outcome.message
        return outcome

    return run


@pytest.fixture
def hostile(adapter_bin):
    """The hostile test adapter (tests/core/adapters/hostile_adapter.py); options pick its attack."""
    return adapter_bin("hostile_adapter.py")


@pytest.fixture
def toy_cli(count_dataset):
    """toy_cli(*args, **popen_kw) -> `envirobench ARGS` started in a process of its own (so a test
    can signal or kill it), with the count-words test dataset registered."""
    started = []

    def start(*args, **kw):
        env = {**os.environ, plugins.LOAD_PLUGINS_ENV: "", **kw.pop("env", {})}
        proc = subprocess.Popen([sys.executable, str(ADAPTERS / "toy_cli.py"), str(count_dataset), *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, **kw)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


@pytest.fixture
def modules_imported_by():
    """modules_imported_by(argv, env=None) -> the modules (sys.modules) that `envirobench ARGV`
    has imported when it ends, run in a fresh interpreter (with `env`, or this one's)."""

    def run(argv: list[str], env: dict[str, str] | None = None) -> set[str]:
        code = (
            "import json, sys\n"
            "from envirobench.cli.main import main\n"
            f"main({argv!r}, standalone_mode=False)\n"
            "print(json.dumps(sorted(sys.modules)))\n"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
        return set(json.loads(done.stdout.strip().splitlines()[-1]))

    return run


def bwrap_problem() -> str | None:
    """Why the sandbox tests cannot run here (None: they can). bin/test installs bubblewrap."""
    found, problem = find_bwrap()
    return None if found else problem


@pytest.fixture
def bwrap():
    problem = bwrap_problem()
    if problem:
        pytest.skip(f"the sandbox tests need bubblewrap: {problem} (bin/test installs Debian's bubblewrap)")


@pytest.fixture
def outside_tmp():
    """A scratch directory outside /tmp (which the sandbox hides whole), removed afterwards: what
    the sandbox must hide there, it hides precisely."""
    base = "/var/tmp" if Path("/var/tmp").is_dir() else str(Path.home())
    path = Path(tempfile.mkdtemp(prefix="envirobench-test-", dir=base))
    yield path
    shutil.rmtree(path, ignore_errors=True)
