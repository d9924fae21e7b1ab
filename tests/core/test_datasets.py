"""Dataset validation on the core's own test type (category datasets are tested in their trees)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil

import pytest
from click.testing import CliRunner

from envirobench import datasets as ds
from envirobench import plugins
from envirobench.cli import main
from envirobench.errors import EnviroBenchError
from envirobench.records import FileEntry, Generator, Retirement
from envirobench.testing import write_count_dataset


def refuse(root, registry):
    with pytest.raises(EnviroBenchError) as info:
        ds.validate(root, registry)
    return info.value


def repin(root, **kwargs):
    manifest = json.loads((root / "manifest.json").read_text())
    ds.write_manifest(
        root,
        dataset_id=manifest["id"],
        version=manifest["version"],
        benchmark=manifest["benchmark"],
        title=manifest["title"],
        **kwargs,
    )


def refuse_repinned(root, registry):
    """The refusal of the dataset at `root` once its manifest is pinned again to its files as they
    are now: what is refused is the edit itself, not that the files no longer match their pins."""
    repin(root)
    return refuse(root, registry)


def test_valid_dataset_identity(count_dataset, toy_registry):
    dataset = ds.validate(count_dataset, toy_registry)
    identity = dataset.identity
    assert identity.id == "test/count-words-v1" and identity.version == 1
    assert identity.digest.startswith("sha256:") and identity.input_digest != identity.answer_digest
    # Identity is content: regenerating the same data gives the same digest.
    again = write_count_dataset(count_dataset.parent / "again", 12)
    assert ds.validate(again, toy_registry).identity == identity


def test_corrected_answer_keeps_input_digest(tmp_path, toy_registry, count_dataset):
    fixed = write_count_dataset(tmp_path / "fixed", 12, version=2, answer_overrides={"c000003": 99})
    a, b = ds.validate(count_dataset, toy_registry).identity, ds.validate(fixed, toy_registry).identity
    assert a.input_digest == b.input_digest and a.answer_digest != b.answer_digest


def test_changed_byte(count_dataset, toy_registry):
    path = count_dataset / "cases.jsonl"
    data = bytearray(path.read_bytes())
    data[20] ^= 1
    path.write_bytes(bytes(data))
    err = refuse(count_dataset, toy_registry)
    assert "cases.jsonl" in err.message and "altered" in err.message and err.field.startswith("$.files[")


def test_missing_and_unlisted_files(count_dataset, toy_registry):
    (count_dataset / "notes.txt").write_text("hi")
    err = refuse(count_dataset, toy_registry)
    assert "unlisted file 'notes.txt'" in err.message
    (count_dataset / "notes.txt").unlink()
    (count_dataset / "answers.jsonl").unlink()
    err = refuse(count_dataset, toy_registry)
    assert "'answers.jsonl' is missing" in err.message


@pytest.mark.parametrize("bad", ["/etc/passwd", "../outside.txt", "a/../b.txt"])
def test_paths_that_leave_the_directory(count_dataset, toy_registry, bad):
    manifest = json.loads((count_dataset / "manifest.json").read_text())
    manifest["files"].append({"path": bad, "size": 1, "sha256": "0" * 64, "role": "source"})
    (count_dataset / "manifest.json").write_text(json.dumps(manifest))
    err = refuse(count_dataset, toy_registry)
    assert err.field == f"$.files[{len(manifest['files']) - 1}].path"
    assert "absolute" in err.message or "'..'" in err.message


def test_symlink_leaving_directory(tmp_path, count_dataset, toy_registry):
    outside = tmp_path / "secret.txt"
    outside.write_text("x")
    os.symlink(outside, count_dataset / "link.txt")
    err = refuse_repinned(count_dataset, toy_registry)
    assert "link leaving the dataset directory" in err.message


def test_duplicate_case_id(count_dataset, toy_registry):
    path = count_dataset / "cases.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines + [lines[0]]))
    err = refuse_repinned(count_dataset, toy_registry)
    assert err.line == len(lines) + 1 and err.field == "$.id" and "duplicate case ID 'c000000'" in err.message


@pytest.mark.parametrize("blank", ["", "  "])
def test_an_empty_case_id_is_refused_naming_its_line(use_registry, count_dataset, toy_registry, blank):
    for name in ("cases.jsonl", "answers.jsonl"):  # the same ID in both, so nothing else is wrong
        path = count_dataset / name
        lines = path.read_text().splitlines(keepends=True)
        lines[2] = lines[2].replace('"c000002"', json.dumps(blank))
        path.write_text("".join(lines))
    err = refuse_repinned(count_dataset, toy_registry)
    assert (err.file, err.line, err.field) == (str(count_dataset / "cases.jsonl"), 3, "$.id") and "is empty" in err.message
    use_registry(toy_registry)
    result = CliRunner().invoke(main, ["validate-dataset", str(count_dataset)])
    assert result.exit_code == 1 and result.output.splitlines() == [f"Error: {count_dataset / 'cases.jsonl'}:3 $.id: {err.message}"]


@pytest.mark.parametrize("version", [0, -1])
def test_a_version_below_1_is_refused_naming_the_field(use_registry, count_dataset, toy_registry, version):
    manifest = json.loads((count_dataset / "manifest.json").read_text())
    ds.write_manifest(count_dataset, dataset_id=manifest["id"], version=version, benchmark=manifest["benchmark"], title=manifest["title"])
    err = refuse(count_dataset, toy_registry)
    assert (err.file, err.field) == (str(count_dataset / "manifest.json"), "$.version") and f"not {version}" in err.message
    use_registry(toy_registry)
    result = CliRunner().invoke(main, ["validate-dataset", str(count_dataset)])
    assert result.exit_code == 1 and result.output.splitlines() == [f"Error: {count_dataset / 'manifest.json'} $.version: {err.message}"]


def test_answer_without_case_and_case_without_answer(count_dataset, toy_registry):
    answers = count_dataset / "answers.jsonl"
    original = answers.read_text()
    answers.write_text(original + '{"id": "ghost", "answer": {"count": 1}}\n')
    err = refuse_repinned(count_dataset, toy_registry)
    assert "answer for 'ghost'" in err.message and err.line == 13
    answers.write_text("".join(original.splitlines(keepends=True)[1:]))
    err = refuse_repinned(count_dataset, toy_registry)
    assert "case 'c000000' (line 1) has no answer" in err.message


def test_schema_failures_name_line_and_field(count_dataset, toy_registry):
    cases = count_dataset / "cases.jsonl"
    lines = cases.read_text().splitlines(keepends=True)
    lines[4] = '{"id": "c000004", "category": "short", "input": {"text": 5}}\n'
    cases.write_text("".join(lines))
    err = refuse_repinned(count_dataset, toy_registry)
    assert (err.line, err.field) == (5, "$.input.text") and "expected a string" in err.message

    lines[4] = '{"id": "c000004", "category": "short", "input": {"text": "a b"}}\n'
    cases.write_text("".join(lines))
    answers = count_dataset / "answers.jsonl"
    alines = answers.read_text().splitlines(keepends=True)
    alines[2] = '{"id": "c000002", "answer": {"count": "3"}}\n'
    answers.write_text("".join(alines))
    err = refuse_repinned(count_dataset, toy_registry)
    assert (err.line, err.field) == (3, "$.answer.count")


def test_not_json(count_dataset, toy_registry):
    (count_dataset / "cases.jsonl").write_text('{"id": "c0", "category": "x", "input": {"text": "a"}}\n{oops\n')
    err = refuse_repinned(count_dataset, toy_registry)
    assert err.line == 2 and "not valid JSON" in err.message
    (count_dataset / "manifest.json").write_text("{not json")
    err = refuse(count_dataset, toy_registry)
    assert err.file.endswith("manifest.json") and err.line == 1


def test_retirement_of_unknown_case(count_dataset, toy_registry):
    repin(count_dataset, retired=(Retirement("c000001", "ambiguous scan"), Retirement("nope", "x")))
    err = refuse(count_dataset, toy_registry)
    assert err.field == "$.retired[1].case" and "'nope'" in err.message


def test_retired_cases_are_excluded(count_dataset, toy_registry):
    repin(count_dataset, retired=(Retirement("c000001", "ambiguous scan"),))
    dataset = ds.validate(count_dataset, toy_registry)
    btype = toy_registry.benchmark_type("count-words")
    assert "c000001" not in dataset.cases(btype) and len(dataset.cases(btype)) == 11
    assert dataset.retired == {"c000001": "ambiguous scan"}


def test_unknown_benchmark_type_names_manifest_field(count_dataset):
    registry = plugins.build_registry()
    err = refuse(count_dataset, registry)
    assert err.field == "$.benchmark" and "unknown benchmark type 'count-words'" in err.message


def test_validate_cli_exit_status(use_registry, monkeypatch, count_dataset, toy_registry, tmp_path):
    use_registry(toy_registry)
    runner = CliRunner()
    ok = runner.invoke(main, ["validate-dataset", "test/count-words-v1"])
    assert ok.exit_code == 0 and "valid: test/count-words-v1 v1" in ok.output
    broken = tmp_path / "broken"
    shutil.copytree(count_dataset, broken)
    (broken / "answers.jsonl").write_text("")
    bad = runner.invoke(main, ["validate-dataset", str(broken)])
    assert bad.exit_code == 1
    assert "Traceback" not in bad.output and "manifest.json $.files[0].size" in bad.output


# -- links: a dataset holds regular files only -----------------------------------------------------


def test_asset_linked_to_the_answer_key_is_refused(count_dataset, toy_registry):
    (count_dataset / "assets").mkdir()
    os.symlink("../answers.jsonl", count_dataset / "assets" / "page.png")
    err = refuse_repinned(count_dataset, toy_registry)  # the link is pinned as a source file with the answer key's bytes
    assert err.field == "$.files[1].path"
    assert "'assets/page.png' is a symbolic link (to ../answers.jsonl)" in err.message and "regular files only" in err.message


def test_asset_linked_outside_is_refused(tmp_path, count_dataset, toy_registry):
    outside = tmp_path / "secret.png"
    outside.write_bytes(b"not the dataset's")
    (count_dataset / "assets").mkdir()
    os.symlink(outside, count_dataset / "assets" / "page.png")
    err = refuse_repinned(count_dataset, toy_registry)
    assert err.field == "$.files[1].path" and "'assets/page.png' is a link leaving the dataset directory" in err.message


def test_a_linked_directory_is_refused(tmp_path, count_dataset, toy_registry):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "page.png").write_bytes(b"png")
    os.symlink(elsewhere, count_dataset / "assets")
    err = refuse_repinned(count_dataset, toy_registry)  # write_manifest does not walk into the linked directory
    assert "unlisted symbolic link 'assets'" in err.message
    manifest = json.loads((count_dataset / "manifest.json").read_text())
    manifest["files"].append({"path": "assets/page.png", "size": 3, "sha256": hashlib.sha256(b"png").hexdigest(), "role": "source"})
    manifest["input_digest"] = ds.digest_of([FileEntry(**f) for f in manifest["files"] if f["role"] != "answers"])
    (count_dataset / "manifest.json").write_text(json.dumps(manifest))
    err = refuse(count_dataset, toy_registry)
    assert err.field == "$.files[2].path" and "'assets' (on the way to 'assets/page.png') is a link leaving" in err.message


def test_a_linked_manifest_is_refused(tmp_path, count_dataset, toy_registry):
    shutil.move(count_dataset / "manifest.json", tmp_path / "manifest.json")
    os.symlink(tmp_path / "manifest.json", count_dataset / "manifest.json")
    err = refuse(count_dataset, toy_registry)
    assert "manifest.json is a symbolic link" in err.message


def test_a_source_file_with_the_answer_keys_bytes_is_refused(count_dataset, toy_registry):
    (count_dataset / "assets").mkdir()
    shutil.copyfile(count_dataset / "answers.jsonl", count_dataset / "assets" / "page.png")
    err = refuse_repinned(count_dataset, toy_registry)
    assert err.field == "$.files[1].sha256" and "the same bytes as answers.jsonl" in err.message


# -- identity: the digest covers the whole manifest -------------------------------------------------


def identity_after(root, registry, **kwargs):
    repin(root, **kwargs)
    return ds.validate(root, registry).identity


@pytest.mark.parametrize(
    "change",
    [
        {"retired": (Retirement("c000001", "ambiguous"),)},
        {"title": "Another title"},
        {"description": "now described"},
        {"visibility": "private"},
        {"generator": Generator("count-words", 7)},
    ],
    ids=["retired", "title", "description", "visibility", "generator"],
)
def test_every_manifest_field_is_part_of_the_identity(count_dataset, toy_registry, change):
    before = identity_after(count_dataset, toy_registry)
    kwargs = dict(change)
    title = kwargs.pop("title", None)
    if title is not None:
        manifest = json.loads((count_dataset / "manifest.json").read_text())
        ds.write_manifest(count_dataset, dataset_id=manifest["id"], version=1, benchmark=manifest["benchmark"], title=title)
        after = ds.validate(count_dataset, toy_registry).identity
    else:
        after = identity_after(count_dataset, toy_registry, **kwargs)
    assert after.digest != before.digest
    # The input digest stays what it was (cases and source files only): runs can still be re-keyed.
    assert (after.input_digest, after.answer_digest) == (before.input_digest, before.answer_digest)


def test_adding_retirements_changes_the_identity(count_dataset, toy_registry):
    before = ds.validate(count_dataset, toy_registry).identity
    one = identity_after(count_dataset, toy_registry, retired=(Retirement("c000001", "ambiguous"),))
    two = identity_after(count_dataset, toy_registry, retired=(Retirement("c000001", "ambiguous"), Retirement("c000002", "blurred")))
    reason = identity_after(count_dataset, toy_registry, retired=(Retirement("c000001", "unreadable"),))
    assert len({before.digest, one.digest, two.digest, reason.digest}) == 4
    assert before.input_digest == one.input_digest == two.input_digest == reason.input_digest


def test_the_digest_rule_is_the_documented_one(count_dataset, toy_registry):
    """docs/datasets.md, Identity: sha256(input_digest LF answer_digest LF manifest_digest LF)."""
    manifest = json.loads((count_dataset / "manifest.json").read_text())
    rest = {k: v for k, v in manifest.items() if k not in ("input_digest", "answer_digest")}
    canonical = json.dumps(rest, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    manifest_digest = "sha256:" + hashlib.sha256(canonical).hexdigest()
    text = f"{manifest['input_digest']}\n{manifest['answer_digest']}\n{manifest_digest}\n"
    expected = "sha256:" + hashlib.sha256(text.encode()).hexdigest()
    assert ds.validate(count_dataset, toy_registry).identity.digest == expected


def test_the_digest_is_of_the_manifest_read_not_of_its_bytes(count_dataset, toy_registry):
    before = ds.validate(count_dataset, toy_registry).identity
    manifest = json.loads((count_dataset / "manifest.json").read_text())
    assert manifest["description"] == "" and manifest["retired"] == []
    del manifest["description"], manifest["retired"]  # the defaults, left out
    (count_dataset / "manifest.json").write_text(json.dumps(dict(reversed(manifest.items())), indent=7))
    assert ds.validate(count_dataset, toy_registry).identity == before
