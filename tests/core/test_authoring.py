"""The authoring layer (envirobench.authoring): what a plugin author writes types and data with.

It stands alone — nothing of the harness (plugins, stores, runs, reports) is reachable from it, so
a generator, and the regeneration stamp of each dataset, depends on at most eight files of core —
and the categories and the plugin template use nothing else from core.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

import envirobench
from envirobench import authoring
from envirobench.authoring import FixturePlan, plant_mistakes, write_by_case
from envirobench.plugins import PackageHooks, build_registry

REPO = Path(__file__).resolve().parents[2]
CORE = REPO / "envirobench-core" / "src" / "envirobench"
PROBE = REPO / "tests" / "regeneration_probe.py"
CATEGORIES = ("extract", "legal", "locate", "research", "site", "verify")
# What authoring is built on; everything else in core is the harness, built on authoring.
AUTHORING = {"envirobench", "envirobench.lazy", "envirobench.authoring", "envirobench.benchmark",
             "envirobench.converter", "envirobench.errors", "envirobench.jsonio", "envirobench.records"}  # fmt: skip


def core_imports(module: str) -> set[str]:
    """The core modules `module`'s source imports (at any depth of its body), by absolute name."""
    path = CORE.joinpath(*module.split(".")[1:])
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            base = f"{base}.{node.module}" if node.module else base
            found |= {f"{base}.{a.name}" for a in node.names if CORE.joinpath(*f"{base}.{a.name}".split(".")[1:]).with_suffix(".py").is_file()}
            found.add(base)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("envirobench."):
            found.add(node.module)
    return found


def test_authoring_reaches_nothing_of_the_harness():
    reached, todo = set(), ["envirobench.authoring"]
    while todo:
        module = todo.pop()
        if module not in reached:
            reached.add(module)
            todo.extend(core_imports(module))
    assert reached - {"envirobench"} <= AUTHORING, "authoring must not import the harness (plugins, stores, runs, ...)"


def test_a_generator_reads_at_most_eight_files_of_core_and_never_plugins(tmp_path):
    """Every category's every generator module, imported as the generator command imports it,
    through the probe that lists what a regeneration stamp pins."""
    code = (
        "import importlib\n"
        f"for name in {CATEGORIES!r}:\n"
        "    package = importlib.import_module(f'envirobench_{name}.package').PACKAGE\n"
        "    importlib.import_module(f'envirobench_{name}.generate.__main__')\n"
        "    for layout in package.layouts.values():\n"
        "        importlib.import_module(layout.generator_module)\n"
    )
    read = tmp_path / "read.json"
    subprocess.run([sys.executable, str(PROBE), str(read), "-c", code], check=True, cwd=REPO)
    core = sorted(f for f in json.loads(read.read_text())["files"] if f.startswith("envirobench-core/"))
    assert len(core) <= 8, core
    assert "envirobench-core/src/envirobench/plugins.py" not in core
    assert "envirobench-core/src/envirobench/authoring.py" in core


def envirobench_names(root: Path) -> list[tuple[str, str]]:
    """(where, name) of every name a source tree takes from core: `from envirobench[.authoring]
    import NAME`, `envirobench.NAME`, or any other core module imported (named as the module)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8").replace("{{ cookiecutter.package_name }}", "acme_bench")
        for node in ast.walk(ast.parse(text)):
            where = f"{path.relative_to(REPO)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "envirobench":
                if node.module in ("envirobench", "envirobench.authoring"):
                    found += [(where, alias.name) for alias in node.names]
                else:
                    found.append((where, node.module))
            elif isinstance(node, ast.Import):
                found += [(where, a.name) for a in node.names if a.name.startswith("envirobench.")]
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "envirobench":
                found.append((where, node.attr))
    return found


SOURCES = {f"envirobench-{name}": REPO / f"envirobench-{name}" / "src" for name in CATEGORIES}
# The template's package; its adapter is the running side (it registers itself with `hookimpl`).
TEMPLATE = REPO / "plugin-template" / "{{cookiecutter.project_slug}}" / "src"


@pytest.mark.parametrize("tree", [*SOURCES, "plugin-template"])
def test_categories_and_the_template_use_only_authoring_names(tree):
    root = SOURCES.get(tree, TEMPLATE)
    names = [(where, name) for where, name in envirobench_names(root) if "/adapter.py:" not in where]
    assert names, f"{tree} takes nothing from core: is the path right?"
    assert [f"{where}: {name}" for where, name in names if name not in authoring.__all__] == []


def test_the_name_scan_sees_every_way_in(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "REPO", tmp_path)
    (tmp_path / "a.py").write_text(
        "import envirobench\nimport envirobench.runs\nfrom envirobench import BenchmarkType, execute_run\n"
        "from envirobench.plugins import Registry\nenvirobench.RunSpec\n",
        encoding="utf-8",
    )
    names = {name for _, name in envirobench_names(tmp_path)}
    assert names == {"envirobench.runs", "BenchmarkType", "execute_run", "envirobench.plugins", "RunSpec"}
    assert names - set(authoring.__all__) == {"envirobench.runs", "execute_run", "envirobench.plugins", "RunSpec"}


def test_every_authoring_name_is_public_and_documented():
    api = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    authoring_part = api.split("## Authoring", 1)[1].split("\n## ", 1)[0]
    assert [n for n in authoring.__all__ if f"`{n}`" not in authoring_part] == []
    assert [n for n in authoring.__all__ if getattr(envirobench, n) is not getattr(authoring, n)] == []


@attrs.frozen
class Answer:
    values: tuple[int, ...]


@attrs.frozen
class Mistake:
    change: str
    why: str


def test_a_fixture_plan_writes_the_right_and_the_planted_wrong_predictions(tmp_path):
    dataset = tmp_path / "dataset"
    dataset.mkdir()
    (dataset / "answers.jsonl").write_text(
        "".join(json.dumps({"id": f"c{i}", "answer": {"values": list(range(i))}}) + "\n" for i in range(4)), encoding="utf-8"
    )
    mistakes = (Mistake("drop", "the last value left out"), Mistake("add", "a value added"))
    plan = FixturePlan(
        Answer,
        correct=lambda answer: {"values": list(answer.values)},
        # "drop" needs a value to drop: not on c0, which has none.
        planted=lambda directory, answers: plant_mistakes(mistakes, answers, lambda m, c: m.change != "drop" or bool(answers[c].values)),
        wrong=lambda m, answer, prediction: {"values": prediction["values"][:-1] if m.change == "drop" else [*prediction["values"], 9]},
    )
    planted = plan.write(dataset, tmp_path / "fixtures")
    assert planted == {"c1": mistakes[0], "c0": mistakes[1]}
    correct = json.loads((tmp_path / "fixtures" / "correct.json").read_text())
    wrong = json.loads((tmp_path / "fixtures" / "wrong.json").read_text())
    assert correct == {f"c{i}": {"values": list(range(i))} for i in range(4)}
    assert wrong == {**correct, "c0": {"values": [9]}, "c1": {"values": []}}
    write_by_case(tmp_path / "same.json", correct)  # the one fixture format
    assert (tmp_path / "same.json").read_bytes() == (tmp_path / "fixtures" / "correct.json").read_bytes()


def test_a_package_entry_point_registers_its_types_datasets_and_viewers(monkeypatch):
    from envirobench_locate.package import PACKAGE

    monkeypatch.setenv("ENVIROBENCH_LOAD_PLUGINS", "")  # none of the installed ones: only PACKAGE
    registry = build_registry(extra=[("locate", PACKAGE)])  # as its entry point loads it
    (info,) = [p for p in registry.plugins if p.name == "locate"]
    assert info.hooks == ("envirobench_benchmark_types", "envirobench_datasets", "envirobench_viewers")
    assert registry.registered_by("locate") | {"commands": []} == {
        "adapters": [],
        "benchmark_types": sorted(PACKAGE.layouts),
        "commands": [],
        "datasets": sorted(layout.dataset_id(f) for layout in PACKAGE.layouts.values() for f in layout.datasets),
        "stores": [],
        "viewers": sorted(PACKAGE.viewers),
    }
    splits = {d.id: d.split for d in registry.datasets.values()}
    assert all(splits[layout.dataset_id(f)] == authoring.split_of(f) for layout in PACKAGE.layouts.values() for f in layout.datasets)
    assert repr(PackageHooks(PACKAGE)).startswith("PackageHooks(BenchmarkPackage('envirobench_locate'")


def test_source_fields_name_a_cases_files_in_order_single_paths_and_lists_alike():
    @attrs.frozen
    class Bundle:
        bundle: str
        thumbnails: tuple[str, ...]
        note: str = "not a file"

    class Split(envirobench.BenchmarkType):
        SOURCE_FIELDS = ("bundle", "thumbnails")

    class Nothing(envirobench.BenchmarkType):
        pass

    case_input = Bundle("b.pdf", ("p1.png", "p2.png"))
    assert Split().source_files(case_input) == ("b.pdf", "p1.png", "p2.png")
    assert Split().source_files(Bundle("b.pdf", ())) == ("b.pdf",)
    assert Nothing().source_files(case_input) == ()  # no field named: the case uses no file


def test_copy_fields_builds_a_record_from_an_object_that_carries_its_fields():
    @attrs.frozen
    class Row:
        name: str
        value: float
        unit: str

    class Model:  # a synthetic model's object: the record's fields and more
        name, value, unit, seed = "benzene", 5.0, "ug/L", 7

    assert authoring.copy_fields(Row, Model()) == Row("benzene", 5.0, "ug/L")
    assert authoring.copy_fields(Row, Model(), unit="mg/L") == Row("benzene", 5.0, "mg/L")
    with pytest.raises(AttributeError):
        authoring.copy_fields(Row, object())
