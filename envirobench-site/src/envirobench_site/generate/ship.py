"""Regenerating the shipped layout of the Site datasets in place (see envirobench_site.shipping).

For each split: every chosen type's dataset is generated whole into a temporary directory (the
sites are built once per process), the asset files (volumes and standards) of all of them must be
byte-identical (they are the same records), the assets go once to `records/<split>/` and each
type's manifest, cases.jsonl and answers.jsonl to `benchmarks/<type>/datasets/<folder>/`, its
fixtures to `benchmarks/<type>/fixtures/<folder>/`. Record files no type's new generation writes
are removed when every type is regenerated (`all`), kept otherwise.
"""

from __future__ import annotations

import filecmp
import importlib
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from envirobench import BenchmarkPackage, EnviroBenchError

from ..exceedance_summary import ExceedanceSummary
from ..recognized_conditions import RecognizedConditions
from ..shipping import PACKAGE_DIR, RECORDS_DIR, records_group
from ..site_results import SiteResults
from ..site_timeline import SiteTimeline

# Every Site type, registered or not yet (package.py lists a type once its datasets conform):
# the generators must be able to write a dataset before its type is registered.
PACKAGE = BenchmarkPackage(
    "envirobench_site", types=(SiteResults, ExceedanceSummary, RecognizedConditions, SiteTimeline)
)

SMALL_FILES = ("manifest.json", "cases.jsonl", "answers.jsonl")


def generator(type_id: str):
    layout = PACKAGE.layout(type_id)
    try:
        # The generators read the site records from the synth toolkit, imported where they are
        # used: ask for it here, so its absence is the clear error below, not a traceback later.
        importlib.import_module("envirobench_synth.site")
        return importlib.import_module(layout.generator_module)
    except ModuleNotFoundError as exc:
        if exc.name and not exc.name.startswith("envirobench_site"):
            # Installed without the generators' dependencies: they are the [generate] extra.
            raise EnviroBenchError(
                f"{layout.generator_module} needs {exc.name!r}, which is not installed: generating datasets "
                "needs the `generate` extra: pip install 'envirobench-site[generate]'"
            ) from None
        raise


def generate_one(type_id: str, folder: str | None, output: Path, fixtures: Path | None) -> None:
    layout = PACKAGE.layout(type_id)
    name = layout.folder(folder)
    if output.exists() and any(output.iterdir()):
        raise EnviroBenchError(f"{output} is not empty; generate into a new or empty directory")
    module = generator(type_id)
    module.generate(output, name)
    if fixtures is not None:
        module.FIXTURES.write(output, fixtures)


def _assets(directory: Path) -> dict[str, Path]:
    root = directory / "assets"
    return {str(p.relative_to(root)): p for p in sorted(root.rglob("*")) if p.is_file()}


def ship(
    types: list[str], folder: str | None = None, package_dir: Path = PACKAGE_DIR
) -> Iterator[str]:
    """Regenerate the shipped layout of `types` under `package_dir` (the installed package by
    default); yields what it wrote, line by line."""
    folders = sorted({f for t in types for f in PACKAGE.layout(t).datasets})
    for name in [folder] if folder else folders:
        group = records_group(name)
        with tempfile.TemporaryDirectory(prefix="envirobench-site-ship-") as scratch:
            made = {}
            for type_id in types:
                made[type_id] = Path(scratch) / type_id
                generator(type_id).generate(made[type_id], name)
            first = _assets(made[types[0]])
            for type_id in types[1:]:
                other = _assets(made[type_id])
                if other.keys() != first.keys() or not all(
                    filecmp.cmp(first[k], other[k], shallow=False) for k in first
                ):
                    raise EnviroBenchError(
                        f"{type_id} and {types[0]} wrote different site records for {name}"
                    )
            records = package_dir / RECORDS_DIR / group
            records.mkdir(parents=True, exist_ok=True)
            for relative, path in first.items():
                target = records / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                if not target.is_file() or not filecmp.cmp(path, target, shallow=False):
                    # A new file (a new inode), never rewritten in place: materialised datasets
                    # hold hard links to the old one, which must keep its bytes.
                    fresh = target.with_name(f".{target.name}.new")
                    shutil.copyfile(path, fresh)
                    fresh.replace(target)
            if set(types) == set(PACKAGE.layouts):  # every type: records no type pins go
                for stale in sorted(records.rglob("*"), reverse=True):
                    relative = str(stale.relative_to(records))
                    if stale.is_file() and relative not in first:
                        stale.unlink()
                    elif stale.is_dir() and not any(stale.iterdir()):
                        stale.rmdir()
            yield f"wrote {len(first)} record files to {records}"
            for type_id in types:
                benchmark = package_dir / "benchmarks" / type_id
                shipped = benchmark / "datasets" / name
                if shipped.exists():
                    shutil.rmtree(shipped)
                shipped.mkdir(parents=True)
                for small in SMALL_FILES:
                    shutil.copyfile(made[type_id] / small, shipped / small)
                fixtures = benchmark / "fixtures" / name
                generator(type_id).FIXTURES.write(made[type_id], fixtures)
                yield f"regenerated {shipped} and {fixtures}"
