"""`report-metadata` v2: front-matter families, their traps and truth, and the shipped dev and test
splits (sizes, scans, vocabulary by split, fixtures)."""

from __future__ import annotations

import re
from collections import Counter

import pypdfium2 as pdfium
import pytest
from extract_labreport_kit import errors_by_case, score_fixture, shipped

from envirobench_extract.generate.report_metadata import (
    MISTAKES_V2,
    V2_SIZES,
    PlannedReport,
    answer_v2,
    plan_v2,
    planted_v2,
    render_v2,
)
from envirobench_extract.package import PACKAGE
from envirobench_extract.report_metadata import ReportMetadata
from envirobench_synth import vocabulary
from envirobench_synth.labreport import frontmatter
from envirobench_synth.labreport.frontmatter import FAMILIES, SPLIT_FAMILIES, STATUSES
from envirobench_synth.rng import make_random

TYPE = ReportMetadata()
LAYOUT = PACKAGE.layout(TYPE.ID)
FOLDERS = {"dev": "synthetic-dev-v2", "test": "synthetic-test-v2"}


def page_texts(pdf: bytes) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        return [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()


def report(family, status, seed=1, **options):
    return frontmatter.sample_metadata_report(
        make_random(seed, family, status), family, status, **options
    )


def rendered_text(r):
    pages = frontmatter.render_pages(r, 1, "t")
    from envirobench_synth.scans import emit_document

    pdf = emit_document(
        pages.draw_page, [frontmatter.PAGE] * len(pages.sheets), {}, title="R", creator="t"
    )
    return pages, pdf, page_texts(pdf)


# -- families ------------------------------------------------------------------------------------


def test_six_families_three_dev_only_and_three_test_only():
    assert len(FAMILIES) >= 6
    assert len(SPLIT_FAMILIES["dev"]) >= 3 and len(SPLIT_FAMILIES["test"]) >= 3
    assert not set(SPLIT_FAMILIES["dev"]) & set(SPLIT_FAMILIES["test"])


@pytest.mark.parametrize("family", list(FAMILIES))
def test_each_family_prints_its_facts_and_draws_its_words_from_its_split(family):
    split = FAMILIES[family].split
    for status in STATUSES:
        r = report(family, status)
        for role, word in r.words.items():
            pool = (
                vocabulary.COLUMN_TERMS[role.split(":", 1)[1]]
                if ":" in role
                else vocabulary.LABEL_TERMS[role]
            )
            assert word in vocabulary.terms_of(pool, split), (role, word)
        pages, pdf, texts = rendered_text(r)
        first = "".join(texts[: pages.starts[1] if len(pages.starts) > 1 else len(texts)])
        flat = re.sub(r"\s+", " ", first)
        f = r.facts
        for value in (f.laboratory, f.work_order, f.client, f.project, r.date(f.report_date)):
            assert value in flat, (family, status, value)
        for day in f.sampling_dates():
            assert r.table_date(day) in flat or r.date(day) in flat


def test_rendering_is_reproducible():
    r = report("certificate", "revised", stapled=True)
    once = frontmatter.render_pages(r, 3, "x")
    again = frontmatter.render_pages(report("certificate", "revised", stapled=True), 3, "x")
    assert [s.ops for s in once.sheets] == [s.ops for s in again.sheets]


def test_status_in_the_footer_only():
    for seed in range(40):
        r = report("letterhead-cover", "draft", seed=seed)
        if "status-footer" in r.traps:
            break
    else:
        pytest.fail("no draft with its status in the footer only")
    pages, _, texts = rendered_text(r)
    assert not any(op[0] == "watermark" for s in pages.sheets for op in s.ops)
    lines = texts[0].strip().splitlines()
    assert r.status_word in lines[-1]  # the footer, drawn last
    assert not any(r.status_word in line for line in lines[:-1])


def test_draft_watermark_present_unless_the_trap_says_otherwise():
    seen = Counter()
    for seed in range(30):
        r = report("summary-cover", "draft", seed=seed)
        pages = frontmatter.render_pages(r, 1, "w")
        marked = any(op[0] == "watermark" for op in pages.sheets[0].ops)
        assert marked == ("draft-no-watermark" not in r.traps)
        seen[marked] += 1
    assert seen[True] and seen[False]


def test_a_revision_names_the_report_it_supersedes_and_its_older_date():
    for seed in range(40):
        r = report("case-narrative", "revised", seed=seed)
        if "supersedes" in r.traps and "status-footer" not in r.traps:
            break
    f = r.facts
    assert f.superseded_date < f.report_date
    _, _, texts = rendered_text(r)
    flat = re.sub(r"\s+", " ", texts[0])
    assert f.supersedes in flat and r.date(f.superseded_date) in flat
    assert answer_v2(r).report_date == f.report_date.isoformat()


def test_stapled_reports_answer_for_the_first():
    r = report("header-band", "final", stapled=True)
    (behind,) = r.stapled
    pages, _, texts = rendered_text(r)
    assert len(pages.starts) == 2
    later = "".join(texts[pages.starts[1] :])
    assert behind.facts.work_order in later
    answer = answer_v2(r)
    assert answer.work_order == r.facts.work_order != behind.facts.work_order
    assert set(answer.sampling_dates) == {d.isoformat() for d in r.facts.sampling_dates()}


def test_project_number_and_name_in_one_field_answers_the_name():
    for seed in range(60):
        r = report("certificate", "final", seed=seed)
        if "project-number" in r.traps:
            break
    _, _, texts = rendered_text(r)
    assert f"{r.facts.project_number} / {r.facts.project}" in re.sub(r"\s+", " ", texts[0])
    assert answer_v2(r).project == r.facts.project


def test_bad_family_or_status_names_the_field():
    with pytest.raises(ValueError, match="family"):
        report("memo", "final")
    with pytest.raises(ValueError, match="status"):
        frontmatter.sample_metadata_report(make_random(1), "certificate", "amended")


def test_a_scanned_case_is_reproducible_and_image_only_where_planned():
    planned = PlannedReport("rm-test-9999", "certificate", "draft", "front")
    first = render_v2("synthetic-test-v2", planned)
    again = render_v2("synthetic-test-v2", planned)
    assert first.pdf == again.pdf
    texts = page_texts(first.pdf)
    assert first.scanned_pages == (0,)
    assert texts[0].strip() == "" and texts[1].strip() != ""


def test_plans_have_their_sizes_and_families_in_turn():
    for split, folder in FOLDERS.items():
        plan = plan_v2(folder)
        assert len(plan) == V2_SIZES[split]
        assert {p.family for p in plan} == set(SPLIT_FAMILIES[split])
        assert {p.status for p in plan} == set(STATUSES)
    assert V2_SIZES["test"] >= 200


# -- the shipped datasets ------------------------------------------------------------------------


@pytest.fixture(scope="module", params=list(FOLDERS))
def split_dataset(request):
    split = request.param
    registry, dataset, cases, answers = shipped(TYPE.ID, FOLDERS[split])
    return split, dataset, cases, answers


def test_the_shipped_split(split_dataset):
    split, dataset, cases, answers = split_dataset
    assert len(cases) == V2_SIZES[split]
    assert {c.category for c in cases.values()} == set(SPLIT_FAMILIES[split])
    assert Counter(a.status for a in answers.values()).keys() == set(STATUSES)
    assert dataset.manifest.id == f"envirobench/report-metadata-synthetic-{split}-v2"
    description = dataset.manifest.description
    for trap in frontmatter.TRAPS:
        count = int(re.search(rf"{trap} (\d+)", description).group(1))
        assert count > 0, (split, trap)  # every trap is present in both splits


def test_both_splits_fit_in_six_megabytes():
    total = 0
    for folder in FOLDERS.values():
        total += sum(p.stat().st_size for p in LAYOUT.dataset_dir(folder).rglob("*") if p.is_file())
    assert total <= 6_000_000


def test_a_quarter_of_the_test_pages_are_scans():
    _, dataset, cases, _ = shipped(TYPE.ID, FOLDERS["test"])
    pages = scanned = 0
    for case in cases.values():
        texts = page_texts((LAYOUT.dataset_dir(FOLDERS["test"]) / case.input.document).read_bytes())
        pages += len(texts)
        scanned += sum(not t.strip() for t in texts)
    assert scanned >= pages / 4


def test_dev_documents_print_no_test_only_term():
    terms = sorted(t for t in vocabulary.test_only_terms() if len(t) >= 3)
    patterns = [re.compile(rf"(?<!\w){re.escape(t)}(?!\w)", re.IGNORECASE) for t in terms]
    _, _, cases, _ = shipped(TYPE.ID, FOLDERS["dev"])
    found = set()
    for case in cases.values():
        pdf = (LAYOUT.dataset_dir(FOLDERS["dev"]) / case.input.document).read_bytes()
        text = " ".join(page_texts(pdf))
        found |= {t for t, p in zip(terms, patterns, strict=True) if p.search(text)}
    assert found == set()


def test_fixtures(split_dataset):
    split, _, cases, answers = split_dataset
    folder = FOLDERS[split]
    fixtures = LAYOUT.fixtures_dir(folder)
    correct = score_fixture(TYPE, fixtures, "correct", cases, answers)
    assert errors_by_case(correct, "exact") == {}
    mistakes = planted_v2(LAYOUT.dataset_dir(folder))
    assert sorted(mistakes.values(), key=MISTAKES_V2.index) == list(MISTAKES_V2)
    wrong = score_fixture(TYPE, fixtures, "wrong", cases, answers)
    assert errors_by_case(wrong, "exact") == {
        case_id: [("wrong-field", name) for name in m.errors] for case_id, m in mistakes.items()
    }


def test_every_shipped_text_layer_report_prints_its_names(split_dataset):
    """Names of the answer are printed (the text layer of the report's pages) in every case whose
    first page is not a scan; a scanned page's words are checked by the rendering tests."""
    split, _, cases, answers = split_dataset
    checked = 0
    for case_id, case in cases.items():
        pdf = (LAYOUT.dataset_dir(FOLDERS[split]) / case.input.document).read_bytes()
        texts = page_texts(pdf)
        if not texts[0].strip():
            continue
        flat = re.sub(r"\s+", " ", " ".join(texts))
        a = answers[case_id]
        for value in (a.laboratory, a.work_order, a.client, a.project):
            assert value in flat, (case_id, value)
        checked += 1
    assert checked >= len(cases) // 2
