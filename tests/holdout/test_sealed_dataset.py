"""Core's hook for sealed datasets: the public part validates without its answer key, keeps the
whole dataset's identity, refuses an answer key beside sealed.json, and a run on it is unscored and
takes no baseline."""

from __future__ import annotations

import json
import shutil

import pytest
from holdout_kit import unscored_run

from envirobench import datasets as ds
from envirobench.errors import EnviroBenchError
from envirobench.runs import RunSpec, execute_run
from envirobench_holdout.sealing import write_public_part


@pytest.fixture
def public(tmp_path, registry, full_dataset):
    """The full dataset's public part (no service needed)."""
    return write_public_part(ds.validate_contents(full_dataset, registry).dataset, tmp_path / "public")


def test_the_public_part_has_the_whole_datasets_identity_and_no_answers(public, registry, full_dataset):
    contents = ds.validate_contents(public, registry)
    assert contents.sealed and contents.answers == {}
    assert contents.dataset.identity == ds.validate_contents(full_dataset, registry).dataset.identity


def test_a_sealed_part_holding_its_answer_key_or_a_bad_note_is_refused(tmp_path, public, registry, full_dataset):
    leaky = tmp_path / "leaky"
    shutil.copytree(public, leaky)
    shutil.copyfile(full_dataset / "answers.jsonl", leaky / "answers.jsonl")
    with pytest.raises(EnviroBenchError, match="must not hold its answer key") as refused:
        ds.validate_contents(leaky, registry)
    assert refused.value.field.startswith("$.files[")
    bad_note = tmp_path / "bad-note"
    shutil.copytree(public, bad_note)
    (bad_note / "sealed.json").write_text(json.dumps({"format": "envirobench.sealed.v1", "answers": "here"}))
    with pytest.raises(EnviroBenchError, match="answers"):
        ds.validate_contents(bad_note, registry)


def test_a_run_on_a_sealed_dataset_takes_no_baseline(tmp_path, public, registry):
    first = unscored_run(tmp_path, registry, public, "first")
    with pytest.raises(EnviroBenchError, match="sealed"):
        execute_run(RunSpec(adapter=str(tmp_path / "bin" / "fake"), run_id="paired", model="m", benchmark="count-words", dataset=str(public),
                            budget_usd=1.0, baseline=first, results_dir=tmp_path / "results", sandbox="none"), registry)
    assert not (tmp_path / "results" / "paired").exists()
