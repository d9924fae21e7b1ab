"""Running an adapter as an untrusted external executable, and taking its output.

The adapter gets a fresh private workspace outside the results tree and the dataset:
`request.json`, `input/` (checked copies of the source files its cases use) and `output/`, with a
home directory of its own beside them. Nothing handed to it leads to an answer key or names the
results tree: not the request, the input or output directory, its working directory, nor its
stdout and stderr, which are pipes that core reads and writes to `adapter.log` itself. It runs
under the supervisor and, by default, in the sandbox of `sandbox.py` (see docs/runs.md and
docs/architecture.md, "One run").

When the adapter and everything it started are gone, core copies `output/` into the run as
`adapter/`. It trusts nothing it did not write: `adapter/` is created by core (it must not exist
yet); only regular files are copied, opened without following links and without blocking, within
a size limit; links, FIFOs, sockets and devices are skipped and said so in adapter.log and
run.json; each file's size and SHA-256 is taken from the bytes written, and what is scored is read
back from that copy and checked against them. The output's entries are counted first (names and
types only), so output with too many entries, or nested too deep, is refused with nothing copied.

Length: running the adapter and taking its output share the workspace, the log and the moment the
adapter's tree is gone; taking it is one walk made twice, counted and then copied.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import re
import select
import shutil
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import attrs

from . import datasets as ds
from .benchmark import BenchmarkType, Case
from .errors import TechnicalFailure
from .jsonio import kind_of, loads
from .protocol import (
    PROGRESS_FILE,
    PROTOCOL,
    REQUEST_FORMAT,
    AdapterRequest,
    RequestBenchmark,
    RequestCase,
    RequestDataset,
)
from .rundir import ADAPTER_DIR, AdapterOutput, OutputFile, SkippedOutput
from .sandbox import Sandbox, Supervised, adapter_environment, bwrap_arguments
from .system import remove_unlocked

_POLL_SECONDS = 0.2
_NOT_FOUND = re.compile(r"No such file or directory|not found|Permission denied|Read-only file system")
LOG_LIMIT = 64 << 20  # adapter.log keeps the first 64 MiB of the adapter's output
MAX_OUTPUT_ENTRIES = 100_000  # files and directories in output/
MAX_OUTPUT_DEPTH = 32
_PROGRESS_READ = 1 << 16
_WORKSPACE_PREFIX = "envirobench-adapter-"
_STALE_WORKSPACE_S = 60.0

_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | _NOFOLLOW
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW
# What core makes in the run (adapter/, its files, adapter.log): the umask decides, as for any
# program's files (0644 and 0755 under the usual umask 022). The workspace stays private (0700).
_FILE_MODE = 0o666
_DIR_MODE = 0o777


@attrs.frozen
class Workspace:
    """`root/work/` is the adapter's working directory (request.json, input/, output/);
    `root/home/` its HOME; `root/tmp/` its TMPDIR when there is no sandbox. Core holds a lock on
    `root` while it lives, so a later run can tell a workspace left by a killed one."""

    root: Path
    lock: int = -1

    @property
    def work(self) -> Path:
        return self.root / "work"

    @property
    def request(self) -> Path:
        return self.work / "request.json"

    @property
    def input_dir(self) -> Path:
        return self.work / "input"

    @property
    def output_dir(self) -> Path:
        return self.work / "output"

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    @classmethod
    def create(cls) -> Workspace:
        remove_stale_workspaces()
        root = Path(tempfile.mkdtemp(prefix=_WORKSPACE_PREFIX))
        lock = os.open(root, _DIR_FLAGS)
        fcntl.flock(lock, fcntl.LOCK_EX)
        for sub in ("work", "work/input", "work/output", "home", "tmp"):
            (root / sub).mkdir()
        return cls(root, lock)

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
        if self.lock >= 0:
            with contextlib.suppress(OSError):
                os.close(self.lock)


def remove_stale_workspaces(tmp: str | None = None) -> None:
    """Remove workspaces that no living run holds (left by a run killed with its supervisor)."""
    remove_unlocked(tmp or tempfile.gettempdir(), _WORKSPACE_PREFIX, lambda path: shutil.rmtree(path, ignore_errors=True),
                    older_than_s=_STALE_WORKSPACE_S, own_only=True)


class SourceCopier:
    """Copies a run's source files into the input directory, each once, bytes never a link (so the
    adapter cannot follow a path back into the dataset). Cases share files (page-locate's
    questions share their documents' pages: 65,000 uses of 6,500 files), so a file already copied
    and a directory already made are remembered, not asked of the file system again; plain
    strings, not Path objects: this runs once per use of a file."""

    def __init__(self, dataset_root: Path, input_dir: Path) -> None:
        self.source, self.target = os.fspath(dataset_root), os.fspath(input_dir)
        self.copied: set[str] = set()
        self.made: set[str] = set()

    def copy(self, relative: str) -> None:
        if relative in self.copied:
            return
        target = os.path.join(self.target, relative)
        directory = os.path.dirname(target)
        if directory not in self.made:
            os.makedirs(directory, exist_ok=True)
            self.made.add(directory)
        if not os.path.exists(target):
            shutil.copyfile(os.path.join(self.source, relative), target, follow_symlinks=True)
        self.copied.add(relative)


def build_request(
    btype: BenchmarkType,
    contents: ds.Contents,
    cases: Mapping[str, Case],
    workspace: Workspace,
    *,
    run_id: str,
    model: str,
    budget_usd: float,
    options: Mapping[str, str],
) -> AdapterRequest:
    """The input-only view of `cases` (every unretired case of `contents`, or a partial run's
    selection): copy each checked source file a case uses; the request holds inputs only, each
    exactly as cases.jsonl has it."""
    dataset = contents.dataset
    request_cases = []
    copier = SourceCopier(dataset.root, workspace.input_dir)
    for cid, case in cases.items():
        for relative in btype.source_files(case.input):
            copier.copy(relative)
        request_cases.append(RequestCase(cid, contents.raw_inputs[cid]))
    identity = dataset.identity
    return AdapterRequest(
        format=REQUEST_FORMAT,
        protocol=PROTOCOL,
        run_id=run_id,
        model=model,
        budget_usd=budget_usd,
        options=dict(options),
        benchmark=RequestBenchmark(btype.ID, btype.FORMAT),
        dataset=RequestDataset(identity.id, identity.version, identity.input_digest),
        input_dir=str(workspace.input_dir),
        cases=tuple(request_cases),
    )


class ProgressReader:
    """Follows `progress.jsonl` lines `{"done": n, "total": m}` appended by the adapter; a line
    may add `"part": {"done": p, "total": q, "unit": "pages"}`, the progress inside the cases
    under way (a site record of 806 pages is one case), kept in `part` until a line without it.

    Never blocks: the file is opened without following links and non-blocking, and anything but
    a regular file (a FIFO, a socket, a directory) is ignored; at most 64 KiB are read per poll."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.done = 0
        self.total: int | None = None
        self.part: tuple[int, int, str] | None = None

    def poll(self) -> bool:
        """Read new complete lines; True when the counts changed."""
        try:
            fd = os.open(self.path, _READ_FLAGS)
        except OSError:
            return False
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return False
            chunk = os.pread(fd, _PROGRESS_READ, self.offset)
        except OSError:
            return False
        finally:
            os.close(fd)
        end = chunk.rfind(b"\n")
        if end < 0:
            if len(chunk) == _PROGRESS_READ:
                self.offset += len(chunk)  # one endless line: skip it
            return False
        self.offset += end + 1
        changed = False
        for raw in chunk[: end + 1].splitlines():
            try:
                value = loads(raw.decode("utf-8"))
                done, total = value["done"], value["total"]
            except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError):
                continue  # progress is advisory; a garbled line never fails a run
            if type(done) is int and type(total) is int and 0 <= done <= total:
                self.done, self.total, self.part, changed = done, total, _part(value.get("part")), True
        return changed


def _part(value: object) -> tuple[int, int, str] | None:
    """A progress line's optional `part` (done, total, unit), or None when absent or malformed."""
    if not isinstance(value, dict):
        return None
    done, total, unit = value.get("done"), value.get("total"), value.get("unit", "steps")
    if type(done) is int and type(total) is int and 0 <= done <= total and isinstance(unit, str) and 0 < len(unit) <= 20 and unit.isprintable():
        return done, total, unit
    return None


class AdapterLog:
    """adapter.log: created by core in the staging directory (it must not exist yet) and fed by a
    thread from the pipe that is the adapter's stdout and stderr; the first 64 MiB are kept."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | _NOFOLLOW, _FILE_MODE)  # read back: last_line
        except OSError as exc:
            raise TechnicalFailure(f"cannot create adapter.log: {exc.strerror}", file=path) from None
        self._read, self.write_end = os.pipe()
        self.written = self.received = 0
        self._stopping = False
        self._thread = threading.Thread(target=self._drain, name="envirobench-adapter-log", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while True:
            ready, _, _ = select.select([self._read], [], [], _POLL_SECONDS)
            if not ready:
                if self._stopping:
                    return
                continue
            chunk = os.read(self._read, 1 << 16)
            if not chunk:
                return
            self.received += len(chunk)
            room = LOG_LIMIT - self.written
            if room > 0:
                try:
                    os.write(self.fd, chunk[:room])
                    self.written += min(room, len(chunk))
                except OSError:  # a full disk: keep draining the pipe so the adapter never blocks
                    self.written = LOG_LIMIT

    def close_write_end(self) -> None:
        """Core's copy of the pipe's write end: closed once the adapter holds it."""
        if self.write_end >= 0:
            os.close(self.write_end)
            self.write_end = -1

    def finish(self) -> None:
        """After the adapter's tree is gone: read what is left in the pipe and stop."""
        self.close_write_end()
        if self._stopping:
            return
        self._stopping = True
        self._thread.join(timeout=30)
        if self.received > self.written:
            self.note(f"adapter.log truncated: the adapter wrote {self.received} bytes, the first {self.written} are kept")

    def last_line(self, limit: int = 300) -> str:
        """The last line the adapter wrote (after `finish`), shortened, or ""."""
        with contextlib.suppress(OSError):
            size = os.fstat(self.fd).st_size
            tail = os.pread(self.fd, 4096, max(0, size - 4096)) if size else b""
            lines = [line.strip() for line in tail.decode("utf-8", "replace").splitlines() if line.strip() and not line.startswith("[envirobench]")]
            if lines:
                return lines[-1][:limit]
        return ""

    def note(self, text: str) -> None:
        with contextlib.suppress(OSError):
            os.write(self.fd, f"[envirobench] {text}\n".encode("utf-8", "backslashreplace"))

    def check_in_place(self) -> None:
        """adapter.log is still the file core writes (nothing replaced it in the staging directory)."""
        try:
            same = os.lstat(self.path).st_ino == os.fstat(self.fd).st_ino
        except OSError:
            same = False
        if not same:
            raise TechnicalFailure("adapter.log in the staging directory was replaced by something other than core; nothing is scored")

    def close(self) -> None:
        self.finish()
        for fd in (self._read, self.fd):
            with contextlib.suppress(OSError):
                os.close(fd)


def run_adapter(
    argv: Sequence[str],
    workspace: Workspace,
    log: AdapterLog,
    *,
    timeout: float | None,
    on_progress: Callable[[int, int], None] | None = None,
    on_part: Callable[[int, int, str], None] | None = None,
    sandbox: Sandbox | None = None,
    secrets: Iterable[Path] = (),
) -> float:
    """Run `ADAPTER run --request FILE --output DIR`; return wall seconds or raise TechnicalFailure.

    When this returns or raises (a timeout, an interruption), the adapter and every process it
    started have been killed and adapter.log holds all they wrote."""
    sandbox = sandbox or Sandbox("none", True, ())
    command = [*argv, "run", "--request", str(workspace.request), "--output", str(workspace.output_dir)]
    env = adapter_environment(sandbox, home=workspace.home, tmpdir=workspace.tmp)
    bwrap_args: list[str] = []
    if sandbox.kind == "bwrap":
        bwrap_args = bwrap_arguments(command, work=workspace.work, writable=[workspace.output_dir, workspace.home], secrets=secrets,
                                     network=sandbox.network, allow=sandbox.allow, cache=sandbox.cache, path_env=env.get("PATH"))
    started = time.monotonic()
    try:
        proc = Supervised(command, cwd=workspace.work, env=env, output_fd=log.write_end, workspace=workspace.root,
                          bwrap=sandbox.bwrap if sandbox.kind == "bwrap" else None, bwrap_args=bwrap_args)
    finally:
        log.close_write_end()
    progress = ProgressReader(workspace.output_dir / PROGRESS_FILE)
    try:
        while True:
            returncode = proc.poll(_POLL_SECONDS)
            if returncode is not None:
                break
            if on_progress and progress.poll() and progress.total is not None:
                on_progress(progress.done, progress.total)
                if on_part and progress.part:
                    on_part(*progress.part)
            if timeout is not None and time.monotonic() - started > timeout:
                proc.stop()
                raise TechnicalFailure(f"the adapter did not finish within the timeout of {timeout:g} s and was stopped, with every process it started")
    finally:
        start_error = proc.finish()  # on every path: whatever is left of the adapter's tree is killed
        log.finish()
    if on_progress and progress.poll() and progress.total is not None:
        on_progress(progress.done, progress.total)
    elapsed = time.monotonic() - started
    if start_error is not None:
        raise TechnicalFailure(f"could not start the adapter {argv[0]!r}: {start_error}")
    said = log.last_line() if returncode != 0 and sandbox.kind == "bwrap" else ""
    if sandbox.kind == "bwrap" and (returncode in (126, 127) or (said and _NOT_FOUND.search(said))):
        # The shell's "cannot execute" and "not found", or a last word naming a missing file:
        # most often something the adapter needs lies outside what the sandbox shows (an
        # interpreter in the home, a script beside a wrapper).
        what = "could not start in the sandbox" if returncode in (126, 127) else "failed in the sandbox, perhaps for want of a file it does not show"
        raise TechnicalFailure(
            f"the adapter {what} (exit status {returncode}{': ' + said if said else ''}). The sandbox shows it only the system "
            "(/usr, /etc), its executable, the interpreters its #! lines name with their Python environments, and its workspace; "
            "allow what else it needs to read with --sandbox-allow PATH (answer files inside stay hidden)"
        )
    if returncode != 0:
        raise TechnicalFailure(f"the adapter exited with status {returncode}; see adapter.log in the run directory")
    return elapsed


# -- taking the output ---------------------------------------------------------------------------


@attrs.frozen
class OutputCopy:
    """What `copy_output` made: the record for run.json, and the problem that fails the run, if any."""

    record: AdapterOutput
    problem: str | None = None


class _Copier:
    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.total = 0
        self.entries = 0
        self.files: dict[str, OutputFile] = {}
        self.skipped: list[SkippedOutput] = []

    def count(self, src: int, prefix: str = "", depth: int = 0, seen: int = 0) -> int:
        """The entries `tree` would copy under `src` (plus `seen` already counted), counted before
        anything is copied: names and their lstat type only (no file is opened or read; only
        directories are, without following links), so output over MAX_OUTPUT_ENTRIES or nested
        deeper than MAX_OUTPUT_DEPTH fails the run with nothing copied. The walk stops at the first
        entry over the limit. `tree` keeps its own checks, should anything change meanwhile."""
        with os.scandir(src) as it:
            entries = sorted((entry.name, entry.is_dir(follow_symlinks=False)) for entry in it)
        for name, is_dir in entries:
            try:
                name.encode("utf-8")
            except UnicodeEncodeError:
                continue  # not copied (tree says so), so not counted
            seen += 1
            if seen > MAX_OUTPUT_ENTRIES:
                raise TechnicalFailure(f"the adapter's output has more than {MAX_OUTPUT_ENTRIES} files and directories; nothing was copied")
            if not is_dir:
                continue
            shown = prefix + name
            if depth >= MAX_OUTPUT_DEPTH:
                raise TechnicalFailure(f"the adapter's output nests directories deeper than {MAX_OUTPUT_DEPTH} levels ({shown}); nothing was copied")
            try:
                sub = os.open(name, _DIR_FLAGS, dir_fd=src)
            except OSError:
                continue  # tree skips it too, saying why
            try:
                seen = self.count(sub, shown + "/", depth + 1, seen)
            finally:
                os.close(sub)
        return seen

    def tree(self, src: int, dst: int, prefix: str, depth: int) -> None:
        with os.scandir(src) as it:
            names = sorted(entry.name for entry in it)
        for name in names:
            shown = prefix + os.fsencode(name).decode("utf-8", "backslashreplace")
            try:
                name.encode("utf-8")
            except UnicodeEncodeError:
                self.skipped.append(SkippedOutput(shown, "its name is not UTF-8"))
                continue
            self.entries += 1
            if self.entries > MAX_OUTPUT_ENTRIES:
                raise TechnicalFailure(f"the adapter's output has more than {MAX_OUTPUT_ENTRIES} files and directories")
            mode = os.stat(name, dir_fd=src, follow_symlinks=False).st_mode
            if stat.S_ISDIR(mode):
                if depth >= MAX_OUTPUT_DEPTH:
                    raise TechnicalFailure(f"the adapter's output nests directories deeper than {MAX_OUTPUT_DEPTH} levels ({shown})")
                self.directory(src, dst, name, shown, depth)
            elif stat.S_ISREG(mode):
                self.file(src, dst, name, shown)
            else:
                self.skipped.append(SkippedOutput(shown, kind_of(mode)))

    def directory(self, src: int, dst: int, name: str, shown: str, depth: int) -> None:
        try:
            sub_src = os.open(name, _DIR_FLAGS, dir_fd=src)
        except OSError as exc:
            self.skipped.append(SkippedOutput(shown, f"cannot be opened as a directory ({exc.strerror})"))
            return
        try:
            os.mkdir(name, _DIR_MODE, dir_fd=dst)
            sub_dst = os.open(name, _DIR_FLAGS, dir_fd=dst)
            try:
                self.tree(sub_src, sub_dst, shown + "/", depth + 1)
            finally:
                os.close(sub_dst)
        finally:
            os.close(sub_src)

    def file(self, src: int, dst: int, name: str, shown: str) -> None:
        try:
            fd = os.open(name, _READ_FLAGS, dir_fd=src)
        except OSError as exc:
            self.skipped.append(SkippedOutput(shown, "a symbolic link" if exc.errno == errno.ELOOP else f"cannot be opened ({exc.strerror})"))
            return
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):  # replaced since it was listed
                self.skipped.append(SkippedOutput(shown, kind_of(info.st_mode)))
                return
            if self.total + info.st_size > self.max_bytes:
                raise TechnicalFailure(f"the adapter's output is over the limit of {_mb(self.max_bytes)} ({shown} is {_mb(info.st_size)}; see --max-output-mb)")
            out = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, _FILE_MODE, dir_fd=dst)
            digest, size = hashlib.sha256(), 0
            try:
                while chunk := os.read(fd, 1 << 20):
                    size += len(chunk)
                    if self.total + size > self.max_bytes:
                        raise TechnicalFailure(f"the adapter's output is over the limit of {_mb(self.max_bytes)} ({shown} grew while it was copied; see --max-output-mb)")
                    digest.update(chunk)
                    view = memoryview(chunk)
                    while view:
                        view = view[os.write(out, view) :]
            finally:
                os.close(out)
            self.total += size
            self.files[shown] = OutputFile(size, digest.hexdigest())
        finally:
            os.close(fd)


def _mb(size: int) -> str:
    return f"{size / (1 << 20):.4g} MiB"


def copy_output(workspace: Workspace, staging: Path, *, max_bytes: int) -> OutputCopy:
    """Copy the adapter's output into `staging/adapter/` (see the module docstring). Never raises
    for what the adapter did: a problem (output over the limit, output/ replaced by a link, an
    adapter/ that core did not make) comes back as `problem`, with what was copied until then."""
    copier = _Copier(max_bytes)
    problem = None
    try:
        src = os.open(workspace.output_dir, _DIR_FLAGS)
    except OSError as exc:
        src = -1
        what = "a link or not a directory" if exc.errno in (errno.ELOOP, errno.ENOTDIR) else exc.strerror
        problem = f"the adapter's output directory cannot be read ({what}); nothing was copied"
    target = staging / ADAPTER_DIR
    try:
        os.mkdir(target, _DIR_MODE)
    except FileExistsError:
        _remove_foreign(target)
        os.mkdir(target, _DIR_MODE)
        problem = problem or f"{ADAPTER_DIR}/ already existed in the staging directory, made by something other than core; it was removed and nothing is scored"
    if src >= 0:
        dst = os.open(target, _DIR_FLAGS)
        try:
            copier.count(src)  # too many entries or too deep: refused before the first is copied
            copier.tree(src, dst, "", 0)
        except TechnicalFailure as exc:
            problem = problem or exc.message
        except OSError as exc:
            problem = problem or f"the adapter's output could not be copied: {exc.strerror} ({exc.filename or ''})"
        finally:
            os.close(dst)
            os.close(src)
    return OutputCopy(AdapterOutput(dict(sorted(copier.files.items())), tuple(copier.skipped)), problem)


def _remove_foreign(path: Path) -> None:
    if path.is_symlink() or not path.is_dir():
        path.unlink()
    else:
        shutil.rmtree(path)


def remove_foreign_entries(staging: Path, expected: Iterable[str]) -> list[str]:
    """Remove what core did not write from the staging directory; return the names removed."""
    found = sorted(set(os.listdir(staging)) - set(expected))
    for name in found:
        with contextlib.suppress(OSError):
            _remove_foreign(staging / name)
    return [os.fsencode(n).decode("utf-8", "backslashreplace") for n in found]
