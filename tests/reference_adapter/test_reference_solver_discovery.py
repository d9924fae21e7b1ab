"""The adapter finds its solvers in one place (`envirobench_reference_adapter.solvers`), and it
imports nothing from EnviroBench but the public API and the adapter kit: no category package, no
core internals."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import envirobench_reference_adapter
from envirobench import EnviroBenchError, build_registry
from envirobench_reference_adapter import protocol, solvers
from envirobench_reference_adapter.serves import Serves

ADAPTER_SOURCE = Path(envirobench_reference_adapter.__file__).resolve().parent
SOLVER = """
from envirobench_reference_adapter.serves import Serves

SERVES = Serves({id!r}, variants=("baseline", "v1"))


def solve(case_input, sources, variant, jitter=None):
    return {{}}
"""


@pytest.fixture
def make_package(tmp_path, monkeypatch):
    """make_package(name, {module: source}) -> the package name, importable for this test only."""
    monkeypatch.syspath_prepend(str(tmp_path))
    made: list[str] = []

    def make(name: str, modules: dict[str, str]) -> str:
        root = tmp_path / name
        root.mkdir()
        (root / "__init__.py").write_text("")
        for module, source in modules.items():
            (root / f"{module}.py").write_text(source)
        made.append(name)
        return name

    yield make
    for name in list(sys.modules):
        if name.split(".")[0] in made:
            del sys.modules[name]


def test_every_module_of_solvers_is_one_benchmark_type(monkeypatch):
    # The adapter runs every public dataset: one solver for each type the workspace's category
    # packages register, and none for a type that does not exist.
    monkeypatch.delenv("ENVIROBENCH_LOAD_PLUGINS", raising=False)
    installed = sorted(build_registry().benchmark_types)
    found = solvers.discover()
    assert sorted(found) == installed and len(installed) >= 25
    for benchmark_id, module in found.items():
        assert module.__name__ == f"envirobench_reference_adapter.solvers.{benchmark_id.replace('-', '_')}"
    assert found == protocol.SOLVERS


def test_a_new_module_is_a_new_solver(make_package):
    package = make_package("extra_solvers", {"alpha": SOLVER.format(id="alpha"), "beta_gamma": SOLVER.format(id="beta-gamma")})
    found = solvers.discover(package)
    assert {key: module.__name__ for key, module in found.items()} == {"alpha": "extra_solvers.alpha", "beta-gamma": "extra_solvers.beta_gamma"}


def test_a_module_without_serves_is_refused(make_package):
    package = make_package("helper_in_solvers", {"alpha": SOLVER.format(id="alpha"), "helpers": "def shared():\n    return 1\n"})
    with pytest.raises(EnviroBenchError, match=r"helper_in_solvers\.helpers lacks SERVES"):
        solvers.discover(package)


def test_two_modules_serving_one_benchmark_type_are_refused(make_package):
    package = make_package("twin_solvers", {"first": SOLVER.format(id="same"), "second": SOLVER.format(id="same")})
    with pytest.raises(EnviroBenchError, match=r"twin_solvers\.first and twin_solvers\.second both serve 'same'"):
        solvers.discover(package)


def test_a_solver_missing_part_of_the_contract_is_refused(make_package):
    package = make_package("broken_solvers", {"broken": SOLVER.format(id="broken").replace("def solve(", "def solved(")})
    with pytest.raises(EnviroBenchError, match="lacks solve"):
        solvers.discover(package)


@pytest.mark.parametrize(
    ("declaration", "message"),
    [
        ({"variants": ("baseline", "v1"), "default": "v9"}, "the default 'v9' is not one of baseline, v1"),
        ({"more_aliases": {"old": "v3"}}, "the alias 'old' -> 'v3' must name a variant"),
        ({"variants": ("v1", "default")}, "the alias 'default' -> 'v1' must name a variant and not be one"),
        ({"variants": ()}, "at least one variant"),
    ],
)
def test_a_broken_declaration_is_refused(declaration, message):
    with pytest.raises(ValueError, match=message):
        Serves("broken", **declaration)


def test_the_declaration_resolves_aliases_and_refuses_unknown_variants():
    serves = Serves("x", variants=("baseline", "v2"), default="v2", more_aliases={"old": "baseline"})
    assert serves.names == ("baseline", "v2", "default", "old")
    assert [serves.resolve(n) for n in serves.names] == ["baseline", "v2", "v2", "baseline"]
    with pytest.raises(ValueError, match=r"\$\.options\.variant: unknown variant 'v3'; known variants: baseline, v2, default, old"):
        serves.resolve("v3")


def _imports(path: Path) -> list[tuple[int, str, tuple[str, ...]]]:
    """(line, module, names) of every absolute import in a source file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module, tuple(alias.name for alias in node.names)))
    return found


def test_the_adapter_imports_only_the_public_api_of_core_and_no_category_package():
    """The adapter is the system under test: a category package holds answer keys it must never
    reach, and core's internal modules may change under it."""
    sources = sorted(ADAPTER_SOURCE.rglob("*.py"))
    assert ADAPTER_SOURCE / "solvers" / "table_separators.py" in sources
    refused = []
    for path in sources:
        for line, module, names in _imports(path):
            top = module.split(".")[0]
            where = f"{path.relative_to(ADAPTER_SOURCE)}:{line}: {module}"
            if top == "envirobench" and (module != "envirobench" or not names):
                refused.append(f"{where} (import core's names with `from envirobench import ...`)")
            elif top.startswith("envirobench") and top not in ("envirobench", "envirobench_reference_adapter", "envirobench_adapter_kit"):
                refused.append(f"{where} (a category package)")
    assert refused == []
