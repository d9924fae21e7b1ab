"""Datasets and runs in and out of stores, every file checksum-verified.

Layout in a store:

    datasets/<dataset id>/v<version>/<digest hex>/<path>          every file of the manifest
    datasets/<dataset id>/v<version>/<digest hex>/manifest.json   uploaded last
    runs/<benchmark>/<run id>/<path>                              every file of the run directory
    runs/<benchmark>/<run id>/.envirobench-archive.json           the listing: path, size, SHA-256
    runs/<benchmark>/<run id>/run.json                            uploaded last

A dataset exists in a store once its manifest does, and the manifest is uploaded only after
every file was verified and stored; a run exists once its run.json does. So an interrupted push
or promote never leaves something that looks whole. The digest is the dataset's (docs/datasets.md,
Identity): it covers every file and the whole manifest, so a pull verifies the stored manifest
against its key before anything else. A version holds one digest, forever; only a copy that
an earlier version stored under its files-only digest may sit beside it (docs/stores.md, Layout).

Runs are archived under their benchmark type's ID, so profiles of different benchmarks sharing a
store never collide on a run ID. Earlier versions archived them as `runs/<run id>/`; a restore
that knows the benchmark looks under `runs/<benchmark>/<run id>/` first and then there (the
listing's SHA-256, recorded at promotion, says which archive is the promoted one, whichever key
holds it). Nothing is moved: an old archive stays where it is, and promoting the same run again
puts a copy, with the very same listing, under the new key.

A restored run holds one file more, `RestoreRecord`: where it came from (shown by the leaderboard).

Every transfer can report its progress, `on_progress(label, done, total)` in files, for the
commands' progress bars.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import attrs

from .. import datasets as ds
from ..converter import structure, unstructure
from ..errors import EnviroBenchError
from ..jsonio import dir_mode, dumps, parse_json_bytes
from ..plugins import Registry
from ..records import Manifest
from ..rundir import RUN_FILE, read_completed_run
from . import (
    PRIVATE,
    PUBLIC,
    ChecksumMismatch,
    ObjectConflict,
    ObjectNotFound,
    Refused,
    Store,
    StoreError,
    check_key,
    describe,
    join_key,
    read_object,
    sha256_bytes,
    sha256_file,
)
from .config import resolve

DATASETS = "datasets"
RUNS = "runs"
ARCHIVE_LISTING = ".envirobench-archive.json"
RUN_ARCHIVE_FORMAT = "envirobench.run-archive.v1"
RESTORE_RECORD = ".envirobench-restored.json"
RESTORE_RECORD_FORMAT = "envirobench.restored-run.v1"
_VERSION_KEY = re.compile(r"^v([1-9][0-9]*)/([0-9a-f]{64})/manifest\.json$")

#: on_progress(label, done, total): `done` of `total` files of the transfer named `label` are
#: through (called with 0 before the first).
Progress = Callable[[str, int, int], None]


def _counter(on_progress: Progress | None, label: str, total: int) -> Callable[[], None]:
    """Report 0 of `total` now; each call of the returned function reports one more file."""
    if on_progress is None:
        return lambda: None
    done = 0
    on_progress(label, 0, total)

    def step() -> None:
        nonlocal done
        done += 1
        on_progress(label, done, total)

    return step


# -- visibility rules ---------------------------------------------------------------------------


def dataset_visibility(manifest: Manifest, registered: str | None) -> str:
    """Private when the manifest or the registration says so."""
    return PRIVATE if PRIVATE in (manifest.visibility, registered) else PUBLIC


def refuse_private_to_public(dataset_id: str, visibility: str, store: Store) -> None:
    if visibility == PRIVATE and store.visibility == PUBLIC:
        raise Refused(
            f"refused: dataset {dataset_id!r} is private and {store.url} is a public store; "
            "a private dataset never goes to a public store (use a private store)"
        )


def check_dataset_store(registry: Registry, dataset_id: str, *, base: Path | None = None) -> None:
    """A registered public dataset must not point at a private store (its home must be public)."""
    source = registry.datasets.get(dataset_id)
    if source is None or source.store is None or source.visibility != PUBLIC:
        return
    spec = resolve(source.store, origin=f"dataset {dataset_id!r} of plugin {source.plugin!r}", base=base)
    if spec.visibility != PUBLIC:
        raise Refused(
            f"refused: plugin {source.plugin!r} registers the public dataset {dataset_id!r} with the store "
            f"{source.store!r} ({spec.url}), which is {spec.visibility}; a public dataset must point at a public "
            "store so that anyone can fetch it (mark the store public, e.g. ?visibility=public, or register another)"
        )


# -- datasets -----------------------------------------------------------------------------------


def dataset_prefix(dataset_id: str, version: int, digest: str) -> str:
    hex_digest = digest.removeprefix("sha256:")
    try:
        return join_key(DATASETS, dataset_id, f"v{version}", hex_digest)
    except StoreError:
        raise StoreError(f"dataset ID {dataset_id!r} cannot be a store key (use letters, digits, '-', '_', '.' and '/')") from None


def stored_versions(store: Store, dataset_id: str) -> dict[int, list[str]]:
    """Version -> digests (hex) of the complete copies of a dataset in a store."""
    prefix = dataset_prefix(dataset_id, 1, "0" * 64).removesuffix("/v1/" + "0" * 64) + "/"
    out: dict[int, list[str]] = {}
    for key in store.list(prefix):
        match = _VERSION_KEY.match(key[len(prefix):])
        if match:
            out.setdefault(int(match.group(1)), []).append(match.group(2))
    return out


@attrs.frozen
class PushResult:
    dataset_id: str
    version: int
    digest: str
    store: str
    prefix: str
    uploaded: int
    already_there: int


def push_dataset(name_or_path: str, store: Store, registry: Registry, *, on_progress: Progress | None = None) -> PushResult:
    """Verify a dataset and upload it, manifest last. Nothing in the store is ever replaced."""
    path, _ = ds.resolve(name_or_path, registry)
    manifest = ds.read_manifest(path)
    by_name = registry.datasets.get(str(name_or_path))
    if by_name is not None and manifest.id != by_name.id:
        raise EnviroBenchError(f"registered as {by_name.id!r} but its manifest says {manifest.id!r}", file=path / ds.MANIFEST, field="$.id")
    # A copy of a registered dataset, given by its directory, keeps the registration's rules.
    registered = registry.datasets.get(manifest.id)
    if registered is not None:
        check_dataset_store(registry, manifest.id)
    visibility = dataset_visibility(manifest, registered.visibility if registered is not None else None)
    refuse_private_to_public(manifest.id, visibility, store)
    if manifest.benchmark in registry.benchmark_types:
        dataset = ds.validate(path, registry)
    else:  # the type is not installed here: the files are still checked against the manifest
        ds.verify_files(path, manifest)
        dataset = ds.Dataset(path, manifest)
    identity = dataset.identity
    prefix = dataset_prefix(manifest.id, manifest.version, identity.digest)
    hex_digest = identity.digest.removeprefix("sha256:")
    # A copy of these very files under the files-only digest earlier versions gave them is no conflict:
    # pulls take the copy whose manifest reproduces its key under today's rule.
    files_only = ds.files_only_digest(manifest.input_digest, manifest.answer_digest).removeprefix("sha256:")
    others = [d for d in stored_versions(store, manifest.id).get(manifest.version, []) if d not in (hex_digest, files_only)]
    if others:
        raise ObjectConflict(
            f"refused: {describe(store)} already holds {manifest.id} v{manifest.version} with digest sha256:{others[0]}, "
            f"and this copy has {identity.digest}; a stored version is never replaced: give the revision a new version"
        )
    uploaded = already = 0
    step = _counter(on_progress, f"push {manifest.id} v{manifest.version}", len(manifest.files) + 1)
    for entry in manifest.files:
        if store.put(f"{prefix}/{entry.path}", path / entry.path, entry.sha256):
            uploaded += 1
        else:
            already += 1
        step()
    manifest_bytes = (path / ds.MANIFEST).read_bytes()
    if store.put(f"{prefix}/{ds.MANIFEST}", manifest_bytes, sha256_bytes(manifest_bytes)):
        uploaded += 1
    else:
        already += 1
    step()
    return PushResult(manifest.id, manifest.version, identity.digest, store.url, prefix, uploaded, already)


@attrs.frozen
class PullResult:
    dataset_id: str
    version: int
    digest: str
    path: Path
    files: int
    validated: bool


def default_pull_dir(dataset_id: str, version: int, registry: Registry) -> Path:
    """The registered directory when it does not exist yet, else datasets/<id>/v<version>."""
    source = registry.datasets.get(dataset_id)
    if source is not None and not source.path.exists():
        return source.path
    return Path(DATASETS) / dataset_id / f"v{version}"


def pull_dataset(
    dataset_id: str, store: Store, registry: Registry, *, version: int | None = None, output: Path | None = None, on_progress: Progress | None = None
) -> PullResult:
    """Download a complete dataset, verify every file and the manifest's digests, then validate it."""
    check_key(dataset_id)
    if dataset_id in registry.datasets:
        check_dataset_store(registry, dataset_id)
    versions = stored_versions(store, dataset_id)
    if not versions:
        raise ObjectNotFound(
            f"{describe(store)} holds no complete copy of dataset {dataset_id!r} "
            "(a dataset appears in a store only once its manifest, uploaded last, is there)"
        )
    if version is None:
        version = max(versions)
    if version not in versions:
        raise ObjectNotFound(f"{describe(store)} has no version {version} of {dataset_id!r} (it has: {', '.join(f'v{v}' for v in sorted(versions))})")
    hex_digest, manifest_bytes, manifest = _stored_manifest(store, dataset_id, version, versions[version])
    prefix = dataset_prefix(dataset_id, version, hex_digest)
    where = f"{store.url} {prefix}/{ds.MANIFEST}"
    output = Path(output) if output is not None else default_pull_dir(dataset_id, version, registry)
    if output.exists() and (not output.is_dir() or any(output.iterdir())):
        raise EnviroBenchError(f"will not pull into {output}: it exists and is not an empty directory (choose another --output)")
    output.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{output.name}.pulling-", dir=output.parent))
    staging.chmod(dir_mode())  # mkdtemp's 0700 would make the pulled dataset private
    try:
        (staging / ds.MANIFEST).write_bytes(manifest_bytes)
        step = _counter(on_progress, f"pull {dataset_id} v{version}", len(manifest.files))
        for index, entry in enumerate(manifest.files):
            ds.check_relative_path(entry.path, file=where, field=f"$.files[{index}].path")
            if entry.path == ds.MANIFEST:
                raise ChecksumMismatch("the manifest must not list itself", file=where, field=f"$.files[{index}].path")
            store.get(f"{prefix}/{entry.path}", staging / entry.path, entry.sha256)
            step()
        validated = manifest.benchmark in registry.benchmark_types
        if validated:
            ds.validate(staging, registry)
        else:
            ds.verify_files(staging, manifest)
        if manifest.visibility == PRIVATE and store.visibility == PUBLIC:
            print(f"warning: the private dataset {dataset_id!r} was found in the public store {store.url}", file=sys.stderr)
        if output.exists():
            output.rmdir()  # an empty directory the user made for it
        staging.rename(output)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return PullResult(dataset_id, version, "sha256:" + hex_digest, output, len(manifest.files) + 1, validated)


def _stored_manifest(store: Store, dataset_id: str, version: int, digests: list[str]) -> tuple[str, bytes, Manifest]:
    """(digest hex, bytes, manifest) of the one stored copy of a version whose manifest
    reproduces the digest in its key; a copy stored under the files-only digest of earlier
    versions is passed over."""
    current: list[tuple[str, bytes, Manifest]] = []
    files_only: list[str] = []
    for hex_digest in digests:
        prefix = dataset_prefix(dataset_id, version, hex_digest)
        where = f"{store.url} {prefix}/{ds.MANIFEST}"
        data = read_object(store, f"{prefix}/{ds.MANIFEST}", None, max_bytes=ds.MAX_MANIFEST_BYTES)  # verified below, by its key
        manifest = _read_stored_manifest(data, where)
        if manifest.id != dataset_id or manifest.version != version:
            raise ChecksumMismatch(f"the manifest says {manifest.id} v{manifest.version}, its key says {dataset_id} v{version}: the stored manifest was altered", file=where, field="$.id")
        try:
            ds.check_digests(manifest, where)
        except EnviroBenchError as exc:
            raise ChecksumMismatch(f"{exc.message}: the stored manifest was altered", file=where, field=exc.field) from None
        actual = ds.dataset_digest(manifest)
        if actual == "sha256:" + hex_digest:
            current.append((hex_digest, data, manifest))
        elif ds.files_only_digest(manifest.input_digest, manifest.answer_digest) == "sha256:" + hex_digest:
            files_only.append(hex_digest)
        else:
            raise ChecksumMismatch(f"the manifest gives digest {actual}, its key says sha256:{hex_digest}: the stored manifest was altered", file=where)
    if len(current) == 1:
        return current[0]
    if current:
        raise StoreError(f"{describe(store)} holds {dataset_id} v{version} with {len(current)} different digests ({', '.join(c[0] for c in current)}); the store was written outside EnviroBench")
    raise StoreError(
        f"{describe(store)} holds {dataset_id} v{version} only under the files-only digest earlier versions of EnviroBench gave it (sha256:{files_only[0]}), "
        "which covers its files but not the rest of its manifest (title, retirements, ...), so the stored manifest cannot be verified; "
        f"push the dataset again from a checked copy (envirobench datasets push {dataset_id} --store ...)"
    )


def _read_stored_manifest(data: bytes, where: str) -> Manifest:
    try:
        return structure(parse_json_bytes(data, file=where), Manifest, file=where)
    except EnviroBenchError as exc:
        raise ChecksumMismatch(f"{exc.message}: the stored manifest is corrupted or was altered", file=exc.file, line=exc.line, field=exc.field) from None


# -- runs ---------------------------------------------------------------------------------------


@attrs.frozen
class ArchivedFile:
    path: str
    size: int
    sha256: str


@attrs.frozen
class RunArchive:
    """`.envirobench-archive.json`: every file of an archived run, pinned."""

    format: Literal["envirobench.run-archive.v1"]
    run_id: str
    files: tuple[ArchivedFile, ...]


@attrs.frozen
class RestoreRecord:
    """`.envirobench-restored.json` in a restored run: the store, the archive and the listing its
    files were verified against (only the store can vouch for it). Archiving leaves it out."""

    format: Literal["envirobench.restored-run.v1"]
    run_id: str
    store: str  # the store's URL
    archive: str  # the archive's key prefix in the store: runs/<benchmark>/<run id>
    listing_sha256: str  # SHA-256 of the archive's listing (.envirobench-archive.json)
    promoted: bool  # the listing had the SHA-256 a promotion recorded; false: taken as found (a shard)
    files: tuple[ArchivedFile, ...]


@attrs.frozen
class ArchivedRun:
    run_id: str
    sha256: str  # SHA-256 of the archive listing: what bench.json records
    uploaded: int
    already_there: int


def run_prefix(run_id: str, benchmark: str | None = None) -> str:
    """`runs/<benchmark>/<run id>`; without a benchmark, `runs/<run id>`, where earlier versions
    archived runs (read, never written)."""
    if benchmark is None:
        return join_key(RUNS, run_id)
    try:
        return join_key(RUNS, check_key(benchmark), run_id)
    except StoreError:
        raise StoreError(f"benchmark ID {benchmark!r} cannot be a store key") from None


def _run_listing(run_dir: Path, run_id: str) -> RunArchive:
    entries = []
    root = run_dir.resolve()
    for full in sorted(run_dir.rglob("*")):
        rel = full.relative_to(run_dir).as_posix()
        if full.is_symlink():
            raise EnviroBenchError(f"{rel!r} is a symbolic link; a promoted run holds regular files only", file=run_dir)
        if full.is_dir():
            continue
        if not full.is_file():
            raise EnviroBenchError(f"{rel!r} is not a regular file", file=run_dir)
        if rel == ARCHIVE_LISTING:
            raise EnviroBenchError(f"the run directory holds {ARCHIVE_LISTING}, a name the archive reserves", file=run_dir)
        if rel == RESTORE_RECORD:
            continue  # where this copy came from, not part of the run: archived again, it has the same listing
        if root not in full.resolve().parents:
            raise EnviroBenchError(f"{rel!r} leaves the run directory", file=run_dir)
        check_key(rel)
        entries.append(ArchivedFile(rel, full.stat().st_size, sha256_file(full)))
    return RunArchive(RUN_ARCHIVE_FORMAT, run_id, tuple(entries))


def archive_run(run_dir: Path, store: Store, *, on_progress: Progress | None = None) -> ArchivedRun:
    """Upload a completed run under `runs/<benchmark>/<run id>/`, every file verified, its
    listing and then run.json last."""
    run = read_completed_run(run_dir)
    run_id = run.run_id
    if store.visibility != PRIVATE:
        raise Refused(f"refused: runs are archived only to private stores, and {store.url} is public (a run holds answers and predictions)")
    listing = _run_listing(run_dir, run_id)
    listing_bytes = dumps(unstructure(listing)).encode("utf-8")
    listing_sha = sha256_bytes(listing_bytes)
    prefix = run_prefix(run_id, run.benchmark.id)
    with contextlib.suppress(ObjectNotFound):
        stored = read_object(store, f"{prefix}/{ARCHIVE_LISTING}", None)
        if sha256_bytes(stored) != listing_sha:
            raise ObjectConflict(
                f"refused: {describe(store)} already holds a different {run.benchmark.id} run {run_id!r} (its files differ from {run_dir}); "
                "archived runs are never replaced: make the run again under another --run ID"
            )
    uploaded = already = 0
    last = None
    step = _counter(on_progress, f"archive {run_id}", len(listing.files) + 1)
    for entry in listing.files:
        if entry.path == RUN_FILE:
            last = entry
            continue
        counted = store.put(f"{prefix}/{entry.path}", run_dir / entry.path, entry.sha256)
        uploaded, already = uploaded + counted, already + (not counted)
        step()
    counted = store.put(f"{prefix}/{ARCHIVE_LISTING}", listing_bytes, listing_sha)
    uploaded, already = uploaded + counted, already + (not counted)
    step()
    assert last is not None  # read_completed_run found run.json
    counted = store.put(f"{prefix}/{RUN_FILE}", run_dir / RUN_FILE, last.sha256)
    uploaded, already = uploaded + counted, already + (not counted)
    step()
    return ArchivedRun(run_id, listing_sha, uploaded, already)


def _find_archive(run_id: str, sha256: str | None, store: Store, benchmark: str | None) -> tuple[str, bytes]:
    """(prefix, listing bytes) of the run's archive: under `runs/<benchmark>/<run id>/`, else
    where earlier versions put it, `runs/<run id>/`. The listing must have the promoted SHA-256:
    another run under the same ID (another profile's, sharing the store) is passed over, and is
    reported only when no archive has it. With sha256=None (a shard, found by its key: merge.py)
    the first listing found is taken."""
    prefixes = [run_prefix(run_id, benchmark)] if benchmark is not None else []
    prefixes.append(run_prefix(run_id))
    mismatch: ChecksumMismatch | None = None
    for prefix in prefixes:
        try:
            return prefix, read_object(store, f"{prefix}/{ARCHIVE_LISTING}", sha256)
        except ObjectNotFound:
            continue
        except ChecksumMismatch as exc:
            mismatch = mismatch or exc
    if mismatch is not None:
        raise mismatch
    where = " or ".join(f"{p}/" for p in prefixes)
    raise ObjectNotFound(f"{describe(store)} holds no archive of run {run_id!r} (looked in {where}); promote it there again (envirobench bench promote)")


def restore_run(
    run_id: str, sha256: str | None, store: Store, results_dir: Path, *, benchmark: str | None = None, on_progress: Progress | None = None
) -> Path:
    """Download an archived run into results_dir/run_id, every file verified; never over a run.

    With `benchmark`, the archive is looked for under `runs/<benchmark>/<run id>/` and then
    under `runs/<run id>/` (earlier versions' layout), and the restored run must be of that
    benchmark; without, only under `runs/<run id>/`. `sha256` is the archive listing's, as a
    promotion recorded it; None takes the listing found (every file is still verified against it);
    `RestoreRecord` says so in the restored run."""
    final = Path(results_dir) / run_id
    if final.exists() or final.is_symlink():
        raise EnviroBenchError(f"will not restore over the existing {final}")
    prefix, listing_bytes = _find_archive(run_id, sha256, store, benchmark)
    where = f"{store.url} {prefix}/{ARCHIVE_LISTING}"
    try:
        listing = structure(parse_json_bytes(listing_bytes, file=where), RunArchive, file=where)
    except EnviroBenchError as exc:
        raise StoreError(f"not a valid archive listing: {exc.message}", file=exc.file, line=exc.line, field=exc.field) from None
    if listing.run_id != run_id:
        raise StoreError(f"{where}: the listing is for run {listing.run_id!r}, not {run_id!r}")
    paths = {f.path for f in listing.files}
    if RUN_FILE not in paths:
        raise StoreError(f"{where}: the listing has no {RUN_FILE}")
    if RESTORE_RECORD in paths:
        raise StoreError(f"{where}: the listing holds {RESTORE_RECORD}, a name a restore reserves")
    if not store.exists(f"{prefix}/{RUN_FILE}"):
        raise StoreError(f"{describe(store)}: the archive of run {run_id!r} is incomplete ({RUN_FILE}, uploaded last, is missing); promote it again")
    final.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{run_id}.restoring-", dir=final.parent))
    staging.chmod(dir_mode())  # a restored run is as readable as one made here
    try:
        step = _counter(on_progress, f"restore {run_id}", len(listing.files))
        for entry in listing.files:
            check_key(entry.path)
            store.get(f"{prefix}/{entry.path}", staging / entry.path, entry.sha256)
            step()
        run = read_completed_run(staging)
        if run.run_id != run_id:
            raise StoreError(f"{describe(store)}: the archived run.json of {run_id!r} is for run {run.run_id!r}")
        if benchmark is not None and run.benchmark.id != benchmark:
            raise StoreError(f"{describe(store)}: the archived run {run_id!r} is a {run.benchmark.id!r} run, not a {benchmark!r} run")
        record = RestoreRecord(RESTORE_RECORD_FORMAT, run_id, store.url, prefix, sha256_bytes(listing_bytes), sha256 is not None, listing.files)
        (staging / RESTORE_RECORD).write_text(dumps(unstructure(record)), encoding="utf-8")
        staging.rename(final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return final
