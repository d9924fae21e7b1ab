"""The v2 datasets of document-extraction and table-records: lab reports of the six report families.

`document_extraction.generate` and `table_records.generate` dispatch here for the folders
`synthetic-dev-v2` and `synthetic-test-v2`. Reports come from `envirobench_synth.labreport`'s
families (`families.py`: conventions, traps and the truth rules; `skeletons.py`: pages and scans).
The dev split draws only dev families and dev vocabulary; the test split only test families
(with test and shared vocabulary), so nothing of a test family's skeleton variant, conventions or
column titles is seen in dev.

A case's category is `<family>:<main trap>` (document-extraction: scanned, stapled, superseded,
reanalysis, qc-inline or plain, the first that applies; table-records: scanned or text), so
scores can be reported per family and per trap.

document-extraction: one PDF per case (a report, or two stapled), its records in print order.
table-records: one PDF per source report holding its results pages that print records; each
page is a case (`document` + `page`), so no binary is stored twice. Every file is reproducible
from (SEED, stream, split, case ID, attempt).

    python -m envirobench_extract.generate.labreport_families   # the trap counts of all four
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from envirobench import EnviroBenchError, read_manifest
from envirobench_synth.labreport.families import (
    Family,
    FamilyReport,
    families_of,
    sample_family_report,
)
from envirobench_synth.labreport.skeletons import (
    RenderedFamilyReport,
    ScanPlan,
    render_family_reports,
)
from envirobench_synth.rng import make_random
from envirobench_synth.vocabulary import Split

from ..records import Record
from .labreports import record_of

SEED = 20261201
V2_FOLDERS: dict[str, Split] = {"synthetic-dev-v2": "dev", "synthetic-test-v2": "test"}
MAX_ATTEMPTS = 20
MAX_PAGES = 16
MIN_RECORDS = 10

# Reports per split: document-extraction cases, table-records source reports.
DOCUMENTS = {"dev": 90, "test": 210}
TABLE_REPORTS = {"dev": 40, "test": 90}
TABLES = {"dev": 130, "test": 310}
PAGES_PER_SOURCE = 3
PAGE_CONVENTIONS = frozenset(("decimal-comma", "id-with-date", "screening-level"))


def split_of(dataset: str) -> Split:
    try:
        return V2_FOLDERS[dataset]
    except KeyError:
        raise ValueError(
            f"dataset {dataset!r} is not a v2 folder ({', '.join(V2_FOLDERS)})"
        ) from None


def is_v2(dataset_dir: Path) -> bool:
    """Whether the dataset written in `dataset_dir` is a v2 split (by its manifest's ID, since
    the directory may be anywhere)."""
    return read_manifest(dataset_dir).id.endswith("-v2")


@dataclass(frozen=True)
class FamilyCase:
    case_id: str
    family: Family
    scan: ScanPlan
    stapled: int  # reports in the PDF


def document_plan(split: Split, count: int, prefix: str = "de") -> list[FamilyCase]:
    """The cases of a split: families in turn; scans and staples on fixed positions, so the share
    of scanned pages is by design (test: 1 report in 4 scanned whole and 1 in 5 of the others
    its cover, over a quarter of the pages; dev: 1 in 10 whole, 1 in 10 its cover; 1 in 25
    two reports stapled)."""
    families = families_of(split)
    out = []
    for i in range(count):
        family = families[i % len(families)]
        whole = i % 4 == 1 if split == "test" else i % 10 == 2
        cover = i % 5 == 3 if split == "test" else i % 10 == 9
        scan: ScanPlan = "all" if whole else "cover" if cover else "none"
        stapled = 2 if i % 25 == 12 else 1
        out.append(FamilyCase(f"{prefix}-{i + 1:04d}", family, scan, stapled))
    return out


def draw_family_case(stream: str, split: Split, case: FamilyCase) -> RenderedFamilyReport:
    """The first attempt whose report(s) fit: at most MAX_PAGES pages, MIN_RECORDS records each."""
    problems = []
    for attempt in range(MAX_ATTEMPTS):
        reports: list[FamilyReport] = [
            sample_family_report(
                make_random(SEED, stream, split, case.case_id, attempt, k), case.family, split
            )
            for k in range(case.stapled)
        ]
        labels = (stream, split, case.case_id, attempt)
        try:
            preview = render_family_reports(reports, SEED, *labels, scan="none")
        except ValueError as error:  # a table too wide for its page even at 6 pt
            problems.append(str(error))
            continue
        per_report = Counter(preview.pages[p - 1].report for p in preview.record_pages)
        if len(preview.pages) > MAX_PAGES * case.stapled:
            problems.append(f"{len(preview.pages)} pages")
        elif min(per_report.get(k, 0) for k in range(case.stapled)) < MIN_RECORDS:
            problems.append("too few records")
        else:
            if case.scan == "none":
                return preview
            return render_family_reports(reports, SEED, *labels, scan=case.scan)
    raise EnviroBenchError(
        f"{case.case_id}: no acceptable {case.family.name} report in {MAX_ATTEMPTS} attempts "
        f"({'; '.join(sorted(set(problems)))})"
    )


def document_category(rendered: RenderedFamilyReport, case: FamilyCase) -> str:
    traps = rendered.traps
    if case.scan == "all":
        main = "scanned"
    elif case.stapled > 1:
        main = "stapled"
    elif traps.get("original-pages-appended"):
        main = "superseded"
    elif traps.get("reanalysis-dl") or traps.get("reanalysis-re"):
        main = "reanalysis"
    elif traps.get("qc-inline"):
        main = "qc-inline"
    else:
        main = "plain"
    return f"{case.family.name}:{main}"


def records_of(
    rendered: RenderedFamilyReport, indices: tuple[int, ...] | None = None
) -> tuple[Record, ...]:
    chosen = range(len(rendered.records)) if indices is None else indices
    return tuple(record_of(rendered.records[i]) for i in chosen)


def document_cases(dataset: str) -> Iterator[tuple[FamilyCase, RenderedFamilyReport, str]]:
    """(case, rendered report, category) of every document-extraction case of `dataset`."""
    split = split_of(dataset)
    for case in document_plan(split, DOCUMENTS[split]):
        rendered = draw_family_case("document-v2", split, case)
        yield case, rendered, document_category(rendered, case)


@dataclass(frozen=True)
class TablePage:
    case_id: str
    source: str  # the source report's ID (its PDF: assets/<source>.pdf)
    page: int  # 1-based, in that PDF
    records: tuple[Record, ...]
    category: str
    traps: tuple[str, ...]  # the traps its rows show


LAB_QC_TRAPS = frozenset(("qc-matrix-spike", "qc-lab-duplicate", "qc-lcs", "qc-method-blank"))


def table_main_trap(traps: tuple[str, ...]) -> str:
    """scanned, lab-qc (spikes, duplicates, LCS, blanks among the rows), reanalysis, not-result,
    field-qc, surrogates (surrogate rows only) or plain: the first that applies."""
    shown = set(traps)
    if "scanned-page" in shown:
        return "scanned"
    if shown & LAB_QC_TRAPS:
        return "lab-qc"
    if shown & {"reanalysis-dl", "reanalysis-re", "e-flag"}:
        return "reanalysis"
    if shown & {"not-result-cell", "rejected-r", "narrative-invalidated"}:
        return "not-result"
    if shown & {"field-duplicate", "field-blank"}:
        return "field-qc"
    if "qc-surrogate" in shown:
        return "surrogates"
    return "plain"


def table_sources(dataset: str) -> Iterator[tuple[str, bytes, list[TablePage]]]:
    """(source ID, PDF of its results pages, the cases on them) for every source report, until
    the split has its TABLES cases."""
    split = split_of(dataset)
    plan = document_plan(split, TABLE_REPORTS[split] * 3, prefix="src")
    made = 0
    for i, case in enumerate(plan):
        if made >= TABLES[split]:
            return
        # Results pages scanned in 1 source in 4 plus 1 in 10 of the others (test: about a
        # third of the tables), 1 in 10 (dev).
        scanned = i % 4 == 1 or i % 10 == 3 if split == "test" else case.scan == "all"
        scan: ScanPlan = "results" if scanned else "none"
        case = FamilyCase(case.case_id, case.family, scan, 1)
        rendered = draw_family_case("table-v2", split, case)
        numbers = []
        pages = []
        candidates = [
            page
            for page in rendered.pages
            if page.kind == "results" and any(t.page == page.number for t in rendered.tables)
        ]
        # At most PAGES_PER_SOURCE pages of one report (first, last, evenly between), so that a
        # family printing a page per sample does not crowd out the others.
        step = max(1, -(-len(candidates) // PAGES_PER_SOURCE))
        chosen = candidates[::step][: PAGES_PER_SOURCE - 1] + candidates[-1:]
        for page in candidates:
            if page not in chosen:
                continue
            regions = [t for t in rendered.tables if t.page == page.number]
            numbers.append(page.number)
            indices = tuple(i for t in regions for i in t.records)
            # The report's conventions a results page shows (the basis and the ID spellings of
            # the summary are elsewhere in the report, so they are not counted here).
            shown = {t for region in regions for t in region.traps}
            shown |= set(rendered.reports[0].report_traps) & PAGE_CONVENTIONS
            traps = tuple(sorted(shown))
            if page.scanned:
                traps = (*traps, "scanned-page")
            made += 1
            pages.append(
                TablePage(
                    f"tr-{made:04d}",
                    case.case_id,
                    len(numbers),
                    records_of(rendered, indices),
                    f"{case.family.name}:{table_main_trap(traps)}",
                    traps,
                )
            )
            if made >= TABLES[split]:
                break
        yield case.case_id, rendered.pages_pdf(numbers), pages
    if made < TABLES[split]:
        raise EnviroBenchError(f"only {made} tables for {dataset}, {TABLES[split]} wanted")


def trap_counts(dataset: str, kind: str) -> Counter[str]:
    """Every trap of a dataset counted (rows, reports or pages that show it), by rendering it."""
    counts: Counter[str] = Counter()
    if kind == "document-extraction":
        for _case, rendered, _ in document_cases(dataset):
            counts.update(rendered.traps)
            counts["records"] += len(rendered.records)
            counts["pages"] += len(rendered.pages)
            counts["reports"] += 1
    elif kind == "table-records":
        for _source, _pdf, pages in table_sources(dataset):
            for page in pages:
                counts.update(page.traps)  # pages showing each trap
                counts["records"] += len(page.records)
                counts["tables"] += 1
    else:
        raise ValueError(f"kind {kind!r}: document-extraction or table-records")
    return counts


def main() -> None:
    """Print the trap counts of the four v2 datasets as a Markdown table (document-extraction:
    rows, reports or pages showing each trap; table-records: pages showing it)."""
    columns = [
        (kind, folder) for kind in ("document-extraction", "table-records") for folder in V2_FOLDERS
    ]
    tables = {column: trap_counts(column[1], column[0]) for column in columns}
    names = sorted(set().union(*tables.values()))
    print("| trap | " + " | ".join(f"{k} {f}" for k, f in columns) + " |")
    print("|---|" + "---:|" * len(columns))
    for name in names:
        print(f"| {name} | " + " | ".join(str(tables[c].get(name, 0)) for c in columns) + " |")


if __name__ == "__main__":
    main()
