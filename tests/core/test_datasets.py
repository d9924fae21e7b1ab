"""Dataset validation on the core's own test type (category datasets are tested in their trees)."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from click.testing import CliRunner

from envirobench import datasets as ds
from envirobench import plugins
from envirobench.cli import main
from envirobench.errors import EnviroBenchError
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
    repin(count_dataset)
    err = refuse(count_dataset, toy_registry)
    assert "link leaving the dataset directory" in err.message


def test_duplicate_case_id(count_dataset, toy_registry):
    path = count_dataset / "cases.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines + [lines[0]]))
    repin(count_dataset)
    err = refuse(count_dataset, toy_registry)
    assert err.line == len(lines) + 1 and err.field == "$.id" and "duplicate case ID 'c000000'" in err.message


def test_answer_without_case_and_case_without_answer(count_dataset, toy_registry):
    answers = count_dataset / "answers.jsonl"
    original = answers.read_text()
    answers.write_text(original + '{"id": "ghost", "answer": {"count": 1}}\n')
    repin(count_dataset)
    err = refuse(count_dataset, toy_registry)
    assert "answer for 'ghost'" in err.message and err.line == 13
    answers.write_text("".join(original.splitlines(keepends=True)[1:]))
    repin(count_dataset)
    err = refuse(count_dataset, toy_registry)
    assert "case 'c000000' (line 1) has no answer" in err.message


def test_schema_failures_name_line_and_field(count_dataset, toy_registry):
    cases = count_dataset / "cases.jsonl"
    lines = cases.read_text().splitlines(keepends=True)
    lines[4] = '{"id": "c000004", "category": "short", "input": {"text": 5}}\n'
    cases.write_text("".join(lines))
    repin(count_dataset)
    err = refuse(count_dataset, toy_registry)
    assert (err.line, err.field) == (5, "$.input.text") and "expected a string" in err.message

    lines[4] = '{"id": "c000004", "category": "short", "input": {"text": "a b"}}\n'
    cases.write_text("".join(lines))
    answers = count_dataset / "answers.jsonl"
    alines = answers.read_text().splitlines(keepends=True)
    alines[2] = '{"id": "c000002", "answer": {"count": "3"}}\n'
    answers.write_text("".join(alines))
    repin(count_dataset)
    err = refuse(count_dataset, toy_registry)
    assert (err.line, err.field) == (3, "$.answer.count")


def test_not_json(count_dataset, toy_registry):
    (count_dataset / "cases.jsonl").write_text('{"id": "c0", "category": "x", "input": {"text": "a"}}\n{oops\n')
    repin(count_dataset)
    err = refuse(count_dataset, toy_registry)
    assert err.line == 2 and "not valid JSON" in err.message
    (count_dataset / "manifest.json").write_text("{not json")
    err = refuse(count_dataset, toy_registry)
    assert err.file.endswith("manifest.json") and err.line == 1


def test_retirement_of_unknown_case(count_dataset, toy_registry):
    from envirobench.records import Retirement

    repin(count_dataset, retired=(Retirement("c000001", "ambiguous scan"), Retirement("nope", "x")))
    err = refuse(count_dataset, toy_registry)
    assert err.field == "$.retired[1].case" and "'nope'" in err.message


def test_retired_cases_are_excluded(count_dataset, toy_registry):
    from envirobench.records import Retirement

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
