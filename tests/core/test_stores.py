"""Stores: the `file` store's promises, naming stores, and datasets pushed and pulled through one.

The same promises are checked against a real S3-compatible server in tests/stores.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner
from store_checks import push_interrupted

from envirobench import datasets as ds
from envirobench import plugins
from envirobench.cli import main
from envirobench.cli.common import ProgressBars
from envirobench.errors import EnviroBenchError
from envirobench.state import STATE_ENV, find_project
from envirobench.stores import (
    UPLOAD_PREFIX,
    ChecksumMismatch,
    ObjectConflict,
    ObjectNotFound,
    Store,
    StoreError,
    check_key,
    sha256_bytes,
)
from envirobench.stores.config import (
    STORES_ENV,
    config_files,
    configured_stores,
    open_store,
    rebase_store,
    resolve,
)
from envirobench.stores.file import FileStore
from envirobench.stores.transfer import pull_dataset, push_dataset, stored_versions
from envirobench.testing import Interrupted, InterruptedReader, toy_plugin, write_count_dataset


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def store(tmp_path) -> FileStore:
    return FileStore(tmp_path / "store", "private")


def visible_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


# -- the file store ---------------------------------------------------------------------------


def test_file_store_round_trip(store, tmp_path):
    data = b"benzene 0.5 ug/L\n" * 1000
    source = tmp_path / "source.bin"
    source.write_bytes(data)
    assert isinstance(store, Store)
    assert store.put("a/b/source.bin", source, sha(data)) is True
    assert store.put("a/c.txt", b"hello", sha(b"hello")) is True
    assert store.exists("a/b/source.bin") and not store.exists("a/b/other")
    assert store.list() == ["a/b/source.bin", "a/c.txt"]
    assert store.list("a/b/") == ["a/b/source.bin"]
    assert store.list("a/c") == ["a/c.txt"]
    assert store.list("zzz/") == []
    out = tmp_path / "out" / "copy.bin"
    assert store.get("a/b/source.bin", out, sha(data)) == sha(data)
    assert out.read_bytes() == data
    # The same bytes again are a no-op, from a path, bytes or a stream alike.
    assert store.put("a/b/source.bin", data, sha(data)) is False
    assert store.put("a/b/source.bin", io.BytesIO(data), sha(data)) is False
    # Stored objects are read-only files.
    assert not os.stat(store.root / "a/b/source.bin").st_mode & 0o222


def test_put_verifies_the_stated_checksum(store):
    with pytest.raises(ChecksumMismatch, match="nothing was stored"):
        store.put("x.txt", b"what was sent", sha(b"what was meant"))
    assert not store.exists("x.txt")
    assert store.list() == []
    assert visible_files(store.root) == []  # no temporary file left either


def test_corrupted_object_is_detected_on_get(store, tmp_path):
    store.put("d/cases.jsonl", b'{"id": "c1"}\n', sha(b'{"id": "c1"}\n'))
    path = store.root / "d/cases.jsonl"
    path.chmod(0o644)
    path.write_bytes(b'{"id": "c2"}\n')  # bit rot, or someone editing the store by hand
    dest = tmp_path / "pulled" / "cases.jsonl"
    with pytest.raises(ChecksumMismatch, match="corrupted or was altered"):
        store.get("d/cases.jsonl", dest, sha(b'{"id": "c1"}\n'))
    assert not dest.exists()
    assert list(dest.parent.iterdir()) == []  # no temporary download left


def test_different_bytes_never_replace_a_stored_object(store, tmp_path):
    store.put("runs/r1/run.json", b"original", sha(b"original"))
    with pytest.raises(ObjectConflict, match="never replaced"):
        store.put("runs/r1/run.json", b"changed", sha(b"changed"))
    store.get("runs/r1/run.json", tmp_path / "check", sha(b"original"))
    assert (tmp_path / "check").read_bytes() == b"original"


def test_a_racing_upload_does_not_replace_the_winner(store, monkeypatch):
    """Another writer creates the key between our check and our link: the link refuses."""
    real_link = os.link

    def racing_link(src, dst):
        Path(dst).write_bytes(b"the other writer's bytes")
        return real_link(src, dst)

    monkeypatch.setattr(os, "link", racing_link)
    with pytest.raises(ObjectConflict):
        store.put("k", b"mine", sha(b"mine"))
    assert (store.root / "k").read_bytes() == b"the other writer's bytes"
    assert store.list() == ["k"]


def test_interrupted_upload_leaves_no_visible_object(store):
    data = os.urandom(3 * 1024 * 1024)
    with pytest.raises(Interrupted):
        store.put("datasets/big.bin", InterruptedReader(data, after=1024 * 1024 + 17), sha(data))
    assert not store.exists("datasets/big.bin")
    assert store.list() == []
    assert [p.name for p in (store.root / "datasets").iterdir()] == []
    # A crash (no cleanup at all) leaves only a hidden temporary name, which is never listed.
    (store.root / "datasets" / f"{UPLOAD_PREFIX}crashed").write_bytes(data[:100])
    assert store.list() == [] and not store.exists("datasets/big.bin")
    # The upload can simply be made again.
    assert store.put("datasets/big.bin", data, sha(data)) is True


def test_nothing_ever_deletes(store, tmp_path):
    for attr in ("delete", "remove", "unlink", "delete_object"):
        assert not hasattr(store, attr)
        assert not hasattr(Store, attr)
    keys = {f"k{i}": f"v{i}".encode() for i in range(5)}
    for key, data in keys.items():
        store.put(key, data, sha(data))
    for key in keys:  # conflicting puts, idempotent puts and reads change nothing
        with pytest.raises(ObjectConflict):
            store.put(key, b"other", sha(b"other"))
        store.put(key, keys[key], sha(keys[key]))
        store.get(key, tmp_path / "reads" / key, sha(keys[key]))
    assert store.list() == sorted(keys)
    assert {k: (store.root / k).read_bytes() for k in keys} == keys


def test_get_never_writes_over_an_existing_file(store, tmp_path):
    store.put("k", b"data", sha(b"data"))
    dest = tmp_path / "dest"
    dest.write_bytes(b"mine")
    with pytest.raises(StoreError, match="over the existing file"):
        store.get("k", dest, sha(b"data"))
    assert dest.read_bytes() == b"mine"
    with pytest.raises(ObjectNotFound):
        store.get("missing", tmp_path / "x", None)


@pytest.mark.parametrize("key", ["", "/abs", "a//b", "a/../b", "./a", "a\\b", f"a/{UPLOAD_PREFIX}x", "a/"])
def test_invalid_keys_are_refused(store, key):
    with pytest.raises(StoreError, match="invalid store key"):
        check_key(key)
    with pytest.raises(StoreError):
        store.put(key, b"x", sha(b"x"))


# -- naming stores ----------------------------------------------------------------------------


def test_urls_and_visibility(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = resolve("file:rel/store")
    assert spec.url == (tmp_path / "rel/store").as_uri() and spec.visibility == "private"
    assert resolve("file:///srv/x?visibility=public").visibility == "public"
    assert resolve("s3://bucket/prefix?endpoint=http://127.0.0.1:9000&visibility=private").url == "s3://bucket/prefix?endpoint=http%3A%2F%2F127.0.0.1%3A9000"
    with pytest.raises(StoreError, match="credentials do not belong"):
        resolve("s3://AKIA:secret@bucket/prefix")
    with pytest.raises(StoreError, match="visibility must be 'public' or 'private'"):
        resolve("file:x?visibility=secret")
    with pytest.raises(StoreError, match="file URLs name a local directory"):
        resolve("file://otherhost/x")


def test_named_stores_from_a_config_file(tmp_path, monkeypatch):
    config = tmp_path / "conf" / "stores.toml"
    config.parent.mkdir()
    config.write_text(
        '[stores.team]\nurl = "file:team-store"\n\n'
        '[stores.published]\nurl = "s3://pub-bucket/envirobench"\nvisibility = "public"\nregion = "eu-west-1"\n'
    )
    monkeypatch.setenv(STORES_ENV, str(config))
    stores = configured_stores()
    assert stores["team"].url == (tmp_path / "conf" / "team-store").as_uri()  # relative to the file
    assert stores["team"].visibility == "private"
    assert stores["published"].url == "s3://pub-bucket/envirobench?region=eu-west-1"
    assert stores["published"].visibility == "public"
    registry = plugins.build_registry()
    opened = open_store("team", registry)
    assert isinstance(opened, FileStore) and opened.root == tmp_path / "conf" / "team-store"
    with pytest.raises(StoreError, match=r"unknown store 'nope'.*configured: published, team"):
        resolve("nope")


def test_the_project_configuration_is_found_from_a_subdirectory(tmp_path, monkeypatch):
    monkeypatch.delenv(STORES_ENV, raising=False)
    monkeypatch.delenv(STATE_ENV, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    (tmp_path / "envirobench.toml").write_text('[stores.team]\nurl = "file:team-store"\n')
    deeper = tmp_path / "a" / "b"
    deeper.mkdir(parents=True)
    monkeypatch.chdir(deeper)
    assert config_files()[0] == tmp_path / "envirobench.toml"
    assert configured_stores()["team"].url == (tmp_path / "team-store").as_uri()
    project = find_project()
    assert (project.root, project.state, project.origin) == (tmp_path, tmp_path / ".envirobench", "found")
    # A state directory nearer the current directory makes a nearer project.
    (tmp_path / "a" / ".envirobench").mkdir()
    assert find_project().root == tmp_path / "a" and "team" not in configured_stores()


def test_a_store_given_on_the_command_line_is_rebased_for_a_profile(tmp_path, monkeypatch):
    monkeypatch.delenv(STATE_ENV, raising=False)
    (tmp_path / ".envirobench").mkdir()
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    project = find_project()
    assert rebase_store("file:store", project) == "file:sub/store"
    assert rebase_store("file:../x?visibility=private", project) == "file:x?visibility=private"
    for unchanged in ("team", "file:///srv/store", "s3://bucket/prefix"):
        assert rebase_store(unchanged, project) == unchanged
    assert resolve(rebase_store("file:store", project), base=project.root).url == (tmp_path / "sub/store").as_uri()


def test_config_errors_name_the_file_and_field(tmp_path, monkeypatch):
    config = tmp_path / "stores.toml"
    monkeypatch.setenv(STORES_ENV, str(config))
    with pytest.raises(StoreError, match="does not exist"):
        configured_stores()
    config.write_text('[stores.bad]\nurl = "file:x?visibility=public"\nvisibility = "private"\n')
    with pytest.raises(StoreError, match=r"stores.toml stores.bad: .*visibility=public.*private"):
        configured_stores()
    config.write_text("[stores.bad\n")
    with pytest.raises(StoreError, match="not valid TOML"):
        configured_stores()


def test_unknown_scheme_and_options(tmp_path):
    registry = plugins.build_registry()
    assert {"file", "s3"} <= set(registry.stores)
    with pytest.raises(StoreError, match=r"no plugin registers the store scheme 'gs'.*file, s3"):
        open_store("gs://bucket/x", registry)
    with pytest.raises(StoreError, match="unknown s3 store option"):
        open_store("s3://bucket/x?colour=blue", registry)
    with pytest.raises(StoreError, match="file stores take no options"):
        open_store(f"file://{tmp_path}?colour=blue", registry)


# -- datasets through a store -----------------------------------------------------------------


@pytest.fixture
def count_registry(count_dataset):
    return plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", count_dataset)))])


def make_private(root: Path) -> None:
    manifest = ds.read_manifest(root)
    ds.write_manifest(root, dataset_id=manifest.id, version=manifest.version, benchmark=manifest.benchmark, title=manifest.title, visibility="private")


def test_dataset_push_pull_round_trip(tmp_path, count_dataset, count_registry, store):
    pushed = push_dataset("test/count-words-v1", store, count_registry)
    identity = ds.load_dataset("test/count-words-v1", count_registry).identity
    assert pushed.digest == identity.digest and pushed.uploaded == 3 and pushed.already_there == 0
    prefix = f"datasets/test/count-words-v1/v1/{identity.digest.removeprefix('sha256:')}"
    assert store.list("datasets/") == sorted(f"{prefix}/{n}" for n in ("answers.jsonl", "cases.jsonl", "manifest.json"))
    assert stored_versions(store, "test/count-words-v1") == {1: [identity.digest.removeprefix("sha256:")]}
    again = push_dataset(str(count_dataset), store, count_registry)  # by directory: the same dataset
    assert (again.uploaded, again.already_there) == (0, 3)
    pulled = pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled")
    assert pulled.validated and pulled.version == 1 and pulled.digest == identity.digest
    for name in ("manifest.json", "cases.jsonl", "answers.jsonl"):
        assert (tmp_path / "pulled" / name).read_bytes() == (count_dataset / name).read_bytes()
    assert ds.validate(tmp_path / "pulled", count_registry).identity == identity
    with pytest.raises(EnviroBenchError, match="not an empty directory"):
        pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled")


def test_push_and_pull_report_progress(tmp_path, count_registry, store):
    calls = []
    push_dataset("test/count-words-v1", store, count_registry, on_progress=lambda *a: calls.append(a))
    assert calls == [("push test/count-words-v1 v1", n, 3) for n in range(4)]  # two files, then the manifest
    calls.clear()
    pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled", on_progress=lambda *a: calls.append(a))
    assert calls == [("pull test/count-words-v1 v1", n, 2) for n in range(3)]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bars_are_drawn_only_on_a_terminal():
    terminal = Terminal()
    with ProgressBars(terminal) as progress:
        for label, total in (("archive base", 4), ("archive ctl", 2)):
            for done in range(total + 1):
                progress(label, done, total)
    drawn = terminal.getvalue()
    assert "archive base" in drawn and "archive ctl" in drawn and "100%" in drawn
    log = io.StringIO()
    with ProgressBars(log) as progress:
        progress("push x v1", 0, 1)
        progress("push x v1", 1, 1)
    assert log.getvalue() == ""


def test_a_version_is_never_replaced_by_other_bytes(tmp_path, count_registry, store):
    push_dataset("test/count-words-v1", store, count_registry)
    changed = write_count_dataset(tmp_path / "changed", 12, answer_overrides={"c000003": 9})
    with pytest.raises(StoreError, match="give the revision a new version"):
        push_dataset(str(changed), store, count_registry)
    revision = write_count_dataset(tmp_path / "v2", 12, version=2, answer_overrides={"c000003": 9})
    push_dataset(str(revision), store, count_registry)
    assert sorted(stored_versions(store, "test/count-words-v1")) == [1, 2]
    pulled = pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "latest")
    assert pulled.version == 2
    assert pull_dataset("test/count-words-v1", store, count_registry, version=1, output=tmp_path / "first").version == 1


def test_private_dataset_to_public_store_is_refused(tmp_path, count_dataset, count_registry):
    make_private(count_dataset)
    public = FileStore(tmp_path / "public", "public")
    with pytest.raises(StoreError, match="refused: dataset 'test/count-words-v1' is private and .* is a public store"):
        push_dataset("test/count-words-v1", public, count_registry)
    assert public.list() == []
    push_dataset("test/count-words-v1", FileStore(tmp_path / "private", "private"), count_registry)


def test_private_registration_counts_even_if_the_manifest_says_public(tmp_path, count_dataset):
    plugin = toy_plugin()
    plugin.envirobench_datasets = _register(("test/count-words-v1", count_dataset, "private", None))
    registry = plugins.build_registry(extra=[("toy", plugin)])
    with pytest.raises(StoreError, match="is private"):
        push_dataset("test/count-words-v1", FileStore(tmp_path / "public", "public"), registry)


def _register(*entries):
    from envirobench import hookimpl

    @hookimpl
    def envirobench_datasets(register):
        for dataset_id, directory, visibility, store_url in entries:
            register(dataset_id, directory, visibility=visibility, store=store_url)

    return envirobench_datasets


def test_public_dataset_pointing_at_a_private_store_is_refused(tmp_path, count_dataset):
    plugin = toy_plugin()
    private_url = (tmp_path / "home").as_uri()  # no visibility given: private
    plugin.envirobench_datasets = _register(("test/count-words-v1", count_dataset, "public", private_url))
    registry = plugins.build_registry(extra=[("toy", plugin)])
    assert registry.datasets["test/count-words-v1"].store == private_url
    elsewhere = FileStore(tmp_path / "elsewhere", "private")
    for action in (lambda: push_dataset("test/count-words-v1", elsewhere, registry), lambda: pull_dataset("test/count-words-v1", elsewhere, registry)):
        with pytest.raises(StoreError, match="public dataset 'test/count-words-v1' .* which is private; a public dataset must point at a public store"):
            action()
    # Pointed at a public store, the same registration is fine.
    plugin.envirobench_datasets = _register(("test/count-words-v1", count_dataset, "public", private_url + "?visibility=public"))
    registry = plugins.build_registry(extra=[("toy", plugin)])
    push_dataset("test/count-words-v1", elsewhere, registry)


def test_pull_detects_a_corrupted_file_and_writes_nothing(tmp_path, count_registry, store):
    pushed = push_dataset("test/count-words-v1", store, count_registry)
    answers = store.root / pushed.prefix / "answers.jsonl"
    answers.chmod(0o644)
    answers.write_text(answers.read_text().replace('"count":1', '"count":2', 1))
    with pytest.raises(ChecksumMismatch, match="answers.jsonl"):
        pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled")
    assert not (tmp_path / "pulled").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".pulled")] == []


def test_pull_detects_an_altered_manifest(tmp_path, count_registry, store):
    pushed = push_dataset("test/count-words-v1", store, count_registry)
    manifest_path = store.root / pushed.prefix / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["files"][0]["sha256"] = "0" * 64
    manifest_path.chmod(0o644)
    manifest_path.write_text(json.dumps(manifest))
    with pytest.raises(StoreError, match="the stored manifest was altered"):
        pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled")
    assert not (tmp_path / "pulled").exists()


def test_interrupted_push_leaves_no_visible_dataset(tmp_path, count_registry, store, monkeypatch):
    push_interrupted(monkeypatch, store, count_registry, fails=lambda key, n: n == 2)
    with pytest.raises(ObjectNotFound, match="no complete copy"):
        pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled")
    push_dataset("test/count-words-v1", store, count_registry)  # pushing again completes it
    assert pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled").version == 1


def test_datasets_push_and_pull_commands(use_registry, tmp_path, count_registry, monkeypatch):
    use_registry(count_registry)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    pushed = runner.invoke(main, ["datasets", "push", "test/count-words-v1", "--store", "file:store", "--json"])
    assert pushed.exit_code == 0, pushed.output
    assert json.loads(pushed.output)["uploaded"] == 3
    pulled = runner.invoke(main, ["datasets", "pull", "test/count-words-v1", "--store", "file:store"])
    assert pulled.exit_code == 0, pulled.output
    assert "validated" in pulled.output
    assert (tmp_path / "datasets/test/count-words-v1/v1/manifest.json").is_file()
    refused = runner.invoke(main, ["datasets", "push", "test/count-words-v1", "--store", "file:pub?visibility=public"])
    assert refused.exit_code == 0, refused.output  # a public dataset may go to a public store
    make_private(Path(count_registry.datasets["test/count-words-v1"].path))
    refused = runner.invoke(main, ["datasets", "push", "test/count-words-v1", "--store", "file:pub2?visibility=public"])
    assert refused.exit_code == 1 and "is private" in refused.output
    missing = runner.invoke(main, ["datasets", "pull", "test/other", "--store", "file:store"])
    assert missing.exit_code == 1 and "no complete copy of dataset 'test/other'" in missing.output
    no_store = runner.invoke(main, ["datasets", "push", "test/count-words-v1"])
    assert no_store.exit_code == 2 and "--store is required" in no_store.output


def test_registered_store_is_the_default(use_registry, tmp_path, count_dataset, monkeypatch):
    plugin = toy_plugin()
    home = tmp_path / "home"
    plugin.envirobench_datasets = _register(("test/count-words-v1", count_dataset, "public", home.as_uri() + "?visibility=public"))
    use_registry(plugins.build_registry(extra=[("toy", plugin)]))
    runner = CliRunner()
    assert runner.invoke(main, ["datasets", "push", "test/count-words-v1"]).exit_code == 0
    assert FileStore(home, "public").list("datasets/")[-1].endswith("manifest.json")
    result = runner.invoke(main, ["datasets", "pull", "test/count-words-v1", "--output", str(tmp_path / "copy")])
    assert result.exit_code == 0, result.output
    listing = runner.invoke(main, ["datasets", "--json"])
    assert json.loads(listing.output)[0]["store"].startswith("file://")


def test_stores_command_lists_names_and_schemes(tmp_path, monkeypatch):
    config = tmp_path / "stores.toml"
    config.write_text('[stores.team]\nurl = "s3://team/bench"\n')
    monkeypatch.setenv(STORES_ENV, str(config))
    result = CliRunner().invoke(main, ["stores", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["schemes"] == {"file": "envirobench-core", "s3": "envirobench-core"}
    assert data["stores"]["team"]["url"] == "s3://team/bench" and data["stores"]["team"]["visibility"] == "private"


def test_sha256_helpers():
    assert sha256_bytes(b"") == hashlib.sha256(b"").hexdigest()


# -- links and the whole-manifest digest through a store ---------------------------------------------


def link_answer_key(root: Path) -> None:
    (root / "assets").mkdir()
    os.symlink("../answers.jsonl", root / "assets" / "page.png")
    manifest = ds.read_manifest(root)
    ds.write_manifest(root, dataset_id=manifest.id, version=manifest.version, benchmark=manifest.benchmark, title=manifest.title)


@pytest.mark.parametrize("installed", [True, False], ids=["validated", "type-not-installed"])
def test_push_refuses_a_linked_asset(tmp_path, count_dataset, count_registry, store, installed):
    link_answer_key(count_dataset)
    registry = count_registry if installed else plugins.build_registry()
    with pytest.raises(EnviroBenchError, match=r"'assets/page.png' is a symbolic link \(to ../answers.jsonl\)") as info:
        push_dataset(str(count_dataset), store, registry)
    assert info.value.field == "$.files[1].path"
    assert store.list() == []


def store_a_copy(store: FileStore, source: Path, digest: str, *, link: dict[str, str] | None = None) -> str:
    """Put a dataset's files and manifest under `digest`, bypassing push's checks (an old or
    hand-written store); `link` makes objects symbolic links to other objects instead."""
    manifest = ds.read_manifest(source)
    prefix = f"datasets/{manifest.id}/v{manifest.version}/{digest.removeprefix('sha256:')}"
    for entry in manifest.files:
        if link and entry.path in link:
            (store.root / prefix / entry.path).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(store.root / prefix / link[entry.path], store.root / prefix / entry.path)
        else:
            store.put(f"{prefix}/{entry.path}", source / entry.path, entry.sha256)
    data = (source / "manifest.json").read_bytes()
    store.put(f"{prefix}/manifest.json", data, sha256_bytes(data))
    return prefix


def test_pull_refuses_a_linked_object(tmp_path, count_dataset, count_registry, store):
    link_answer_key(count_dataset)
    manifest = ds.read_manifest(count_dataset)
    store_a_copy(store, count_dataset, ds.dataset_digest(manifest), link={"assets/page.png": "answers.jsonl"})
    with pytest.raises(StoreError, match=r"'datasets/.*/assets/page.png' is, or passes through, the symbolic link"):
        pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled")
    assert not (tmp_path / "pulled").exists()


def test_pull_refuses_an_asset_holding_the_answer_key(tmp_path, count_dataset, count_registry, store):
    # What pushing a linked asset used to store: a regular object with the answer key's bytes.
    link_answer_key(count_dataset)
    store_a_copy(store, count_dataset, ds.dataset_digest(ds.read_manifest(count_dataset)))
    with pytest.raises(EnviroBenchError, match="'assets/page.png' has the same bytes as answers.jsonl") as info:
        pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled")
    assert info.value.field == "$.files[1].sha256"
    assert not (tmp_path / "pulled").exists()


@pytest.mark.parametrize(
    "edit",
    [
        lambda m: m.update(title="Edited"),
        lambda m: m.update(retired=[{"case": "c000001", "reason": "quietly dropped"}]),
        lambda m: m.update(visibility="private"),
        lambda m: m.update(description="x"),
    ],
    ids=["title", "retired", "visibility", "description"],
)
def test_pull_refuses_an_edited_stored_manifest(tmp_path, count_registry, store, edit):
    pushed = push_dataset("test/count-words-v1", store, count_registry)
    path = store.root / pushed.prefix / "manifest.json"
    manifest = json.loads(path.read_text())
    edit(manifest)
    path.chmod(0o644)
    path.write_text(json.dumps(manifest, indent=2))
    with pytest.raises(ChecksumMismatch, match="the stored manifest was altered"):
        pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled")
    assert not (tmp_path / "pulled").exists()


def test_pull_refuses_a_manifest_whose_digests_do_not_match_its_files(tmp_path, count_registry, store):
    pushed = push_dataset("test/count-words-v1", store, count_registry)
    path = store.root / pushed.prefix / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["input_digest"] = "sha256:" + "0" * 64
    path.chmod(0o644)
    path.write_text(json.dumps(manifest))
    with pytest.raises(ChecksumMismatch, match="input_digest does not match the listed files.*the stored manifest was altered"):
        pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled")


def test_a_copy_stored_under_the_files_only_digest_of_earlier_versions(tmp_path, count_dataset, count_registry, store):
    manifest = ds.read_manifest(count_dataset)
    old = ds.files_only_digest(manifest.input_digest, manifest.answer_digest)
    store_a_copy(store, count_dataset, old)
    with pytest.raises(StoreError, match="only under the files-only digest earlier versions of EnviroBench gave it .* push the dataset again"):
        pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled")
    # Pushing again is no conflict: the same files, under today's digest, beside the old copy.
    pushed = push_dataset("test/count-words-v1", store, count_registry)
    assert sorted(stored_versions(store, "test/count-words-v1")[1]) == sorted([old.removeprefix("sha256:"), pushed.digest.removeprefix("sha256:")])
    pulled = pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled")
    assert pulled.validated and pulled.digest == pushed.digest == ds.load_dataset("test/count-words-v1", count_registry).identity.digest
    # Other files under the old rule are still a conflict.
    changed = write_count_dataset(tmp_path / "changed", 12, answer_overrides={"c000003": 9})
    with pytest.raises(ObjectConflict, match="give the revision a new version"):
        push_dataset(str(changed), store, count_registry)


def test_file_store_refuses_links(tmp_path, store):
    store.put("a/b.txt", b"x", sha(b"x"))
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_bytes(b"secret")
    os.symlink(outside, store.root / "a" / "linked")
    os.symlink(store.root / "a" / "b.txt", store.root / "a" / "c.txt")
    for key in ("a/linked/secret.txt", "a/c.txt"):
        with pytest.raises(StoreError, match="symbolic link"):
            store.get(key, tmp_path / "out", None)
        with pytest.raises(StoreError, match="symbolic link"):
            store.exists(key)
    with pytest.raises(StoreError, match="symbolic link"):
        store.put("a/linked/new.txt", b"y", sha(b"y"))  # never written through the link
    assert not (outside / "new.txt").exists() and not (tmp_path / "out").exists()
    assert store.list() == ["a/b.txt"]


@pytest.mark.parametrize(("mask", "file_mode", "dir_mode"), [(0o022, 0o644, 0o755), (0o077, 0o600, 0o700)])
def test_a_pulled_dataset_respects_the_umask(tmp_path, count_registry, store, umask, mask, file_mode, dir_mode):
    push_dataset("test/count-words-v1", store, count_registry)
    umask(mask)
    pull_dataset("test/count-words-v1", store, count_registry, output=tmp_path / "pulled")
    pulled = tmp_path / "pulled"
    assert stat.S_IMODE(pulled.stat().st_mode) == dir_mode
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in pulled.iterdir()} == dict.fromkeys(("manifest.json", "cases.jsonl", "answers.jsonl"), file_mode)
