"""A private plugin from the template, as a newcomer makes one (docs/writing-a-plugin.md).

`envirobench plugins new acme-bench`, installed into a fresh virtual environment next to the
public packages: `envirobench plugins list` shows it, its own pytest passes (the conformance suite
included), and its saved profile runs unpaired, is promoted, runs paired; `--plan` prints a
command that, run by a shell, makes the same run.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from plugin_template_data import expected_files, shipped_files

from envirobench.cli import main

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
PUBLIC = ("envirobench-core", "envirobench-synth", "envirobench-extract")
TYPE = "acme-well-ids"


def test_the_template_ships_what_its_generator_writes():
    assert shipped_files() == expected_files(), "the template's data is stale; run: uv run python tests/e2e/plugin_template_data.py"


def test_plugins_new_refuses_a_non_empty_target_and_a_bad_name(tmp_path):
    runner = CliRunner()
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    result = runner.invoke(main, ["plugins", "new", "acme-bench", "--output", str(tmp_path / "taken")])
    assert result.exit_code == 1 and "already exists and is not empty" in result.output
    assert sorted(p.name for p in (tmp_path / "taken").iterdir()) == ["notes.txt"]
    result = runner.invoke(main, ["plugins", "new", "9-lives", "--output", str(tmp_path / "x")])
    assert result.exit_code == 1 and "not a usable plugin name" in result.output
    result = runner.invoke(main, ["plugins", "new", "acme-bench", "--output", str(tmp_path / "y"), "--set", "colour=red"])
    assert result.exit_code == 1 and "unknown template variable(s) colour" in result.output
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_plugins_new_derives_every_variable_from_the_name(tmp_path):
    result = CliRunner().invoke(main, ["plugins", "new", "Globex Water", "--output", str(tmp_path / "g"), "--set", "type_id=globex-gw-wells", "--json"])
    assert result.exit_code == 0, result.output
    info = json.loads(result.output)
    assert info["variables"] | {"envirobench_core_version": "-"} == {
        "project_name": "Globex Water",
        "project_slug": "globex-water",
        "package_name": "globex_water",
        "organisation": "globex",
        "type_id": "globex-gw-wells",
        "dataset_id": "globex/well-ids-synthetic-v1",
        "adapter_name": "globex-well-rules",
        "viewer_name": "globex-well-list",
        "description": "Globex Water: a private EnviroBench plugin",
        "envirobench_core_version": "-",
    }
    root = tmp_path / "g"
    data = root / "src/globex_water/benchmarks/globex-gw-wells"
    assert (data / "bench.json").is_file()
    manifest = json.loads((data / "datasets/synthetic-v1/manifest.json").read_text())
    assert (manifest["id"], manifest["benchmark"], manifest["visibility"]) == ("globex/well-ids-synthetic-v1", "globex-gw-wells", "private")
    assert sorted(p.name for p in (data / "fixtures/synthetic-v1").iterdir()) == ["correct.json", "wrong.json"]
    assert 'DATASETS = {"synthetic-v1": "globex/well-ids-synthetic-v1"}' in (root / "src/globex_water/well_ids.py").read_text()
    assert '__package__ or "globex_water", types=(WellIds,), visibility="private", viewers=(VIEWER_NAME,)' in (root / "src/globex_water/package.py").read_text()
    assert ".private/" in (root / ".gitignore").read_text().splitlines()
    assert "{{" not in "".join(p.read_text() for p in root.rglob("*") if p.is_file())


def test_the_rendered_project_imports_core_only_through_its_public_api(tmp_path):
    """`envirobench` and `envirobench.conformance` are core's public modules; the rest may change."""
    result = CliRunner().invoke(main, ["plugins", "new", "acme-bench", "--output", str(tmp_path / "acme")])
    assert result.exit_code == 0, result.output
    sources = sorted((tmp_path / "acme").rglob("*.py"))
    assert {p.relative_to(tmp_path / "acme").parts[0] for p in sources} == {"src", "tests"}
    refused = []
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            refused += [f"{path.name}:{node.lineno}: {m}" for m in modules if m and m.startswith("envirobench.") and m != "envirobench.conformance"]
    assert refused == []


# -- the whole journey in a fresh virtual environment -------------------------------------------


def _uv() -> list[str]:
    found = shutil.which("uv")
    if found:
        return [found]
    pytest.skip("uv is not on PATH (bin/test puts it there); it makes the fresh virtual environment")


@pytest.fixture(scope="module")
def acme(tmp_path_factory):
    """The rendered plugin, installed with the public packages into a fresh virtual environment."""
    uv = _uv()
    root = tmp_path_factory.mktemp("plugin")
    project = root / "acme"
    rendered = subprocess.run([str(Path(sys.executable).with_name("envirobench")), "plugins", "new", "acme-bench", "--output", str(project)],
                              capture_output=True, text=True)
    assert rendered.returncode == 0, rendered.stderr
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "ENVIROBENCH_LOAD_PLUGINS", "ENVIROBENCH_STORES")}
    venv = root / "venv"
    subprocess.run([*uv, "venv", "--quiet", "--python", sys.executable, str(venv)], check=True, env=env)
    install = [*uv, "pip", "install", "--quiet", "--python", str(venv / "bin" / "python")]
    for package in PUBLIC:
        install += ["-e", str(REPO / package)]
    install += ["-e", f"{project}[test]"]
    done = subprocess.run([*install, "--offline"], capture_output=True, text=True, env=env)
    if done.returncode != 0:  # not everything in uv's cache: let it download
        done = subprocess.run(install, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    env |= {"PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", "XDG_CONFIG_HOME": str(root / "config")}

    def run(*argv: str, check: bool = True, **kw) -> subprocess.CompletedProcess:
        result = subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True, timeout=600, **kw)
        if check:
            assert result.returncode == 0, f"{' '.join(argv)} exited {result.returncode}\n{result.stdout}\n{result.stderr}"
        return result

    return project, run


def test_the_rendered_project_is_lint_clean(acme):
    project, _ = acme
    ruff = Path(sys.executable).with_name("ruff")
    if not ruff.is_file():
        pytest.skip("ruff is not installed in this environment (uv sync installs the dev group)")
    result = subprocess.run([str(ruff), "check", "--no-cache", "."], cwd=project, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_plugins_list_shows_it_next_to_the_public_plugins(acme):
    _, run = acme
    rows = {row["name"]: row for row in json.loads(run("envirobench", "plugins", "list", "--json").stdout)}
    assert {"extract", "acme-bench"} <= set(rows)
    assert rows["acme-bench"]["distribution"] == "acme-bench"
    assert rows["acme-bench"]["registered"] == {
        "adapters": [],
        "benchmark_types": [TYPE],
        "commands": [],
        "datasets": ["acme/well-ids-synthetic-v1"],
        "stores": [],
        "viewers": ["acme-well-list"],
    }
    # No plugin.py: the package's entry point brings the type, dataset and viewer, and the
    # adapter module's own entry point the adapter.
    assert rows["acme-bench-adapter"]["distribution"] == "acme-bench"
    assert rows["acme-bench-adapter"]["registered"]["adapters"] == ["acme-well-rules"]


def test_its_own_pytest_passes_the_conformance_suite(acme):
    _, run = acme
    result = run("pytest", "-v", "-p", "no:cacheprovider", check=False)
    assert result.returncode == 0, result.stdout[-5000:]
    for check in ("test_request_and_input_hold_no_answer", "test_wrong_predictions_score_errors_in_every_profile",
                  "test_rekey_to_corrected_answers_changes_exactly_that_case", "test_review_draft_covers_the_changed_cases"):
        assert f"tests/test_conformance.py::TestWellIdsConformance::{check}[synthetic-v1] PASSED" in result.stdout, check
    assert "FAILED" not in result.stdout and " ERROR" not in result.stdout


def test_a_second_dataset_is_one_entry_in_datasets_and_the_tests_cover_it(acme):
    """Issue 36, point 8: adding a test split is one line in DATASETS and one generator command;
    the generator, seeded by the folder, writes texts of its own, and the project's tests,
    parametrised over DATASETS, pass on both datasets without an edit. Undone afterwards."""
    project, run = acme
    module = project / "src" / "acme_bench" / "well_ids.py"
    data = project / "src" / "acme_bench" / "benchmarks" / TYPE
    original = module.read_text()
    one = 'DATASETS = {"synthetic-v1": "acme/well-ids-synthetic-v1"}'
    two = 'DATASETS = {"synthetic-v1": "acme/well-ids-synthetic-v1", "test-v1": "acme/well-ids-test-v1"}'
    assert one in original
    try:
        module.write_text(original.replace(one, two))
        done = run("python", "-m", "acme_bench.generate", TYPE, "--dataset", "test-v1")
        assert "regenerated" in done.stderr
        texts = {folder: {json.loads(line)["input"]["text"] for line in (data / "datasets" / folder / "cases.jsonl").read_text().splitlines()}
                 for folder in ("synthetic-v1", "test-v1")}
        assert len(texts["test-v1"]) == len(texts["synthetic-v1"]) > 0 and not texts["test-v1"] & texts["synthetic-v1"]
        assert sorted(p.name for p in (data / "fixtures" / "test-v1").iterdir()) == ["correct.json", "wrong.json"]
        rows = {row["name"]: row for row in json.loads(run("envirobench", "plugins", "list", "--json").stdout)}
        assert rows["acme-bench"]["registered"]["datasets"] == ["acme/well-ids-synthetic-v1", "acme/well-ids-test-v1"]
        result = run("pytest", "-v", "-p", "no:cacheprovider", check=False)
        assert result.returncode == 0, result.stdout[-5000:]
        assert "FAILED" not in result.stdout and " ERROR" not in result.stdout
        for folder in ("synthetic-v1", "test-v1"):
            for test in ("test_conformance.py::TestWellIdsConformance::test_wrong_predictions_score_errors_in_every_profile",
                         "test_generator.py::test_regenerating_reproduces_the_shipped_dataset",
                         "test_adapter.py::test_improved_variant_gains_on_baseline_without_regressions"):
                assert f"tests/{test}[{folder}] PASSED" in result.stdout, (test, folder)
    finally:
        module.write_text(original)
        for kind in ("datasets", "fixtures"):
            shutil.rmtree(data / kind / "test-v1", ignore_errors=True)


def test_the_generator_command_regenerates_the_shipped_dataset_in_place(acme):
    project, run = acme
    data = project / "src" / "acme_bench" / "benchmarks" / TYPE
    before = {p.relative_to(data): p.read_bytes() for p in sorted(data.rglob("*")) if p.is_file()}
    done = run("python", "-m", "acme_bench.generate", TYPE)
    assert "regenerated" in done.stderr
    after = {p.relative_to(data): p.read_bytes() for p in sorted(data.rglob("*")) if p.is_file()}
    assert after == before
    assert Path("fixtures/synthetic-v1/wrong.json") in after
    refused = run("python", "-m", "acme_bench.generate", "acme-other", check=False)
    assert refused.returncode == 2 and "acme-well-ids" in refused.stderr


def test_bench_unpaired_promote_paired_and_plan(acme):
    project, run = acme
    bench_json = project / "src" / "acme_bench" / "benchmarks" / TYPE / "bench.json"

    first = run("envirobench", "bench", "run", TYPE, "--plugin", ".", "--run", "first", "--unpaired")
    assert "gate: baseline required" in first.stdout
    refused = run("envirobench", "bench", "run", TYPE, "--plugin", ".", "--run", "early", check=False)
    assert refused.returncode == 1 and "no promoted baseline yet" in refused.stderr

    promoted = run("envirobench", "bench", "promote", TYPE, "results/first", "--plugin", ".")
    assert "baseline of adapter 'acme-well-rules': first" in promoted.stdout
    profile = json.loads(bench_json.read_text())
    assert profile["adapters"]["acme-well-rules"]["baseline"]["run_id"] == "first"
    assert (project / ".private" / "store").is_dir()

    second = run("envirobench", "bench", "run", TYPE, "--plugin", ".", "--run", "second")
    assert "gate: passed" in second.stdout

    plan = run("envirobench", "bench", "run", TYPE, "--plugin", ".", "--run", "third", "--plan").stdout.strip()
    assert plan.startswith("envirobench run ") and not (project / "results" / "third").exists()
    run("bash", "-c", plan)  # pasted into a shell
    made_by_bench = json.loads((project / "results" / "second" / "run.json").read_text())
    made_by_plan = json.loads((project / "results" / "third" / "run.json").read_text())
    for key in ("adapter", "model", "options", "budget_usd", "require_no_regressions", "benchmark"):
        assert made_by_plan[key] == made_by_bench[key], key
    assert made_by_plan["dataset"]["digest"] == made_by_bench["dataset"]["digest"]
    assert made_by_plan["pairing"]["baseline"]["run_id"] == made_by_bench["pairing"]["baseline"]["run_id"] == "first"
    assert made_by_plan["gate"]["profiles"] == made_by_bench["gate"]["profiles"] == ["exact"]

    # The change under test: the adapter's improved rules. Better cases, none worse: the gate passes.
    bench_json.write_text(bench_json.read_text().replace('"variant": "baseline"', '"variant": "improved"'))
    fourth = run("envirobench", "bench", "run", TYPE, "--plugin", ".", "--run", "fourth")
    assert "gate: passed" in fourth.stdout
    metrics = json.loads((project / "results" / "fourth" / "metrics.json").read_text())
    assert metrics["profiles"]["exact"]["improvements"] and not metrics["profiles"]["exact"]["regressions"]
