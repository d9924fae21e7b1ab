"""The `s3` store against a real S3-compatible server (SeaweedFS, started by conftest.py).

Round trip, corruption detected on pull, no overwrite, interrupted upload invisible,
private-to-public refused, and promoted runs restored on a second results directory with the
paired run matching the one made where they were promoted.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from scripted_adapters import adapter_executable
from store_checks import push_interrupted

from envirobench import datasets as ds
from envirobench import plugins
from envirobench.cli import main
from envirobench.stores import ChecksumMismatch, ObjectConflict, ObjectNotFound, StoreError
from envirobench.stores.config import open_store
from envirobench.stores.s3 import S3Store
from envirobench.stores.transfer import RESTORE_RECORD
from envirobench.testing import (
    Interrupted,
    InterruptedReader,
    adapters_plugin,
    toy_plugin,
    write_count_dataset,
)

FAKE_ADAPTER = Path(__file__).resolve().parents[1] / "core" / "adapters" / "fake_adapter.py"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def raw_keys(s3) -> list[str]:
    pages = s3.client.get_paginator("list_objects_v2").paginate(Bucket=s3.bucket, Prefix=s3.prefix + "/")
    return sorted(item["Key"] for page in pages for item in page.get("Contents", ()))


@pytest.fixture
def registry(use_registry, tmp_path, monkeypatch):
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "")
    dataset = write_count_dataset(tmp_path / "count-v1", 12)
    fake = tmp_path / "fake-adapter"
    adapter_executable(fake, "fake_adapter.py")

    reg = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", dataset))), ("fakes", adapters_plugin(fake=str(fake)))])
    use_registry(reg)
    return reg


@pytest.fixture
def store(s3, registry) -> S3Store:
    opened = open_store(s3.url, registry)
    assert isinstance(opened, S3Store) and opened.visibility == "private"
    return opened


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_round_trip(s3, store, tmp_path):
    data = b"tetrachloroethene 12 ug/L\n" * 5000
    path = tmp_path / "table.txt"
    path.write_bytes(data)
    assert store.put("a/table.txt", path, sha(data)) is True
    assert store.put("a/small.json", b"{}", sha(b"{}")) is True
    assert store.put("a/table.txt", data, sha(data)) is False  # the same bytes: a no-op
    assert store.put("a/table.txt", io.BytesIO(data), sha(data)) is False
    assert store.exists("a/table.txt") and not store.exists("a/nothing")
    assert store.list("a/") == ["a/small.json", "a/table.txt"]
    assert raw_keys(s3) == [f"{s3.prefix}/a/small.json", f"{s3.prefix}/a/table.txt"]
    assert store.get("a/table.txt", tmp_path / "out/table.txt", sha(data)) == sha(data)
    assert (tmp_path / "out/table.txt").read_bytes() == data
    # The service verified and kept the SHA-256 sent with the upload.
    head = s3.client.head_object(Bucket=s3.bucket, Key=f"{s3.prefix}/a/table.txt", ChecksumMode="ENABLED")
    assert base64.b64decode(head["ChecksumSHA256"]).hex() == sha(data)
    assert "PutObject" in s3.calls and not any(c.startswith("CreateMultipartUpload") for c in s3.calls)
    with pytest.raises(ObjectNotFound):
        store.get("a/nothing", tmp_path / "x", None)


def test_endpoint_in_the_url(s3, registry, monkeypatch, tmp_path):
    monkeypatch.delenv("AWS_ENDPOINT_URL")
    opened = open_store(f"{s3.url}?endpoint={s3.endpoint}", registry)
    assert opened.put("k", b"v", sha(b"v")) is True
    assert opened.list() == ["k"]


def test_a_wrong_checksum_stores_nothing(s3, store):
    with pytest.raises(ChecksumMismatch, match="nothing was uploaded"):
        store.put("k1", b"sent", sha(b"meant"))
    # A stream is checked by the service itself against the SHA-256 sent with it.
    with pytest.raises(ChecksumMismatch, match="nothing was stored"):
        store.put("k2", io.BytesIO(b"sent"), sha(b"meant"))
    assert store.list() == [] and raw_keys(s3) == []


def test_overwriting_with_different_bytes_is_refused(s3, store, tmp_path):
    store.put("runs/r1/run.json", b"original", sha(b"original"))
    with pytest.raises(ObjectConflict, match="never replaced"):
        store.put("runs/r1/run.json", b"changed", sha(b"changed"))
    with pytest.raises(ObjectConflict):
        store.put("runs/r1/run.json", io.BytesIO(b"changed"), sha(b"changed"))
    store.get("runs/r1/run.json", tmp_path / "check", sha(b"original"))
    assert (tmp_path / "check").read_bytes() == b"original"


def test_create_only_upload_loses_a_race_without_replacing(s3, store):
    """Another writer creates the key after our existence check: If-None-Match refuses our PUT."""
    key = f"{s3.prefix}/raced"
    original_head = store._head
    first = {"done": False}

    def head_then_race(full, shown):
        result = original_head(full, shown)
        if not first["done"]:
            first["done"] = True
            s3.client.put_object(Bucket=s3.bucket, Key=key, Body=b"the other writer")
        return result

    store._head = head_then_race
    with pytest.raises(ObjectConflict):
        store.put("raced", b"mine", sha(b"mine"))
    assert s3.client.get_object(Bucket=s3.bucket, Key=key)["Body"].read() == b"the other writer"


def test_an_interrupted_upload_leaves_no_visible_object(s3, store):
    data = bytes(range(256)) * 8192  # 2 MiB
    with pytest.raises(Interrupted):
        store.put("datasets/big.bin", InterruptedReader(data, after=700_000), sha(data))
    assert not store.exists("datasets/big.bin")
    assert store.list() == [] and raw_keys(s3) == []
    assert store.put("datasets/big.bin", data, sha(data)) is True  # and it can be made again


def test_dataset_push_pull_round_trip(s3, registry, tmp_path):
    pushed = cli("datasets", "push", "test/count-words-v1", "--store", s3.url, "--json")
    assert pushed.exit_code == 0, pushed.output
    report = json.loads(pushed.output)
    digest = ds.load_dataset("test/count-words-v1", registry).identity.digest
    assert report["digest"] == digest and report["uploaded"] == 3
    prefix = f"{s3.prefix}/datasets/test/count-words-v1/v1/{digest.removeprefix('sha256:')}"
    assert raw_keys(s3) == sorted(f"{prefix}/{n}" for n in ("answers.jsonl", "cases.jsonl", "manifest.json"))
    again = json.loads(cli("datasets", "push", "test/count-words-v1", "--store", s3.url, "--json").output)
    assert (again["uploaded"], again["already_there"]) == (0, 3)
    out = tmp_path / "pulled"
    pulled = cli("datasets", "pull", "test/count-words-v1", "--store", s3.url, "--output", out, "--json")
    assert pulled.exit_code == 0, pulled.output
    assert json.loads(pulled.output)["validated"] is True
    source = registry.datasets["test/count-words-v1"].path
    for name in ("manifest.json", "cases.jsonl", "answers.jsonl"):
        assert (out / name).read_bytes() == (source / name).read_bytes()


def test_a_corrupted_object_is_detected_on_pull(s3, registry, tmp_path):
    pushed = json.loads(cli("datasets", "push", "test/count-words-v1", "--store", s3.url, "--json").output)
    key = f"{s3.prefix}/{pushed['prefix']}/cases.jsonl"
    stored = s3.client.get_object(Bucket=s3.bucket, Key=key)["Body"].read()
    # Replace the object behind the store's back (bit rot, or a hand edit in the bucket).
    s3.client.put_object(Bucket=s3.bucket, Key=key, Body=stored.replace(b"word", b"ward", 1))
    out = tmp_path / "pulled"
    result = cli("datasets", "pull", "test/count-words-v1", "--store", s3.url, "--output", out)
    assert result.exit_code == 1
    assert "cases.jsonl" in result.output and "corrupted" in result.output
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".pulled")] == []


def test_a_private_dataset_is_refused_by_a_public_store(s3, registry):
    root = registry.datasets["test/count-words-v1"].path
    manifest = ds.read_manifest(root)
    ds.write_manifest(root, dataset_id=manifest.id, version=1, benchmark=manifest.benchmark, title=manifest.title, visibility="private")
    result = cli("datasets", "push", "test/count-words-v1", "--store", f"{s3.url}?visibility=public")
    assert result.exit_code == 1
    assert "refused: dataset 'test/count-words-v1' is private" in result.output and "public store" in result.output
    assert raw_keys(s3) == []
    assert cli("datasets", "push", "test/count-words-v1", "--store", s3.url).exit_code == 0  # private: fine


def test_an_interrupted_push_leaves_no_visible_dataset(s3, registry, store, monkeypatch, tmp_path):
    push_interrupted(monkeypatch, store, registry, fails=lambda key, n: key.endswith("manifest.json"))
    assert len(raw_keys(s3)) == 2  # the files are there, but not as a dataset
    result = cli("datasets", "pull", "test/count-words-v1", "--store", s3.url, "--output", tmp_path / "x")
    assert result.exit_code == 1 and "no complete copy" in result.output


def test_a_new_version_with_other_bytes_is_refused(s3, registry, tmp_path):
    assert cli("datasets", "push", "test/count-words-v1", "--store", s3.url).exit_code == 0
    changed = write_count_dataset(tmp_path / "changed", 12, answer_overrides={"c000003": 9})
    result = cli("datasets", "push", changed, "--store", s3.url)
    assert result.exit_code == 1 and "a stored version is never replaced" in result.output


def test_promoted_runs_are_restored_on_a_second_results_directory(s3, registry, tmp_path, monkeypatch):
    """Promote where the runs were made; on 'another machine' (a second results directory and
    working directory) the paired run restores them from S3 and matches the original."""
    profile = {
        "format": "envirobench.bench.v1", "benchmark": "count-words", "dataset": "test/count-words-v1",
        "adapter": "fake",
        "adapters": {"fake": {"model": "test/model", "options": {"off": "c000003:2"}, "baseline": None, "controls": []}},
        "gate": ["exact"], "targets": [], "budget_usd": 0.0, "results": "results", "store": s3.url,
    }
    plugin = tmp_path / "plugin"
    bench_json = plugin / "benchmarks" / "count-words" / "bench.json"
    bench_json.parent.mkdir(parents=True)
    bench_json.write_text(json.dumps(profile))
    first, second = tmp_path / "machine-1", tmp_path / "machine-2"
    first.mkdir()
    second.mkdir()

    def bench(*args):
        result = cli("bench", *args, "--plugin", plugin)
        assert result.exit_code == 0, result.output
        return result

    monkeypatch.chdir(first)
    bench("run", "count-words", "--run", "base", "--unpaired")
    bench("run", "count-words", "--run", "ctl", "--unpaired")
    bench("promote", "count-words", "results/base", "--control", "results/ctl")
    assert f"{s3.prefix}/runs/count-words/base/run.json" in raw_keys(s3)  # namespaced by benchmark
    bench("run", "count-words", "--run", "cand")

    monkeypatch.chdir(second)
    plan = bench("run", "count-words", "--run", "cand", "--plan")
    assert "--baseline-run results/base --control-run results/ctl" in plan.stdout
    assert not (second / "results").exists()
    bench("run", "count-words", "--run", "cand")
    for run_id in ("base", "ctl"):
        mine, theirs = first / "results" / run_id, second / "results" / run_id
        files = sorted(p.relative_to(mine).as_posix() for p in mine.rglob("*") if p.is_file())
        # The restored copy holds one file more: where it came from (the leaderboard shows it).
        assert sorted([*files, RESTORE_RECORD]) == sorted(p.relative_to(theirs).as_posix() for p in theirs.rglob("*") if p.is_file())
        assert json.loads((theirs / RESTORE_RECORD).read_text())["store"] == s3.url
        assert all((mine / f).read_bytes() == (theirs / f).read_bytes() for f in files)
    assert (second / "results/cand/metrics.json").read_bytes() == (first / "results/cand/metrics.json").read_bytes()
    made = json.loads((second / "results/cand/run.json").read_text())
    assert made["gate"]["status"] == "passed" and made["pairing"]["baseline"]["run_id"] == "base"


def test_a_missing_bucket_is_named(s3, registry):
    opened = open_store(f"s3://no-such-bucket-{s3.prefix.lower()[-8:]}/x", registry)
    with pytest.raises(StoreError, match="bucket 'no-such-bucket-.*' does not exist .*create it first"):
        opened.put("k", b"v", sha(b"v"))


def test_wrong_credentials_are_explained(s3, registry, monkeypatch):
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret")
    opened = open_store(s3.url, registry)
    with pytest.raises(StoreError, match="check the credentials"):
        opened.put("k", b"v", sha(b"v"))
