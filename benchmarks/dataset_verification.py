"""Dataset verification throughput: `envirobench validate-dataset` against raw hashlib SHA-256.

    .venv/bin/python benchmarks/dataset_verification.py [--size-mb 1600] [--files 160] [--repeat 3] [--json out.json]

Writes a copy of the shipped table-separators dataset with `--files` extra source files of
random bytes (`--size-mb` in all) under assets/bulk/, re-pinned, into a temporary directory;
reads everything once (so every measurement is of warm page-cache reads, not the disk); then,
alternating, measures:

- hashlib: one thread of this process reading every file in 1 MiB chunks into `hashlib.sha256`,
  the speed of one core;
- validate-dataset: the whole `envirobench validate-dataset DIR` process (start-up, plugin
  loading, manifest, every file hashed, every case and answer structured), wall time.

Prints the throughput of each in MB/s and their ratio (validate / hashlib). Results are measured,
never asserted: see docs/performance.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENVIROBENCH = Path(sys.executable).with_name("envirobench")


def make_dataset(work: Path, size_mb: int, files: int) -> Path:
    from envirobench import read_manifest, write_manifest
    from envirobench_extract.package import PACKAGE

    layout = PACKAGE.layout("table-separators")
    target = work / "dataset"
    shutil.copytree(layout.dataset_dir("synthetic-v1"), target)
    manifest = read_manifest(target)
    (target / "manifest.json").unlink()
    bulk = target / "assets" / "bulk"
    bulk.mkdir()
    per_file = max(1, size_mb * 1024 * 1024 // files)
    for i in range(files):
        with (bulk / f"part-{i:04d}.bin").open("wb") as out:
            left = per_file
            while left:
                chunk = os.urandom(min(left, 1 << 24))
                out.write(chunk)
                left -= len(chunk)
    write_manifest(target, dataset_id=manifest.id, version=manifest.version, benchmark=manifest.benchmark, title=manifest.title,
                   visibility=manifest.visibility, license=manifest.license)
    return target


def every_file(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def hashlib_seconds(paths: list[Path]) -> float:
    started = time.perf_counter()
    for path in paths:
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
        digest.hexdigest()
    return time.perf_counter() - started


def validate_seconds(dataset: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run([str(ENVIROBENCH), "validate-dataset", str(dataset)], capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"validate-dataset failed: {done.stdout}{done.stderr}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=int, default=1600)
    parser.add_argument("--files", type=int, default=160)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="envirobench-verify-") as tmp:
        dataset = make_dataset(Path(tmp), args.size_mb, args.files)
        paths = every_file(dataset)
        total_mb = sum(p.stat().st_size for p in paths) / 1e6
        hashlib_seconds(paths)  # warm the page cache
        raw, whole = [], []
        for _ in range(max(1, args.repeat)):
            raw.append(hashlib_seconds(paths))
            whole.append(validate_seconds(dataset))
    raw_s, whole_s = statistics.median(raw), statistics.median(whole)
    result = {
        "dataset_mb": round(total_mb, 1),
        "files": len(paths),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg()[0],
        "hashlib_mb_s": round(total_mb / raw_s, 1),
        "validate_mb_s": round(total_mb / whole_s, 1),
        "validate_over_hashlib": round(raw_s / whole_s, 3),
        "hashlib_s": raw,
        "validate_s": whole,
    }
    print(f"{total_mb:,.0f} MB in {len(paths)} files, {os.cpu_count()} CPUs, load {result['load_average']:.1f}: "
          f"hashlib one thread {result['hashlib_mb_s']:,.0f} MB/s; validate-dataset (whole process) {result['validate_mb_s']:,.0f} MB/s "
          f"= {result['validate_over_hashlib']:.0%} of hashlib (medians of {len(raw)})")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
