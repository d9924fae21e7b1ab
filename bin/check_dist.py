"""Check the wheels and sdists `bin/dist` built: `python bin/check_dist.py DIST_DIR`.

Every distribution of the workspace must have one wheel and one sdist of its pyproject version,
with: the Apache-2.0 licence expression and the LICENSE file; its README as long description;
`Requires-Python`; the `Typing :: Typed` classifier and `py.typed`; every dependency on another
EnviroBench distribution bounded above (scoring is versioned: a 0.3 core must not be picked up by
a 0.2 category); no `__pycache__` or `.pyc` anywhere; a category wheel under 50 MB holding the
manifest of every dataset its package registers. Prints one line per file and exits 1 on any
problem, naming the file and what is wrong.
"""

from __future__ import annotations

import email.parser
import re
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DISTRIBUTIONS = {  # name -> (project directory, import package, is a category)
    "envirobench-core": ("envirobench-core", "envirobench", False),
    "envirobench-synth": ("envirobench-synth", "envirobench_synth", False),
    "envirobench-extract": ("envirobench-extract", "envirobench_extract", True),
    "envirobench-legal": ("envirobench-legal", "envirobench_legal", True),
    "envirobench-locate": ("envirobench-locate", "envirobench_locate", True),
    "envirobench-verify": ("envirobench-verify", "envirobench_verify", True),
    "envirobench-research": ("envirobench-research", "envirobench_research", True),
    "envirobench-site": ("envirobench-site", "envirobench_site", True),
    "envirobench-reference-adapter": ("envirobench-reference-adapter", "envirobench_reference_adapter", False),
    "envirobench-adapter-kit": ("envirobench-adapter-kit", "envirobench_adapter_kit", False),
    "envirobench-adapters-openai": ("envirobench-adapters-openai", "envirobench_adapters_openai", False),
}
CATEGORY_WHEEL_LIMIT = 50 * 1024 * 1024
LICENCE = "Apache-2.0"


def version_of(project: str) -> str:
    return tomllib.loads((ROOT / project / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def check_metadata(where: str, text: str) -> list[str]:
    meta = email.parser.Parser().parsestr(text)
    problems = []
    if meta.get("License-Expression") != LICENCE:
        problems.append(f"License-Expression is {meta.get('License-Expression')!r}, not {LICENCE!r}")
    if not meta.get("Requires-Python"):
        problems.append("no Requires-Python")
    if meta.get("Description-Content-Type") != "text/markdown" or len(meta.get_payload() or "") < 200:
        problems.append("no README as long description")
    if "Typing :: Typed" not in (meta.get_all("Classifier") or []):
        problems.append("no 'Typing :: Typed' classifier")
    for requirement in meta.get_all("Requires-Dist") or []:
        name = re.split(r"[\s<>=!~;\[(]", requirement, maxsplit=1)[0]
        if name.startswith("envirobench-") and "<" not in requirement.split(";")[0]:
            problems.append(f"dependency {requirement!r} has no upper bound")
    return [f"{where}: {p}" for p in problems]


def check_wheel(path: Path, package: str, category: bool) -> list[str]:
    problems = []
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        metadata_name = next((n for n in names if n.endswith(".dist-info/METADATA")), None)
        if metadata_name is None:
            return [f"{path.name}: no METADATA"]
        problems += check_metadata(path.name, wheel.read(metadata_name).decode("utf-8"))
        if not any(n.endswith(".dist-info/licenses/LICENSE") for n in names):
            problems.append(f"{path.name}: no LICENSE in .dist-info/licenses/")
        if f"{package}/py.typed" not in names:
            problems.append(f"{path.name}: no {package}/py.typed")
        cached = [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
        if cached:
            problems.append(f"{path.name}: holds compiled files, e.g. {cached[0]}")
        if category:
            manifests = [n for n in names if n.startswith(f"{package}/benchmarks/") and n.endswith("/manifest.json")]
            if not manifests:
                problems.append(f"{path.name}: a category wheel without datasets")
    if category and path.stat().st_size > CATEGORY_WHEEL_LIMIT:
        problems.append(f"{path.name}: {path.stat().st_size / 2**20:.1f} MB, over the 50 MB a category wheel may weigh")
    return problems


def check_sdist(path: Path) -> list[str]:
    problems = []
    with tarfile.open(path) as sdist:
        names = sdist.getnames()
        pkg_info = next((m for m in sdist.getmembers() if m.name.count("/") == 1 and m.name.endswith("/PKG-INFO")), None)
        if pkg_info is None:
            return [f"{path.name}: no PKG-INFO"]
        problems += check_metadata(path.name, sdist.extractfile(pkg_info).read().decode("utf-8"))  # type: ignore[union-attr]
        if not any(n.endswith("/LICENSE") for n in names):
            problems.append(f"{path.name}: no LICENSE")
        cached = [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
        if cached:
            problems.append(f"{path.name}: holds compiled files, e.g. {cached[0]}")
    return problems


def main(dist: Path) -> int:
    problems: list[str] = []
    for name, (project, package, category) in DISTRIBUTIONS.items():
        stem = f"{name.replace('-', '_')}-{version_of(project)}"
        wheels = sorted(dist.glob(f"{stem}-*.whl"))
        sdists = sorted(dist.glob(f"{stem}.tar.gz"))
        if len(wheels) != 1 or len(sdists) != 1:
            problems.append(f"{dist}: expected one wheel and one sdist of {stem}, found {[p.name for p in wheels + sdists]}")
            continue
        problems += check_wheel(wheels[0], package, category)
        problems += check_sdist(sdists[0])
        for path in (wheels[0], sdists[0]):
            print(f"{path.name:60} {path.stat().st_size / 2**20:7.2f} MB")
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    if not problems:
        print(f"every distribution checked: metadata, licence, README, py.typed, bounds, no compiled files, sizes ({dist})")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(Path(sys.argv[1])))
