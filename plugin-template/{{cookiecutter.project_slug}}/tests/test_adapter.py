"""The example adapter through a real run: its improved variant beats its baseline."""

import pytest
from envirobench import RunSpec, build_registry, execute_run

from {{ cookiecutter.package_name }}.adapter import ADAPTER_NAME, predict
from {{ cookiecutter.package_name }}.package import PACKAGE
from {{ cookiecutter.package_name }}.well_ids import DATASETS, TYPE_ID


def test_predict_reads_the_forms_of_each_variant():
    text = "Gauged MW-03, MW 7, MW12R and monitoring well 9D; SB-4 and PZ-2 were dry; MW-20, -21 and -22."
    assert predict(text, "baseline") == ["MW-3", "MW-20"]
    assert predict(text, "improved") == ["MW-3", "MW-7", "MW-9D", "MW-12R", "MW-20"]


@pytest.mark.parametrize("folder", sorted(DATASETS))
def test_improved_variant_gains_on_baseline_without_regressions(tmp_path, folder):
    registry = build_registry()
    dataset_id = PACKAGE.layout(TYPE_ID).dataset_id(folder)

    def run(run_id, variant, baseline=None):
        spec = RunSpec(
            adapter=ADAPTER_NAME, run_id=run_id, model="rules/well-id-patterns", benchmark=TYPE_ID, dataset=dataset_id,
            budget_usd=0.0, options={"variant": variant}, baseline=baseline, results_dir=tmp_path,
        )
        outcome = execute_run(spec, registry)
        assert outcome.status == "completed", outcome.message
        return outcome

    base = run("base", "baseline")
    cand = run("cand", "improved", baseline=base.run_dir)
    exact = cand.gate.by_profile["exact"]
    assert cand.gate.status == "passed" and exact.improvements and not exact.regressions
