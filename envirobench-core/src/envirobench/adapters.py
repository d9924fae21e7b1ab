"""Running an adapter as an untrusted external executable.

The adapter gets a fresh private workspace outside the results tree and the dataset:
`request.json`, `input/` (checked copies of the source files its cases use) and `output/`.
Nothing handed to it leads to an answer key: not the request, not the input directory, not the
output directory, not its working directory. When it exits, core moves `output/` into the run
directory as `adapter/` and never writes there again.

This is isolation by construction, not a sandbox: an adapter's own code can still open any file
the operating system lets it. Run untrusted adapters as another user or in a container.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

import attrs

from .errors import TechnicalFailure
from .jsonio import loads
from .protocol import PROGRESS_FILE

_POLL_SECONDS = 0.2


@attrs.frozen
class Workspace:
    root: Path

    @property
    def request(self) -> Path:
        return self.root / "request.json"

    @property
    def input_dir(self) -> Path:
        return self.root / "input"

    @property
    def output_dir(self) -> Path:
        return self.root / "output"

    @classmethod
    def create(cls) -> Workspace:
        root = Path(tempfile.mkdtemp(prefix="envirobench-adapter-"))
        (root / "input").mkdir()
        (root / "output").mkdir()
        return cls(root)

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def copy_source_file(dataset_root: Path, relative: str, input_dir: Path) -> None:
    """Copy bytes (never link) so the adapter cannot follow a path back into the dataset."""
    target = input_dir / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists():
        shutil.copyfile(dataset_root / relative, target, follow_symlinks=True)


class ProgressReader:
    """Follows `progress.jsonl` lines `{"done": n, "total": m}` appended by the adapter."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.done = 0
        self.total: int | None = None

    def poll(self) -> bool:
        """Read new complete lines; True when the counts changed."""
        try:
            with self.path.open("rb") as handle:
                handle.seek(self.offset)
                chunk = handle.read()
        except (FileNotFoundError, IsADirectoryError, PermissionError):
            return False
        end = chunk.rfind(b"\n")
        if end < 0:
            return False
        self.offset += end + 1
        changed = False
        for raw in chunk[: end + 1].splitlines():
            try:
                value = loads(raw.decode("utf-8"))
                done, total = value["done"], value["total"]
            except (ValueError, KeyError, TypeError, UnicodeDecodeError):
                continue  # progress is advisory; a garbled line never fails a run
            if type(done) is int and type(total) is int and 0 <= done <= total:
                self.done, self.total, changed = done, total, True
        return changed


def run_adapter(
    argv: Sequence[str],
    workspace: Workspace,
    log: IO[bytes],
    *,
    timeout: float | None,
    on_progress: Callable[[int, int], None] | None = None,
) -> float:
    """Run `ADAPTER run --request FILE --output DIR`; return wall seconds or raise TechnicalFailure."""
    command = [*argv, "run", "--request", str(workspace.request), "--output", str(workspace.output_dir)]
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=workspace.root,
            start_new_session=True,  # so a timeout kills the adapter's children too
        )
    except OSError as exc:
        raise TechnicalFailure(f"could not start the adapter {argv[0]!r}: {exc.strerror}") from None
    progress = ProgressReader(workspace.output_dir / PROGRESS_FILE)
    try:
        while True:
            try:
                returncode = proc.wait(timeout=_POLL_SECONDS)
                break
            except subprocess.TimeoutExpired:
                pass
            if on_progress and progress.poll() and progress.total is not None:
                on_progress(progress.done, progress.total)
            if timeout is not None and time.monotonic() - started > timeout:
                _kill(proc)
                raise TechnicalFailure(f"the adapter did not finish within the timeout of {timeout:g} s and was stopped")
    except BaseException:
        _kill(proc)
        raise
    if on_progress and progress.poll() and progress.total is not None:
        on_progress(progress.done, progress.total)
    elapsed = time.monotonic() - started
    if returncode != 0:
        raise TechnicalFailure(f"the adapter exited with status {returncode}; see adapter.log in the run directory")
    return elapsed


def _kill(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait()
