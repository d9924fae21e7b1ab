"""A snooping adapter for the sandbox tests (count-words type): it looks everywhere it is told to,
and everywhere it can reach by itself, and reports what it found in output/seen.json.

Options: look=JSON list of paths to try (list, read); connect=HOST:PORT to open a TCP connection
to; unix=JSON list of Unix socket paths to connect to (@NAME: abstract); git=DIRECTORY to run `git show HEAD:FILE` in (with
git_file=FILE); ptrace=1 to try PTRACE_ATTACH on PID 1 (the sandbox's init) and on its parent. It also reads its environment, its working directory and the parents of every directory it
was given, /proc (which processes it can see, PID 1's command line), its capabilities, and tries
to write to its input directory, to / and to /tmp. It answers every case correctly.
"""

import contextlib
import ctypes
import json
import os
import socket
import subprocess
import sys
from pathlib import Path


def peek(path):
    """What is at `path`: whether it exists, its entries or its first bytes."""
    p = Path(path)
    found = {"exists": p.exists()}
    with contextlib.suppress(OSError):
        if p.is_dir():
            found["entries"] = sorted(os.listdir(p))[:50]
        elif p.exists():
            found["text"] = p.read_bytes()[:400].decode("utf-8", "replace")
    return found


def try_write(path):
    try:
        Path(path).write_text("x")
        return "written"
    except OSError as exc:
        return exc.strerror


def main(argv):
    request_path, out = Path(argv[2]), Path(argv[4])
    request = json.loads(request_path.read_text())
    opts = request["options"]
    seen = {"env": dict(os.environ), "cwd": os.getcwd(), "cwd_listing": sorted(os.listdir("."))}
    seen["look"] = {path: peek(path) for path in json.loads(opts.get("look", "[]"))}
    walked = []
    for root in (Path(request["input_dir"]), out, request_path.parent, Path.home()):
        for parent in [root, *root.resolve().parents]:
            with contextlib.suppress(OSError):
                for entry in parent.iterdir():
                    walked.append(str(entry))
                    if entry.is_file() and not entry.is_symlink():
                        with contextlib.suppress(OSError):
                            walked.append(entry.read_bytes()[:20000].decode("utf-8", "replace"))
    seen["walked"] = walked
    seen["pids"] = sorted(int(n) for n in os.listdir("/proc") if n.isdigit())
    seen["pid1"] = Path("/proc/1/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    seen["fds"] = {fd: os.readlink(f"/proc/self/fd/{fd}") for fd in (1, 2)}
    status = Path("/proc/self/status").read_text()
    seen["cap_eff"] = next(line.split()[1] for line in status.splitlines() if line.startswith("CapEff:"))
    seen["writes"] = {"input": try_write(Path(request["input_dir"]) / "x"), "root": try_write("/envirobench-sandbox-test"),
                      "tmp": try_write("/tmp/x"), "request": try_write(request_path)}
    if opts.get("connect"):
        host, port = opts["connect"].rsplit(":", 1)
        try:
            with socket.create_connection((host, int(port)), timeout=3):
                seen["connect"] = "connected"
        except OSError as exc:
            seen["connect"] = f"refused: {exc}"
    seen["unix"] = {}
    for address in json.loads(opts.get("unix", "[]")):  # "@NAME": an abstract socket
        try:
            with socket.socket(socket.AF_UNIX) as sock:
                sock.settimeout(3)
                sock.connect("\0" + address[1:] if address.startswith("@") else address)
                seen["unix"][address] = "connected: " + sock.recv(100).decode("utf-8", "replace")
        except OSError as exc:
            seen["unix"][address] = f"refused: {exc}"
    if opts.get("git"):
        done = subprocess.run(["git", "-C", opts["git"], "show", f"HEAD:{opts['git_file']}"], capture_output=True, text=True)
        seen["git"] = {"status": done.returncode, "stdout": done.stdout[:2000], "stderr": done.stderr[:500]}
    if opts.get("ptrace"):
        libc = ctypes.CDLL(None, use_errno=True)
        seen["ptrace"] = {}
        for pid in (1, os.getppid()):
            result = libc.ptrace(16, pid, None, None)  # PTRACE_ATTACH
            seen["ptrace"][str(pid)] = "attached" if result == 0 else os.strerror(ctypes.get_errno())
            if result == 0:
                libc.ptrace(17, pid, None, None)  # PTRACE_DETACH
    cache = os.environ.get("ENVIROBENCH_ADAPTER_CACHE")
    if cache:  # its own directory, kept between runs: what earlier runs left, and a note of this one
        seen["cache"] = {name: (Path(cache) / name).read_text() for name in sorted(os.listdir(cache)) if (Path(cache) / name).is_file()}
        (Path(cache) / f"{request['run_id']}.txt").write_text(f"left by {request['run_id']}")
    seen["etc_shadow"] = peek("/etc/shadow")
    seen["root_listing"] = sorted(os.listdir("/"))
    (out / "seen.json").write_text(json.dumps(seen, indent=1))
    preds = {c["id"]: {"count": len(c["input"]["text"].split())} for c in request["cases"]}
    (out / "predictions.json").write_text(json.dumps(preds))
    result = {"id": request["benchmark"]["id"], "status": "completed", "format": request["benchmark"]["format"],
              "data": "predictions.json", "adapter": {"name": "sandbox-snoop", "version": "0"},
              "systems": [{"role": "candidate", "model": request["model"], "cost_usd": 0.0,
                           "execution_failures": 0, "unpriced_attempts": 0}]}
    (out / "adapter-result.json").write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
