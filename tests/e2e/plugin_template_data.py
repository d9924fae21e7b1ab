"""The plugin template's shipped dataset and fixtures, as its generator writes them.

The template ships its example dataset already generated, so a project rendered by cookiecutter
or `envirobench plugins new` works at once. The data files (cases.jsonl, answers.jsonl and the
fixtures) do not depend on the template variables; manifest.json does only through its `id`,
`benchmark` and generator name, which stay template expressions. `expected_files` renders the
template with its defaults, runs the rendered generator and returns what the template should
ship; test_plugin_template.py compares it with what it does ship. After changing the generator:

    uv run python tests/e2e/plugin_template_data.py      # rewrites the template's data files
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from envirobench.scaffold import PROJECT_DIR, make_context, render_project, template_dir

DATA = "src/{{cookiecutter.package_name}}/benchmarks/{{cookiecutter.type_id}}"
DATASET = f"{DATA}/datasets/synthetic-v1"
FIXTURES = f"{DATA}/fixtures/synthetic-v1"
SHIPPED = (
    f"{DATASET}/cases.jsonl",
    f"{DATASET}/answers.jsonl",
    f"{DATASET}/manifest.json",
    f"{FIXTURES}/correct.json",
    f"{FIXTURES}/wrong.json",
)


def expected_files() -> dict[str, bytes]:
    """Template-relative path -> the bytes the template should ship."""
    context = make_context("acme-bench")
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        render_project(project, context)
        out = Path(tmp) / "out"
        subprocess.run(
            [sys.executable, "-m", f"{context['package_name']}.generate", context["type_id"], "--output", str(out / "dataset"), "--fixtures", str(out / "fixtures")],
            check=True,
            capture_output=True,
            env={**os.environ, "PYTHONPATH": str(project / "src")},
        )
        files = {
            f"{DATASET}/cases.jsonl": (out / "dataset" / "cases.jsonl").read_bytes(),
            f"{DATASET}/answers.jsonl": (out / "dataset" / "answers.jsonl").read_bytes(),
            f"{FIXTURES}/correct.json": (out / "fixtures" / "correct.json").read_bytes(),
            f"{FIXTURES}/wrong.json": (out / "fixtures" / "wrong.json").read_bytes(),
        }
        manifest = json.loads((out / "dataset" / "manifest.json").read_text(encoding="utf-8"))
    # Back to template expressions (the values were rendered from these).
    assert (manifest["id"], manifest["benchmark"]) == (context["dataset_id"], context["type_id"])
    assert manifest["generator"]["name"] == f"{context['package_name']}.generate"
    manifest["id"] = "{{ cookiecutter.dataset_id }}"
    manifest["benchmark"] = "{{ cookiecutter.type_id }}"
    manifest["generator"]["name"] = "{{ cookiecutter.package_name }}.generate"
    files[f"{DATASET}/manifest.json"] = (json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
    return files


def shipped_files() -> dict[str, bytes]:
    root = template_dir() / PROJECT_DIR
    return {path: (root / path).read_bytes() for path in SHIPPED if (root / path).is_file()}


def main() -> int:
    root = template_dir() / PROJECT_DIR
    for path, data in expected_files().items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
        print(f"wrote {root / path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
