"""envirobench-holdout uses core through its public API (docs/api.md): the names `envirobench`
exports, and `envirobench.categories`, the tasks' component-score formulas (documented there as the
one public module not re-exported), which the service needs to compute the leaderboard's number
(judge.py). The file names it
writes and reads (a run directory's, a dataset's, the sealed note's) are documented formats; they
are held to core's here."""

from __future__ import annotations

import ast
from pathlib import Path

import envirobench
from envirobench import datasets, records, rundir
from envirobench_holdout import client, sealing

SOURCE = Path(__file__).resolve().parents[2] / "envirobench-holdout" / "src"
# public module not re-exported from `envirobench` (docs/api.md documents it) -> why the holdout needs it
EXCEPTIONS = {"envirobench.categories": "the component-score formula of each task (judge.component_score)"}
API = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def core_imports(root: Path) -> list[tuple[str, int, str, tuple[str, ...]]]:
    """(file, line, module, names) of every import of core under root."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found += [(path.name, node.lineno, a.name, ()) for a in node.names if a.name.split(".")[0] == "envirobench"]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.split(".")[0] == "envirobench":
                found.append((path.name, node.lineno, node.module, tuple(a.name for a in node.names)))
    return found


def test_the_holdout_imports_core_only_through_the_public_api():
    found = core_imports(SOURCE)
    assert found, "the holdout imports nothing from core: is the path right?"
    outside = [f"{f}:{n}: {m}" for f, n, m, _ in found if m != "envirobench" and m not in EXCEPTIONS]
    assert outside == [], "import core only from `envirobench` (docs/api.md)"
    unknown = [f"{f}:{n}: {name}" for f, n, m, names in found if m == "envirobench" for name in names if name not in envirobench.__all__]
    assert unknown == [], "these names are not in the public API (envirobench.__all__)"
    assert {m for _, _, m, _ in found if m in EXCEPTIONS} == set(EXCEPTIONS), "an exception no longer needed: remove it"
    assert all(f"`{m}`" in API.read_text(encoding="utf-8") for m in EXCEPTIONS), "docs/api.md documents every such module"


def test_the_check_catches_an_internal_import(tmp_path):
    (tmp_path / "m.py").write_text("from envirobench.scoring import score_run\nfrom envirobench import datasets\n", encoding="utf-8")
    assert [(m, names) for _, _, m, names in core_imports(tmp_path)] == [("envirobench.scoring", ("score_run",)), ("envirobench", ("datasets",))]
    assert "datasets" not in envirobench.__all__


def test_the_file_names_and_formats_are_cores():
    assert (sealing.MANIFEST, sealing.SEALED, sealing.SEALED_FORMAT) == (datasets.MANIFEST, datasets.SEALED, records.SEALED_FORMAT)
    assert (client.RUN_FILE, client.ADAPTER_DIR) == (rundir.RUN_FILE, rundir.ADAPTER_DIR)
