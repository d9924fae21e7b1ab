"""What makes a site record's pages look like a real file's (issue 33 point 4), on one small dev
site's plan: boring logs with a graphic column and a well diagram, one historical table continued
over pages, sentences of each document's own kind, scans filed as an archive holds them and
recorded page by page, and site names that never repeat within a split.
"""

from __future__ import annotations

import re

import numpy as np
import pypdfium2 as pdfium
import pytest
from synth_kit import page_texts

from envirobench_synth.locate.sitepages import FILLER, MARGIN, PAGE_H, emit_pdf
from envirobench_synth.site import boilerplate
from envirobench_synth.site.boringlog import WIDTHS
from envirobench_synth.site.documents import Traps, plan_documents
from envirobench_synth.site.model import SPECS, sample_model
from envirobench_synth.site.papers import Doc
from envirobench_synth.site.record import render_volume

SITE = "dev-plating-shop"


@pytest.fixture(scope="module")
def plan() -> tuple[list[Doc], Traps]:
    spec = SPECS[SITE]
    return plan_documents(sample_model(spec, events=4), spec.seed)


def _image(sheet) -> np.ndarray:
    page = pdfium.PdfDocument(emit_pdf([sheet], "t"))[0]
    return np.asarray(page.render(scale=1).to_pil().convert("L"))


def _sheets(docs: list[Doc], kind: str):
    return [s for d in docs for p in d.parts if p.sheets for s in p.sheets if s.kind == kind]


def test_a_boring_log_draws_its_graphic_column_and_a_wells_construction(plan):
    docs, _ = plan
    logs = _sheets(docs, "boring-log")
    assert logs
    wells = 0
    for sheet in logs:
        assert not sheet.facts  # a log states no fact of the answer keys
        image = _image(sheet)
        x0 = int(MARGIN + WIDTHS[0] + WIDTHS[1]) + 2
        column = image[:, x0 : x0 + int(WIDTHS[2]) - 4]
        text_column = image[:, x0 + int(WIDTHS[2]) + 8 : x0 + int(WIDTHS[2]) + 8 + column.shape[1]]
        rows = np.nonzero((column < 128).any(axis=1))[0]
        assert len(rows) > 100, "the graphic column is drawn down the layers"
        # patterns fill the column: far more of it is inked than of the description beside it
        assert (column < 128).mean() > 2 * (text_column < 128).mean()
        right = image[:, int(MARGIN + sum(WIDTHS)) + 8 : int(MARGIN + sum(WIDTHS)) + 44]
        if re.search(r":\s*MW", page_texts(emit_pdf([sheet], "t"))[0][:120]):
            wells += 1
            assert (right < 128).sum() > 500, "a monitoring well's log has its construction diagram"
    assert wells, "the plan has a monitoring well's log"


def test_the_historical_table_is_one_table_continued_over_pages():
    spec = SPECS[SITE]
    docs, _ = plan_documents(sample_model(spec), spec.seed)  # every round: the last report's table is long
    parts = [p for d in docs for p in d.parts if p.role == "cumulative"]
    assert parts
    longest = max(parts, key=lambda p: p.pages)
    assert longest.pages >= 2
    texts = page_texts(emit_pdf(longest.sheets, "t"))
    for index, text in enumerate(texts):
        assert ("(continued)" in text) == (index > 0)
        assert re.search(r"Well\s+Date", text), "each page repeats the header row"
        assert "Units:" in text
    facts = [s.facts for s in longest.sheets]
    assert all(facts) and not set.intersection(*facts)  # every page prints results, each once
    wells = {f.split("|")[1] for page in facts for f in page}
    assert len(wells) >= 2  # every well in the one table


def test_plans_letters_and_memos_carry_no_field_crew_sentences(plan):
    docs, _ = plan
    field = {text.split("{")[0][:40] for text in FILLER}
    for doc in docs:
        if doc.kind in ("cap", "letter", "memo") or doc.kind.startswith("completion"):
            for part in doc.parts:
                for sheet in part.sheets or ():
                    text = " ".join(page_texts(emit_pdf([sheet], "t")))
                    flat = " ".join(text.split())
                    assert not [f for f in field if f in flat], (doc.kind, doc.title)


@pytest.mark.parametrize("kind", sorted(boilerplate.BY_KIND))
def test_boilerplate_states_nothing(kind):
    words = re.compile(r"\b(released?|restrict\w*|institutional|covenant|rejected|corrected|MW-?\d|\d{4})\b", re.I)
    for text in boilerplate.BY_KIND[kind]:
        assert not words.search(text), (kind, text)
    assert len(boilerplate.BY_KIND[kind]) >= 4  # a document asks for up to four


def test_scanned_parts_are_archive_copies_recorded_page_by_page(plan):
    docs, _ = plan
    scanned = [i for i, d in enumerate(docs) if d.pages <= 6 and any(p.scan for p in d.parts)]
    assert scanned
    spec = SPECS[SITE]
    for i in scanned[:4]:
        pdf = render_volume(docs, [i], spec.seed, SITE, 1)
        document = pdfium.PdfDocument(pdf)
        page = 0
        for part in docs[i].parts:
            if part.scan:
                assert len(part.scan_pages) == part.pages
                assert {s.generation for s in part.scan_pages} <= {"scan", "photocopy", "fax"}
                for k in range(part.pages):
                    assert not document[page + k].get_textpage().get_text_range().strip(), "a scan has no text layer"
                    assert document[page + k].get_size() == pytest.approx((612, PAGE_H), abs=1)
            page += part.pages


def test_no_two_sites_of_a_kind_share_a_name_in_their_split():
    seen: dict[tuple[str, str], str] = {}
    for site_id, spec in SPECS.items():
        name = sample_model(spec).business
        key = (spec.shipped, name)
        assert key not in seen, f"{site_id} and {seen[key]} are both {name!r}"
        seen[key] = site_id
