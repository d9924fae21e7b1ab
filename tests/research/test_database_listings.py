"""`database-listings`: scoring (match F1 of listings put on known sites, accuracy), strict and
hostile predictions, the truth rule of the synthetic reports (address decides, a name only
places a street without a number), the shipped datasets (sizes, traps, split families, budget),
the fixtures, and the reference solver's address and name reading."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from category_kit import assert_split_sizes
from research_kit import (
    assert_fixtures_score_as_planted,
    reference_run,
    shipped_bytes,
    shipped_datasets,
)

from envirobench import Case, EnviroBenchError, structure
from envirobench.benchmark import check_type_class
from envirobench.categories import disagreements
from envirobench_reference_adapter.solvers import database_listings as solver
from envirobench_research.database_listings import TRAPS, DatabaseListings, Input, Prediction
from envirobench_research.generate.database_listings import MISTAKES, REPORTS, case_input, planted
from envirobench_research.package import PACKAGE
from envirobench_synth.research import listings
from envirobench_synth.rng import make_random

TYPE = DatabaseListings()
LAYOUT = PACKAGE.layout(TYPE.ID)
INPUT = {
    "document": "assets/r.pdf",
    "subject": {
        "id": "subject",
        "name": "Harmon Tool, Inc.",
        "address": "1415 N. Main Street, Dunmore, PA 18512",
    },
    "neighbours": [
        {
            "id": "N1",
            "name": "Kestrel Freight",
            "address": "1200-1250 N. Main Street, Dunmore, PA 18512",
        },
        {
            "id": "N2",
            "name": "R&J Holdings LLC d/b/a QuickFuel #12",
            "address": "20 Elm Avenue, Dunmore, PA 18512",
        },
        {
            "id": "N3",
            "name": "Beacon Electroplating",
            "address": "77 Washington Boulevard, Dunmore, PA 18512",
        },
    ],
    "listings": ["A1", "A2", "A3", "A4"],
}
TRUTH = {"A1": "subject", "A2": "N1", "A3": "other", "A4": "unmappable"}


def case():
    return Case("dl-1", "block", structure(INPUT, Input))


def answer(sites=TRUTH):
    return structure(
        {"sites": sites, "traps": {r: "other-site" for r in sites}, "scanned": False, "pages": 3},
        TYPE.Answer,
    )


def score(sites):
    return TYPE.score_case(case(), answer(), structure({"sites": sites}, Prediction))["listings"]


def test_the_type_is_well_formed_and_is_the_categories_task():
    assert check_type_class(DatabaseListings) == []
    assert disagreements(TYPE.ID, TYPE.LABEL, TYPE.TIER) == []
    assert TYPE.source_files(case().input) == ("assets/r.pdf",)


def test_the_right_labels_score_one_and_every_listing_other_scores_no_match():
    right = score(TRUTH)
    assert right.errors == () and right.metrics["correct"] == 4 and right.metrics["match_tp"] == 2
    blind = score({r: "other" for r in TRUTH})
    head = TYPE.summarize("listings", [blind])
    assert head["match_f1"] == 0.0 and head["listing_accuracy"] == pytest.approx(1 / 4)


def test_a_listing_on_the_wrong_site_is_a_false_positive_and_a_false_negative():
    wrong = score({**TRUTH, "A2": "subject", "A3": "N2"})
    assert (
        wrong.metrics["match_tp"] == 1
        and wrong.metrics["match_fp"] == 2
        and wrong.metrics["match_fn"] == 1
    )
    assert ("wrong-site", "A2", "subject") in wrong.errors and (
        "wrong-site",
        "A3",
        "N2",
    ) in wrong.errors
    head = TYPE.summarize("listings", [wrong])
    assert head["match_f1"] == pytest.approx(2 / (2 + 2 + 1))


def test_a_left_out_listing_is_wrong_and_an_unknown_record_is_reported():
    partial = score({"A1": "subject", "A2": "N1", "A3": "other", "ZZ9": "subject"})
    assert ("missing-listing", "A4") in partial.errors and (
        "unknown-listing",
        "ZZ9",
    ) in partial.errors
    assert partial.metrics["correct"] == 3 and partial.metrics["match_fp"] == 0


def test_unmappable_and_other_confused_cost_accuracy_only():
    swapped = score({**TRUTH, "A3": "unmappable", "A4": "other"})
    head = TYPE.summarize("listings", [swapped])
    assert head["match_f1"] == 1.0 and head["listing_accuracy"] == 0.5


@pytest.mark.parametrize(
    "data",
    [
        {"sites": {"A1": "Subject"}},
        {"sites": {"A1": "N0"}},
        {"sites": {"A1": "N1; DROP TABLE"}},
        {"sites": {"A1": "__import__('os').system('true')"}},
        {"sites": {"A1": "x" * 10_000}},
        {"sites": {"A1": 1}},
        {"sites": {"A1": None}},
        {"sites": {"": "subject"}},
        {"sites": {"A" * 200: "subject"}},
        {"sites": ["A1", "subject"]},
        {"sites": {"A1": "subject"}, "extra": 1},
        {},
    ],
)
def test_hostile_predictions_are_refused_naming_the_field(data):
    with pytest.raises(EnviroBenchError, match="sites|extra"):
        structure(data, Prediction)


def test_bad_inputs_are_refused():
    with pytest.raises(EnviroBenchError, match="neighbours"):
        structure({**INPUT, "neighbours": [{**INPUT["neighbours"][0], "id": "X1"}]}, Input)
    with pytest.raises(EnviroBenchError, match="listings"):
        structure({**INPUT, "listings": ["A1", "A1"]}, Input)


# -- the synthetic reports -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reports():
    return [
        listings.sample_report(make_random(7, split, i), split)
        for split in ("dev", "test")
        for i in range(40)
    ]


def test_the_truth_follows_the_rule_for_every_trap(reports):
    seen = set()
    for report in reports:
        known = {"subject", *(n.id for n in report.neighbours)}
        for item in report.listings:
            seen.add(item.trap)
            if item.trap in listings.SITE_TRAPS:
                assert item.site in known, item
            elif item.trap.startswith("unmappable"):
                assert item.site == "unmappable" and not any(
                    ch.isdigit() for ch in item.address_line.split(" ")[0]
                )
            else:
                assert item.site == "other", item
    assert seen == set(TRAPS) == set(listings.TRAPS)


def test_a_full_address_decides_whatever_the_name(reports):
    # A listing under an unrelated name at a known site's number and street is that site; the
    # subject's own name at another number is not the subject.
    for report in reports:
        sites = {s.id: s for s in (report.subject, *report.neighbours)}
        for item in report.listings:
            if item.trap == "other-occupant":
                number = int(item.address_line.split()[0])
                assert number == sites[item.site].address.number
            if item.trap == "listing-range" and "-" in item.address_line.split()[0]:
                low, high = map(int, item.address_line.split()[0].split("-"))
                assert low <= sites[item.site].address.number <= high
            if item.trap == "truncated-street":
                street = sites[item.site].address.street
                assert street.upper() not in item.address_line.upper()
                assert listings.truncate(street, "prefix").upper() in item.address_line.upper() or (
                    listings.truncate(street, "consonants").upper() in item.address_line.upper()
                )
            if item.trap == "in-range":
                number = int(item.address_line.split()[0])
                address = sites[item.site].address
                assert address.number < number < address.number_to


def test_the_text_layer_prints_every_record_and_a_scanned_report_has_image_pages():
    report = listings.sample_report(make_random(3, "dev", "x"), "dev")
    pdf, scanned = listings.render_report(report, 3, "dev", "x")
    document = pdfium.PdfDocument(pdf)
    text = "".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    document.close()
    if not scanned:
        assert all(item.record in text for item in report.listings)
    scanned_report = next(
        r
        for i in range(60)
        if (r := listings.sample_report(make_random(3, "dev", i), "dev")).scanned
    )
    pdf, pages = listings.render_report(scanned_report, 3, "dev", "s")
    document = pdfium.PdfDocument(pdf)
    assert pages and all(
        len(document[p - 1].get_textpage().get_text_range().strip()) < 20 for p in pages
    )
    document.close()


def test_the_client_sees_names_and_addresses_not_labels():
    report = listings.sample_report(make_random(5, "test", "y"), "test")
    data = case_input(report, "assets/y.pdf")
    assert data.subject.address == report.subject.address.canonical()
    assert [n.id for n in data.neighbours] == [f"N{i + 1}" for i in range(len(report.neighbours))]


# -- the shipped datasets ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped():
    return {folder: (cases, answers) for folder, (_, _, cases, answers) in shipped_datasets(TYPE).items()}


def test_the_shipped_splits_have_their_sizes_traps_and_families(shipped):
    assert_split_sizes({folder: len(cases) for folder, (cases, _) in shipped.items()}, REPORTS, 100)
    layouts = {}
    for folder, (cases, answers) in shipped.items():
        layouts[folder] = {c.category for c in cases.values()}
        traps = {t for a in answers.values() for t in a.traps.values()}
        assert traps == set(TRAPS), folder
        assert any(a.scanned for a in answers.values()) and not all(
            a.scanned for a in answers.values()
        )
    assert not layouts["synthetic-dev-v1"] & layouts["synthetic-test-v1"]


def test_the_datasets_keep_their_size_budget():
    assert shipped_bytes(TYPE.ID) < 5 * 2**20


def test_the_fixtures_score_as_planted(shipped):
    for folder, (cases, answers) in shipped.items():
        mistakes = planted(LAYOUT.dataset_dir(folder))
        assert 1 <= len(mistakes) <= len(MISTAKES)
        assert_fixtures_score_as_planted(TYPE, folder, cases, answers, "listings", mistakes)


# -- the reference solver --------------------------------------------------------------------------


def test_the_solver_reads_client_addresses_and_names():
    assert solver.parse_address("1200-1250 N. Main Street, Suite 2, Dunmore, PA 18512") == (
        1200, 1250, "N", "MAIN", "ST", "DUNMORE",
    )  # fmt: skip
    assert solver.client_names("Harmon Tool, Incorporated (formerly Old Mill Tannery)") == (
        ("HARMON", "TOOL"), ("OLD", "MILL", "TANNERY"),
    )  # fmt: skip
    assert solver.client_names("R&J Holdings LLC d/b/a QuickFuel #12") == (
        ("R", "AND", "J", "HOLDINGS"),
        ("QUICKFUEL", "12"),
    )


@pytest.mark.parametrize(
    ("block", "label"),
    [
        ("HARMON TOOL INC\n1415 NORTH MAIN ST STE 4\nDUNMORE, PA 18512", "subject"),
        (
            "Acme Plating Co\n1415 N Main Street\nDunmore PA",
            "subject",
        ),  # another occupant, same address
        ("HARMON TOOL CORPORATION\n88 Canal Road\nDUNMORE, PA", "other"),  # same name elsewhere
        ("Some Co\n1236 N. MAIN ST.", "N1"),  # inside the range
        ("Some Co\n1252 N MAIN ST", "other"),  # just outside it
        ("Some Co\n1415 S MAIN ST", "other"),  # the other directional
        ("Some Co\n1415 N MAIN ST\nSCRANTON, PA 18503", "other"),  # another city
        ("QUICKFUEL #12\nELM AVE", "N2"),  # a street without a number, a known name (d/b/a)
        ("Unknown Gas\nELM AVENUE", "unmappable"),
        ("Some Co\n1411-1417 N MAIN ST", "subject"),  # the listing's range holds the number
        ("Some Co\n1417-1421 N MAIN ST", "other"),
        ("BEACON ELECTROPLATING\n77 WASHIN BLVD", "N3"),  # a cut street name
        ("Unknown Gas\nADDRESS NOT REPORTED  Lat/Long: 39.1, -89.2", "unmappable"),
    ],
)
def test_the_solver_judges_a_listing_by_address_then_name(block, label):
    sites = solver.client_sites(structure(INPUT, Input))
    assert solver.judge(block, sites, "v1") == label


def test_a_hostile_input_never_reaches_the_solver():
    # The solver checks nothing itself: the type's record (core's converter, in the adapter kit)
    # refuses the input before any case runs.
    with pytest.raises(EnviroBenchError, match="listings"):
        structure({**INPUT, "listings": []}, Input)
    with pytest.raises(EnviroBenchError, match="unknown field"):
        structure({**INPUT, "answer": {}}, Input)


# -- a partial run through core ------------------------------------------------------------------


@pytest.mark.slow
def test_a_partial_run_through_core_scores_dev_cases(tmp_path):
    metrics = reference_run(tmp_path, TYPE.ID, ["dl-dev-0001", "dl-dev-0002", "dl-dev-0003"])
    headline = metrics["profiles"]["listings"]["headline"]
    assert len(metrics["cases"]) == 3
    assert headline["match_f1"] >= 0.8
