"""What every category's tests share: the shipped datasets loaded through the installed plugins,
and a partial run of the reference adapter on a few cases through core (`envirobench run --case`).

Each category binds it to its package once (`tests/<category>/<category>_kit.py`):

    KIT = CategoryKit(PACKAGE)
    reference_run, shipped_datasets = KIT.reference_run, KIT.shipped_datasets

and the checks every type's shipped data takes alike: the fixtures score as planted
(`fixture_scores`, `assert_fixtures_score_as_planted`) and the datasets' size (`shipped_bytes`).
`refusal` is the check every type's records take: a bad one is refused, saying why;
`assert_is_the_categories_task` the one every type class takes.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from envirobench import BenchmarkPackage

ENVIROBENCH = Path(sys.executable).with_name("envirobench")


def assert_split_sizes(sizes: Mapping[str, int], planned: Mapping[str, int], least_test: int) -> None:
    """The shipped synthetic dev and test datasets (`sizes`: cases by folder) have the `planned`
    sizes (by split), test at least `least_test` cases and dev 40 to 50% of test."""
    assert sizes == {f"synthetic-{split}-v1": planned[split] for split in ("dev", "test")}
    assert sizes["synthetic-test-v1"] >= least_test
    assert 0.4 <= sizes["synthetic-dev-v1"] / sizes["synthetic-test-v1"] <= 0.5


def assert_is_the_categories_task(btype: Any) -> None:
    """The type class is well formed, agrees with its task in envirobench.categories (ID, label,
    tier), and headlines every metric the task's formula is computed from."""
    from envirobench.benchmark import check_type_class
    from envirobench.categories import disagreements, task

    assert check_type_class(type(btype)) == []
    assert disagreements(btype.ID, btype.LABEL, btype.TIER) == []
    assert set(task(btype.ID).formula.required) <= set(btype.HEADLINE)


def refusal(raw: Any, cls: type, message: str, **where: Any) -> str:
    """The error of structuring `raw` as `cls` (`where`: the file, line and path it is read from),
    which must be refused with `message` in its text; the caller checks where it says it was."""
    import pytest

    from envirobench import EnviroBenchError, structure

    with pytest.raises(EnviroBenchError, match=re.escape(message)) as caught:
        structure(raw, cls, **where)
    return str(caught.value)


class CategoryKit:
    def __init__(self, package: BenchmarkPackage) -> None:
        self.package = package

    def reference_run(self, tmp_path: Path, type_id: str, ids: list[str], folder: str = "synthetic-dev-v1") -> dict[str, Any]:
        """metrics.json of the reference adapter's partial run on those cases of a shipped dataset."""
        dataset_id = self.package.layout(type_id).dataset_id(folder)
        completed = subprocess.run(
            [str(ENVIROBENCH), "run", "--adapter", "reference", "--run", "r1", "--model", "reference/model-free",
             "--benchmark", type_id, "--dataset", f"{type_id}={dataset_id}", "--budget", "0",
             "--results", str(tmp_path / "results"), *(arg for case_id in ids for arg in ("--case", case_id))],
            capture_output=True, text=True, timeout=900,
        )  # fmt: skip
        assert completed.returncode == 0, completed.stdout + completed.stderr
        return json.loads((tmp_path / "results" / "r1" / "metrics.json").read_text())

    def shipped_datasets(self, btype: Any) -> dict[str, tuple[Any, Any, dict[str, Any], dict[str, Any]]]:
        """Folder -> (registry, dataset, cases, answers) of each shipped dataset of the type, loaded
        through the registry the installed plugins make (whatever the test environment allows)."""
        import pytest

        from envirobench import build_registry, load_dataset

        with pytest.MonkeyPatch.context() as mp:
            mp.delenv("ENVIROBENCH_LOAD_PLUGINS", raising=False)
            registry = build_registry()
        layout = self.package.layout(btype.ID)
        out = {}
        for folder in layout.datasets:
            dataset = load_dataset(layout.dataset_dir(folder), registry)
            out[folder] = (registry, dataset, dataset.cases(btype), dataset.answers(btype))
        return out

    def raw_shipped(self, btype: Any, folder: str) -> tuple[Path, list[dict[str, Any]], dict[str, Any]]:
        """(directory, cases as cases.jsonl holds them, answers structured as the type's Answer) of
        a shipped dataset, read without validating it (what a test of the generator's output wants)."""
        from envirobench import read_answers

        root = self.package.layout(btype.ID).dataset_dir(folder)
        cases = [json.loads(line) for line in (root / "cases.jsonl").read_text(encoding="utf-8").splitlines()]
        return root, cases, read_answers(root, btype.Answer)

    def raw_fixture_scores(self, btype: Any, folder: str, profile: str) -> dict[str, list[Any]]:
        """{"correct": [...], "wrong": [...]}: the profile's score of each case the fixture predicts,
        over a shipped dataset read raw (`raw_shipped`), each input structured as the type's."""
        from envirobench import Case, read_json, structure

        _, cases, answers = self.raw_shipped(btype, folder)
        by_id = {case["id"]: case for case in cases}
        fixtures = self.package.layout(btype.ID).fixtures_dir(folder)
        scores: dict[str, list[Any]] = {"correct": [], "wrong": []}
        for name, into in scores.items():
            for case_id, raw in read_json(fixtures / f"{name}.json").items():
                case = by_id[case_id]
                case_input = structure(case["input"], btype.Input)
                prediction = structure(raw, btype.Prediction)
                into.append(btype.score_case(Case(case_id, case["category"], case_input), answers[case_id], prediction)[profile])
        return scores

    def assert_splits_share_no_family(self, type_id: str) -> None:
        """No case category (a family of documents) of the type's shipped dev datasets is one of
        its test datasets' (read from each cases.jsonl)."""
        layout = self.package.layout(type_id)
        families: dict[str, set[str]] = {"dev": set(), "test": set()}
        for folder in layout.datasets:
            cases = (layout.dataset_dir(folder) / "cases.jsonl").read_text(encoding="utf-8")
            split = "dev" if "dev" in folder else "test"
            families[split].update(json.loads(line)["category"] for line in cases.splitlines())
        assert families["dev"] and families["test"], families
        assert not families["dev"] & families["test"]

    def sized_splits(self, btype: Any, shipped: Mapping[str, tuple[Any, Any, Any, Any]], sizes: Mapping[str, int]) -> Iterator[tuple[str, Any, Any, Any]]:
        """(split, dataset, cases, answers) of each of `shipped_datasets`' datasets, once it is
        checked that the registry holds it, at its directory, as that split ("dev" or "test", by
        its folder) and that it has `sizes[split]` cases."""
        layout = self.package.layout(btype.ID)
        for folder, (registry, dataset, cases, answers) in shipped.items():
            split = "dev" if "dev" in folder else "test"
            source = registry.datasets[layout.dataset_id(folder)]
            assert (source.path, source.split) == (layout.dataset_dir(folder), split), folder
            assert len(cases) == sizes[split], folder
            yield split, dataset, cases, answers

    def shipped_bytes(self, type_id: str) -> int:
        """The bytes of every file of the type's shipped datasets (what a size budget bounds)."""
        layout = self.package.layout(type_id)
        return sum(p.stat().st_size for folder in layout.datasets for p in layout.dataset_dir(folder).rglob("*") if p.is_file())

    def fixture_scores(self, btype: Any, folder: str, cases: Mapping[str, Any], answers: Mapping[str, Any], profile: str) -> Iterator[tuple[str, Any, Any]]:
        """(case ID, the profile's score of correct.json's prediction, of wrong.json's) for each case
        of a shipped dataset: the two fixtures every type ships beside each dataset folder, each
        predicting every case and nothing else."""
        from envirobench import read_json, structure

        fixtures = self.package.layout(btype.ID).fixtures_dir(folder)
        correct, wrong = read_json(fixtures / "correct.json"), read_json(fixtures / "wrong.json")
        assert sorted(correct) == sorted(wrong) == sorted(cases), folder
        for case_id, case in cases.items():
            good = btype.score_case(case, answers[case_id], structure(correct[case_id], btype.Prediction))[profile]
            bad = btype.score_case(case, answers[case_id], structure(wrong[case_id], btype.Prediction))[profile]
            yield case_id, good, bad

    def wrong_fixture_scores(self, btype: Any, shipped: Mapping[str, tuple[Any, Any, Any, Any]], profile: str, planted: Any,
                             count: int) -> Iterator[tuple[str, Any, Any, Any]]:
        """(case ID, answer, the profile's score of wrong.json's prediction, the mistake planted in
        the case or None) over every case of `shipped_datasets`' datasets, once it is checked that
        correct.json scores no error on the case and that `planted(dataset directory)` finds
        `count` mistakes (by case ID) in each dataset."""
        layout = self.package.layout(btype.ID)
        for folder, (_, _, cases, answers) in shipped.items():
            mistakes = planted(layout.dataset_dir(folder))
            assert len(mistakes) == count, folder
            for case_id, good, bad in self.fixture_scores(btype, folder, cases, answers, profile):
                assert good.errors == (), case_id
                yield case_id, answers[case_id], bad, mistakes.get(case_id)

    def assert_fixtures_score_as_planted(self, btype: Any, folder: str, cases: Mapping[str, Any], answers: Mapping[str, Any], profile: str,
                                         mistakes: Mapping[str, Any]) -> None:
        """correct.json scores without an error on every case; wrong.json has errors on exactly the
        cases the generator planted a mistake in (`mistakes`, by case ID)."""
        for case_id, good, bad in self.fixture_scores(btype, folder, cases, answers, profile):
            assert good.errors == (), case_id
            assert bool(bad.errors) == (case_id in mistakes), case_id
