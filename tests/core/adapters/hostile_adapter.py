"""A hostile adapter for core's tests (count-words type): each mode attacks the adapter boundary.

It answers every case correctly (so a run that completes scores 1.0), then does what option
`mode` says. Options that name places outside the workspace (`results`, `target`, `pids`) stand
for what a real adapter could find out by itself without a sandbox.

Modes:
  fds              record where stdout and stderr lead (readlink /proc/self/fd/1 and 2)
  preempt          make adapter/ (other predictions) and evil.txt in the run's staging directory
  detach           start a child that leaves with setsid and, `delay` seconds later, rewrites
                   TARGET (the published predictions); then exit (with `sleep`: sleep first)
  overwrite        overwrite TARGET (another run's saved predictions) with wrong predictions
  output-link      replace output/ with a link to the directory TARGET
  predictions-dir | predictions-fifo | predictions-socket   predictions.json is not a file
  stray            a FIFO, a socket, a link and a file in a sub-directory beside valid output
  progress-fifo    progress.jsonl is a FIFO, and the adapter works for a second
  huge             predictions.json is a sparse file of `size` bytes
  deep             predictions nested 100,000 levels; deep-result: adapter-result.json too;
                   deep-moderate: predictions nested 200 levels (parses, too deep to use)
  surrogate-id | surrogate-name | surrogate-role   a lone surrogate escape in that text
  sleep            sleep `sleep` seconds before answering
  sprawl           beside valid output, `files` empty files in sprawl/ and directories nested
                   `depth` levels in nest/ (each level holding a file)
Option `pids=FILE` appends the pid of every process the adapter starts (and its own) to FILE.
"""

import json
import os
import signal
import socket
import sys
import time
from pathlib import Path


def record_pid(opts, pid):
    if opts.get("pids"):
        with open(opts["pids"], "a") as fh:
            fh.write(f"{pid}\n")


def detach(opts, delay, action):
    """Fork a child that leaves the session (setsid) and, after `delay` seconds, runs `action`."""
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        return
    os.setsid()
    grandchild = os.fork()
    if grandchild:
        os._exit(0)
    record_pid(opts, os.getpid())
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    time.sleep(delay)
    action()
    os._exit(0)


def main(argv):
    request = json.loads(Path(argv[2]).read_text())
    out = Path(argv[4])
    opts = request["options"]
    mode = opts.get("mode", "ok")
    record_pid(opts, os.getpid())
    if mode == "sleep" or opts.get("sleep"):
        if mode == "detach":
            detach(opts, 60, lambda: None)
        time.sleep(float(opts.get("sleep", 30)))
    cases = request["cases"]
    preds = {c["id"]: {"count": len(c["input"]["text"].split())} for c in cases}
    result = {"id": request["benchmark"]["id"], "status": "completed", "format": request["benchmark"]["format"],
              "data": "predictions.json", "adapter": {"name": "hostile", "version": "1"},
              "systems": [{"role": "candidate", "model": request["model"], "cost_usd": 0.0, "execution_failures": 0, "unpriced_attempts": 0}]}
    body = json.dumps(preds)
    result_text = None
    target = opts.get("target")

    if mode == "fds":
        seen = {fd: os.readlink(f"/proc/self/fd/{fd}") for fd in (1, 2)}
        (out / "fds.json").write_text(json.dumps(seen))
    elif mode == "preempt":
        for staging in Path(opts["results"]).glob(f".{request['run_id']}.incomplete-*"):
            (staging / "adapter").mkdir()
            wrong = {cid: {"count": 0} for cid in preds}
            (staging / "adapter" / "predictions.json").write_text(json.dumps(wrong))
            (staging / "adapter" / "adapter-result.json").write_text(json.dumps(result))
            (staging / "evil.txt").write_text("published by the adapter")
            (staging / "report-assets").mkdir()
            (staging / "report-assets" / "evil.png").write_text("published by the adapter")
    elif mode == "detach":
        wrong = json.dumps({cid: {"count": 0} for cid in preds})
        detach(opts, float(opts.get("delay", 1.5)), lambda: Path(target).write_text(wrong))
    elif mode == "overwrite":
        Path(target).write_text(json.dumps({cid: {"count": 0} for cid in preds}))
    elif mode == "output-link":
        out.rename(out.with_name("output-was-here"))
        out.symlink_to(target)
        return 0
    elif mode == "predictions-dir":
        (out / "predictions.json").mkdir()
    elif mode == "predictions-fifo":
        os.mkfifo(out / "predictions.json")
    elif mode == "predictions-socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(out / "predictions.json"))
    elif mode == "stray":
        os.mkfifo(out / "debug.pipe")
        socket.socket(socket.AF_UNIX).bind(str(out / "debug.sock"))
        (out / "link-to-request").symlink_to(argv[2])
        (out / "notes").mkdir()
        (out / "notes" / "trace.txt").write_text("a trace")
    elif mode == "progress-fifo":
        os.mkfifo(out / "progress.jsonl")
        time.sleep(1)
    elif mode == "huge":
        with open(out / "predictions.json", "wb") as fh:
            fh.truncate(int(opts["size"]))
    elif mode in ("deep", "deep-result"):
        deep = "[" * 100_000 + "]" * 100_000
        if mode == "deep":
            body = json.dumps({cases[0]["id"]: 0})[:-2] + deep + "}"
        else:
            result_text = json.dumps(result)[:-1] + ', "extra": ' + deep + "}"
    elif mode == "deep-moderate":
        body = json.dumps({cases[0]["id"]: {"count": 1, "x": 0}})[:-3] + "[" * 200 + "]" * 200 + "}}"
    elif mode == "sprawl":
        (out / "sprawl").mkdir()
        for n in range(int(opts.get("files", 0))):
            (out / "sprawl" / f"{n:06d}").touch()
        level = out / "nest"
        for _ in range(int(opts.get("depth", 0))):
            level = level / "d"
            level.mkdir(parents=True)
            (level / "f").touch()
    elif mode == "surrogate-id":
        body = json.dumps(preds)[:-1] + ', "\\ud800": {"count": 1}}'
    elif mode == "surrogate-name":
        result_text = json.dumps(result).replace('"hostile"', '"host\\udcffile"')
    elif mode == "surrogate-role":
        result_text = json.dumps(result).replace('"candidate"', '"cand\\ud800"')

    if mode not in ("predictions-dir", "predictions-fifo", "predictions-socket", "huge"):
        (out / "predictions.json").write_text(body)
    (out / "adapter-result.json").write_text(result_text or json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
