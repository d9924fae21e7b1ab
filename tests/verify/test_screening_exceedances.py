"""`screening-exceedances`: scoring (finding F1 with the factor's stated relative tolerance),
strict refusals, the truth rule of the generator, the shipped datasets (sizes, splits by family,
and the unit and date traps the issue names present in the test split) and their fixtures, and
the reference adapter."""

from __future__ import annotations

import datetime as dt
import json
import math
from collections import Counter

import pytest
from category_kit import assert_is_the_categories_task
from verify_kit import reference_run, sized_splits, wrong_fixture_scores

from envirobench import Case, EnviroBenchError, structure
from envirobench_reference_adapter.solvers import screening_exceedances as solver
from envirobench_synth import standards
from envirobench_synth.labreport.families import families_of
from envirobench_verify.generate.screening_exceedances import (
    MISTAKES,
    SIZES,
    STANDARDS_FILE,
    planted,
)
from envirobench_verify.package import PACKAGE
from envirobench_verify.screening_exceedances import (
    FACTOR_TOLERANCE,
    Answer,
    Input,
    Prediction,
    ScreeningExceedances,
)

TYPE = ScreeningExceedances()
LAYOUT = PACKAGE.layout(TYPE.ID)
CASE = Case(
    "se-1", "mcl", Input(document="assets/se-1.pdf", standards=STANDARDS_FILE, tables=("epa-mcl",))
)
EXCEEDS = {
    "sample": "MW-01",
    "substance": "Benzene",
    "substance_cas": "71-43-2",
    "fraction": "total",
    "screening_table": "epa-mcl",
    "status": "exceeds",
    "factor": 4.0,
    "level_value": 0.005,
    "level_unit": "mg/L",
}
NONDETECT = {**EXCEEDS, "substance": "Vinyl chloride", "substance_cas": "75-01-4",
             "status": "cannot-be-ruled-out", "factor": None, "level_value": 0.002}  # fmt: skip
ANSWER = structure(
    {"findings": [EXCEEDS, NONDETECT], "compared": 9, "traps": ["unit-decides"], "scanned": False},
    Answer,
)


def predicted(**changes):
    base = {k: EXCEEDS[k] for k in ("sample", "substance", "fraction", "screening_table", "status")}
    return {**base, "factor": 4.0, **changes}


def score(findings):
    return TYPE.score_case(CASE, ANSWER, structure({"findings": findings}, Prediction))["findings"]


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert_is_the_categories_task(TYPE)
    assert TYPE.source_files(CASE.input) == ("assets/se-1.pdf", STANDARDS_FILE)
    assert TYPE.HEADLINE[0] == "finding_f1" and FACTOR_TOLERANCE == 0.01


def test_findings_match_by_sample_substance_or_cas_fraction_table_status_and_factor():
    nd = predicted(substance="75-01-4", status="cannot-be-ruled-out", factor=None)
    right = score([predicted(sample=" mw-01 ", factor=4.0 * 1.0099), nd])
    assert right.errors == () and right.metrics["tp"] == 2 and right.metrics["exact"] == 1
    off = score([predicted(factor=4.0 * 1.011)])
    assert [e[0] for e in off.errors] == ["missed-finding", "wrong-factor"]
    assert off.metrics["tp"] == 0 and off.metrics["fp"] == 1 and off.metrics["fn"] == 2
    extra = score([predicted(), nd, predicted(fraction="dissolved")])
    assert [e[0] for e in extra.errors] == ["extra-finding"]
    other_table = score([predicted(screening_table="epa-smcl"), nd])
    assert sorted(e[0] for e in other_table.errors) == ["extra-finding", "missed-finding"]


def test_summaries_pool_findings_over_reports():
    nd = predicted(substance="Vinyl chloride", status="cannot-be-ruled-out", factor=None)
    scores = [score([predicted(), nd]), score([]), score([predicted(factor=40.0)])]
    s = TYPE.summarize("findings", scores)
    assert s["finding_f1"] == pytest.approx(2 * 2 / (2 * 2 + 1 + 4))
    assert s["exceedance_recall"] == pytest.approx(1 / 3)
    assert s["cannot_rule_out_recall"] == pytest.approx(1 / 3)
    assert s["factor_right"] == pytest.approx(1 / 2) and s["reports_exact"] == pytest.approx(1 / 3)
    assert TYPE.summarize("findings", []) == {}
    empty = TYPE.score_case(
        CASE,
        structure({"findings": [], "compared": 3, "traps": [], "scanned": False}, Answer),
        structure({"findings": []}, Prediction),
    )["findings"]
    assert TYPE.summarize("findings", [empty])["finding_f1"] == 1.0


@pytest.mark.parametrize(
    ("finding", "message"),
    [
        (predicted(factor=None), "factor"),
        (predicted(factor=math.nan), "factor"),
        (predicted(factor=math.inf), "factor"),
        (predicted(factor=-2.0), "factor"),
        (predicted(factor="4"), "factor"),
        (predicted(status="exceeded"), "status"),
        (predicted(fraction="TCLP"), "fraction"),
        (predicted(sample=""), "sample"),
        (predicted(extra=1), "extra"),
    ],
)
def test_bad_predictions_are_refused_naming_the_field(finding, message):
    with pytest.raises(EnviroBenchError, match=message):
        structure({"findings": [finding]}, Prediction)


def test_a_finding_listed_twice_is_refused():
    with pytest.raises(EnviroBenchError, match="twice"):
        structure({"findings": [predicted(), predicted(sample="MW-01 ")]}, Prediction)


def test_bad_inputs_are_refused():
    for raw, message in (
        ({"document": "a.txt", "standards": STANDARDS_FILE, "tables": ["epa-mcl"]}, "document"),
        ({"document": "a.pdf", "standards": "s.csv", "tables": ["epa-mcl"]}, "standards"),
        ({"document": "a.pdf", "standards": STANDARDS_FILE, "tables": []}, "tables"),
        ({"document": "a.pdf", "standards": STANDARDS_FILE, "tables": ["x", "x"]}, "tables"),
    ):
        with pytest.raises(EnviroBenchError, match=message):
            structure(raw, Input)


# -- the shipped datasets ---------------------------------------------------------------------------


def test_the_splits_are_registered_sized_and_split_by_family(datasets):
    for split, _, _, answers in sized_splits(TYPE, datasets, SIZES):
        statuses = Counter(f.status for a in answers.values() for f in a.findings)
        assert statuses["exceeds"] >= 2 * SIZES[split] and statuses["cannot-be-ruled-out"] >= 20
        assert sum(a.scanned for a in answers.values()) >= SIZES[split] // 12
    assert SIZES["test"] >= 100 and 0.4 <= SIZES["dev"] / SIZES["test"] <= 0.5
    dev, test = ({f.name for f in families_of(s)} for s in ("dev", "test"))  # type: ignore[arg-type]
    assert not dev & test


def test_the_test_split_carries_the_unit_and_date_traps_of_the_issue(datasets):
    _, _, cases, answers = datasets["synthetic-test-v1"]
    traps = Counter(t for a in answers.values() for t in a.traps)
    # MCLs in mg/L against results in µg/L, where converting decides the status
    assert traps["unit-decides"] >= 10
    # arsenic's 2006-01-23 change, with samples on both sides and reports straddling it
    assert traps["arsenic-mcl-before-2006-01-23"] >= 2 and traps["arsenic-mcl-from-2006-01-23"] >= 2
    assert traps["date-decides"] >= 10 and traps["dates-straddle-change"] >= 5
    # nitrate as N vs as NO3; RSL THQ 1.0 vs 0.1; residential vs industrial
    assert traps["nitrate-decides"] >= 2
    assert traps["thq-decides"] >= 5 and traps["exposure-decides"] >= 10
    # secondary MCLs are guidance only: exceeded, but not named
    assert traps["secondary-not-named"] >= 2
    assert any("epa-smcl" in case.input.tables for case in cases.values())
    # total vs dissolved
    assert traps["total-not-compared"] + traps["dissolved-not-compared"] >= 5
    # non-detects whose reporting limit is above the level
    assert traps["nondetect-limit-above"] >= 10
    tables = Counter(t for case in cases.values() for t in case.input.tables)
    for table in ("epa-rsl-tapwater-thq1.0", "epa-rsl-tapwater-thq0.1",
                  "epa-rsl-soil-residential-thq1.0", "epa-rsl-soil-industrial-thq0.1",
                  "franklin-groundwater", "epa-mcl"):  # fmt: skip
        assert tables[table] >= 5, table


def test_the_pinned_tables_carry_sources_and_dates_in_force(datasets):
    for folder in datasets:
        path = LAYOUT.dataset_dir(folder) / STANDARDS_FILE
        rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
        assert len(rows) == len(standards.STANDARDS)
        assert all(r["source"] and "in_force_from" in r and "in_force_to" in r for r in rows)
        arsenic = [r for r in rows if r["table"] == "epa-mcl" and r["analyte"] == "Arsenic"]
        assert sorted((r["value"], r["in_force_from"], r["in_force_to"]) for r in arsenic) == [
            (0.01, "2006-01-23", None),
            (0.05, None, "2006-01-22"),
        ]


def test_correct_fixture_has_no_error_and_wrong_has_exactly_the_planted_ones(datasets):
    for _, _, bad, mistake in wrong_fixture_scores(TYPE, datasets, "findings", planted, len(MISTAKES)):
        kinds = sorted(e[0] for e in bad.errors)
        if mistake is None:
            assert kinds == []
        elif mistake.change == "drop":
            assert kinds == ["missed-finding"]
        else:
            assert kinds == ["missed-finding", "wrong-factor"][1:]


# -- the reference adapter --------------------------------------------------------------------------


def test_the_reference_reads_dates_names_and_units():
    assert solver.dates_in("Date Collected: 12/24/2005 08:15") == [dt.date(2005, 12, 24)]
    assert solver.dates_in("sampled 2006-01-23, 24-Jan-2006") == [
        dt.date(2006, 1, 23),
        dt.date(2006, 1, 24),
    ]
    assert solver.name_key("Tetrachloroethylene") == solver.name_key("Tetrachloroethene")
    assert solver.name_key("PCE") == solver.name_key("Tetrachloroethene")
    assert solver.name_key("Total Xylenes") == solver.name_key("Xylenes, Total")
    lines = [
        "Client Sample ID: MW-05 Lab ID: X-01",
        "Date Collected: 01/20/2006",
        "MW-7 01/25/2006",
    ]
    dates = solver.collection_dates(lines, {"MW-05", "MW-7"})
    assert dates == {"MW-05": dt.date(2006, 1, 20), "MW-7": dt.date(2006, 1, 25)}


def test_the_reference_screens_with_units_dates_and_bases():
    rows = standards.as_json(standards.STANDARDS)
    records = [
        {"sample_id": "MW-1", "analyte": "Arsenic", "cas": "7440-38-2", "result": 20.0,
         "nondetect": False, "unit": "ug/L", "reporting_limit": 1.0},
        {"sample_id": "MW-2", "analyte": "Arsenic", "cas": None, "result": 20.0,
         "nondetect": False, "unit": "ug/L", "reporting_limit": 1.0},
        {"sample_id": "MW-1", "analyte": "Vinyl chloride", "cas": None, "result": None,
         "nondetect": True, "unit": "mg/L", "reporting_limit": 0.005},
        {"sample_id": "Trip Blank", "analyte": "Benzene", "cas": None, "result": 9.0,
         "nondetect": False, "unit": "ug/L", "reporting_limit": 1.0},
        {"sample_id": "MW-1", "analyte": "Nitrate (as NO3)", "cas": None, "result": 40.0,
         "nondetect": False, "unit": "mg/L", "reporting_limit": 1.0},
    ]  # fmt: skip
    dates = {"MW-1": dt.date(2006, 2, 1), "MW-2": dt.date(2005, 12, 1), "Trip Blank": None}
    found = solver.screen(records, rows, ("epa-mcl",), dates)
    assert [(f["sample"], f["substance"], f["status"]) for f in found] == [
        ("MW-1", "Arsenic", "exceeds"),
        ("MW-1", "Vinyl chloride", "cannot-be-ruled-out"),
    ]
    assert found[0]["factor"] == pytest.approx(2.0)


def test_a_partial_reference_run_through_core(tmp_path, datasets):
    _, _, cases, answers = datasets["synthetic-dev-v1"]
    ids = [cid for cid in sorted(cases) if not answers[cid].scanned][:3]
    metrics = reference_run(tmp_path, TYPE.ID, ids)
    headline = metrics["profiles"]["findings"]["headline"]
    assert headline["reports"] == 3 and headline["finding_f1"] > 0.3


def test_a_run_that_claims_nothing_has_no_precision_not_a_perfect_one():
    # The "no exceedances" baseline: nothing claimed, so precision is undefined (left out, shown
    # n/a), recall 0; a run with nothing to find and nothing claimed has neither.
    from envirobench_verify.screening_exceedances import ScreeningExceedances

    totals = dict.fromkeys(("found exceeds", "true exceeds", "found cbro", "true cbro", "factor right", "located exceeds", "exact"), 0.0)
    blind = ScreeningExceedances().summarize_totals("findings", {**totals, "tp": 0.0, "fp": 0.0, "fn": 7.0, "report": 2.0}, 2)
    assert "finding_precision" not in blind and blind["finding_recall"] == 0.0 and blind["finding_f1"] == 0.0
    empty = ScreeningExceedances().summarize_totals("findings", {**totals, "tp": 0.0, "fp": 0.0, "fn": 0.0, "report": 1.0}, 1)
    assert "finding_precision" not in empty and "finding_recall" not in empty and empty["finding_f1"] == 1.0
