"""Versions in the docs' examples are the packages' (issue 36, finding 9: the plugin guide still
showed 0.1.0 after 0.2.0). Every fenced block of docs/*.md and README.md that names a workspace
distribution with a version — `envirobench-core 0.2.0` as `plugins list` prints it, or
`"name": "envirobench-reference-adapter", "version": "0.2.0"` in a record — must give the version
its pyproject.toml has. Prose about earlier versions ("runs 0.1.0 wrote") is history, not checked."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```.*?$(.*?)^```", re.MULTILINE | re.DOTALL)


def distributions() -> dict[str, str]:
    out = {}
    for pyproject in sorted(ROOT.glob("*/pyproject.toml")):
        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        if project.get("name", "").startswith("envirobench") and "version" in project:
            out[project["name"]] = project["version"]
    return out


def versions_shown(text: str, name: str) -> list[str]:
    found = []
    for block in FENCE.findall(text):
        found += re.findall(rf"(?<![\w-]){re.escape(name)} (\d+\.\d+\.\d+)\b", block)
        found += re.findall(rf'"name": "{re.escape(name)}", "version": "(\d+\.\d+\.\d+)"', block)
    return found


def test_versions_in_the_docs_examples_are_the_packages():
    packages = distributions()
    assert packages["envirobench-core"] and packages["envirobench-reference-adapter"]
    stale, checked = [], 0
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for name, version in packages.items():
            for shown in versions_shown(text, name):
                checked += 1
                if shown != version:
                    stale.append(f"{path.relative_to(ROOT)}: {name} {shown}, but {name}/pyproject.toml has {version}")
    assert checked >= 2
    assert stale == [], "\n".join(stale)


def test_the_finder_sees_both_forms():
    text = '```\nenvirobench-core  (envirobench-core 0.1.0)\n{"name": "envirobench-reference-adapter", "version": "0.1.0"}\n```\nenvirobench-core 0.1.0 wrote'
    assert versions_shown(text, "envirobench-core") == ["0.1.0"]
    assert versions_shown(text, "envirobench-reference-adapter") == ["0.1.0"]
