"""EnviroBench and inspect_ai side by side: the whole process of one run with a no-op system.

    .venv/bin/python benchmarks/harness_overhead.py --cases 1000 10000 100000 [--repeat 3]
        [--inspect-python PATH] [--json out.json] [--workdir DIR]

For each size the script writes a count-words dataset of N cases (`envirobench.testing`) and the
same N texts as an inspect_ai sample file, then runs, alternating (EnviroBench, inspect_ai,
EnviroBench, ...) `--repeat` times each:

  EnviroBench  `envirobench run` (through a launcher that registers the count-words type, which is
               no installed plugin, then calls the CLI) with a no-op adapter: a Python script that
               answers 0 for every case; unpaired; `--sandbox none` (inspect_ai runs its model in
               process, unsandboxed). Scored, metrics.json, comparison.json, report.html written.
  inspect_ai   `inspect eval` of a task with the same N samples, `generate()` against
               `mockllm/model` answering "0" (a no-op model) and the `match()` scorer,
               `--display none`; the `.eval` log written, then checked to hold every sample
               evaluated (inspect_ai exits 0 even when the samples failed). Needs a Python with inspect-ai installed: its own virtualenv
               (`--inspect-python`), never a dependency of this project. Without one, EnviroBench
               alone is measured.

Before the first size, one unmeasured run of each writes the caches a user's machine keeps (.pyc
files, jinja2's compiled templates; the caller's PYTHONDONTWRITEBYTECODE is dropped). Every command runs under a fresh measuring process (this script with `--measure`), so its CPU
time (user + system of the command and every process it waited for, the adapter included) and
its peak RSS (the largest single process) are its own. Also reported: wall time, the size of
what each writes (the run directory; the log directory), and the ratios inspect_ai / EnviroBench
per case. Results are measured, never asserted: docs/performance.md records them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import _measured
from _stub_adapter import write_stub_adapter

DATASET_ID = "bench/count-words-{n}"

LAUNCHER = '''\
"""`envirobench` with the count-words type of envirobench.testing registered on DATASET_DIR."""
import os, sys
os.environ["ENVIROBENCH_LOAD_PLUGINS"] = ""  # only the toy type, whatever else is installed
from envirobench import plugins
from envirobench.cli import main
from envirobench.testing import toy_plugin

dataset_id, dataset_dir = sys.argv[1], sys.argv[2]
with plugins.using_registry(plugins.build_registry(extra=[("bench", toy_plugin((dataset_id, dataset_dir)))])):
    main(sys.argv[3:], prog_name="envirobench")
'''

# How the no-op system (_stub_adapter.py) answers: 0 words for every case.
NOOP_ANSWER = '''\
predictions = {case["id"]: {"count": 0} for case in request["cases"]}
'''

INSPECT_TASK = '''\
from inspect_ai import Task, task
from inspect_ai.dataset import json_dataset
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import match
from inspect_ai.solver import generate


def answer_zero(input, tools, tool_choice, config):
    # A no-op system: "0" for every sample. Its usage is given, so mockllm loads no tokenizer
    # (tiktoken would download one, and without a network every sample fails).
    output = ModelOutput.from_content(model="mockllm", content="0")
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


@task
def count_words():
    return Task(dataset=json_dataset("samples.jsonl"), solver=generate(), scorer=match(),
                model=get_model("mockllm/model", custom_outputs=answer_zero))
'''

# inspect_ai exits 0 even when every sample failed: its log must say success, with every sample.
INSPECT_CHECK = '''\
import glob, sys
from inspect_ai.log import read_eval_log
log = read_eval_log(glob.glob(sys.argv[1] + "/*.eval")[0], header_only=True)
done = log.results.completed_samples if log.results else 0
if log.status != "success" or done != int(sys.argv[2]):
    sys.exit(f"inspect_ai did not evaluate every sample: status {log.status}, {done} of {sys.argv[2]}: {log.error}")
'''


def measure(command: list[str], cwd: Path) -> dict[str, Any]:
    """Run `command` under a fresh measuring process (_measured.py); its CPU, wall time and peak RSS."""
    return _measured.measure(__file__, command, what=" ".join(command), cwd=cwd)


def size_of(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def prepare(work: Path, n: int) -> None:
    from envirobench.jsonio import dumps_line
    from envirobench.testing import write_count_dataset

    work.mkdir(parents=True, exist_ok=True)
    write_count_dataset(work / "dataset", n, dataset_id=DATASET_ID.format(n=n))
    (work / "launcher.py").write_text(LAUNCHER, encoding="utf-8")
    write_stub_adapter(work, "noop", "A no-op system: 0 words for every case.", NOOP_ANSWER)
    (work / "inspect_task.py").write_text(INSPECT_TASK, encoding="utf-8")
    # The same texts and answers as the dataset's cases and answers.
    answers = {}
    for line in (work / "dataset" / "answers.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        answers[record["id"]] = record["answer"]
    with open(work / "samples.jsonl", "w", encoding="utf-8") as out:
        for line in (work / "dataset" / "cases.jsonl").read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            out.write(dumps_line({"id": case["id"], "input": case["input"]["text"], "target": str(answers[case["id"]]["count"])}))


def envirobench_run(work: Path, n: int, k: int) -> dict[str, Any]:
    results = work / f"eb-results-{k}"
    command = [sys.executable, str(work / "launcher.py"), DATASET_ID.format(n=n), str(work / "dataset"),
               "run", "--adapter", str(work / "noop"), "--run", "noop", "--model", "noop/model",
               "--benchmark", "count-words", "--dataset", f"count-words={DATASET_ID.format(n=n)}",
               "--budget", "0", "--sandbox", "none", "--results", str(results)]
    out = measure(command, work)
    out["output_bytes"] = size_of(results / "noop")
    shutil.rmtree(results)
    return out


def inspect_run(work: Path, n: int, k: int, python: str) -> dict[str, Any]:
    logs = work / f"inspect-logs-{k}"
    command = [python, "-m", "inspect_ai", "eval", "inspect_task.py", "--log-dir", str(logs), "--display", "none", "--log-format", "eval"]
    out = measure(command, work)
    subprocess.run([python, "-c", INSPECT_CHECK, str(logs), str(n)], check=True)
    out["output_bytes"] = size_of(logs)
    shutil.rmtree(logs)
    return out


def median(samples: list[dict[str, Any]], key: str) -> float:
    return statistics.median(s[key] for s in samples)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--measure"]:
        return _measured.measured_child(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--inspect-python", help="a Python with inspect-ai installed (its own virtualenv)")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--workdir", type=Path, help="work here (default: a temporary directory, removed)")
    args = parser.parse_args(argv)
    root = args.workdir or Path(tempfile.mkdtemp(prefix="eb-harness-"))
    results: dict[int, dict[str, list[dict[str, Any]]]] = {}
    load = []
    try:
        for n in args.cases:
            work = root / str(n)
            prepare(work, n)
            runs: dict[str, list[dict[str, Any]]] = {"envirobench": [], "inspect_ai": []}
            if n == args.cases[0]:
                print(f"[{n} cases] warm-up (not measured) ...", file=sys.stderr, flush=True)
                envirobench_run(work, n, -1)
                if args.inspect_python:
                    inspect_run(work, n, -1, args.inspect_python)
            for k in range(args.repeat):
                print(f"[{n} cases] run {k + 1}/{args.repeat} ...", file=sys.stderr, flush=True)
                runs["envirobench"].append(envirobench_run(work, n, k))
                if args.inspect_python:
                    runs["inspect_ai"].append(inspect_run(work, n, k, args.inspect_python))
                load.append(os.getloadavg()[0])
            results[n] = runs
    finally:
        if args.workdir is None:
            shutil.rmtree(root, ignore_errors=True)

    print(f"Machine: {os.cpu_count()} CPU, Python {platform.python_version()}, {platform.platform()}; "
          f"1-min load average {min(load):.1f}–{max(load):.1f}. Median of {args.repeat} per harness and size.")
    harnesses = ["envirobench"] + (["inspect_ai"] if args.inspect_python else [])
    print("| cases | harness | CPU | CPU per case | wall | peak RSS | output |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for n, runs in results.items():
        for h in harnesses:
            s = runs[h]
            cpu = median(s, "cpu_s")
            print(f"| {n:,} | {h} | {cpu:.2f} s | {cpu / n * 1000:.3f} ms | {median(s, 'wall_s'):.2f} s | "
                  f"{median(s, 'peak_mib'):.0f} MiB | {median(s, 'output_bytes') / 1e6:.1f} MB |")
    if args.inspect_python:
        print()
        print("| cases | inspect_ai / EnviroBench CPU | wall | output size |")
        print("| ---: | ---: | ---: | ---: |")
        for n, runs in results.items():
            eb, ia = runs["envirobench"], runs["inspect_ai"]
            print(f"| {n:,} | {median(ia, 'cpu_s') / median(eb, 'cpu_s'):.1f}× | {median(ia, 'wall_s') / median(eb, 'wall_s'):.1f}× | "
                  f"{median(ia, 'output_bytes') / median(eb, 'output_bytes'):.2f}× |")
    if args.json:
        Path(args.json).write_text(json.dumps({"load": load, "results": {str(n): r for n, r in results.items()}}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
