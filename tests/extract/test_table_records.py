"""`table-records`: the input's two forms, the shipped dataset and its fixtures."""

import re

import pytest
from extract_labreport_kit import ShippedType, categories, errors_by_case
from PIL import Image

from envirobench import EnviroBenchError, structure
from envirobench.benchmark import check_type_class
from envirobench_extract.generate.labreports import plant_mistakes
from envirobench_extract.generate.table_records import CROPS_PER_LAYOUT, MISTAKES, PAGES_PER_LAYOUT
from envirobench_extract.table_records import Input, TableRecords
from envirobench_synth.labreport import LAYOUTS

TYPE = TableRecords()
KIT = ShippedType(TYPE)


def test_the_type_is_well_formed():
    assert check_type_class(TableRecords) == []
    assert TableRecords.describe() == {
        "id": "table-records",
        "label": "Table records",
        "format": "envirobench.table-records.v1",
        "scoring_version": "envirobench.table-records.scores.v2",
        "tier": "component",
        "profiles": ["semantic", "exact", "value"],
        "headline": [
            "record_f1",
            "tables_exact",
            "record_precision",
            "record_recall",
            "value_f1",
            "unit_f1",
            "qualifier_f1",
            "reporting_limit_f1",
            "sample_f1",
        ],
        "viewer": "json",
    }


def test_an_input_is_a_crop_or_a_page_never_both():
    crop = structure({"image": "assets/t.png", "width": 400, "height": 300}, Input)
    page = structure({"document": "assets/t.pdf", "page": 1}, Input)
    assert TYPE.source_files(crop) == ("assets/t.png",)
    assert TYPE.source_files(page) == ("assets/t.pdf",)
    for bad, message in [
        ({}, "exactly one of image"),
        (
            {"image": "a.png", "width": 4, "height": 3, "document": "a.pdf", "page": 1},
            "exactly one of image",
        ),
        ({"image": "a.png", "width": 4}, "width and height"),
        ({"image": "a.png", "width": 0, "height": 3}, "positive"),
        ({"image": "a.png", "width": 4, "height": 3, "page": 2}, "page belongs to a document"),
        ({"document": "a.pdf"}, "1-based number of the page"),
        ({"document": "a.pdf", "page": 0}, "1-based number of the page"),
        ({"document": "a.pdf", "page": 1, "width": 3}, "belong to an image"),
        ({"image": "a.jpg", "width": 4, "height": 3}, "PNG"),
        ({"document": "a.png", "page": 1}, "PDF"),
    ]:
        with pytest.raises(EnviroBenchError, match=re.escape(message)):
            structure(bad, Input, file="cases.jsonl", line=1, path="$.input")


@pytest.fixture(scope="module")
def dataset():
    return KIT.shipped()


def test_the_dataset_has_crops_and_pages_of_every_layout(dataset):
    counts = dict.fromkeys(LAYOUTS, CROPS_PER_LAYOUT + PAGES_PER_LAYOUT)
    _, cases, answers = KIT.checked(dataset, counts, max_bytes=4_000_000)
    for case_id, case in cases.items():
        assert answers[case_id].records, case_id
        if case.input.image is not None:
            with Image.open(KIT.dataset_dir / case.input.image) as image:
                assert image.mode == "L"
                assert (image.width, image.height) == (case.input.width, case.input.height)
        else:
            assert case.input.page == 1 and (
                KIT.dataset_dir / case.input.document
            ).read_bytes().startswith(b"%PDF-")
    pages = [c for c in cases.values() if c.input.document is not None]
    assert len(pages) == PAGES_PER_LAYOUT * len(LAYOUTS)
    sideways = [c for c in cases.values() if c.category == "rotated" and c.input.image is not None]
    assert all(c.input.height > c.input.width for c in sideways)  # the crop keeps the page's turn


def test_correct_fixture_has_no_errors_in_any_profile(dataset):
    for summary in KIT.correct_fixture_summaries(dataset).values():
        assert summary == {name: 1.0 for name in TYPE.HEADLINE}


def test_wrong_fixture_has_exactly_its_deliberate_errors(dataset):
    _, _, _, answers = dataset
    planted = plant_mistakes(MISTAKES, answers, categories(KIT.dataset_dir))
    assert {p.mistake.layout for p in planted} == {m.layout for m in MISTAKES}
    scores = KIT.score_fixture("wrong", dataset)
    for profile in TYPE.PROFILES:
        expected = {p.case: p.expected[profile] for p in planted if p.expected[profile]}
        assert expected and errors_by_case(scores, profile) == expected


def test_tables_of_one_document_are_resampled_together():
    """Intervals (docs/runs.md, Statistics) resample whole PDFs: the tables on the pages of one
    document are not independent; a cropped image is a unit of its own."""
    from envirobench import Case
    from envirobench.statistics import Units, bootstrap_spec

    btype = TableRecords()
    cases = {
        "a1": Case("a1", "c", Input(document="assets/a.pdf", page=1)),
        "b1": Case("b1", "c", Input(document="assets/b.pdf", page=1)),
        "a2": Case("a2", "c", Input(document="assets/a.pdf", page=2)),
        "crop": Case("crop", "c", Input(image="assets/crop.png", width=10, height=10)),
    }
    units = Units.of(btype, cases)
    assert units.clusters == ((0, 2), (1,), (3,))
    assert bootstrap_spec(btype, units).cluster == "document"
    crops = {cid: case for cid, case in cases.items() if cid == "crop"}
    assert bootstrap_spec(btype, Units.of(btype, crops)).cluster is None
