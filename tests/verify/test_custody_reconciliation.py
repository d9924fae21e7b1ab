"""custody-reconciliation: the discrepancy keys and F1, the strict prediction format, the truth rules
of the synthetic pairs (matching, misspellings, temperature and holding-time limits), the shipped
datasets (sizes, splits, kinds and traps present), the generator, the fixtures and the reference
solver's reading and checking."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from decimal import Decimal
from typing import get_args

import pytest
from category_kit import refusal
from verify_kit import assert_splits_share_no_family, raw_fixture_scores, raw_shipped

from envirobench import Case, EnviroBenchError, structure
from envirobench_verify.custody_reconciliation import (
    HOLDING_HOURS,
    Answer,
    CustodyReconciliation,
    Discrepancy,
    Input,
    Kind,
    Prediction,
)

BTYPE = CustodyReconciliation()
CASE = Case("c1", "f", Input("assets/a-form.png", "assets/a-report.pdf"))


def _answer(*found: tuple[str, str, str]) -> Answer:
    return Answer(tuple(Discrepancy(*d) for d in found), "f", False, ())  # type: ignore[arg-type]


def _score(answer: Answer, predicted: list[dict]):
    return BTYPE.score_case(CASE, answer, structure({"discrepancies": predicted}, Prediction))[
        "discrepancies"
    ]


def test_keys_fold_sample_ids_and_f1_is_pooled():
    answer = _answer(
        ("id-mismatch", "MW-03", ""), ("holding-time", "MW-01", "nitrate"), ("temperature", "", "")
    )
    score = _score(
        answer,
        [
            {"kind": "id-mismatch", "sample": " mw-03 "},
            {"kind": "holding-time", "sample": "MW-01", "analysis": "voc"},
            {"kind": "temperature"},
        ],
    )
    assert score.metrics["true_positives"] == 2 and score.metrics["false_positives"] == 1
    assert score.metrics["false_negatives"] == 1 and score.metrics["exact"] == 0
    assert ("missed", "holding-time", "MW-01", "nitrate") in score.errors
    assert ("false", "holding-time", "MW-01", "voc") in score.errors
    clean = _score(_answer(), [])
    summary = BTYPE.summarize("discrepancies", [score, clean])
    assert summary["discrepancy_f1"] == pytest.approx(4 / 6) and summary["pairs_exact"] == 0.5
    assert BTYPE.summarize("discrepancies", [clean])["discrepancy_f1"] == 1.0


def test_the_no_discrepancy_baseline_scores_zero_f1():
    summary = BTYPE.summarize("discrepancies", [_score(_answer(("temperature", "", "")), [])])
    assert summary["discrepancy_f1"] == 0.0 and summary["discrepancy_recall"] == 0.0


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        ({"discrepancies": [{"kind": "late"}]}, "kind"),
        (
            {"discrepancies": [{"kind": "holding-time", "sample": "A", "analysis": "VOC"}]},
            "analysis",
        ),
        ({"discrepancies": [{"kind": "temperature", "sample": 3}]}, "sample"),
        ({"discrepancies": [{"kind": "temperature", "why": "<b>"}]}, "why"),
        (
            {"discrepancies": [{"kind": "temperature"}, {"kind": "temperature", "sample": " "}]},
            "twice",
        ),
        (
            {
                "discrepancies": [
                    {"kind": "sample-extra", "sample": "mw-1"},
                    {"kind": "sample-extra", "sample": "MW-1"},
                ]
            },
            "twice",
        ),
        ({"discrepancies": {"kind": "temperature"}}, "discrepancies"),
        ({}, "discrepancies"),
    ],
)
def test_hostile_predictions_are_refused_naming_the_field(raw, where):
    refusal(raw, Prediction, where)


def test_inputs_name_a_png_form_and_a_pdf_report():
    with pytest.raises(EnviroBenchError, match="form"):
        structure({"form": "a.pdf", "report": "b.pdf"}, Input)
    with pytest.raises(EnviroBenchError, match="report"):
        structure({"form": "a.png", "report": "b.png"}, Input)


# -- the truth rules -------------------------------------------------------------------------------


def _pair(split: str = "dev", index: int = 0):
    from envirobench_synth.labreport.families import families_of
    from envirobench_synth.rng import make_random
    from envirobench_synth.verify.custody import sample_pair

    family = families_of(split)[0]
    pair = sample_pair(make_random(7, split, family.name, index), family, split)
    # A clean copy: every sample on both, analysed on receipt, 4.0 degrees.
    rows = pair.rows
    samples = tuple(
        replace(
            s,
            sample_id=r.sample_id,
            collected=r.collected,
            analysed=tuple((a, pair.received) for a in r.analyses),
        )
        for r, s in zip(rows, (replace(s) for s in pair.samples), strict=False)
    )
    return replace(pair, samples=samples, temperature=Decimal("4.0"), planted=())


def _keys(found) -> list[tuple[str, str, str]]:
    return [(d.kind, d.sample, d.analysis) for d in found]


def test_holding_times_are_one_table_in_synth_type_and_solver():
    from envirobench_reference_adapter.solvers import custody_reconciliation as solver
    from envirobench_synth.verify import custody

    assert custody.HOLDING_HOURS == HOLDING_HOURS == solver.HOLDING_HOURS
    assert HOLDING_HOURS["nitrate"] == 48 and HOLDING_HOURS["voc"] == 14 * 24


def test_temperature_limits_are_exclusive_of_freezing_and_inclusive_of_six():
    pair = _pair()
    if not pair.rows:
        pytest.skip("no rows")
    assert pair.discrepancies() == ()
    for value, flagged in (
        ("6.0", False),
        ("6.1", True),
        ("0.0", True),
        ("0.1", False),
        ("-1.0", True),
    ):
        kinds = [d.kind for d in replace(pair, temperature=Decimal(value)).discrepancies()]
        assert ("temperature" in kinds) is flagged, value


def test_holding_time_exactly_at_the_limit_is_met():
    pair = _pair()
    row, sample = pair.rows[0], pair.samples[0]
    analysis = sample.analysed[0][0]
    limit = dt.timedelta(hours=HOLDING_HOURS[analysis])
    for late, flagged in ((limit, False), (limit + dt.timedelta(minutes=5), True)):
        moved = replace(sample, analysed=((analysis, row.collected + late),) + sample.analysed[1:])
        found = replace(pair, samples=(moved,) + pair.samples[1:]).discrepancies()
        assert (("holding-time", row.sample_id, analysis) in _keys(found)) is flagged


def test_a_respelled_id_is_one_mismatch_and_an_unrelated_one_a_missing_and_an_extra_sample():
    pair = _pair()
    row, sample = pair.rows[0], pair.samples[0]
    padded = replace(sample, sample_id=sample.sample_id.replace("-", ""))
    found = replace(pair, samples=(padded,) + pair.samples[1:]).discrepancies()
    if padded.sample_id != sample.sample_id:
        assert [d.kind for d in found] == ["id-mismatch"] and found[0].sample == row.sample_id
    other = replace(sample, sample_id="QX-99")
    kinds = sorted(
        d.kind for d in replace(pair, samples=(other,) + pair.samples[1:]).discrepancies()
    )
    assert kinds == ["sample-extra", "sample-missing"]


def test_requested_and_reported_analyses_are_compared_per_sample():
    pair = _pair()
    row = pair.rows[0]
    fewer = replace(row, analyses=row.analyses[1:])
    found = replace(pair, rows=(fewer,) + pair.rows[1:]).discrepancies()
    assert _keys(found) == [("analysis-not-requested", row.sample_id, row.analyses[0])]


# -- the shipped datasets ----------------------------------------------------------------------------


def test_the_splits_are_by_family_large_enough_and_hold_every_kind_and_trap():
    assert_splits_share_no_family(BTYPE.ID)
    for folder in ("synthetic-dev-v1", "synthetic-test-v1"):
        root, cases, answers = raw_shipped(BTYPE, folder)
        kinds = {d.kind for a in answers.values() for d in a.discrepancies}
        assert {a.hand for a in answers.values()} == {True, False}
        assert any(not a.discrepancies for a in answers.values())  # clean pairs too
        for case in cases:
            assert (root / case["input"]["form"]).is_file() and (
                root / case["input"]["report"]
            ).is_file()
        if folder == "synthetic-test-v1":
            assert len(cases) >= 60
            assert kinds == set(get_args(Kind))  # every kind


def test_fixtures_score_as_planted():
    for name, scores in raw_fixture_scores(BTYPE, "synthetic-dev-v1", "discrepancies").items():
        perfect = name == "correct"
        summary = BTYPE.summarize("discrepancies", scores)
        assert (summary["discrepancy_f1"] == 1.0) is perfect
        assert any(s.errors for s in scores) is not perfect


def test_the_generator_reproduces_the_first_pairs(tmp_path):
    from envirobench_verify.generate.custody_reconciliation import generate

    generate(tmp_path, "synthetic-test-v1", limit=2)
    root, cases, _ = raw_shipped(BTYPE, "synthetic-test-v1")
    made = [
        json.loads(line)
        for line in (tmp_path / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert made == cases[:2]
    for case in made:
        for path in case["input"].values():
            assert (tmp_path / path).read_bytes() == (root / path).read_bytes()


# -- the reference solver ------------------------------------------------------------------------------


def test_the_solver_reads_dates_and_analyses_by_general_rules():
    from envirobench_reference_adapter.solvers import custody_reconciliation as solver

    assert solver.day_first_document(["collected 25/03/2021 10:00"])
    assert solver.day_first_document(["03.04.2021"]) and not solver.day_first_document(
        ["03/04/2021"]
    )
    when, _, _ = solver.date_time("MW-1 03/04/21 1430 GW", False)
    assert when == dt.datetime(2021, 3, 4, 14, 30)
    when, _, _ = solver.date_time("03-Apr-21 09:05", False)
    assert when == dt.datetime(2021, 4, 3, 9, 5)
    when, start, _ = solver.date_time("B16-0-031819 03/18/19 1430 SO", False)
    assert when == dt.datetime(2019, 3, 18, 14, 30) and start == 13  # the ID holds no date
    temperatures = (
        [["Cooler temp °C:", "6.5"]],
        [["Temp. upon receipt (°C):", "2.0"]],
        [["Receipt temperature: -0.6 °C"]],
    )
    assert [solver._temperature(rows) for rows in temperatures] == [6.5, 2.0, -0.6]
    names = {"8260D VOCs": "voc", "8270E PAHs": "pah", "8270E SVOCs": "svoc", "6020B Diss. Metals": "metals-dissolved",
             "7470A Hg": "mercury", "300.0 Nitrate": "nitrate", "SM 2540G": "solids", "TCLP": "tclp-metals"}  # fmt: skip
    assert {text: solver.analysis_of(text) for text in names} == names


def test_the_solver_applies_the_rules_to_what_it_read():
    from envirobench_reference_adapter.solvers import custody_reconciliation as solver

    t0 = dt.datetime(2021, 3, 4, 14, 30)
    form = solver.Document(
        {
            "MW-03": solver.Sample("MW-03", t0, {"voc": None, "nitrate": None}),
            "MW-5": solver.Sample("MW-5", t0, {"voc": None}),
        },
        temperature=6.0,
    )
    report = solver.Document(
        {"MW3": solver.Sample("MW3", t0, {"voc": t0 + dt.timedelta(days=3), "nitrate": t0 + dt.timedelta(hours=50)}),
         "MW-5": solver.Sample("MW-5", t0 + dt.timedelta(hours=1), {"voc": t0})},
        temperature=6.5,
    )  # fmt: skip
    found = {(d["kind"], d["sample"], d["analysis"]) for d in solver.reconcile(form, report)}
    assert found == {
        ("id-mismatch", "MW-03", ""),
        ("temperature", "", ""),
        ("holding-time", "MW-03", "nitrate"),
        ("collection-mismatch", "MW-5", ""),
    }


def test_the_test_split_prints_day_first_dates_in_some_reports():
    import re

    pdfium = pytest.importorskip("pypdfium2")
    root, cases, _ = raw_shipped(BTYPE, "synthetic-test-v1")
    day_first = 0
    for case in cases:
        document = pdfium.PdfDocument(str(root / case["input"]["report"]))
        text = document[0].get_textpage().get_text_range()
        document.close()
        day_first += bool(re.search(r"\b(1[3-9]|2\d|3[01])[./](0?[1-9]|1[0-2])[./]\d{4}\b", text))
    assert day_first >= 3
