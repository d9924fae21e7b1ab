"""Every kind of document in every office family of envirobench_synth.locate.documents renders
to a PDF (typed, scanned and heavily scanned), and every trap the module declares is drawn and
shows on the pages (read back with PDFium)."""

from __future__ import annotations

from functools import cache

import pytest
from synth_kit import page_texts, squeeze

from envirobench_synth.locate.documents import (
    FAMILIES_BY_SPLIT,
    KINDS,
    TITLES,
    family,
    render_document,
    sample_document,
)
from envirobench_synth.rng import make_random

SEED = 20261203
DRAWS = 12  # documents per kind and split when looking for traps
# The traps `Document.traps` records (the module's docstring); "scanned" and "heavy-scan" are set
# by the caller, not drawn.
TRAPS = (
    "cover-letter",
    "fax-cover",
    "contents",
    "excerpt",
    "cross-reference",
    "certificate-title",
    "misleading-title",
    "untitled",
)


def lowered(text: str) -> str:
    """Squeezed and in lower case: titles are printed in capitals or not, as a family sets."""
    return squeeze(text).lower()


@cache
def drawn(kind: str, split: str, n: int):
    names = FAMILIES_BY_SPLIT[split]
    fam = family(names[(KINDS.index(kind) + n) % len(names)])
    return sample_document(make_random(SEED, kind, split, n), kind, split, fam)


@cache
def typed(kind: str, split: str, n: int):
    pdf, pages = render_document(drawn(kind, split, n), scanned=False, seed=SEED, labels=(kind, n))
    return pdf, pages, page_texts(pdf)


@pytest.mark.parametrize("split", ["dev", "test"])
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_renders_with_its_title_on_its_first_page(kind, split):
    document = drawn(kind, split, 0)
    pdf, pages, texts = typed(kind, split, 0)
    assert pdf.startswith(b"%PDF-") and len(texts) == pages >= 1
    assert document.kind == kind and document.split == split
    if document.title:
        first = 1 if document.cover else 0  # a cover letter or fax cover is page 1
        assert lowered(document.title) in lowered(texts[first])
    assert any(lowered(t) for t in texts), "a typed document has a text layer"


@pytest.mark.parametrize("split", ["dev", "test"])
def test_every_family_of_a_split_renders(split):
    for name in FAMILIES_BY_SPLIT[split]:
        document = sample_document(make_random(SEED, name), "letter", split, family(name))
        assert document.family.name == name
        pdf, pages = render_document(document, scanned=False, seed=SEED, labels=(name,))
        assert len(page_texts(pdf)) == pages


@pytest.mark.parametrize("heavy", [False, True])
def test_a_scanned_copy_has_the_pages_and_no_text_layer(heavy):
    document = drawn("permit", "dev", 0)
    _, pages, _ = typed("permit", "dev", 0)
    pdf, scanned_pages = render_document(
        document, scanned=True, seed=SEED, labels=("scan",), heavy=heavy
    )
    texts = page_texts(pdf)
    assert scanned_pages == pages == len(texts)
    assert not any(t.strip() for t in texts)


def with_trap(trap: str):
    found = [
        (kind, split, n)
        for kind in KINDS
        for split in ("dev", "test")
        for n in range(DRAWS)
        if trap in drawn(kind, split, n).traps
    ]
    assert found, f"no document carries {trap}"
    return found


def test_every_declared_trap_is_drawn_and_no_other():
    seen = {
        t
        for kind in KINDS
        for split in ("dev", "test")
        for n in range(DRAWS)
        for t in drawn(kind, split, n).traps
    }
    assert seen == set(TRAPS)


def test_a_cover_puts_the_document_on_page_two():
    for trap, marks in (("cover-letter", ("enclosed",)), ("fax-cover", ("fax", "facsimile"))):
        for key in with_trap(trap)[:3]:
            _, pages, texts = typed(*key)
            assert pages >= 2
            assert any(mark in lowered(texts[0]) for mark in marks), (trap, key)


def test_contents_and_excerpts_show_as_the_traps_say():
    for key in with_trap("contents")[:3]:
        assert "tableofcontents" in lowered(typed(*key)[2][0])
    for key in with_trap("excerpt")[:3]:
        document = drawn(*key)
        assert document.title == "" and document.header == []


def test_titles_mislead_or_go_missing_as_the_traps_say():
    for key in with_trap("misleading-title")[:5]:
        kind, split, _ = key
        document = drawn(*key)
        assert document.title not in TITLES[kind][split]
        assert lowered(document.title) in lowered(" ".join(typed(*key)[2]))
    for key in with_trap("certificate-title")[:3]:
        document = drawn(*key)
        assert document.kind == "laboratory-report" and document.title.startswith("CERTIFICATE")
    for key in with_trap("untitled")[:3]:
        assert drawn(*key).title == ""
