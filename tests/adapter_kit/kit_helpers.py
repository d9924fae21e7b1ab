"""Helpers of the adapter kit's tests: the documented example as an executable, kit adapters
written to order, requests made by hand, and core's toy type `count-words` registered wherever
they run.

No installed plugin registers `count-words` (it is core's test type, `envirobench.testing`), so
each executable adapter puts the toy plugin (a distribution written by `write_toy_plugin`) on its
sys.path, where the kit finds it as it finds any installed plugin's type; in the test's process
core's registry gets it from the `toy_registry` fixture (conftest.py), and adapters made in the
process are given the class (`Adapter(types=...)`).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "writing-an-adapter.md"
MODEL = "example/word-counter"

# Core's test type count-words, as the type of an installed plugin: a module and its
# distribution's metadata (an `envirobench` entry point), found where they are on sys.path.
TOY_DISTRIBUTION = "envirobench-kit-toy"
TOY_MODULE = '''"""count-words (core's test type) as an installed plugin's type, for the adapter kit's tests."""
from envirobench import hookimpl
from envirobench.testing import CountWords


@hookimpl
def envirobench_benchmark_types(register):
    register(CountWords)
'''


def write_toy_plugin(directory: Path) -> Path:
    """A directory holding the toy plugin as an installed distribution (put it on sys.path)."""
    info = directory / "envirobench_kit_toy-1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (directory / "envirobench_kit_toy.py").write_text(TOY_MODULE, encoding="utf-8")
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {TOY_DISTRIBUTION}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[envirobench]\nkit-toy = envirobench_kit_toy\n", encoding="utf-8")
    return directory


def documented_example() -> str:
    """The first Python block of docs/writing-an-adapter.md: the example adapter, verbatim."""
    found = re.search(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    assert found, "docs/writing-an-adapter.md has no Python block"
    return found.group(1)


def write_adapter(path: Path, body: str, *, toy: Path, prelude: str = "") -> Path:
    """`body` (its own #! line dropped) as an executable run by this Python, with the toy plugin's
    directory `toy` put on sys.path first, then `prelude` (Python)."""
    lines = body.splitlines()
    if lines and lines[0].startswith("#!"):
        lines = lines[1:]
    path.parent.mkdir(parents=True, exist_ok=True)
    first = f"import sys as _sys\n_sys.path.insert(0, {str(toy)!r})  # the toy plugin, installed there\n"
    path.write_text(f"#!{sys.executable}\n{first}{prelude}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def kit_source(function: str, *, predict: str = "", adapter: str = "", imports: str = "") -> str:
    """A small kit adapter serving count-words with `function` (the body of `count(case, ctx)`)."""
    return f"""import os, time, asyncio
from envirobench_adapter_kit import Adapter, Transient
{imports}
kit = Adapter(name="kit-test", version="1.0", prices={{"{MODEL}": {{"input_per_mtok": 1.0, "output_per_mtok": 2.0}}}}, {adapter})

@kit.predict("count-words", {predict})
def count(case, ctx):
{function}

if __name__ == "__main__":
    kit.main()
"""


def write_request(path: Path, texts: dict[str, str], *, input_dir: Path, model: str = MODEL, budget_usd: float = 1.0,
                  options: dict[str, str] | None = None, benchmark: tuple[str, str] = ("count-words", "envirobench.count-words.v1")) -> Path:
    """An adapter-request.json as core writes it, for count-words cases {id: text}."""
    input_dir.mkdir(parents=True, exist_ok=True)
    request = {
        "format": "envirobench.adapter-request.v1",
        "protocol": "envirobench.adapter.v1",
        "run_id": "kit-test",
        "model": model,
        "budget_usd": budget_usd,
        "options": options or {},
        "benchmark": {"id": benchmark[0], "format": benchmark[1]},
        "dataset": {"id": "test/count-words-v1", "version": 1, "input_digest": "0" * 64},
        "input_dir": str(input_dir),
        "cases": [{"id": cid, "input": {"text": text}} for cid, text in texts.items()],
    }
    path.write_text(json.dumps(request), encoding="utf-8")
    return path


def texts(n: int) -> dict[str, str]:
    """The inputs of write_count_dataset's first n cases."""
    return {f"c{i:06d}": " ".join(["word"] * (1 + i % 7)) for i in range(n)}


def read(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))
