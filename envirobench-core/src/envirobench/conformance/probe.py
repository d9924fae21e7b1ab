"""The sandbox probe: from inside core's sandbox, every readable file searched for the answers and
prediction fixtures of every registered dataset, wherever they live.

The probe is an adapter (`PROBE`, a standalone script, standard library only) that core runs with
`execute_run` like any other: sandbox `auto`, no network. It walks what it can see from `/` (not
/proc, /sys or /dev, nor its own output), bounded by `MAX_ENTRIES` entries, and reports:

- every file whose bytes are an answer file (`answers.jsonl`) or a fixture file of a registered
  dataset: compared by SHA-256 where the size is one of theirs, so the 6 GB of a system's /usr
  costs a walk, not a read;
- every text file (up to `MAX_TEXT` bytes, outside the system's runtime) holding a line of an
  answer file: each line of 24 bytes or more, by its BLAKE2b digest, which is all the probe
  carries (it holds no answer itself);
- every `.git`, every results tree (run.json beside comparison.json or metrics.json), and the
  project directory of every editable install of the machine (pyproject.toml or setup.py beside
  its source) that it can see.

It then fails its run on purpose (adapter-result status "failed"): core keeps its output in the
run and scores nothing. The walk is made once per process and registry and serves every target.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from .. import datasets as ds
from ..authoring import fixtures_dir_for
from ..plugins import Registry
from ..runs import RunSpec, execute_run

MAX_ENTRIES = 600_000
MAX_TEXT = 16 << 20
MIN_LINE = 24
PROBE_OUTPUT = "probe.json"

PROBE = r'''
import hashlib, json, os, stat, sys

CONFIG = json.loads(CONFIG_TEXT)
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
SKIP = ("/proc", "/sys", "/dev")


def under(path, roots):
    return any(path == r or path.startswith(r + "/") for r in roots)


def main(argv):
    request_path, output = argv[2], argv[4]
    request = json.load(open(request_path, encoding="utf-8"))
    digests, sizes = CONFIG["digests"], set(CONFIG["sizes"])
    lines, max_entries, max_text, min_line = CONFIG["lines"], CONFIG["max_entries"], CONFIG["max_text"], CONFIG["min_line"]
    report = {"files": [], "lines": [], "git": [], "results": [], "projects": [], "entries": 0, "read": 0, "truncated": False}
    skip = SKIP + (os.path.realpath(output),)
    stack = ["/"]
    while stack:
        directory = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        names = {e.name for e in entries}
        if "run.json" in names and ("comparison.json" in names or "metrics.json" in names):
            report["results"].append(directory)
        for entry in entries:
            report["entries"] += 1
            if report["entries"] > max_entries:
                report["truncated"] = True
                stack = []
                break
            path = entry.path
            if entry.name == ".git":
                report["git"].append(path)
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(info.st_mode):
                if not under(path, skip):
                    stack.append(path)
                continue
            if not stat.S_ISREG(info.st_mode):
                continue
            text = info.st_size <= max_text and not under(path, SYSTEM)
            if info.st_size not in sizes and not text:
                continue
            try:
                with open(path, "rb") as handle:
                    head = handle.read(8192)
                    text = text and b"\0" not in head  # a binary file holds no answer line
                    if info.st_size not in sizes and not text:
                        continue
                    data = head + handle.read()
            except OSError:
                continue
            report["read"] += 1
            if info.st_size in sizes:
                label = digests.get(hashlib.sha256(data).hexdigest())
                if label:
                    report["files"].append([path, label])
            if text:
                for line in data.split(b"\n"):
                    line = line.rstrip(b"\r")
                    if len(line) >= min_line:
                        label = lines.get(hashlib.blake2b(line, digest_size=12).hexdigest())
                        if label:
                            report["lines"].append([path, label])
                            break
    for project in CONFIG["projects"]:
        if any(os.path.exists(os.path.join(project, name)) for name in ("pyproject.toml", "setup.py", "setup.cfg")):
            report["projects"].append(project)
    with open(os.path.join(output, "probe.json"), "w", encoding="utf-8") as fh:
        json.dump(report, fh)
    result = {"id": request["benchmark"]["id"], "status": "failed", "format": request["benchmark"]["format"], "data": "probe.json",
              "adapter": {"name": "envirobench-sandbox-probe", "version": "1"}, "systems": []}
    with open(os.path.join(output, "adapter-result.json"), "w", encoding="utf-8") as fh:
        json.dump(result, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
'''


def needles(registry: Registry) -> dict[str, Any]:
    """What the probe looks for, without the answers themselves: the SHA-256 and size of every
    answer file and fixture file of every registered dataset, and the BLAKE2b digest of every
    answer line long enough to say something."""
    digests: dict[str, str] = {}
    sizes: set[int] = set()
    lines: dict[str, str] = {}
    for dataset_id, source in sorted(registry.datasets.items()):
        root = Path(source.path)
        fixtures = fixtures_dir_for(root)
        files = [root / ds.ANSWERS, *(sorted(p for p in fixtures.rglob("*") if p.is_file()) if fixtures.is_dir() else [])]
        for path in files:
            if not path.is_file():
                continue
            data = path.read_bytes()
            label = f"{dataset_id}: {path.relative_to(root.parent.parent)}"
            digests[hashlib.sha256(data).hexdigest()] = label
            sizes.add(len(data))
            if path.name == ds.ANSWERS:
                for number, line in enumerate(data.split(b"\n"), start=1):
                    line = line.rstrip(b"\r")
                    if len(line) >= MIN_LINE:
                        lines.setdefault(hashlib.blake2b(line, digest_size=12).hexdigest(), f"{dataset_id}: answers.jsonl line {number}")
    return {"digests": digests, "sizes": sorted(sizes), "lines": lines}


def editable_projects() -> list[str]:
    """The project directories of this environment's editable installs (PEP 610 direct_url.json)."""
    found: list[str] = []
    for dist in metadata.distributions():
        try:
            info = json.loads(dist.read_text("direct_url.json") or "null")
        except ValueError:
            continue
        if isinstance(info, dict) and (info.get("dir_info") or {}).get("editable") and str(info.get("url", "")).startswith("file:"):
            found.append(os.path.realpath(unquote(urlsplit(info["url"]).path)))
    return sorted(set(found))


def write_probe(path: Path, registry: Registry, projects: Iterable[str]) -> Path:
    config = {**needles(registry), "projects": list(projects), "max_entries": MAX_ENTRIES, "max_text": MAX_TEXT, "min_line": MIN_LINE}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!{sys.executable}\nCONFIG_TEXT = {json.dumps(json.dumps(config))}\n{PROBE}", encoding="utf-8")
    path.chmod(0o755)
    return path


_REPORTS: dict[int, tuple[Registry, dict[str, Any] | None]] = {}


def probe_report(registry: Registry, type_id: str, dataset: str, workdir: Path) -> dict[str, Any] | None:
    """The probe's report from inside core's default sandbox (None: no sandbox here), made once
    per process and registry on the first target that asks."""
    if id(registry) not in _REPORTS:
        adapter = write_probe(workdir / "sandbox-probe", registry, editable_projects())
        spec = RunSpec(adapter=str(adapter), run_id="sandbox-probe", model="envirobench-conformance/probe", benchmark=type_id,
                       dataset=dataset, budget_usd=0.0, results_dir=workdir / "results", timeout_s=1200, sandbox="auto", network=False)
        outcome = execute_run(spec, registry)
        record = json.loads((outcome.run_dir / "run.json").read_text(encoding="utf-8"))
        report = None
        if (record.get("sandbox") or {}).get("kind") == "bwrap":
            output = outcome.run_dir / "adapter" / PROBE_OUTPUT
            if not output.is_file():
                raise AssertionError(f"the sandbox probe wrote no report ({outcome.message}); see {outcome.run_dir / 'adapter.log'}")
            report = json.loads(output.read_text(encoding="utf-8"))
        _REPORTS[id(registry)] = (registry, report)  # the registry is kept so its id is not reused
    return _REPORTS[id(registry)][1]


def findings(report: dict[str, Any], dataset_id: str | None = None) -> list[str]:
    """What the report says the adapter could reach: for one dataset (its answer and fixture
    files, its answer lines), and whatever holds anything (.git, results trees, projects)."""
    out = []
    for kind, what in (("files", "holds the bytes of"), ("lines", "holds")):
        for path, label in report[kind]:
            if dataset_id is None or label.startswith(f"{dataset_id}: "):
                out.append(f"{path} {what} {label}")
    out += [f"{path}: a git repository" for path in report["git"]]
    out += [f"{path}: a results tree (run.json beside comparison.json or metrics.json)" for path in report["results"]]
    out += [f"{path}: the project directory of an editable install" for path in report["projects"]]
    if report["truncated"]:
        out.append(f"the probe stopped after {MAX_ENTRIES} entries: the sandbox shows more than a probe can check")
    return out
