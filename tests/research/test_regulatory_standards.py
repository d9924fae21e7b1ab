"""`regulatory-standards`: scoring (table and value, units converted), strict and hostile
predictions, the truth rule on the pinned tables (dates in force, a state table before the
federal one, land use, groundwater against drinking water, bases), the Sequoyah tables built on
standards.py's record, the shipped datasets and fixtures, and the reference solver's reading."""

from __future__ import annotations

import datetime as dt
import json
import math

import pytest
from category_kit import assert_split_sizes
from research_kit import (
    assert_fixtures_score_as_planted,
    reference_run,
    shipped_datasets,
)

from envirobench import Case, EnviroBenchError, structure
from envirobench.benchmark import check_type_class
from envirobench.categories import disagreements
from envirobench_reference_adapter.solvers import regulatory_standards as solver
from envirobench_research.generate.regulatory_standards import LOOKUPS, MISTAKES, TABLES, planted
from envirobench_research.package import PACKAGE
from envirobench_research.regulatory_standards import TRAPS, Input, Prediction, RegulatoryStandards
from envirobench_synth.research import standard_tables as st
from envirobench_synth.research import standard_wordings as wordings
from envirobench_synth.rng import make_random
from envirobench_synth.standards import Standard

TYPE = RegulatoryStandards()
LAYOUT = PACKAGE.layout(TYPE.ID)
RAW_INPUT = {
    "tables": "assets/standard-tables.json", "jurisdiction": "State of Franklin", "medium": "groundwater",
    "land_use": None, "analyte": "Benzene", "sampled": "2019-05-01", "basis": None, "result_unit": "mg/L",
}  # fmt: skip
CASE = Case("rs-1", "groundwater", structure(RAW_INPUT, Input))


def answer(table="franklin-groundwater", value=1.0, unit="µg/L"):
    return structure(
        {
            "table": table,
            "value": value,
            "unit": unit,
            "policy": "x / groundwater",
            "traps": ["units"],
        },
        TYPE.Answer,
    )


def score(prediction, truth=None):
    return TYPE.score_case(CASE, truth or answer(), structure(prediction, Prediction))["lookups"]


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert check_type_class(RegulatoryStandards) == []
    assert disagreements(TYPE.ID, TYPE.LABEL, TYPE.TIER) == []
    assert TYPE.source_files(CASE.input) == ("assets/standard-tables.json",)
    assert TRAPS == st.TRAPS


def test_the_value_counts_in_any_equivalent_unit_and_not_across_dimensions():
    assert score({"table": "franklin-groundwater", "value": 0.001, "unit": "mg/L"}).errors == ()
    assert score({"table": "franklin-groundwater", "value": 1.0, "unit": "ug/L"}).errors == ()
    micro = score({"table": "franklin-groundwater", "value": 1.0, "unit": "mg/L"})
    assert micro.errors == (("wrong-value", 1000.0),) and micro.metrics["table_right"] == 1.0
    soil = score({"table": "franklin-groundwater", "value": 1.0, "unit": "mg/kg"})
    assert soil.errors == (("wrong-value", "mg/kg"),)


def test_a_wrong_table_with_the_right_value_is_not_right():
    other = score({"table": "epa-mcl", "value": 1.0, "unit": "µg/L"})
    assert other.metrics == {"right": 0.0, "table_right": 0.0, "value_right": 1.0, "lookup": 1.0}
    assert other.errors == (("wrong-table", "epa-mcl"),)


def test_no_standard_is_an_answer_and_is_scored_like_one():
    none = {"table": None, "value": None, "unit": None}
    truth = structure({**none, "policy": "p", "traps": ["no-standard"]}, TYPE.Answer)
    assert score(none, truth).errors == ()
    assert score({"table": "epa-mcl", "value": 5.0, "unit": "µg/L"}, truth).metrics["right"] == 0.0
    assert score(none).errors == (("wrong-table", "none"), ("wrong-value", "none"))
    head = TYPE.summarize("lookups", [score(none), score(none, truth)])
    assert head == {
        "lookup_accuracy": 0.5,
        "table_accuracy": 0.5,
        "value_accuracy": 0.5,
        "lookups": 2.0,
    }


@pytest.mark.parametrize(
    "data",
    [
        {"table": "epa-mcl", "value": math.nan, "unit": "mg/L"},
        {"table": "epa-mcl", "value": math.inf, "unit": "mg/L"},
        {"table": "epa-mcl", "value": -0.005, "unit": "mg/L"},
        {"table": "epa-mcl", "value": 0, "unit": "mg/L"},
        {"table": "epa-mcl", "value": 1e300, "unit": "mg/L"},
        {"table": "epa-mcl", "value": "0.005", "unit": "mg/L"},
        {"table": "epa-mcl", "value": True, "unit": "mg/L"},
        {"table": "epa-mcl", "value": 0.005, "unit": "ppm"},
        {"table": "epa-mcl", "value": 0.005, "unit": None},
        {"table": None, "value": 0.005, "unit": "mg/L"},
        {"table": "x" * 81, "value": 0.005, "unit": "mg/L"},
        {"table": "", "value": 0.005, "unit": "mg/L"},
        {"table": "epa-mcl", "value": 0.005},
        {"table": "epa-mcl", "value": 0.005, "unit": "mg/L", "code": "__import__('os')"},
    ],
)
def test_hostile_predictions_are_refused_naming_the_field(data):
    with pytest.raises(EnviroBenchError, match="table|value|unit|code"):
        structure(data, Prediction)


def test_bad_inputs_are_refused():
    for day in ("May 2019", "20190501", "2019-02-30"):  # YYYY-MM-DD only (envirobench.iso_date)
        with pytest.raises(EnviroBenchError, match="sampled"):
            structure({**RAW_INPUT, "sampled": day}, Input)
    with pytest.raises(EnviroBenchError, match="tables"):
        structure({**RAW_INPUT, "tables": "assets/t.csv"}, Input)


# -- the truth rule ------------------------------------------------------------------------------


def policy(jurisdiction, medium, exposure=None):
    return st.policy_of(jurisdiction, medium, exposure)


def test_arsenic_in_drinking_water_changes_on_2006_01_23():
    federal = policy(st.FEDERAL, "drinking water")
    before = st.applicable(federal, "Arsenic", "7440-38-2", "total", dt.date(2006, 1, 22))
    after = st.applicable(federal, "Arsenic", "7440-38-2", "total", dt.date(2006, 1, 23))
    assert (before.value, after.value, after.unit) == (0.05, 0.010, "mg/L")


def test_a_state_table_applies_before_the_federal_one_and_falls_back_to_it():
    franklin = policy(st.FRANKLIN, "groundwater")
    benzene = st.applicable(franklin, "Benzene", "71-43-2", "total", dt.date(2019, 1, 1))
    assert (benzene.table, benzene.value, benzene.unit) == ("franklin-groundwater", 1.0, "µg/L")
    early = st.applicable(franklin, "Benzene", "71-43-2", "total", dt.date(2005, 1, 1))
    assert early.table == "epa-mcl"  # before the state's first edition
    copper = st.applicable(franklin, "Copper", "7440-50-8", "total", dt.date(2019, 1, 1))
    assert copper.table == "epa-mcl"  # not in the state table


def test_a_dissolved_row_does_not_apply_to_a_total_result():
    franklin = policy(st.FRANKLIN, "groundwater")
    total = st.applicable(franklin, "Lead", "7439-92-1", "total", dt.date(2019, 1, 1))
    dissolved = st.applicable(franklin, "Lead", "7439-92-1", "dissolved", dt.date(2019, 1, 1))
    assert total.table == "epa-mcl" and dissolved.table == "franklin-groundwater"


def test_land_use_and_medium_choose_the_table():
    day = dt.date(2020, 1, 1)
    residential = st.applicable(
        policy(st.FRANKLIN, "soil", "residential"), "Lead", "7439-92-1", "total", day
    )
    industrial = st.applicable(
        policy(st.FRANKLIN, "soil", "industrial"), "Lead", "7439-92-1", "total", day
    )
    assert (residential.value, industrial.value) == (200.0, 800.0)
    drinking = st.applicable(
        policy(st.FRANKLIN, "drinking water"), "Benzene", "71-43-2", "total", day
    )
    assert (drinking.table, drinking.value) == ("epa-mcl", 0.005)
    assert (
        st.applicable(policy(st.FEDERAL, "drinking water"), "Acetone", "67-64-1", "total", day)
        is None
    )


def test_the_sequoyah_tables_are_standards_records_in_two_editions():
    assert all(isinstance(row, Standard) for row in st.SEQUOYAH_TABLES)
    tce = [
        r
        for r in st.SEQUOYAH_TABLES
        if r.table == "sequoyah-groundwater" and r.analyte == "Trichloroethene"
    ]
    assert [(r.value, r.in_force_to) for r in tce] == [
        (5.0, st.SEQUOYAH_REVISION - dt.timedelta(days=1)),
        (1.0, None),
    ]
    assert all("fictitious" in r.source for r in st.SEQUOYAH_TABLES)
    dev_tables = {t["id"] for t in st.tables_document("dev")["tables"]}
    assert not any(t.startswith("sequoyah") for t in dev_tables)


def test_every_look_up_s_truth_follows_the_rule():
    for split in ("dev", "test"):
        for i in range(150):
            lookup = st.sample_lookup(make_random(3, split, i), split)
            again = st.applicable(
                lookup.policy, lookup.analyte_name, lookup.cas, lookup.basis_key, lookup.sampled
            )
            assert again == lookup.standard
            assert (lookup.standard is None) == ("no-standard" in lookup.traps)


def _wordings(split, draws=2000):
    fields = {"jurisdiction": set(), "medium": set(), "land_use": set(), "basis": set()}
    analytes = set()
    for i in range(draws):
        lookup = st.sample_lookup(make_random(11, split, i), split)
        for field, seen in fields.items():
            if getattr(lookup, field) is not None:
                seen.add(getattr(lookup, field).casefold())
        if "synonym" in lookup.traps:
            analytes.add(lookup.analyte.casefold())
    return fields, analytes


def test_the_wordings_are_open_ended_and_the_splits_never_share_one():
    dev, dev_analytes = _wordings("dev")
    test, test_analytes = _wordings("test")
    for field in dev:
        assert not dev[field] & test[field], field
        assert len(test[field]) >= 60, (field, len(test[field]))  # no closed list of a few wordings
    # A synonym, abbreviation or CAS form of test is never one of dev (CAS numbers alone aside).
    assert not {a for a in dev_analytes & test_analytes if not a[:1].isdigit()}


def test_a_wording_is_built_from_a_head_qualifier_unit_and_mark():
    rng = make_random(5, "dev", "x")
    texts = {wordings.medium_wording(rng, "dev", "groundwater", "µg/L") for _ in range(300)}
    assert any("µg/L" in t for t in texts) and any(t.endswith("*") for t in texts)
    assert any("(monitoring well)" in t for t in texts)
    assert wordings._inverted("1,1-Dichloroethene") == "Dichloroethene, 1,1-"
    assert wordings._inverted("Benzene") is None


# -- the shipped datasets ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped():
    return {
        folder: (cases, answers)
        for folder, (_, _, cases, answers) in shipped_datasets(TYPE).items()
    }


def test_the_shipped_splits_have_their_sizes_and_traps(shipped):
    assert_split_sizes({folder: len(cases) for folder, (cases, _) in shipped.items()}, LOOKUPS, 500)
    for folder, (_, answers) in shipped.items():
        assert {t for a in answers.values() for t in a.traps} == set(TRAPS), folder
    tables = json.loads(
        (LAYOUT.dataset_dir("synthetic-test-v1") / TABLES).read_text(encoding="utf-8")
    )
    assert {"policy", "rule", "tables"} <= set(tables)


def test_the_fixtures_score_as_planted(shipped):
    for folder, (cases, answers) in shipped.items():
        mistakes = planted(LAYOUT.dataset_dir(folder))
        assert len(mistakes) == len(MISTAKES)
        assert_fixtures_score_as_planted(TYPE, folder, cases, answers, "lookups", mistakes)


# -- the reference solver --------------------------------------------------------------------------


NAMES = sorted({row.analyte for row in st.ALL_ROWS})


def matched(wording):
    test = solver.analyte_matcher(wording, NAMES)
    return {row.analyte for row in st.ALL_ROWS if test(row.analyte, row.cas)}


@pytest.mark.parametrize(
    ("wording", "name"),
    [
        ("Xylenes (total)", "Xylenes, Total"),
        ("Tetrachloroethylene (PCE)*", "Tetrachloroethene"),
        ("Methyl tertiary butyl ether", "Methyl tert-butyl ether"),
        ("tert-Butyl methyl ether", "Methyl tert-butyl ether"),
        ("Dichloroethene, 1,1-", "1,1-Dichloroethene"),
        ("Ethene, trichloro-", "Trichloroethene"),
        ("Ethyl benzene", "Ethylbenzene"),
        ("CHROMIUM, TOTAL ᶜ", "Chromium"),
        ("Barium and compounds", "Barium"),
        ("cis-1,2-DCE", "cis-1,2-Dichloroethene"),
        ("PCE", "Tetrachloroethene"),
        ("TCE", "Trichloroethene"),
        ("1,1,1-TCA", "1,1,1-Trichloroethane"),
        ("B(a)P", "Benzo(a)pyrene"),
        ("MTBE", "Methyl tert-butyl ether"),
        ("CAS No. 71-43-2", "Benzene"),
        ("71432", "Benzene"),
        ("Methyl chloroform", "1,1,1-Trichloroethane"),
    ],
)
def test_the_solver_reads_an_analyte_by_its_name_words_inversion_initials_or_cas(wording, name):
    assert matched(wording) == {name}


def test_the_solver_finds_no_analyte_it_cannot_read():
    assert matched("Vinylidene chloride") == set()
    assert matched("Acetone") == set()


@pytest.mark.parametrize(
    ("text", "medium"),
    [
        ("Ground-water [ug/l]†", "groundwater"),
        ("Water, ground", "groundwater"),
        ("GW (unconfined)", "groundwater"),
        ("well water (monitoring)", "groundwater"),
        ("drinking water (groundwater source)", "drinking water"),
        ("PWS (point of entry)", "drinking water"),
        ("Tap water (groundwater supply) (mg/L)", "tap water"),
        ("kitchen tap", "tap water"),
        ("SOIL/FILL - fill material (f)", "soil"),
        ("SS", "soil"),
    ],
)
def test_the_solver_reads_a_medium_by_its_head_then_its_qualifiers(text, medium):
    assert solver.pick_medium(text, "mg/L") == medium


def test_a_medium_it_cannot_read_is_soil_only_when_the_result_is_per_kilogram():
    assert solver.pick_medium("finished water", "mg/L") is None
    assert solver.pick_medium("fill", "mg/kg") == "soil"


@pytest.mark.parametrize(
    ("text", "land_use"),
    [
        ("Residential (child)", "residential"),
        ("RESIDENCE scenario", "residential"),
        ("unrestricted use", "residential"),
        ("Nonresidential", "industrial"),
        ("non-residential", "industrial"),
        ("restricted (non-residential) use", "industrial"),
        ("composite worker", "industrial"),
        ("Ind.¹", "industrial"),
    ],
)
def test_the_solver_reads_land_use_with_its_negations(text, land_use):
    assert solver.pick_land_use(text) == land_use


@pytest.mark.parametrize(
    ("text", "basis"),
    [
        ("un-filtered", "total"),
        ("TOTAL (unfiltered)", "total"),
        ("T - no filtration", "total"),
        ("Field-filtered (0.45 um)", "dissolved"),
        ("Diss.", "dissolved"),
        ("D b", "dissolved"),
    ],
)
def test_the_solver_reads_a_basis_with_its_negations(text, basis):
    assert solver.pick_basis(text) == basis


def test_the_solver_reads_a_state_by_its_name_or_its_agency_acronym():
    places = [st.FEDERAL, st.FRANKLIN, st.SEQUOYAH]
    assert solver.pick_jurisdiction("sdep oversight (f)", places) == st.SEQUOYAH
    assert solver.pick_jurisdiction("Commonwealth of Franklin", places) == st.FRANKLIN
    assert solver.pick_jurisdiction("USEPA (no state program)", places) == st.FEDERAL


def test_the_solver_answers_a_dev_look_up_from_the_tables_file(tmp_path):
    path = tmp_path / "standard-tables.json"
    path.write_text(json.dumps(st.tables_document("dev")), encoding="utf-8")
    raw = {**RAW_INPUT, "tables": "standard-tables.json", "analyte": "7440-38-2", "medium": "public water supply",
           "jurisdiction": "federal", "sampled": "2006-01-22"}  # fmt: skip
    case_input = structure(raw, Input)
    assert solver.solve(case_input, {"standard-tables.json": path}, "v1") == {
        "table": "epa-mcl",
        "value": 0.05,
        "unit": "mg/L",
    }
    latest = solver.solve(case_input, {"standard-tables.json": path}, "latest")
    assert latest["value"] == 0.01


# -- a partial run through core ------------------------------------------------------------------


@pytest.mark.slow
def test_a_partial_run_through_core_scores_dev_cases(tmp_path):
    metrics = reference_run(
        tmp_path,
        TYPE.ID,
        [
            "rs-dev-0001",
            "rs-dev-0002",
            "rs-dev-0003",
            "rs-dev-0004",
            "rs-dev-0005",
            "rs-dev-0006",
            "rs-dev-0007",
            "rs-dev-0008",
            "rs-dev-0009",
            "rs-dev-0010",
        ],
    )
    headline = metrics["profiles"]["lookups"]["headline"]
    assert len(metrics["cases"]) == 10
    assert headline["lookup_accuracy"] >= 0.8
