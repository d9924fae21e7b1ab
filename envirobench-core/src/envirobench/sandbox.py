"""The adapter's process: its sandbox, its environment and its lifetime.

What the sandbox protects and what it does not is in docs/runs.md ("The sandbox"); where it sits
in a run, in docs/architecture.md ("One run").

- The sandbox (`--sandbox auto|bwrap|none`) is bubblewrap on an allow-list: what it shows and
  what it hides inside that is `sandbox_view.py`'s; here are the rest of its arguments: a private
  /tmp, the workspace bound at its own path (request and input read-only, `output/` and the
  workspace's home writable), the `--adapter-cache` directory read-write, the root read-only; new
  PID, IPC and UTS namespaces, `--die-with-parent`, `--new-session`, every capability dropped, a
  seccomp filter refusing ptrace; the network unless `--no-network` (`--unshare-net`). The places
  that hold answers or secrets (`secret_paths`: the results tree, the compared runs, every
  registered dataset and its fixtures, the stores' local paths, credentials) are hidden wherever
  they fall inside what is shown. bwrap reads its arguments from a memfd (`--args`), so the
  sandbox's own command line (its PID 1, which the adapter can read) names no hidden path.
- The environment is an allow-list (PATH, LANG, LANGUAGE, LC_*, TZ, PYTHONPATH) with HOME in the
  workspace and TMPDIR, plus the variables named with `--adapter-env` and, with a cache,
  ENVIROBENCH_ADAPTER_CACHE; the same with or without
  the sandbox, so an adapter behaves alike on machines with and without bubblewrap.
- The lifetime: the adapter runs under a supervisor (`SUPERVISOR`, a few lines of standard-library
  Python) that is a child subreaper, so every process of the adapter's tree stays its descendant,
  including one that left its process group and session with setsid. When the adapter exits, when
  core stops it (the timeout, SIGINT, SIGTERM or SIGHUP of envirobench), or when core dies (even
  by SIGKILL: the supervisor's parent-death signal), the supervisor kills every remaining
  descendant, and when core is gone it removes the workspace too. Core is a subreaper as well
  while the adapter runs, as a backstop should the supervisor itself be killed: whatever is then
  left as core's child is killed.

Length: the sandbox's arguments, the adapter's environment and the supervisor (a standalone
script, kept here as text beside the code that starts and stops it) are one subject, what the
adapter's process is subject to, and each depends on the others; split, one boundary would be
described in three places.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlsplit

import attrs

from .authoring import fixtures_dir_for
from .errors import EnviroBenchError, TechnicalFailure
from .plugins import Registry
from .rundir import SandboxRecord
from .sandbox_view import hiding, seccomp_program, under, view_arguments, walked_hidden
from .stores.config import configured_stores
from .stores.config import resolve as resolve_store
from .system import set_child_subreaper

SANDBOX_KINDS = ("auto", "bwrap", "none")
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
GRACE_S = 5.0  # how long a stopped supervisor gets to kill the adapter's tree before it is killed itself

# The environment an adapter gets from core's, besides what --adapter-env names.
PASSED_ENV = ("PATH", "LANG", "LANGUAGE", "TZ", "PYTHONPATH")
# Where the adapter's own cache directory is (--adapter-cache), when it has one.
CACHE_ENV = "ENVIROBENCH_ADAPTER_CACHE"
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# Under the user's home: credentials and configuration, hidden even when a directory around
# them has to stay reachable (a virtual environment in the home).
CREDENTIALS = (".aws", ".config", ".ssh", ".gnupg", ".docker", ".kube", ".azure", ".netrc", ".git-credentials", ".pypirc", ".npmrc", ".pgpass")
# Variables naming credential files or configuration directories: what they name is hidden.
CREDENTIAL_ENV = ("AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "GOOGLE_APPLICATION_CREDENTIALS", "KUBECONFIG", "DOCKER_CONFIG", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "ENVIROBENCH_STORES")
# A container daemon's socket is a way out of any sandbox.
DAEMON_SOCKETS = ("/run/docker.sock", "/var/run/docker.sock", "/run/containerd", "/run/podman")


class Interrupted(KeyboardInterrupt):
    """envirobench received SIGINT, SIGTERM or SIGHUP while a run was in progress."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(self.name)


@contextlib.contextmanager
def interrupting_signals() -> Iterator[None]:
    """While the block runs, SIGINT, SIGTERM and SIGHUP raise `Interrupted` (in the main thread;
    elsewhere nothing changes). Only the first does: later ones are ignored while core stops the
    adapter and records the run as failed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def handler(signum: int, frame: object) -> None:
        if not received:
            received.append(signum)
            raise Interrupted(signum)

    previous = {s: signal.signal(s, handler) for s in SIGNALS}
    try:
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, old if old is not None else signal.SIG_DFL)


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP wait until the block is done (cleaning up must not be cut short)."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


# -- which sandbox --------------------------------------------------------------------------------


@attrs.frozen
class Sandbox:
    """The sandbox a run uses, resolved from `--sandbox`: `kind` is "bwrap" or "none"."""

    kind: Literal["bwrap", "none"]
    network: bool
    env: tuple[str, ...]  # the names given with --adapter-env
    bwrap: str | None = None
    warnings: tuple[str, ...] = ()
    allow: tuple[str, ...] = ()  # what --sandbox-allow named, resolved
    cache: str | None = None  # --adapter-cache, resolved: the adapter's own directory, kept between runs

    def record(self) -> SandboxRecord:
        return SandboxRecord(self.kind, self.network, self.env, self.allow, self.cache)


def resolve_sandbox(kind: str, *, network: bool = True, env: Sequence[str] = (), allow: Sequence[str] = ()) -> Sandbox:
    """`auto` is bubblewrap when `bwrap` is installed and works here, else none with a warning;
    `bwrap` requires it; `none` runs the adapter unsandboxed, with a warning."""
    if kind not in SANDBOX_KINDS:
        raise EnviroBenchError(f"--sandbox {kind!r} is not one of {', '.join(SANDBOX_KINDS)}")
    names = check_env_names(env)
    allowed = check_allowed(allow)
    if allowed and kind == "none":
        raise EnviroBenchError("--sandbox-allow widens the sandbox; it cannot be combined with --sandbox none")
    warnings: list[str] = []
    bwrap = None
    if kind == "none":
        warnings.append("--sandbox none: the adapter runs without a sandbox and can read every file this user can read, answer keys and other runs included")
    else:
        bwrap, problem = find_bwrap()
        if bwrap is None and kind == "bwrap":
            raise EnviroBenchError(f"--sandbox bwrap: {problem}")
        if bwrap is None:
            warnings.append(f"no sandbox: {problem}, so the adapter can read every file this user can read (install bubblewrap, or say --sandbox none)")
    chosen: Literal["bwrap", "none"] = "bwrap" if bwrap else "none"
    if not network and chosen == "none":
        if kind == "none":
            raise EnviroBenchError("--no-network needs the sandbox; it cannot be combined with --sandbox none")
        warnings.append("--no-network cannot be enforced without the sandbox: the adapter has the network")
        network = True
    return Sandbox(chosen, network, names, bwrap, tuple(warnings), allowed if chosen == "bwrap" else ())


def check_env_names(names: Sequence[str]) -> tuple[str, ...]:
    out: list[str] = []
    for name in names:
        if not _ENV_NAME.match(name):
            raise EnviroBenchError(f"--adapter-env {name!r} is not an environment variable name (give NAME; its value is taken from this environment)")
        if name in ("HOME", "TMPDIR"):
            raise EnviroBenchError(f"--adapter-env {name}: core sets {name} for the adapter (a directory of its workspace)")
        if name not in os.environ:
            raise EnviroBenchError(f"--adapter-env {name}: {name} is not set in this environment")
        if name not in out:
            out.append(name)
    return tuple(out)


def _cap_drop() -> list[str]:
    # As root, bwrap keeps every capability unless told (remounting / read-write would then work).
    return ["--cap-drop", "ALL"] if os.geteuid() == 0 else []


_PROBED: dict[str, str | None] = {}


def find_bwrap() -> tuple[str | None, str]:
    """(the bwrap executable, "") when bubblewrap is installed and can make a sandbox here, else
    (None, why not). The probe runs once per executable and process."""
    path = shutil.which("bwrap")
    if path is None:
        return None, "bubblewrap (bwrap) is not installed"
    if path not in _PROBED:
        true = shutil.which("true") or "/bin/true"
        probe = [path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--unshare-pid",
                 "--die-with-parent", "--new-session", *_cap_drop(), "--", true]
        try:
            done = subprocess.run(probe, stdin=subprocess.DEVNULL, capture_output=True, timeout=30, check=False)
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            _PROBED[path] = None if done.returncode == 0 else (lines[-1] if lines else f"exit status {done.returncode}")
        except (OSError, subprocess.TimeoutExpired) as exc:
            _PROBED[path] = str(exc)
    problem = _PROBED[path]
    return (path, "") if problem is None else (None, f"bwrap cannot make a sandbox here ({problem})")


# -- the adapter's environment --------------------------------------------------------------------


def adapter_environment(sandbox: Sandbox, *, home: Path, tmpdir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in PASSED_ENV or k.startswith("LC_")}
    env.setdefault("PATH", os.defpath)
    env["HOME"] = str(home)
    env["TMPDIR"] = "/tmp" if sandbox.kind == "bwrap" else str(tmpdir)
    for name in sandbox.env:
        env[name] = os.environ[name]
    if sandbox.cache is not None:
        env[CACHE_ENV] = sandbox.cache
    return env


# -- what the sandbox hides and what it keeps ------------------------------------------------------


def homes() -> list[Path]:
    found = [Path(os.environ["HOME"])] if os.environ.get("HOME") else []
    with contextlib.suppress(KeyError):
        found.append(Path(pwd.getpwuid(os.getuid()).pw_dir))
    return found


def secret_paths(registry: Registry, *, results_dir: Path, dataset_root: Path, compared: Iterable[Path] = ()) -> list[Path]:
    """Every place that holds answers or secrets: hidden in the sandbox (those that exist)."""
    out = [Path(results_dir), Path(dataset_root), fixtures_dir_for(dataset_root), *map(Path, compared)]
    for source in registry.datasets.values():
        out += [source.path, fixtures_dir_for(source.path)]
    out += store_paths(registry)
    for home in homes():
        out += [home / name for name in CREDENTIALS]
    out += [Path(os.environ[name]) for name in CREDENTIAL_ENV if os.environ.get(name)]
    out += [Path(p) for p in DAEMON_SOCKETS]
    return out


def store_paths(registry: Registry) -> list[Path]:
    """The local directories of the configured `file:` stores and of the datasets' stores."""
    urls: list[str] = []
    with contextlib.suppress(EnviroBenchError):  # a broken configuration names nothing to hide
        urls += [spec.url for spec in configured_stores().values()]
    for source in registry.datasets.values():
        if source.store:
            with contextlib.suppress(EnviroBenchError):
                urls.append(resolve_store(source.store).url)
    return [Path(unquote(urlsplit(url).path)) for url in urls if url.startswith("file:")]


def bwrap_arguments(command: Sequence[str], *, work: Path, writable: Sequence[Path], secrets: Iterable[Path], network: bool,
                    allow: Sequence[str] = (), cache: str | None = None, path_env: str | None = None) -> list[str]:
    """bwrap's arguments (before `--` and the command) for an adapter working in `work`: the
    allow-list view of sandbox_view, a private /tmp, the workspace (`writable`: its parts the
    adapter writes), the adapter's cache, then the root made read-only."""
    # /tmp first: what the view shows from the temporary directory is bound over it.
    args = ["--tmpfs", "/tmp", *view_arguments(command, path_env=path_env, allow=allow, secrets=secrets, network=network)]
    args += ["--dev", "/dev", "--proc", "/proc"]
    work_real = os.path.realpath(work)
    args += ["--ro-bind", work_real, work_real]
    for path in writable:
        args += ["--bind", os.path.realpath(path), os.path.realpath(path)]
    if cache is not None:  # kept between runs, so walked: a host's socket in it would get around --no-network
        args += ["--bind", cache, cache]
        for found in walked_hidden(cache):
            args += hiding(found)
    args += ["--remount-ro", "/", "--chdir", work_real, "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
             "--die-with-parent", "--new-session", *_cap_drop()]
    if not network:
        args.append("--unshare-net")
    return args


def check_cache(given: str | os.PathLike[str], *, holds_answers: Iterable[Path]) -> str:
    """`--adapter-cache DIR`: the adapter's own directory, readable and writable in the sandbox
    and kept between runs, so it must share nothing with what core keeps from it: it may not be,
    hold or lie inside the results directory, a dataset or a compared run (the caller names
    them), nor be or hold the home, nor lie in a credentials directory. Made when missing, once
    it passes."""
    path = os.path.realpath(given)
    if os.path.lexists(path) and not os.path.isdir(path):
        raise EnviroBenchError(f"--adapter-cache {given}: not a directory")

    def refuse(other: str, how: str) -> None:
        raise EnviroBenchError(f"--adapter-cache {given}: it {how} {other}; give the adapter a directory of its own "
                               "(for example ~/.cache/envirobench-adapters/NAME)")

    for other in (os.path.realpath(p) for p in holds_answers):
        if under(other, path):
            refuse(other, "holds")
        if under(path, other):
            refuse(other, "lies inside")
    for home in (os.path.realpath(h) for h in homes()):
        if under(home, path):
            refuse(home, "holds")
        for name in CREDENTIALS:
            if under(path, os.path.join(home, name)):
                refuse(os.path.join(home, name), "lies inside")
    os.makedirs(path, exist_ok=True)
    return path


def check_allowed(paths: Sequence[str]) -> tuple[str, ...]:
    """`--sandbox-allow` paths: existing, absolute once resolved, never / (that would be no
    allow-list at all)."""
    out: list[str] = []
    for given in paths:
        path = os.path.realpath(given)
        if not os.path.exists(path):
            raise EnviroBenchError(f"--sandbox-allow {given}: no such file or directory")
        if path == "/":
            raise EnviroBenchError(f"--sandbox-allow {given}: the whole filesystem cannot be allowed (name what the adapter needs, or say --sandbox none)")
        if path not in out:
            out.append(path)
    return tuple(out)


# -- the supervisor -------------------------------------------------------------------------------


def children_of(pid: int) -> list[int]:
    """The processes whose parent is `pid`, from /proc. Core calls it, and the supervisor carries
    its source (standard library only, like the supervisor)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as handle:
                    data = handle.read()
                if int(data[data.rfind(b")") + 2 :].split()[1]) == pid:
                    found.append(int(name))
            except (OSError, ValueError, IndexError):
                continue
    return found


# Run as `python -I -S -c SUPERVISOR CORE_PID STATUS_FD WORKSPACE COMMAND...` with the adapter's
# output pipe as stdout and stderr. Standard library only; see the module docstring.
SUPERVISOR = "import ctypes, os, shutil, signal, sys, time\n\n" + inspect.getsource(children_of) + r'''

parent, status_fd, workspace, command = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: the adapter's orphans become ours
libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG: core gone -> SIGTERM to us
os.set_inheritable(status_fd, False)
me, stopped = os.getpid(), []


class Stop(BaseException):
    pass


def on_signal(signum, frame):
    if not stopped:
        stopped.append(signum)
        raise Stop()


for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(s, on_signal)


def end_all():
    signal.pthread_sigmask(signal.SIG_BLOCK, (signal.SIGTERM, signal.SIGINT, signal.SIGHUP))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = children_of(me)
        for pid in found:
            for target in (-pid, pid):
                try:
                    os.kill(target, signal.SIGKILL)
                except OSError:
                    pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            if not found:
                return
        time.sleep(0.002)


code = 0
try:
    if os.getppid() != parent:
        raise Stop()
    pid = os.fork()
    if pid == 0:
        try:
            for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                signal.signal(s, signal.SIG_DFL)
            os.setpgid(0, 0)
            os.execvp(command[0], command)
        except BaseException as exc:
            try:
                os.write(status_fd, str(getattr(exc, "strerror", None) or exc).encode("utf-8", "replace"))
            finally:
                os._exit(127)
    while True:
        done, status = os.waitpid(-1, 0)
        if done == pid:
            code = os.waitstatus_to_exitcode(status)
            break
except Stop:
    code = -(stopped[0] if stopped else signal.SIGTERM)
except ChildProcessError:
    code = 127
end_all()
if os.getppid() != parent:
    shutil.rmtree(workspace, ignore_errors=True)  # core is gone: nobody else will
os._exit(code if code >= 0 else 128 - code)
'''

def _memfd(name: str, data: bytes) -> int:
    fd = os.memfd_create(name)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


class Supervised:
    """The adapter running under its supervisor (and, for kind "bwrap", in the sandbox)."""

    def __init__(self, command: Sequence[str], *, cwd: Path, env: dict[str, str], output_fd: int, workspace: Path,
                 bwrap: str | None = None, bwrap_args: Sequence[str] = ()) -> None:
        status_read, status_write = os.pipe()
        pass_fds = [status_write]
        args_fd = None
        seccomp_fd = None
        if bwrap is not None:
            program = seccomp_program()
            if program is not None:  # ptrace closed: see sandbox_view.seccomp_program
                seccomp_fd = _memfd("envirobench-seccomp", program)
                pass_fds.append(seccomp_fd)
                bwrap_args = [*bwrap_args, "--seccomp", str(seccomp_fd)]
            args_fd = _memfd("envirobench-bwrap-args", b"".join(os.fsencode(a) + b"\0" for a in bwrap_args))
            pass_fds.append(args_fd)
            command = [bwrap, "--args", str(args_fd), "--", *command]
        self._before = set(children_of(os.getpid()))
        self._was_subreaper = set_child_subreaper(True)
        try:
            self.popen = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", SUPERVISOR, str(os.getpid()), str(status_write), str(workspace), *command],
                stdin=subprocess.DEVNULL, stdout=output_fd, stderr=output_fd, cwd=cwd, env=env, pass_fds=pass_fds,
                start_new_session=True,  # a Ctrl-C on the terminal reaches core, which stops the adapter itself
            )
        except BaseException as exc:
            os.close(status_read)
            set_child_subreaper(self._was_subreaper)
            if isinstance(exc, OSError):
                raise TechnicalFailure(f"could not start the adapter's supervisor: {exc.strerror}") from None
            raise
        finally:
            os.close(status_write)
            for fd in (args_fd, seccomp_fd):
                if fd is not None:
                    os.close(fd)
        self._status = status_read

    def poll(self, timeout: float) -> int | None:
        try:
            return self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self) -> None:
        """End the adapter and everything it started (the supervisor does; killed if it cannot)."""
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout=GRACE_S)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()

    def finish(self) -> str | None:
        """After the supervisor has exited: kill what escaped it (the backstop), stop being a
        subreaper, and return why the adapter could not be started (None: it was)."""
        with signals_deferred():
            return self._finish()

    def _finish(self) -> str | None:
        self.stop()
        try:
            for _ in range(200):
                strays = [pid for pid in children_of(os.getpid()) if pid not in self._before and pid != self.popen.pid]
                if not strays:
                    break
                for pid in strays:
                    for target in (-pid, pid):
                        with contextlib.suppress(OSError):
                            os.kill(target, signal.SIGKILL)
                time.sleep(0.01)
                for pid in strays:
                    with contextlib.suppress(ChildProcessError):
                        os.waitpid(pid, os.WNOHANG)
        finally:
            set_child_subreaper(self._was_subreaper)
        try:
            message = os.read(self._status, 4096).decode("utf-8", "replace")
        finally:
            os.close(self._status)
        return message or None
