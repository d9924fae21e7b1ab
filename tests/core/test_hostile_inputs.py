"""Readers never crash and never block (docs/datasets.md, Reading files).

Every reader of outside JSON (dataset manifests, cases, answers, interpretations, saved profiles,
stored manifests and run-archive listings) turns deep nesting, text that is not UTF-8 or cannot
be encoded (a lone surrogate), files too large, and paths that are not regular files (a
directory, a FIFO, a socket, a device) into one-line `EnviroBenchError`s naming file, line and
field. Every reader call here runs in a thread with a timeout, so a reader that blocks fails the
test instead of hanging it.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import reportkit
from click.testing import CliRunner

from envirobench import authoring, jsonio, profiles, review
from envirobench import datasets as ds
from envirobench.cli import main
from envirobench.errors import EnviroBenchError
from envirobench.stores import StoreError, sha256_bytes
from envirobench.stores.config import STORES_ENV, configured_stores
from envirobench.stores.file import FileStore
from envirobench.stores.transfer import ARCHIVE_LISTING, pull_dataset, push_dataset, restore_run

DEEP = "[" * 100_000
DEEP_OBJECT = '{"a": ' * 100_000
LONE = '"c\\ud800"'  # the JSON text of a string holding a lone surrogate


def within(call: Callable[[], Any], seconds: float = 20.0) -> Any:
    """call() in a daemon thread: its result, or its exception re-raised; a fail if it blocks."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:  # re-raised in the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"the reader blocked for {seconds}s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def refused(call: Callable[[], Any], error: type[EnviroBenchError] = EnviroBenchError) -> EnviroBenchError:
    """The one-line, encodable EnviroBenchError that call() raises (within the time limit)."""
    with pytest.raises(error) as info:
        within(call)
    text = str(info.value)
    assert "\n" not in text, text
    text.encode("utf-8")  # printable as it is: no lone surrogate in the message
    return info.value


def repin(root: Path, **kwargs: Any) -> None:
    manifest = json.loads((root / "manifest.json").read_text())
    ds.write_manifest(root, dataset_id=manifest["id"], version=manifest["version"], benchmark=manifest["benchmark"], title=manifest["title"], **kwargs)


def set_line(path: Path, index: int, text: str) -> None:
    lines = path.read_text().splitlines(keepends=True)
    lines[index] = text + "\n"
    path.write_text("".join(lines))


# -- the common path: jsonio ---------------------------------------------------------------------


@pytest.mark.parametrize("text", [DEEP, DEEP_OBJECT, DEEP + "]" * 100_000])
def test_deep_nesting_in_a_json_document(tmp_path, text):
    path = tmp_path / "deep.json"
    path.write_text(text)
    err = refused(lambda: jsonio.read_json(path))
    assert err.file == str(path) and "nested too deeply" in err.message


def test_deep_nesting_in_a_jsonl_line_names_the_line(tmp_path):
    path = tmp_path / "deep.jsonl"
    path.write_text('{"a": 1}\n\n' + DEEP + "\n")
    err = refused(lambda: list(jsonio.iter_jsonl(path)))
    assert err.line == 3 and "nested too deeply" in err.message


def test_lone_surrogates_are_refused_with_their_field(tmp_path):
    path = tmp_path / "doc.json"
    path.write_text('{\n  "ok": "\\ud83d\\ude00",\n  "list": [1, {"name": ' + LONE + "}]\n}\n")
    err = refused(lambda: jsonio.read_json(path))
    assert (err.line, err.field) == (3, "$.list[1].name") and "lone surrogate" in err.message
    path.write_text('{"\\udc00": 1}')
    assert refused(lambda: jsonio.read_json(path)).field == "$ (a key)"
    # A proper pair is one character, and an escaped backslash is no escape at all.
    path.write_text('{"ok": "\\ud83d\\ude00", "text": "\\\\ud800"}')
    assert jsonio.read_json(path) == {"ok": "\U0001f600", "text": "\\ud800"}
    lines = tmp_path / "doc.jsonl"
    lines.write_text('{"id": "c1"}\n{"id": ' + LONE + "}\n")
    err = refused(lambda: list(jsonio.iter_jsonl(lines)))
    assert (err.line, err.field) == (2, "$.id")


def test_invalid_utf8_names_its_line(tmp_path):
    path = tmp_path / "doc.jsonl"
    path.write_bytes(b'{"id": "c1"}\n{"id": "c2"}\n{"id": "\xff"}\n')
    err = refused(lambda: list(jsonio.iter_jsonl(path)))
    assert err.line == 3 and "not UTF-8" in err.message
    doc = tmp_path / "doc.json"
    doc.write_bytes(b'{\n  "a": 1,\n  "b": "\xc3"\n}\n')
    err = refused(lambda: jsonio.read_json(doc))
    assert err.line == 3 and "not UTF-8" in err.message


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def unix_socket(path: Path) -> Path:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(path))
    sock.close()  # the socket file stays
    return path


@pytest.fixture
def short_dir():
    # A Unix socket's path must be short (about 100 bytes): not under pytest's tmp_path.
    path = Path(tempfile.mkdtemp(prefix="eb-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (lambda p: p.mkdir() or p, "is a directory"),
        (fifo, "is a FIFO"),
        (unix_socket, "is a socket"),
    ],
)
def test_a_path_that_is_not_a_regular_file_is_refused_without_blocking(short_dir, make, kind):
    path = make(short_dir / "x.json")
    for read in (lambda: jsonio.read_json(path), lambda: list(jsonio.iter_jsonl(path)), lambda: jsonio.read_text(path)):
        err = refused(read)
        assert err.file == str(path) and kind in err.message


def test_a_device_is_refused_without_reading_it():
    # /dev/zero never ends: reading it would fill memory.
    err = refused(lambda: jsonio.read_json("/dev/zero"))
    assert "is a character device" in err.message


def test_a_symlink_to_a_fifo_is_refused_too(tmp_path):
    target = fifo(tmp_path / "pipe")
    os.symlink(target, tmp_path / "x.json")
    assert "is a FIFO" in refused(lambda: jsonio.read_json(tmp_path / "x.json")).message


def test_size_limit(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"a": "x" * 5000}))
    assert "larger than the 4096 bytes" in refused(lambda: jsonio.read_json(path, max_bytes=4096)).message
    assert jsonio.read_json(path, max_bytes=1 << 20) == {"a": "x" * 5000}


def test_memory_error_is_a_refusal(tmp_path, monkeypatch):
    path = tmp_path / "doc.json"
    path.write_text('{"a": 1}')

    class Exhausted(json.JSONDecoder):
        def __init__(self):
            super().__init__()
            self.scan_once = self.decode  # the scanner too: iter_jsonl reads most lines with it

        def decode(self, s, *args):  # noqa: ARG002
            raise MemoryError

    def exhausted(data):  # noqa: ARG001
        raise MemoryError

    monkeypatch.setattr(jsonio, "_DECODER", Exhausted())
    monkeypatch.setattr(jsonio.orjson, "loads", exhausted)  # orjson reads first: it runs out too
    assert "too large to read into memory" in refused(lambda: jsonio.read_json(path)).message
    lines = tmp_path / "doc.jsonl"
    lines.write_text('{"a": 1}\n{"a": 2}\n')
    err = refused(lambda: list(jsonio.iter_jsonl(lines)))
    assert err.line == 1 and "too large to read into memory" in err.message


# -- datasets --------------------------------------------------------------------------------------


def validate(root: Path, registry) -> Callable[[], Any]:
    return lambda: ds.validate(root, registry)


def test_deep_manifest(count_dataset, toy_registry):
    (count_dataset / "manifest.json").write_text(DEEP)
    err = refused(validate(count_dataset, toy_registry))
    assert err.file.endswith("manifest.json") and "nested too deeply" in err.message


@pytest.mark.parametrize("name", ["cases.jsonl", "answers.jsonl"])
def test_deep_line_in_cases_and_answers(count_dataset, toy_registry, name):
    set_line(count_dataset / name, 4, DEEP)
    repin(count_dataset)
    err = refused(validate(count_dataset, toy_registry))
    assert err.file.endswith(name) and err.line == 5 and "nested too deeply" in err.message


def test_deep_value_inside_a_case_line(count_dataset, toy_registry):
    set_line(count_dataset / "cases.jsonl", 2, '{"id": "c000002", "category": "short", "input": {"text": ' + "[" * 500 + "]" * 500 + "}}")
    repin(count_dataset)
    err = refused(validate(count_dataset, toy_registry))
    assert (err.line, err.field) == (3, "$.input.text") and "expected a string" in err.message


def test_lone_surrogate_in_a_case_id(count_dataset, toy_registry):
    set_line(count_dataset / "cases.jsonl", 6, '{"id": ' + LONE + ', "category": "short", "input": {"text": "a b"}}')
    repin(count_dataset)
    err = refused(validate(count_dataset, toy_registry))
    assert err.file.endswith("cases.jsonl") and (err.line, err.field) == (7, "$.id") and "lone surrogate" in err.message


@pytest.mark.parametrize(
    ("name", "line", "field"),
    [
        ("cases.jsonl", '{"id": "c000001", "category": "long", "input": {"text": "a \\udfff b"}}', "$.input.text"),
        ("cases.jsonl", '{"id": "c000001", "category": "l\\ud800", "input": {"text": "a b"}}', "$.category"),
        ("answers.jsonl", '{"id": "c000001", "answer": {"count": 1, "\\ud800": 2}}', "$.answer (a key)"),
    ],
)
def test_lone_surrogates_anywhere_in_cases_and_answers(count_dataset, toy_registry, name, line, field):
    set_line(count_dataset / name, 1, line)
    repin(count_dataset)
    err = refused(validate(count_dataset, toy_registry))
    assert err.file.endswith(name) and (err.line, err.field) == (2, field)


def test_lone_surrogate_in_the_manifest(count_dataset, toy_registry):
    manifest = json.loads((count_dataset / "manifest.json").read_text())
    manifest["title"] = "PLACEHOLDER"
    (count_dataset / "manifest.json").write_text(json.dumps(manifest, indent=2).replace("PLACEHOLDER", "\\ud800"))
    err = refused(validate(count_dataset, toy_registry))
    assert err.field == "$.title" and err.line is not None and "lone surrogate" in err.message


def test_invalid_utf8_in_cases(count_dataset, toy_registry):
    path = count_dataset / "cases.jsonl"
    data = path.read_bytes().split(b"\n")
    data[8] = data[8].replace(b'"text":"', b'"text":"\xe2\x28', 1)
    path.write_bytes(b"\n".join(data))
    repin(count_dataset)
    err = refused(validate(count_dataset, toy_registry))
    assert err.file.endswith("cases.jsonl") and err.line == 9 and "not UTF-8" in err.message


@pytest.mark.parametrize("name", ["manifest.json", "cases.jsonl", "answers.jsonl"])
@pytest.mark.parametrize("kind", ["directory", "fifo"])
def test_a_dataset_file_that_is_not_a_regular_file(count_dataset, toy_registry, name, kind):
    path = count_dataset / name
    path.unlink()
    if kind == "directory":
        path.mkdir()
    else:
        os.mkfifo(path)
    err = refused(validate(count_dataset, toy_registry))
    assert name in str(err) and ("not a regular file" in err.message or "not a dataset directory" in err.message)


def test_a_manifest_over_the_size_limit(count_dataset, toy_registry, monkeypatch):
    monkeypatch.setattr(authoring, "MAX_MANIFEST_BYTES", 100)
    err = refused(validate(count_dataset, toy_registry))
    assert err.file.endswith("manifest.json") and "larger than the 100 bytes" in err.message


def test_validate_dataset_command_prints_one_line(use_registry, count_dataset, toy_registry):
    use_registry(toy_registry)
    (count_dataset / "manifest.json").write_text(DEEP)
    result = within(lambda: CliRunner().invoke(main, ["validate-dataset", str(count_dataset)]))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "nested too deeply" in result.output and len(result.output.strip().splitlines()) == 1


def mutations(seed: int, text: str, count: int) -> list[str]:
    """Seeded damage to a JSON text: bytes dropped, duplicated, swapped for JSON's own characters."""
    rng = random.Random(seed)
    alphabet = list('{}[]",:\\ 0123456789.eE-+tfnul') + ["\\ud800", "\\u0000", "\x00", "é", "\n", "[" * 2000]
    out = []
    for _ in range(count):
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(chars))
            action = rng.random()
            if action < 0.3:
                del chars[at]
            elif action < 0.6:
                chars.insert(at, rng.choice(alphabet))
            else:
                chars[at] = rng.choice(alphabet)
        out.append("".join(chars))
    return out


def test_damaged_case_lines_and_manifests_give_located_errors(count_dataset, toy_registry):
    """A fixed, seeded budget of damaged inputs: each validates or is a located one-line refusal."""
    manifest_text = (count_dataset / "manifest.json").read_text()
    case_line = (count_dataset / "cases.jsonl").read_text().splitlines()[3]
    outcomes = {"valid": 0, "refused": 0}
    for damaged in mutations(1, case_line, 120):
        set_line(count_dataset / "cases.jsonl", 3, damaged.replace("\n", " "))
        repin(count_dataset)
        try:
            within(validate(count_dataset, toy_registry))
            outcomes["valid"] += 1
        except EnviroBenchError as exc:
            outcomes["refused"] += 1
            assert "\n" not in str(exc) and exc.file is not None
            str(exc).encode("utf-8")
    set_line(count_dataset / "cases.jsonl", 3, case_line)
    repin(count_dataset)
    for damaged in mutations(2, manifest_text, 80):
        (count_dataset / "manifest.json").write_text(damaged)
        try:
            within(validate(count_dataset, toy_registry))
            outcomes["valid"] += 1
        except EnviroBenchError as exc:
            outcomes["refused"] += 1
            assert "\n" not in str(exc) and exc.file is not None and "manifest.json" in exc.file
            str(exc).encode("utf-8")
    assert outcomes["refused"] > 100


# -- interpretations and saved profiles ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fragment", "field"),
    [
        (DEEP, "nested too deeply", None),
        ('{"format": ' + LONE + "}", "lone surrogate", "$.format"),
    ],
)
def test_hostile_interpretation(tmp_path, text, fragment, field):
    path = tmp_path / "interpretation.json"
    path.write_text(text)
    raw, problems = within(lambda: review.check_interpretation_file(path))
    assert raw is None and len(problems) == 1 and fragment in problems[0] and "\n" not in problems[0]
    if field:
        assert field in problems[0]


def test_interpretation_that_is_a_fifo(tmp_path):
    path = fifo(tmp_path / "interpretation.json")
    raw, problems = within(lambda: review.check_interpretation_file(path))
    assert raw is None and "is a FIFO" in problems[0]


@pytest.mark.parametrize(
    ("text", "fragment", "field"),
    [
        (DEEP_OBJECT, "nested too deeply", None),
        ('{"format": "envirobench.bench.v1", "benchmark": ' + LONE + "}", "lone surrogate", "$.benchmark"),
    ],
)
def test_hostile_bench_json(tmp_path, text, fragment, field):
    path = tmp_path / "bench.json"
    path.write_text(text)
    err = refused(lambda: profiles.load_profile(path))
    assert err.file == str(path) and fragment in err.message and err.field == field


def test_bench_json_that_is_a_directory(tmp_path):
    (tmp_path / "bench.json").mkdir()
    assert "is a directory" in refused(lambda: profiles.load_profile(tmp_path / "bench.json")).message


# -- stores ------------------------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path) -> FileStore:
    return FileStore(tmp_path / "store", "private")


def replace_object(store: FileStore, key: str, data: bytes) -> None:
    path = store.root / key
    path.chmod(0o644)
    path.write_bytes(data)


@pytest.mark.parametrize("text", [DEEP, '{"format": "envirobench.dataset.v1", "id": ' + LONE + "}", "\xff"])
def test_hostile_stored_manifest(tmp_path, count_dataset, toy_registry, store, text):
    pushed = push_dataset("test/count-words-v1", store, toy_registry)
    replace_object(store, f"{pushed.prefix}/manifest.json", text.encode("utf-8", "surrogateescape") if text != "\xff" else b"\xff")
    err = refused(lambda: pull_dataset("test/count-words-v1", store, toy_registry, output=tmp_path / "pulled"), StoreError)
    assert "manifest.json" in str(err) and "the stored manifest is corrupted or was altered" in err.message
    assert not (tmp_path / "pulled").exists()


def archived_listing(store: FileStore, run_id: str, text: str) -> str:
    data = text.encode("utf-8")
    store.put(f"runs/{run_id}/{ARCHIVE_LISTING}", data, sha256_bytes(data))
    return sha256_bytes(data)


@pytest.mark.parametrize(
    ("text", "fragment", "field"),
    [
        (DEEP, "nested too deeply", None),
        ('{"format": "envirobench.run-archive.v1", "run_id": "r1", "files": [{"path": ' + LONE + ', "size": 1, "sha256": "x"}]}', "lone surrogate", "$.files[0].path"),
    ],
)
def test_hostile_run_archive_listing(tmp_path, store, text, fragment, field):
    sha = archived_listing(store, "r1", text)
    err = refused(lambda: restore_run("r1", sha, store, tmp_path / "results"), StoreError)
    assert ARCHIVE_LISTING in str(err) and fragment in err.message and err.field == field
    assert not (tmp_path / "results" / "r1").exists()


def test_file_store_objects_that_are_not_regular_files(tmp_path, store):
    store.put("a/b.txt", b"x", sha256_bytes(b"x"))
    os.mkfifo(store.root / "a" / "pipe")
    with pytest.raises(StoreError, match="is a FIFO"):
        within(lambda: store.get("a/pipe", tmp_path / "out", None))
    assert store.list() == ["a/b.txt"] and not store.exists("a/pipe")
    assert not (tmp_path / "out").exists()
    # A FIFO given to put as the file to upload is refused, not read.
    with pytest.raises(StoreError, match="file to upload: is a FIFO"):
        within(lambda: store.put("a/c.txt", store.root / "a" / "pipe", sha256_bytes(b"")))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("[stores]\nx = " + "[" * 100_000, "nested too deeply"), ("[stores.a]\nurl = '\xff'", "not UTF-8")],
)
def test_hostile_store_configuration(tmp_path, monkeypatch, text, fragment):
    config = tmp_path / "stores.toml"
    config.write_bytes(text.encode("utf-8") if "\xff" not in text else text.replace("\xff", "").encode() + b"\xff")
    monkeypatch.setenv(STORES_ENV, str(config))
    err = refused(configured_stores, StoreError)
    assert err.file == str(config) and fragment in err.message


def test_store_configuration_that_is_a_fifo(tmp_path, monkeypatch):
    monkeypatch.setenv(STORES_ENV, str(fifo(tmp_path / "stores.toml")))
    assert "is a FIFO" in refused(configured_stores, StoreError).message


def test_review_check_of_an_interpretation_that_is_a_fifo(use_registry, tmp_path):
    made = reportkit.make_separator_runs(tmp_path)
    use_registry(made["registry"])
    fifo(made["cand"] / "interpretation.json")
    result = within(lambda: CliRunner().invoke(main, ["review", "check", "--run", str(made["cand"])]))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "interpretation.json: is a FIFO (named pipe), not a regular file" in result.output


def test_a_stored_manifest_over_the_size_limit(tmp_path, count_dataset, toy_registry, store, monkeypatch):
    push_dataset("test/count-words-v1", store, toy_registry)
    monkeypatch.setattr(ds, "MAX_MANIFEST_BYTES", 100)  # the limit as the store transfer reads it
    err = refused(lambda: pull_dataset("test/count-words-v1", store, toy_registry, output=tmp_path / "pulled"), StoreError)
    assert "manifest.json" in err.message and "larger than the 100 bytes" in err.message


def test_a_nul_in_a_path(count_dataset, toy_registry):
    assert "holds a NUL character" in refused(lambda: jsonio.read_json("a\0b.json")).message
    manifest = json.loads((count_dataset / "manifest.json").read_text())
    manifest["files"].append({"path": "assets/a\u0000b.png", "size": 1, "sha256": "0" * 64, "role": "source"})
    (count_dataset / "manifest.json").write_text(json.dumps(manifest))
    err = refused(validate(count_dataset, toy_registry))
    assert err.field == "$.files[2].path" and "no NUL" in err.message
