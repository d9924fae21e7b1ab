"""The long site files of envirobench_synth.locate.pagefacts (page-locate's documents, laid out in
the office styles of envirobench_synth.locate.sitepages) render in both splits: every office style
of the split lays out pages, the PDF has a page per sheet, exactly the scanned pages (the recorded
instruments always) lack a text layer, and every question kind is asked with every page that
states its fact as the answer and the same well's other days as near misses."""

from __future__ import annotations

from functools import cache

import pytest
from synth_kit import page_texts, squeeze

from envirobench_synth.locate.pagefacts import (
    QUESTION_KINDS,
    pages_stating,
    render_file,
    sample_file,
    sample_questions,
)
from envirobench_synth.locate.sitepages import STYLES_BY_SPLIT
from envirobench_synth.rng import make_random

SEED = 20261203
SPLITS = tuple(STYLES_BY_SPLIT)


@cache
def site_file(split: str):
    return sample_file(make_random(SEED, split, "file"), split)


@cache
def rendered(split: str):
    made = render_file(site_file(split), SEED, split, "file")
    return made, page_texts(made.pdf)


@pytest.mark.parametrize("split", SPLITS)
def test_every_office_style_of_the_split_lays_out_pages_of_the_file(split):
    drawn = site_file(split)
    assert {sheet.style.name for sheet in drawn.sheets} == set(STYLES_BY_SPLIT[split])
    assert drawn.consultant.name in STYLES_BY_SPLIT[split]


@pytest.mark.parametrize("split", SPLITS)
def test_the_file_renders_a_page_per_sheet_and_only_scans_lack_text(split):
    drawn = site_file(split)
    made, texts = rendered(split)
    assert made.pdf.startswith(b"%PDF-")
    assert made.pages == len(drawn.sheets) == len(texts)
    assert made.scanned_pages == tuple(p + 1 for p in drawn.scanned_pages)
    untyped = {number for number, text in enumerate(texts, 1) if not text.strip()}
    assert untyped == set(made.scanned_pages)
    instruments = {
        i + 1 for i, sheet in enumerate(drawn.sheets) if sheet.kind in ("covenant", "deed")
    }
    assert instruments and instruments <= set(made.scanned_pages)


@pytest.mark.parametrize("split", SPLITS)
def test_every_question_kind_is_asked_with_every_page_stating_its_fact(split):
    drawn = site_file(split)
    _, texts = rendered(split)
    questions = sample_questions(make_random(SEED, split, "file", "questions"), drawn, 10)
    assert {q.kind for q in questions} == set(QUESTION_KINDS)
    assert len({q.fact for q in questions}) == len(questions)
    for question in questions:
        assert question.pages and question.pages == pages_stating(drawn, question.fact)
        assert not set(question.near_misses) & set(question.pages)
        if question.kind == "invoice":
            number = question.fact.split("|")[1]
            assert all(number in squeeze(texts[page - 1]) for page in question.pages)
        if question.kind == "result":
            _, well, day, analyte = question.fact.split("|")
            for page in question.near_misses:
                facts = drawn.sheets[page - 1].facts
                assert any(
                    f.startswith(f"result|{well}|") and f.endswith(f"|{analyte}") for f in facts
                )
                assert f"result|{well}|{day}|{analyte}" not in facts


@pytest.mark.parametrize("split", SPLITS)
def test_pages_are_dense_and_the_filling_states_no_fact_of_its_own(split):
    """pagefill: a laboratory results page lists the method's whole analyte list (the site's
    analytes among 16 or more rows) with surrogates and notes; a report's results table has field
    parameters under it; a page's facts stay the ones its document gave it."""
    drawn = site_file(split)
    _, texts = rendered(split)
    unit = drawn.consultant.unit
    site_analytes = {name for name, _ in drawn.site.analytes}
    lab_pages = [(i, s) for i, s in enumerate(drawn.sheets) if s.kind == "lab-report" and s.facts]
    assert lab_pages
    for index, sheet in lab_pages:
        text = texts[index]
        assert text.count(sheet.style.unit) >= 16
        assert "Surrogate" in text and "Batch" in text
        analytes = {f.split("|")[3] for f in sheet.facts}
        assert analytes == site_analytes
    tables = [
        i
        for i, s in enumerate(drawn.sheets)
        if s.kind == "report" and len(s.facts) > 3 and all(f.startswith("result|") for f in s.facts)
    ]
    assert tables
    for index in tables:
        assert "DTW (ft)" in texts[index] and unit in texts[index]
    # A text page of the report or a laboratory carries more than a table's worth of words.
    typed = [len(texts[i].split()) for i, _ in lab_pages] + [len(texts[i].split()) for i in tables]
    assert min(typed) >= 120
