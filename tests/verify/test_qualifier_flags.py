"""`qualifier-flags`: scoring per meaning, strict refusals, the truth rule of the generator (NFG
meanings, the legend's own flags, non-detect and R precedence), the shipped datasets (sizes,
splits by family, traps) and their fixtures, and the reference adapter on part of the dev split."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from category_kit import assert_is_the_categories_task
from verify_kit import (
    assert_splits_share_no_family,
    reference_run,
    sized_splits,
    wrong_fixture_scores,
)

from envirobench import Case, EnviroBenchError, structure
from envirobench_reference_adapter.solvers import qualifier_flags as solver
from envirobench_synth.labreport.families import families_of
from envirobench_synth.rng import make_random
from envirobench_synth.verify import qualifiers
from envirobench_verify.generate.qualifier_flags import MISTAKES, SIZES, planted
from envirobench_verify.qualifier_flags import (
    MEANINGS,
    Answer,
    Input,
    Prediction,
    QualifierFlags,
    ResultRow,
)

TYPE = QualifierFlags()
ROW = {
    "id": "r01",
    "sample_id": "MW-01",
    "analyte": "Benzene",
    "unit": "µg/L",
    "printed": "1.2",
    "lab_qualifier": "J",
    "validation_qualifier": "",
}
CASE = Case("qf-1", "fam", structure({"legend": [], "results": [ROW, {**ROW, "id": "r02"}]}, Input))


def meaning(result="r01", **changes):
    plain = {
        "result": result,
        "detected": True,
        "estimated": False,
        "estimate_bias": "none",
        "blank_contamination": False,
        "over_range": False,
        "diluted": False,
        "rejected": False,
        "tentatively_identified": False,
    }
    return {**plain, **changes}


ANSWER = structure(
    {
        "results": [meaning(estimated=True), meaning("r02", detected=None, rejected=True)],
        "traps": [],
    },
    Answer,
)


def score(results):
    return TYPE.score_case(CASE, ANSWER, structure({"results": results}, Prediction))["meanings"]


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert_is_the_categories_task(TYPE)
    assert TYPE.HEADLINE[0] == "results_exact" and TYPE.source_files(CASE.input) == ()


def test_every_meaning_is_scored_and_a_left_out_result_is_wrong_in_all():
    right = score([meaning(estimated=True), meaning("r02", detected=None, rejected=True)])
    assert right.errors == () and right.metrics["exact"] == 2
    half = score([meaning(estimated=True, estimate_bias="high")])
    assert half.errors == (("missing-result", "r02"), ("wrong-meaning", "r01", "estimate_bias"))
    assert half.metrics["exact"] == 0 and half.metrics["right detected"] == 1
    summary = TYPE.summarize("meanings", [right, half])
    assert summary["results_exact"] == 0.5
    assert summary["meaning_accuracy"] == (16 + 7) / 32
    assert summary["estimate_bias_accuracy"] == 0.5 and summary["results"] == 4
    assert TYPE.summarize("meanings", []) == {}


def test_an_unknown_result_id_is_ignored_and_a_rejected_result_called_not_detected_is_wrong():
    s = score(
        [meaning(estimated=True), meaning("r02", detected=False, rejected=True), meaning("zz")]
    )
    assert s.errors == (("wrong-meaning", "r02", "detected"),)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"detected": "yes"}, "detected"),
        ({"estimate_bias": "up"}, "estimate_bias"),
        ({"estimated": 1}, "estimated"),
        ({"result": ""}, "result"),
        ({"rejected": math.nan}, "rejected"),
        ({"extra": True}, "extra"),
    ],
)
def test_bad_predictions_are_refused_naming_the_field(changes, message):
    with pytest.raises(EnviroBenchError, match=message):
        structure({"results": [meaning(**changes)]}, Prediction)


def test_duplicate_results_and_empty_inputs_are_refused():
    with pytest.raises(EnviroBenchError, match="distinct"):
        structure({"results": [meaning(), meaning()]}, Prediction)
    with pytest.raises(EnviroBenchError, match="results"):
        structure({"legend": [], "results": []}, Input)
    with pytest.raises(EnviroBenchError, match="distinct"):
        structure({"legend": [], "results": [ROW, ROW]}, Input)


# -- the truth rule ---------------------------------------------------------------------------------

S = qualifiers.STANDARD


def test_the_truth_rule_unions_flags_with_nondetect_and_rejection_first():
    jb = qualifiers.meanings_of([S["J"], S["B"]], False)
    assert jb["estimated"] and jb["blank_contamination"] and jb["detected"]
    assert qualifiers.meanings_of([S["B"], S["U"]], False)["detected"] is False
    assert qualifiers.meanings_of([S["B"]], True)["detected"] is False  # "<0.50 B"
    uj = qualifiers.meanings_of([S["UJ"]], False)
    assert uj["detected"] is False and uj["estimated"]
    rejected = qualifiers.meanings_of([S["J"], S["E"], S["R"]], False)
    assert rejected["detected"] is None and rejected["rejected"] and not rejected["estimated"]
    assert qualifiers.meanings_of([S["J-"]], False)["estimate_bias"] == "low"
    e = qualifiers.meanings_of([S["E"]], False)
    assert e["over_range"] and e["estimated"]
    with pytest.raises(ValueError, match="both high and low"):
        qualifiers.meanings_of([S["J+"], S["J-"]], False)


def test_a_legend_flag_means_what_the_legend_says():
    for split in ("dev", "test"):
        for index in range(40):
            report = qualifiers.sample_qualifier_report(
                make_random(7, split, index), split, index, 12
            )
            clp = any("CRDL" in line or "contract required" in line for line in report.legend)
            for row in report.rows:
                if "redefined-B" in row.traps:
                    assert (
                        clp
                        and row.meanings["estimated"]
                        and not row.meanings["blank_contamination"]
                    )
                if "redefined-E" in row.traps:  # interference: an estimate, not over range
                    assert clp and row.meanings["estimated"] and not row.meanings["over_range"]
                if "redefined-N" in row.traps:  # spike recovery: an estimate, not tentative
                    assert clp and row.meanings["estimated"] and not row.meanings["tentatively_identified"]
                flags = len(row.lab_qualifier.replace(",", "").replace(" ", "")) + bool(row.validation_qualifier)
                if flags >= 3:
                    assert "combined-flags" in row.traps
            assert report.family in {f.name for f in families_of(split)}


def test_the_splits_share_no_legend_wording_and_no_footnote_symbol():
    dev = set(qualifiers.SYMBOLS["dev"])
    assert not dev & set(qualifiers.SYMBOLS["test"])
    words = {
        split: {w for v in qualifiers.STANDARD_WORDINGS[split].values() for w in v}
        | {f[2][split] for f in qualifiers.FOOTNOTES}
        | set(qualifiers.CLP_WORDINGS[split].values())
        for split in ("dev", "test")
    }
    assert not words["dev"] & words["test"]


# -- the shipped datasets ---------------------------------------------------------------------------


def test_the_splits_are_registered_sized_by_family_and_carry_every_trap(datasets):
    assert_splits_share_no_family(TYPE.ID)
    for split, _, cases, answers in sized_splits(TYPE, datasets, SIZES):
        results = sum(len(a.results) for a in answers.values())
        if split == "test":
            assert results >= 1000
        traps = Counter(t.trap for a in answers.values() for t in a.traps)
        for trap in ("footnote-flag", "redefined-B", "redefined-E", "redefined-N", "validator-flag", "rejected",
                     "tic", "inline-flag", "nondetect-with-flag", "combined-flags"):  # fmt: skip
            assert traps[trap] >= 5, (split, trap)
        flags = Counter(
            flag
            for case in cases.values()
            for row in case.input.results
            for flag in (row.validation_qualifier,)
            if flag
        )
        assert {"U", "UJ", "J+", "J-", "R", "NJ"} <= set(flags), flags
        printed = " ".join(
            f"{row.printed} {row.lab_qualifier}"
            for case in cases.values()
            for row in case.input.results
        )
        for lab_flag in ("J", "B", "E", "D", "N", "JN", "U"):
            assert f" {lab_flag}" in printed or f",{lab_flag}" in printed, lab_flag
    assert 0.4 <= SIZES["dev"] / SIZES["test"] <= 0.5


def test_correct_fixture_has_no_error_and_wrong_has_exactly_the_planted_ones(datasets):
    for _, _, bad, mistake in wrong_fixture_scores(TYPE, datasets, "meanings", planted, len(MISTAKES)):
        if mistake is not None:
            assert len(bad.errors) == 1 and bad.errors[0][2] == mistake.meaning
        else:
            assert bad.errors == ()


# -- the reference adapter --------------------------------------------------------------------------


def test_the_reference_reads_nfg_flags_and_legend_definitions():
    legend = solver.read_legend(("* Sample analyzed past the holding time; result estimated.",
                                 "B - Value between the IDL and the CRDL."))  # fmt: skip
    assert legend["*"].bias == "low" and legend["*"].estimated
    assert legend["B"].estimated and not legend["B"].blank
    assert solver.split_flags("JB", set(solver.NFG)) == ["J", "B"]
    assert solver.split_flags("UJ", set(solver.NFG)) == ["UJ"]
    row = result_row("r1", "<0.50", "B", "")
    assert solver.meanings_of(row, {})["detected"] is False
    inline = result_row("r2", "12 E", "", "")
    assert solver.meanings_of(inline, {})["over_range"] is True
    rejected = solver.meanings_of(result_row("r3", "4.1", "J", "R"), {})
    assert rejected["detected"] is None and rejected["rejected"]


def result_row(row_id: str, printed: str, lab: str, validation: str) -> ResultRow:
    """A result row of the input, as the adapter kit gives it to the solver."""
    raw = {**ROW, "id": row_id, "printed": printed, "lab_qualifier": lab, "validation_qualifier": validation}
    return structure(raw, ResultRow)


def test_a_partial_reference_run_through_core(tmp_path, datasets):
    _, _, cases, _ = datasets["synthetic-dev-v1"]
    metrics = reference_run(tmp_path, TYPE.ID, sorted(cases)[:4])
    headline = metrics["profiles"]["meanings"]["headline"]
    assert headline["results"] >= 36 and headline["results_exact"] >= 0.8
    assert set(MEANINGS) <= {m.removesuffix("_accuracy") for m in headline}
