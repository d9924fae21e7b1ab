"""The images a report shows, copied from the dataset into the run's `report-assets/`.

A case's images are the image files among its type's `source_files`; each is copied (bytes, never
a link) to `report-assets/<the same relative path>`, atomically, and a source that leaves the
dataset directory through a link is refused. report.html refers to them by relative URL. They get
the permissions of any file written (0644 under the usual umask), like the rest of the run.
"""

from __future__ import annotations

import contextlib
import filecmp
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath

from .benchmark import BenchmarkType, Case
from .errors import EnviroBenchError
from .jsonio import file_mode
from .rundir import ASSETS_DIR

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")


def is_image(path: str) -> bool:
    return path.lower().endswith(IMAGE_SUFFIXES)


def safe_relative(path: str) -> bool:
    pure = PurePosixPath(path)
    return bool(path) and "\\" not in path and not pure.is_absolute() and ".." not in pure.parts and "." not in path.split("/") and "\x00" not in path


def case_assets(btype: BenchmarkType, cases: Mapping[str, Case]) -> dict[str, list[str]]:
    """Case ID -> the dataset-relative image files its input uses (in the type's order)."""
    out: dict[str, list[str]] = {}
    for cid, case in cases.items():
        images = [p for p in btype.source_files(case.input) if is_image(p) and safe_relative(p)]
        if images:
            out[cid] = list(dict.fromkeys(images))
    return out


def copy_assets(run_dir: Path, dataset_root: Path, paths: Sequence[str]) -> None:
    """Copy each image to run_dir/report-assets/<same relative path>, atomically, bytes only.

    An image already there with the same bytes (a rescored run) is left as it is. A source that
    leaves the dataset directory through a link is refused.
    """
    root = os.path.realpath(dataset_root)
    target_root = os.path.join(run_dir, ASSETS_DIR)
    checked_dirs: dict[str, bool] = {}
    made_dirs: set[str] = set()
    mode = file_mode()
    for relative in sorted(set(paths)):
        source = os.path.join(dataset_root, relative)
        source_dir = os.path.dirname(source)
        inside = checked_dirs.get(source_dir)
        if inside is None:
            real_dir = os.path.realpath(source_dir)
            inside = checked_dirs[source_dir] = real_dir == root or real_dir.startswith(root + os.sep)
        if not inside or (os.path.islink(source) and not os.path.realpath(source).startswith(root + os.sep)):
            raise EnviroBenchError(f"image {relative!r} leaves the dataset directory", file=dataset_root)
        target = os.path.join(target_root, relative)
        if os.path.isfile(target) and not os.path.islink(target) and filecmp.cmp(source, target, shallow=False):
            continue
        target_dir = os.path.dirname(target)
        if target_dir not in made_dirs:
            os.makedirs(target_dir, exist_ok=True)
            made_dirs.add(target_dir)
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=target_dir)
        try:
            with os.fdopen(fd, "wb") as out, open(source, "rb") as src:
                os.fchmod(fd, mode)  # mkstemp makes it 0600; the report is for others to read too
                shutil.copyfileobj(src, out, 1 << 20)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
