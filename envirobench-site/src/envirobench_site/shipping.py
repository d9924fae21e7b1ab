"""How the Site datasets ship: the site records once, each type's dataset materialised on first use.

The four Site types read the same site records (four copies would quadruple the wheel), so the
wheel holds each record once:

    envirobench_site/records/<split>/<site>/volume-N.pdf     the volumes of each site
    envirobench_site/records/<split>/standards-v1.json       the pinned screening tables
    envirobench_site/benchmarks/<type>/datasets/<folder>/    manifest.json, cases.jsonl and
                                                             answers.jsonl only (small)
    envirobench_site/benchmarks/<type>/fixtures/<folder>/    correct.json and wrong.json

A dataset's `assets/<path>` is the shipped `records/<split>/<path>` of its split (`dev` or `test`,
from the folder name; `records/test-sites20/` for `synthetic-test-sites20-v1`, the many small test
sites: `records_group`). On first use (when the package registers its datasets: `materialised`) each dataset is assembled into a
cache directory, ENVIROBENCH_SITE_DATA or else `$XDG_CACHE_HOME/envirobench-site` (by default
`~/.cache/envirobench-site`):

    <cache>/<first 16 hex digits of the manifest's SHA-256>/<type>/datasets/<folder>/
    <cache>/<same>/<type>/fixtures/<folder>/

Every file the manifest pins is hard-linked from the installed package (copied where a link is
not possible), and its size and SHA-256 are checked against the shipped manifest: a missing or
altered file is refused with its name and nothing is published. The directory is built under a
temporary name in the cache and renamed into place in one step, so a reader never sees half a
dataset, and two processes materialising at once both end with the one complete copy (the
second rename fails and its copy is discarded). A new dataset version has a new manifest, hence a
new directory. Once published, core verifies every SHA-256 again whenever the dataset is loaded.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from pathlib import Path, PurePosixPath

from envirobench import EnviroBenchError, TypeLayout, read_manifest, split_of

ENV = "ENVIROBENCH_SITE_DATA"
RECORDS_DIR = "records"
ASSETS = "assets"
FIXTURES = ("correct.json", "wrong.json")
PACKAGE_DIR = Path(__file__).resolve().parent


def required_split(folder: str) -> str:
    """The split a Site dataset folder names (`synthetic-dev-v1` -> dev); every Site folder names one."""
    split = split_of(folder)
    if split is None:
        raise EnviroBenchError(f"dataset folder {folder!r} names no split (dev or test)")
    return split


def records_group(folder: str) -> str:
    """Which shipped records a Site dataset folder reads, `records/<group>/`: its split
    (`synthetic-dev-v1` -> dev), or the split and the folder's own words for a second split of
    the same kind (`synthetic-test-sites20-v1` -> test-sites20: the many small test sites beside
    the three public ones; envirobench_synth.site.SITES has the same key)."""
    split = required_split(folder)
    words = [
        w for w in folder.split("-") if w not in ("synthetic", split) and not re.fullmatch(r"v\d+", w)
    ]
    return "-".join([split, *words])


def materialised(layout: TypeLayout, folder: str) -> Path:
    """The directory a Site dataset is registered from (BenchmarkPackage's `materialise`): built
    from the shipped records on first use."""
    return materialise(
        layout.id,
        folder,
        layout.dataset_dir(folder),
        PACKAGE_DIR / RECORDS_DIR / records_group(folder),
        layout.fixtures_dir(folder),
    )


def cache_root() -> Path:
    """Where materialised datasets go: ENVIROBENCH_SITE_DATA, else the user's cache directory."""
    given = os.environ.get(ENV)
    if given:
        return Path(given).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "envirobench-site"


def shipped_file(shipped_dir: Path, records_dir: Path, relative: str) -> Path:
    """Where the installed package holds a dataset file: assets/<x> in the split's records,
    anything else (cases.jsonl, answers.jsonl) in the shipped dataset folder."""
    parts = PurePosixPath(relative).parts
    if not parts or ".." in parts or PurePosixPath(relative).is_absolute():
        raise EnviroBenchError(f"the manifest pins an unsafe path {relative!r}", file=shipped_dir)
    if parts[0] == ASSETS:
        return records_dir.joinpath(*parts[1:])
    return shipped_dir.joinpath(*parts)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _link_or_copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:  # another file system, or links not allowed: a copy is as good
        shutil.copyfile(source, target)


def materialise(
    type_id: str,
    folder: str,
    shipped_dir: Path,
    records_dir: Path,
    fixtures_dir: Path,
    root: Path | None = None,
) -> Path:
    """The materialised dataset directory of one type's dataset folder (built on first use)."""
    shipped_dir, records_dir = Path(shipped_dir), Path(records_dir)
    manifest_path = shipped_dir / "manifest.json"
    if not manifest_path.is_file():
        raise EnviroBenchError(
            "the shipped manifest is missing from the installed package", file=manifest_path
        )
    key = hashlib.sha256(manifest_path.read_bytes()).hexdigest()[:16]
    root = Path(root) if root is not None else cache_root()
    published = root / key
    dataset_dir = published / type_id / "datasets" / folder
    if dataset_dir.is_dir():
        return dataset_dir
    manifest = read_manifest(shipped_dir)
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".partial-{key}-", dir=root))
    try:
        target = staging / type_id / "datasets" / folder
        target.mkdir(parents=True)
        shutil.copyfile(manifest_path, target / "manifest.json")
        for entry in manifest.files:
            source = shipped_file(shipped_dir, records_dir, entry.path)
            if not source.is_file():
                raise EnviroBenchError(
                    f"{entry.path} of dataset {manifest.id} is missing from the installed package",
                    file=source,
                )
            placed = target.joinpath(*PurePosixPath(entry.path).parts)
            _link_or_copy(source, placed)
            if placed.stat().st_size != entry.size or _sha256(placed) != entry.sha256:
                raise EnviroBenchError(
                    f"{entry.path} of dataset {manifest.id} does not match its pinned SHA-256 "
                    "(the installed file was altered); reinstall envirobench-site",
                    file=source,
                )
        fixtures = staging / type_id / "fixtures" / folder
        fixtures.mkdir(parents=True)
        for name in FIXTURES:
            if (Path(fixtures_dir) / name).is_file():
                shutil.copyfile(Path(fixtures_dir) / name, fixtures / name)
        _publish(staging, published)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if not dataset_dir.is_dir():
        raise EnviroBenchError(f"{published} holds no dataset {type_id}/{folder}", file=published)
    return dataset_dir


def _publish(staging: Path, published: Path) -> None:
    """Rename the complete copy into place; when another process was first, keep its copy."""
    try:
        os.rename(staging, published)
    except OSError:
        if not published.is_dir():
            raise
