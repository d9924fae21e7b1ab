"""The structure of the code, checked: core has no import cycle and few late imports, long modules
say why they are long, plugins and adapters use only the public API, and the code cites only
documents that are in the repository.

Imports are read from the source with `ast` (nothing is imported), so these checks see every
import, including the ones inside functions. `if TYPE_CHECKING:` blocks are left out: they never
run.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import envirobench

REPO = Path(__file__).resolve().parents[2]
CORE = REPO / "envirobench-core" / "src" / "envirobench"
MAX_LATE_IMPORTS = 10
MAX_LINES = 500

# Where a plugin or an adapter author's code lives: it may import core only through the public API.
API_USERS = {
    "envirobench-extract": REPO / "envirobench-extract" / "src",
    "envirobench-legal": REPO / "envirobench-legal" / "src",
    "envirobench-locate": REPO / "envirobench-locate" / "src",
    "envirobench-verify": REPO / "envirobench-verify" / "src",
    "envirobench-research": REPO / "envirobench-research" / "src",
    "envirobench-reference-adapter": REPO / "envirobench-reference-adapter" / "src",
    "envirobench-adapter-kit": REPO / "envirobench-adapter-kit" / "src",
    "envirobench-adapters-openai": REPO / "envirobench-adapters-openai" / "src",
    "plugin-template": REPO / "plugin-template",
}
PUBLIC_MODULES = {"envirobench", "envirobench.conformance"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(CORE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def core_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(CORE.rglob("*.py"))}


_PLACEHOLDER = re.compile(r"\{\{\s*cookiecutter\.\w+\s*\}\}")


def source(path: Path) -> str:
    """A file's text; the template's cookiecutter placeholders become a plain name, so it parses."""
    return _PLACEHOLDER.sub("acme_bench", path.read_text(encoding="utf-8"))


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports(path: Path) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement that can run, with whether it is inside a function."""

    def walk(node: ast.AST, in_function: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
        for child in ast.iter_child_nodes(node):
            if _is_type_checking(child):
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, in_function
            yield from walk(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))

    yield from walk(ast.parse(source(path)), False)


def imported_modules(path: Path, node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The modules an import statement loads (absolute names)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if node.level:
        package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{node.module}" if node.module else package
    else:
        base = node.module or ""
    found = {base}
    for alias in node.names:  # `from package import submodule` loads the submodule too
        if f"{base}.{alias.name}" in known:
            found.add(f"{base}.{alias.name}")
    return found


def import_graph() -> dict[str, set[str]]:
    modules = core_modules()
    known = set(modules)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node, _ in imports(path):
            graph[name] |= {m for m in imported_modules(path, node, known) if m in known and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_core_has_no_import_cycle():
    graph = import_graph()
    assert len(graph) > 40 and graph["envirobench.runs"] >= {"envirobench.report", "envirobench.outputs"}
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def late_imports() -> list[tuple[Path, int, str, str]]:
    """(file, line, the import, the three lines above it) for every import inside a function."""
    out = []
    for path in core_modules().values():
        lines = path.read_text(encoding="utf-8").splitlines()
        for node, in_function in imports(path):
            if in_function:
                above = "\n".join(line.strip() for line in lines[max(0, node.lineno - 4) : node.lineno - 1])
                out.append((path, node.lineno, ast.unparse(node), above))
    return out


def test_few_late_imports_each_with_its_reason():
    late = late_imports()
    assert 0 < len(late) <= MAX_LATE_IMPORTS, [f"{p.relative_to(REPO)}:{n}: {i}" for p, n, i, _ in late]
    unexplained = [f"{p.relative_to(REPO)}:{n}: {i}" for p, n, i, above in late if not any(line.startswith("#") for line in above.splitlines())]
    assert unexplained == [], "an import inside a function needs a comment just above it saying why it is late"


def test_long_modules_say_why():
    too_long = []
    for path in [*core_modules().values(), *(p for src in API_USERS.values() for p in src.rglob("*.py"))]:
        text = source(path)
        if text.count("\n") > MAX_LINES and "Length:" not in (ast.get_docstring(ast.parse(text)) or ""):
            too_long.append(f"{path.relative_to(REPO)} ({text.count(chr(10))} lines)")
    assert too_long == [], f"modules over {MAX_LINES} lines must give the reason in a 'Length:' paragraph of their docstring"


def api_imports(root: Path) -> Iterator[tuple[Path, int, str, tuple[str, ...]]]:
    """(file, line, module, imported names) for every import of envirobench under root."""
    for path in sorted(root.rglob("*.py")):
        for node, _ in imports(path):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "envirobench":
                        yield path, node.lineno, alias.name, ()
            elif node.level == 0 and node.module and node.module.split(".")[0] == "envirobench":
                yield path, node.lineno, node.module, tuple(a.name for a in node.names)


@pytest.mark.parametrize("package", sorted(API_USERS))
def test_plugins_and_adapters_import_core_only_through_the_public_api(package):
    found = list(api_imports(API_USERS[package]))
    assert found, f"{package} imports nothing from core: is the path right?"
    outside = [f"{p.relative_to(REPO)}:{n}: {m}" for p, n, m, _ in found if m not in PUBLIC_MODULES]
    assert outside == [], "import core only from `envirobench` (or `envirobench.conformance` in tests)"
    unknown = [f"{p.relative_to(REPO)}:{n}: {name}" for p, n, m, names in found if m == "envirobench" for name in names if name not in envirobench.__all__]
    assert unknown == [], "these names are not in the public API (envirobench.__all__)"


def test_the_api_check_catches_an_internal_import(tmp_path):
    (tmp_path / "plugin.py").write_text("from envirobench.runs import execute_run\nimport envirobench.jsonio\n", encoding="utf-8")
    assert [m for _, _, m, _ in api_imports(tmp_path)] == ["envirobench.runs", "envirobench.jsonio"]


def test_every_public_name_resolves_and_is_listed_once():
    exports = envirobench._EXPORTS
    assert sorted(envirobench.__all__) == sorted(["__version__", *exports])
    for name in exports:
        assert getattr(envirobench, name) is not None
    with pytest.raises(AttributeError):
        envirobench.not_a_public_name  # noqa: B018


def test_the_public_api_is_documented():
    api = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    missing = [name for name in envirobench._EXPORTS if f"`{name}`" not in api]
    assert missing == [], "docs/api.md lacks these public names"


DESIGN_CITATION = re.compile(r"DESIGN(\.md)?\s*§")


def test_code_and_docs_cite_only_documents_in_the_repository():
    cited = []
    for path in REPO.rglob("*"):
        if not path.is_file() or path.suffix not in (".py", ".md", ".j2", ".js", ".toml", ".sh") or ".venv" in path.parts or ".git" in path.parts:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if DESIGN_CITATION.search(line) and path != Path(__file__):
                cited.append(f"{path.relative_to(REPO)}:{n}")
    assert cited == [], "cite docs/architecture.md (in the repository), not a design document outside it"


def test_test_modules_have_unique_names():
    # The test folders are not packages: pytest imports each test module by its file name, so two
    # modules of one name in different folders stop the whole suite at collection.
    names = [path.name for path in (REPO / "tests").rglob("test_*.py")]
    assert sorted({n for n in names if names.count(n) > 1}) == []
