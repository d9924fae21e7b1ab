"""The bundles behind `document-split` (envirobench_synth.locate.bundles) follow the answer's rules:
blank separators belong to the document before them, a fax cover sheet is a document of its own,
an excerpt starts at a page number other than 1; bundles are seeded and every page is a scan."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from envirobench_synth.locate.bundles import MAX_PAGES, SCENARIOS, render_bundle, sample_bundle
from envirobench_synth.rng import make_random

SEED = 11


def bundles(scenario, split="dev", count=6):
    return [
        sample_bundle(make_random(SEED, split, scenario, n), scenario, split) for n in range(count)
    ]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_scenario_makes_bundles_of_several_documents_that_fit_a_batch(scenario):
    for bundle in bundles(scenario):
        assert len(bundle.documents) == len(bundle.kinds) >= 2
        assert bundle.first_pages[0] == 1
        assert len(bundle.sheets) <= MAX_PAGES or len(bundle.documents) <= 2


def test_a_blank_separator_is_never_a_first_page_and_the_next_page_is():
    seen = 0
    for bundle in bundles("blank-separators", count=8):
        firsts = set(bundle.first_pages)
        for page, sheet in enumerate(bundle.sheets, 1):
            if sheet.blank:
                seen += 1
                assert page not in firsts
                assert page + 1 in firsts or page == len(bundle.sheets)
    assert seen


def test_a_fax_cover_is_a_document_and_its_counter_runs_over_the_documents_it_sends():
    for bundle in bundles("faxed"):
        index = bundle.kinds.index("fax")
        assert len(bundle.documents[index]) == 1  # the cover alone
        assert "fax" in bundle.traps


def test_an_excerpt_starts_a_document_at_a_later_page_number():
    for bundle in bundles("excerpts"):
        assert "excerpt" in bundle.traps and "report" in bundle.kinds


def test_bundles_are_seeded():
    one = sample_bundle(make_random(SEED, "test", "x"), "plain", "test")
    two = sample_bundle(make_random(SEED, "test", "x"), "plain", "test")
    assert one.first_pages == two.first_pages and one.kinds == two.kinds


def test_a_rendered_bundle_is_scanned_on_every_page():
    bundle = sample_bundle(make_random(SEED, "dev", "render"), "plain", "dev")
    rendered = render_bundle(bundle, SEED, "dev", "render")
    document = pdfium.PdfDocument(rendered.pdf)
    try:
        assert len(document) == rendered.pages == len(bundle.sheets)
        for index in range(len(document)):
            textpage = document[index].get_textpage()
            assert textpage.get_text_range().strip() == ""  # no text layer: a scan
            textpage.close()
    finally:
        document.close()
    assert rendered.first_pages == bundle.first_pages
