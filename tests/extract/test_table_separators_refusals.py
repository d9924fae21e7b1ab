"""Every refusal of dataset validation, on a tampered copy of the shipped table-separators dataset.

Each tamper that changes a pinned file is also re-pinned (a fresh manifest), so the test reaches
the check it is about instead of stopping at the SHA-256 mismatch.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest
from click.testing import CliRunner

from envirobench import EnviroBenchError, Retirement, build_registry, load_dataset, write_manifest
from envirobench.cli import main
from envirobench_extract.package import PACKAGE

DATASET_DIR = PACKAGE.layout("table-separators").dataset_dir("synthetic-v1")


@pytest.fixture(scope="module")
def registry():
    return build_registry()


@pytest.fixture
def copy(tmp_path):
    target = tmp_path / "synthetic-v1"
    shutil.copytree(DATASET_DIR, target)
    return target


def repin(root, retired=()):
    manifest = json.loads((root / "manifest.json").read_text())
    write_manifest(root, dataset_id=manifest["id"], version=manifest["version"], benchmark=manifest["benchmark"],
                   title=manifest["title"], description=manifest["description"], retired=retired)


def refusal(root, registry):
    with pytest.raises(EnviroBenchError) as info:
        load_dataset(root, registry)
    return info.value


def lines(path):
    return path.read_text().splitlines(keepends=True)


def test_the_untouched_copy_is_valid(copy, registry):
    assert load_dataset(copy, registry).identity == load_dataset(DATASET_DIR, registry).identity


def test_a_changed_byte_in_an_image(copy, registry):
    image = sorted((copy / "assets").iterdir())[3]
    data = bytearray(image.read_bytes())
    data[len(data) // 2] ^= 0x01
    image.write_bytes(bytes(data))
    err = refusal(copy, registry)
    assert f"'assets/{image.name}' has SHA-256" in err.message and "altered" in err.message
    assert err.file.endswith("manifest.json") and err.field.endswith(".sha256")


def test_a_missing_file(copy, registry):
    (copy / "assets" / "ts-0005.png").unlink()
    err = refusal(copy, registry)
    assert "'assets/ts-0005.png' is missing" in err.message and err.field.startswith("$.files[")


def test_an_unlisted_file(copy, registry):
    (copy / "assets" / "extra.png").write_bytes(b"not listed")
    assert "unlisted file 'assets/extra.png'" in refusal(copy, registry).message


@pytest.mark.parametrize(("path", "fragment"), [("/etc/hostname", "is absolute"), ("assets/../../escape.png", "'..'")])
def test_paths_leaving_the_directory(copy, registry, path, fragment):
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["files"][5]["path"] = path
    (copy / "manifest.json").write_text(json.dumps(manifest))
    err = refusal(copy, registry)
    assert fragment in err.message and err.field == "$.files[5].path"


def test_a_symlink_leaving_the_directory(copy, registry, tmp_path):
    outside = tmp_path / "outside.png"
    shutil.copyfile(copy / "assets" / "ts-0001.png", outside)
    (copy / "assets" / "ts-0001.png").unlink()
    os.symlink(outside, copy / "assets" / "ts-0001.png")
    err = refusal(copy, registry)
    assert "'assets/ts-0001.png' is a link leaving the dataset directory" in err.message


def test_duplicate_case_ids(copy, registry):
    cases = lines(copy / "cases.jsonl")
    (copy / "cases.jsonl").write_text("".join(cases + [cases[0]]))
    repin(copy)
    err = refusal(copy, registry)
    assert (err.line, err.field) == (len(cases) + 1, "$.id") and "duplicate case ID 'ts-0001'" in err.message


def test_an_answer_without_a_case(copy, registry):
    cases = lines(copy / "cases.jsonl")
    (copy / "cases.jsonl").write_text("".join(cases[1:]))
    repin(copy)
    err = refusal(copy, registry)
    assert err.file.endswith("answers.jsonl") and err.line == 1 and "answer for 'ts-0001', which is not a case" in err.message


def test_a_case_without_an_answer(copy, registry):
    answers = lines(copy / "answers.jsonl")
    (copy / "answers.jsonl").write_text("".join(answers[:-1]))
    repin(copy)
    err = refusal(copy, registry)
    assert err.file.endswith("cases.jsonl") and "has no answer in answers.jsonl" in err.message


def test_an_input_failing_the_schema(copy, registry):
    cases = lines(copy / "cases.jsonl")
    record = json.loads(cases[2])
    record["input"]["width"] = str(record["input"]["width"])
    cases[2] = json.dumps(record) + "\n"
    (copy / "cases.jsonl").write_text("".join(cases))
    repin(copy)
    err = refusal(copy, registry)
    assert (err.line, err.field) == (3, "$.input.width") and "expected an integer" in err.message


def test_an_answer_failing_the_schema(copy, registry):
    answers = lines(copy / "answers.jsonl")
    record = json.loads(answers[4])
    record["answer"]["rows"] = record["answer"]["rows"][:-1]  # one separator short of its bands
    answers[4] = json.dumps(record) + "\n"
    (copy / "answers.jsonl").write_text("".join(answers))
    repin(copy)
    err = refusal(copy, registry)
    assert err.file.endswith("answers.jsonl") and err.line == 5 and err.field.startswith("$.answer")


def test_a_retirement_naming_an_unknown_case(copy, registry):
    repin(copy, retired=(Retirement("ts-0002", "two rows touch after the skew"), Retirement("ts-9999", "gone")))
    err = refusal(copy, registry)
    assert err.field == "$.retired[1].case" and "'ts-9999'" in err.message


def test_json_that_is_not_json_is_a_message_not_a_traceback(copy, registry):
    (copy / "cases.jsonl").write_text('{"id": "ts-0001", "category": "unruled", "input": {"image": \n')
    repin(copy)
    err = refusal(copy, registry)
    assert err.line == 1 and "not valid JSON" in err.message
    result = CliRunner().invoke(main, ["validate-dataset", str(copy)])
    assert result.exit_code == 1 and "Traceback" not in result.output and "cases.jsonl:1" in result.output
