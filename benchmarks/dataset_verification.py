"""Dataset verification throughput: `envirobench validate-dataset` against raw hashlib SHA-256.

    .venv/bin/python benchmarks/dataset_verification.py [--size-mb 1024] [--files 128] [--repeat 3] [--json out.json]

Writes a copy of the shipped table-separators dataset with `--files` extra source files of
random bytes (`--size-mb` in all) under assets/bulk/, re-pinned, into a temporary directory;
reads everything once (so every measurement is of warm page-cache reads, not the disk); then,
alternating, measures:

- hashlib: one thread of this process reading every file in 1 MiB chunks into `hashlib.sha256`,
  the speed of one core;
- hashlib, two threads: the same, the files shared out between two threads of this process (a
  ThreadPoolExecutor of 2): the floor for a machine of two cores, which validate-dataset is
  held to (issue 38: at least 90 % of it);
- hash_files: core's own hashing of every file (envirobench.datasets.hash_files, its
  HASH_THREADS threads), in this process: the hashing validate-dataset does, without the rest;
- validate-dataset: the whole `envirobench validate-dataset DIR` process (start-up, plugin
  loading, manifest, every file hashed, every case and answer structured), wall time.

Prints the throughput of each in MB/s and each one's share of the two-thread floor, with the CPU
count and the load average before and after. Results are measured, never asserted: see
docs/performance.md.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import resource
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


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def hashlib_seconds(paths: list[Path], threads: int = 1) -> float:
    started = time.perf_counter()
    if threads == 1:
        for path in paths:
            sha256_of(path)
    else:
        with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(sha256_of, paths))
    return time.perf_counter() - started


def self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def hash_files_seconds(paths: list[Path]) -> float:
    from envirobench.datasets import hash_files

    started = time.perf_counter()
    hash_files(paths)
    return time.perf_counter() - started


def validate_seconds(dataset: Path) -> tuple[float, float]:
    """The wall time and the CPU time (user + system, RUSAGE_CHILDREN) of one validate-dataset."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([str(ENVIROBENCH), "validate-dataset", str(dataset)], capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"validate-dataset failed: {done.stdout}{done.stderr}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--files", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="envirobench-verify-") as tmp:
        dataset = make_dataset(Path(tmp), args.size_mb, args.files)
        paths = every_file(dataset)
        total_mb = sum(p.stat().st_size for p in paths) / 1e6
        load_before = os.getloadavg()
        hashlib_seconds(paths)  # warm the page cache
        validate_seconds(dataset)  # and the bytecode caches
        raw, two, two_cpu, core, whole, whole_cpu = [], [], [], [], [], []
        for _ in range(max(1, args.repeat)):
            raw.append(hashlib_seconds(paths))
            cpu_before = self_cpu()
            two.append(hashlib_seconds(paths, threads=2))
            two_cpu.append(self_cpu() - cpu_before)
            core.append(hash_files_seconds(paths))
            wall, cpu = validate_seconds(dataset)
            whole.append(wall)
            whole_cpu.append(cpu)
        load_after = os.getloadavg()
    raw_s, two_s, core_s, whole_s = (statistics.median(x) for x in (raw, two, core, whole))
    from envirobench.datasets import HASH_THREADS

    result = {
        "dataset_mb": round(total_mb, 1),
        "files": len(paths),
        "cpus": os.cpu_count(),
        "hash_threads": HASH_THREADS,
        "load_average": load_before[0],
        "load_average_before": list(load_before),
        "load_average_after": list(load_after),
        "hashlib_mb_s": round(total_mb / raw_s, 1),
        "hashlib_two_threads_mb_s": round(total_mb / two_s, 1),
        "hash_files_mb_s": round(total_mb / core_s, 1),
        "validate_mb_s": round(total_mb / whole_s, 1),
        "validate_over_hashlib": round(raw_s / whole_s, 3),
        "hash_files_over_two_threads": round(two_s / core_s, 3),
        "validate_over_two_threads": round(two_s / whole_s, 3),
        "hashlib_s": raw,
        "hashlib_two_threads_s": two,
        "hash_files_s": core,
        "validate_s": whole,
        "validate_cpu_s": whole_cpu,
        "hashlib_two_threads_cpu_s": two_cpu,
        # CPU validate-dataset spends besides hashing (start-up, plugins, manifest, cases): what
        # keeps it from the floor however many cores hash.
        "validate_cpu_besides_hashing_s": round(statistics.median(whole_cpu) - statistics.median(two_cpu), 3),
        "validate_cores_used": round(statistics.median(whole_cpu) / whole_s, 2),
    }
    print(f"{total_mb:,.0f} MB in {len(paths)} files, {os.cpu_count()} CPUs, load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after (medians of {len(raw)}, alternating):")
    print(f"  hashlib one thread      {result['hashlib_mb_s']:>7,.0f} MB/s")
    print(f"  hashlib two threads     {result['hashlib_two_threads_mb_s']:>7,.0f} MB/s  (the floor)")
    print(f"  core hash_files ({HASH_THREADS} thr) {result['hash_files_mb_s']:>7,.0f} MB/s  = {result['hash_files_over_two_threads']:.0%} of the two-thread floor")
    print(f"  validate-dataset        {result['validate_mb_s']:>7,.0f} MB/s  = {result['validate_over_two_threads']:.0%} of the two-thread floor, "
          f"{result['validate_over_hashlib']:.0%} of hashlib (whole process: start-up, plugins, manifest, cases); "
          f"CPU {statistics.median(whole_cpu):.2f} s in {whole_s:.2f} s wall = {result['validate_cores_used']:.2f} cores busy")
    print(f"  CPU: hashing every file {statistics.median(two_cpu):.2f} s (two threads); validate-dataset besides hashing "
          f"{result['validate_cpu_besides_hashing_s']:.2f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
