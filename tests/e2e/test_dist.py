"""The distributions as a user gets them: `bin/dist` builds every wheel and sdist reproducibly and
checks them, and each category (Extract, Legal, Locate, Verify, Research, Site) installs alone with core from those wheels, with
plain pip in a fresh virtual environment, and passes its own conformance suite there; the adapter
kit installs alone with core and runs the documented example adapter."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

LEGAL_TYPES = ("instrument-execution", "party-roles", "indemnity-terms", "chain-of-title", "use-limitations")
LEGAL_DATASETS = [f"envirobench/{t}-synthetic-{split}-v1" for t in LEGAL_TYPES for split in ("dev", "test")]
LOCATE_TYPES = ("document-type", "document-split", "page-locate", "passage-rerank")
LOCATE_DATASETS = [f"envirobench/{t}-synthetic-{split}-v1" for t in LOCATE_TYPES for split in ("dev", "test")]
VERIFY_TYPES = ("ocr-auto-accept", "qualifier-flags", "unit-normalisation", "screening-exceedances", "custody-reconciliation")
VERIFY_DATASETS = [f"envirobench/{t}-synthetic-{split}-v1" for t in VERIFY_TYPES for split in ("dev", "test")]
RESEARCH_TYPES = ("missing-information", "cited-answers", "database-listings", "historical-use", "regulatory-standards")
RESEARCH_DATASETS = [f"envirobench/{t}-synthetic-{split}-v1" for t in RESEARCH_TYPES for split in ("dev", "test")]
SITE_TYPES = ("site-results", "recognized-conditions", "site-timeline", "exceedance-summary")
# The three public sites (test), the dev sites and the many-sites test split (issue 33).
SITE_DATASETS = [f"envirobench/{t}-synthetic-{split}-v1" for t in SITE_TYPES for split in ("dev", "test", "test-sites20")]
EXTRACT_TYPES = ("table-separators", "table-structure", "table-cells", "table-records", "report-metadata", "document-extraction")
# v1 (one dataset per type, kept) and the v2 dev and test splits (issue 13).
EXTRACT_DATASETS = [f"envirobench/{t}-synthetic-{version}" for t in EXTRACT_TYPES for version in ("v1", "dev-v2", "test-v2")]


# What a wheel can break: its package data (every dataset whole, with its fixtures) on every
# dataset; its modules and viewers (scores well formed, fixtures scored, the report of every case)
# on each type's dev split, the smaller one (Extract's synthetic-dev-v2): the scorers and viewers
# are the same code on every split, and bin/test's conformance step scores every dataset from the
# workspace.
PACKAGING_CHECKS = ("declared_completely", "agrees_with_its_category_task", "dataset_is_valid", "fixture_predicts_every_case")
SCORING_CHECKS = ("case_scores_are_well_formed", "correct_predictions_score_no_errors", "wrong_predictions_score_errors",
                  "report_embeds_the_viewer")
WHEEL_CHECKS = f"{' or '.join(PACKAGING_CHECKS)} or (({' or '.join(SCORING_CHECKS)}) and synthetic-dev)"


def fresh_venv(venv: Path, dist: Path) -> list[str]:
    """A fresh virtual environment with pip in it, and its `pip install` command from `dist`.

    uv makes the environment and seeds it with pip (what `python -m venv` does with ensurepip,
    which also compiles all of pip first: 5 s of CPU per environment, and these tests make eight);
    every package the tests install, pip installs. --no-compile: the installed modules are
    compiled when first imported, not all of them up front (what is installed is the same)."""
    subprocess.run(["uv", "venv", "--quiet", "--seed", "--python", sys.executable, str(venv)], check=True)
    return [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile", "--find-links", str(dist)]


# `envirobench validate-dataset` on each dataset named, in one process: the same command, without
# a start-up (its imports and the plugin's loading) per dataset. A dataset that is not valid ends
# it with the command's error.
VALIDATE_EACH = """import sys
from envirobench.cli import main
for dataset in sys.argv[1:]:
    main(["validate-dataset", dataset], standalone_mode=False)
"""


def digests(directory: Path) -> dict[str, str]:
    """The built files (uv also writes a .gitignore into the output directory)."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(directory.iterdir()) if p.name.startswith("envirobench_")}


def test_builds_are_reproducible_and_checked(dist, build, tmp_path):
    again = tmp_path / "again"
    rebuilt = build(again)
    assert rebuilt.returncode == 0, rebuilt.stdout + rebuilt.stderr
    assert digests(again) == digests(dist)
    names = sorted(digests(dist))
    # A wheel and an sdist of every workspace member.
    members = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["uv"]["workspace"]["members"]
    assert len(names) == 2 * len(members) and sum(n.endswith(".whl") for n in names) == len(members)


def test_the_checker_refuses_a_wheel_with_compiled_files(dist, tmp_path):
    import zipfile

    broken = tmp_path / "broken"
    shutil.copytree(dist, broken)
    wheel = next(broken.glob("envirobench_core-*.whl"))
    with zipfile.ZipFile(wheel, "a") as archive:
        archive.writestr("envirobench/plugin_template/__pycache__/x.cpython-311.pyc", b"\0")
    checked = subprocess.run([sys.executable, str(REPO / "bin" / "check_dist.py"), str(broken)], capture_output=True, text=True)
    assert checked.returncode == 1 and "holds compiled files" in checked.stderr


CATEGORY_WHEELS = {
    # distribution: (plugin name, the types it registers, its datasets, what scoring must not pull
    # in, a regeneration command that needs the [generate] extra)
    "envirobench-extract": ("extract", EXTRACT_TYPES, EXTRACT_DATASETS, ("envirobench-synth", "numpy", "pillow", "pypdfium2", "reportlab"),
                            ("envirobench_extract.generate", "table-separators", "--dataset", "synthetic-v1")),
    "envirobench-legal": ("legal", LEGAL_TYPES, LEGAL_DATASETS, ("envirobench-synth", "envirobench-extract", "numpy", "pillow", "reportlab"),
                          ("envirobench_legal.generate", "instrument-execution", "--dataset", "synthetic-dev-v1")),
    "envirobench-locate": ("locate", LOCATE_TYPES, LOCATE_DATASETS, ("envirobench-synth", "envirobench-extract", "envirobench-legal", "numpy", "pillow", "reportlab", "rank-bm25"),
                           ("envirobench_locate.generate", "passage-rerank", "--dataset", "synthetic-dev-v1")),
    "envirobench-verify": ("verify", VERIFY_TYPES, VERIFY_DATASETS, ("envirobench-synth", "envirobench-extract", "numpy", "pillow", "reportlab", "rapidocr"),
                           ("envirobench_verify.generate", "unit-normalisation", "--dataset", "synthetic-dev-v1")),
    "envirobench-research": ("research", RESEARCH_TYPES, RESEARCH_DATASETS, ("envirobench-synth", "envirobench-legal", "envirobench-locate", "numpy", "pillow", "reportlab", "rank-bm25"),
                             ("envirobench_research.generate", "regulatory-standards", "--dataset", "synthetic-dev-v1")),
    "envirobench-site": ("site", SITE_TYPES, SITE_DATASETS, ("envirobench-synth", "envirobench-extract", "envirobench-legal", "envirobench-locate", "numpy", "pillow", "reportlab", "rapidocr"),
                         ("envirobench_site.generate", "site-timeline", "--dataset", "synthetic-dev-v1")),
}


@pytest.mark.parametrize("distribution", sorted(CATEGORY_WHEELS))
def test_a_category_installs_alone_with_core_and_passes_its_conformance_suite(dist, tmp_path, distribution):
    plugin, type_ids, datasets, not_needed, generate = CATEGORY_WHEELS[distribution]
    venv = tmp_path / "venv"
    pip = fresh_venv(venv, dist)
    installed = subprocess.run([*pip, distribution, "pytest"], capture_output=True, text=True, timeout=900)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    freeze = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "freeze"], capture_output=True, text=True, check=True).stdout
    assert f"{distribution}==" in freeze and "envirobench-core==" in freeze
    for name in not_needed:
        assert f"{name}==" not in freeze.lower(), f"{name} is installed though scoring does not need it"

    work = tmp_path / "work"  # outside the repository
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "ENVIROBENCH_LOAD_PLUGINS")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    env["ENVIROBENCH_SITE_DATA"] = str(tmp_path / "site-data")  # where Site materialises its datasets

    def run(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(list(args), cwd=work, env=env, capture_output=True, text=True, timeout=900)
        if ok:
            assert done.returncode == 0, done.stdout + done.stderr
        return done

    listed = run("envirobench", "plugins", "list").stdout
    assert f"{plugin}  ({distribution}" in listed and all(type_id in listed for type_id in type_ids)
    validated = run("python", "-c", VALIDATE_EACH, *datasets).stdout.splitlines()
    assert [line.split(" ")[1] for line in validated if line.startswith("valid: ")] == datasets, validated
    # The checks a wheel can break (WHEEL_CHECKS): the type is whole, every dataset valid with its
    # fixtures; on the dev splits, scores well formed and the report shows every case. The run
    # lifecycle does not depend on how the package was installed; bin/test's conformance step makes
    # it over every installed type.
    conformance = run("pytest", "-p", "no:cacheprovider", "--envirobench-conformance", "-q", "-k", WHEEL_CHECKS)
    assert " passed" in conformance.stdout and "failed" not in conformance.stdout and " error" not in conformance.stdout
    # Regenerating needs the [generate] extra; without it the command says so, no traceback.
    generated = run("python", "-m", *generate, "--output", str(work / "regenerated"), ok=False)
    assert generated.returncode == 1 and f"pip install '{distribution}[generate]'" in generated.stderr
    assert "Traceback" not in generated.stderr


def test_in_a_wheel_install_of_every_category_no_answer_is_in_the_sandboxs_reach(dist, tmp_path):
    """Issue 31: from wheels (where every category's answer keys and fixtures are package data in
    site-packages, and the Site records materialised elsewhere), the sandbox probe of the
    conformance suite finds no byte of any answer key or fixture, no answer line, no .git and no
    results tree, for every installed type. The probe's walk is made once and serves every type."""
    venv = tmp_path / "venv"
    pip = fresh_venv(venv, dist)
    installed = subprocess.run([*pip, *sorted(CATEGORY_WHEELS), "envirobench-reference-adapter", "pytest"], capture_output=True, text=True, timeout=1200)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "ENVIROBENCH_LOAD_PLUGINS")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    env["ENVIROBENCH_SITE_DATA"] = str(tmp_path / "site-data")
    done = subprocess.run(["pytest", "-p", "no:cacheprovider", "--envirobench-conformance", "-q", "-k", "nothing_in_the_sandbox"],
                          cwd=work, env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0 and " passed" in done.stdout, done.stdout[-5000:] + done.stderr[-2000:]
    assert "skipped" not in done.stdout.splitlines()[-1], done.stdout[-3000:]  # bubblewrap is there: nothing may be skipped


TOY_PLUGIN = '''from envirobench import hookimpl
from envirobench.testing import CountWords


@hookimpl
def envirobench_benchmark_types(register):
    register(CountWords)
'''


def test_the_adapter_kit_installs_alone_and_runs_the_documented_example(dist, tmp_path):
    """Issue 34: `pip install envirobench-adapter-kit` (core and click with it, no category) is a
    working kit: the example of docs/writing-an-adapter.md answers a request of core's test type
    (installed beside it as a plugin's type), and a second run takes every case from its cache."""
    import json
    import re

    venv = tmp_path / "venv"
    pip = fresh_venv(venv, dist)
    installed = subprocess.run([*pip, "envirobench-adapter-kit"], capture_output=True, text=True, timeout=900)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    freeze = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "freeze"], capture_output=True, text=True, check=True).stdout.lower()
    assert "envirobench-adapter-kit==" in freeze and "envirobench-core==" in freeze
    assert [line for line in freeze.splitlines() if line.startswith("envirobench-") and not line.startswith(("envirobench-core==", "envirobench-adapter-kit=="))] == []

    toy = tmp_path / "toy"  # count-words as an installed plugin's type
    (toy / "envirobench_kit_toy-1.0.dist-info").mkdir(parents=True)
    (toy / "envirobench_kit_toy.py").write_text(TOY_PLUGIN)
    (toy / "envirobench_kit_toy-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: envirobench-kit-toy\nVersion: 1.0\n")
    (toy / "envirobench_kit_toy-1.0.dist-info" / "entry_points.txt").write_text("[envirobench]\nkit-toy = envirobench_kit_toy\n")
    example = re.search(r"```python\n(.*?)```", (REPO / "docs" / "writing-an-adapter.md").read_text(encoding="utf-8"), re.S).group(1)
    adapter = tmp_path / "count_words.py"
    adapter.write_text(f"#!{venv / 'bin' / 'python'}\n" + example.split("\n", 1)[1])
    adapter.chmod(0o755)
    (tmp_path / "input").mkdir()
    request = tmp_path / "request.json"
    request.write_text(json.dumps({
        "format": "envirobench.adapter-request.v1", "protocol": "envirobench.adapter.v1", "run_id": "kit", "model": "example/word-counter",
        "budget_usd": 0.01, "options": {}, "benchmark": {"id": "count-words", "format": "envirobench.count-words.v1"},
        "dataset": {"id": "test/count-words-v1", "version": 1, "input_digest": "0" * 64}, "input_dir": str(tmp_path / "input"),
        "cases": [{"id": f"c{i}", "input": {"text": " ".join(["word"] * i)}} for i in range(1, 6)]}))
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "ENVIROBENCH_LOAD_PLUGINS")}
    env.update(PYTHONPATH=str(toy), ENVIROBENCH_ADAPTER_CACHE=str(tmp_path / "cache"))
    for output, status in (("out-1", "predicted"), ("out-2", "cached")):
        done = subprocess.run([str(adapter), "run", "--request", str(request), "--output", str(tmp_path / output)],
                              env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert json.loads((tmp_path / output / "adapter-result.json").read_text())["status"] == "completed"
        assert json.loads((tmp_path / output / "predictions.json").read_text()) == {f"c{i}": {"count": i} for i in range(1, 6)}
        assert json.loads((tmp_path / output / "kit-report.json").read_text())["counts"][status] == 5
