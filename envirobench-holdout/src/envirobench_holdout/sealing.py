"""Sealing a dataset: the service keeps the whole dataset, the public gets all but its answer key.

`hold` copies a validated dataset (answers included) into the service's data directory, draws its
private part with a secret random draw (never printed, never stored but as its result), records it
in the store and ledger, and writes the public part: every file except answers.jsonl, the manifest
unchanged (so the identity is the same on both sides) and `sealed.json` in place of the answer key
(core then runs on it unscored). The public part can be published in any store like any dataset.
"""

from __future__ import annotations

import random
import secrets
import shutil
from pathlib import Path

from envirobench import Dataset, EnviroBenchError, Registry, atomic_write_text, dumps, load_dataset

from .store import HeldDatasetRow, Store

# A dataset's files (docs/datasets.md) and the sealed part's note, `sealed.json`
# (docs/holdout.md): core reads them; tests/holdout/test_public_api.py holds them to core's.
MANIFEST, SEALED, SEALED_FORMAT = "manifest.json", "sealed.json", "envirobench.sealed.v1"


def write_public_part(full: Dataset, out: Path, service: str = "") -> Path:
    """The dataset without its answer key, marked sealed; refused if `out` exists."""
    if out.exists():
        raise EnviroBenchError(f"{out} exists; the public part is written to a new directory")
    staging = out.with_name(f".{out.name}.incomplete")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for entry in full.manifest.files:
        if entry.role == "answers":
            continue
        target = staging / entry.path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(full.root / entry.path, target)
    shutil.copyfile(full.root / MANIFEST, staging / MANIFEST)
    atomic_write_text(staging / SEALED, dumps({"format": SEALED_FORMAT, "service": service}))
    staging.rename(out)
    return out


def draw_private(case_ids: list[str], share: float) -> tuple[str, ...]:
    """A secret draw of round(share x cases) private cases (at least one and one public left when
    there are two or more cases)."""
    if not 0 < share < 1:
        raise EnviroBenchError(f"--private-share must be between 0 and 1 (exclusive), not {share}")
    if len(case_ids) < 2:
        raise EnviroBenchError("a held dataset needs at least two cases: one public, one private")
    count = min(len(case_ids) - 1, max(1, round(share * len(case_ids))))
    return tuple(sorted(random.Random(secrets.randbits(256)).sample(case_ids, count)))


def hold(store: Store, registry: Registry, source: Path, data_dir: Path, public_out: Path | None, *, private_share: float = 0.5, service: str = "") -> HeldDatasetRow:
    """Take a full dataset into the service and write its public part."""
    dataset = load_dataset(source, registry)
    if dataset.sealed:
        raise EnviroBenchError("is a sealed dataset's public part; the service needs the whole dataset, answer key included", file=source)
    identity = dataset.identity
    home = data_dir / "datasets" / identity.digest.removeprefix("sha256:")
    if not home.exists():
        staging = home.with_name(home.name + ".incomplete")
        shutil.rmtree(staging, ignore_errors=True)
        shutil.copytree(source, staging, symlinks=True)
        staging.rename(home)
    held_dataset = load_dataset(home, registry)  # the copy, checked byte for byte
    if held_dataset.identity.digest != identity.digest:
        raise EnviroBenchError(f"{home} holds another dataset than {source}; remove it by hand if it is a stale copy")
    btype = registry.benchmark_type(dataset.manifest.benchmark)
    row = HeldDatasetRow(identity.digest, identity.id, identity.version, dataset.manifest.benchmark, str(home.resolve()),
                         draw_private(list(held_dataset.cases(btype)), private_share))
    store.add_dataset(row)
    if public_out is not None:
        write_public_part(held_dataset, public_out, service)
    return row
