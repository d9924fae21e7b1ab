"""The seeded generator of `envirobench/report-metadata-synthetic-v1`, and its fixtures.

Thirty-two short laboratory reports (one to three samples), eight per category: `final`,
`draft` (a DRAFT watermark and a preliminary-results notice), `revised` (a revision number,
the date of the report it replaces and the reason), and `scanned` (any status, the cover and
the case-narrative page image-only). Their results pages cycle through the seven text layouts. The
answer is the laboratory, work order, client, project, report date, sampling dates and status.

Each report draws from its own stream, make_random(SEED, "metadata", case_id, attempt);
regenerating reproduces every file byte for byte.

v2 (`synthetic-dev-v2`, `synthetic-test-v2`; the `generate` path is chosen by the dataset folder,
and v1's output is unchanged): short reports in six front-matter families
(`envirobench_synth.labreport.frontmatter`: three dev-only, three test-only, with the words of
`envirobench_synth.vocabulary` by split), statuses in the shares of V2_STATUS_SHARES, the
metadata traps of that module (status only in a footer, drafts without a watermark, revisions
naming the report they supersede, client and laboratory addresses, project name and number,
work order beside laboratory sample IDs and PO numbers, received/analysed/printed dates, several
reports stapled into one PDF, sampling over several days, dates in several formats) and scanned
pages (`envirobench_synth.scans`: bitonal or grayscale, 2-5 degrees of skew, stamps, pen marks,
fax and JPEG damage; at least a quarter of the test split's pages). The case category is the
family. Truth rules: the frontmatter module's docstring (the answer is the FIRST report's).
Each report draws from make_random(V2_SEED, split, case_id).

Length: both versions' generators and their fixtures, which share the fixtures' writer and are
chosen by the dataset folder; the manifests name this module as their generator, so the v2 path
stays here rather than move and change every pinned manifest.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from envirobench import (
    EnviroBenchError,
    FixturePlan,
    GeneratedCase,
    Manifest,
    copy_fields,
    dataset_writer,
    document_cases,
    plant_mistakes,
    read_answers,
    read_categories,
    split_of,
    unstructure,
    write_json,
)
from envirobench_synth.labreport import LAYOUTS, RenderedReport, frontmatter
from envirobench_synth.rng import make_random
from envirobench_synth.scans import emit_document, sample_scan_settings, scan_document

from ..report_metadata import FIELDS, Answer, Input, ReportMetadata
from . import LayoutCase, layout_case_ids
from .labreports import draw_report

SEED = 20240809
VERSION = 1
STREAM = "metadata"
REPORTS_PER_CATEGORY = 8
CATEGORIES = ("final", "draft", "revised", "scanned")
SIZES = ((1, 3), (4, 10))  # samples, analytes per sample: short reports keep the dataset small
# Scanned results pages say nothing about the metadata and cost bytes: the scanned category
# scans the pages that do (the cover and the narrative) instead.
RESULTS_LAYOUTS = tuple(layout for layout in LAYOUTS if layout != "scanned")

TITLE = "Report metadata, synthetic v1"
DESCRIPTION = (
    f"{REPORTS_PER_CATEGORY * len(CATEGORIES)} short synthetic laboratory-report PDFs, "
    f"{REPORTS_PER_CATEGORY} per category ({', '.join(CATEGORIES)}; scanned: the cover and narrative "
    "pages are image-only). The answer is the laboratory, work order, client, project, report date, "
    "sampling dates and report status."
)


def case_ids() -> list[LayoutCase]:
    """(case ID, category) of every case, in file order."""
    return layout_case_ids("rm", CATEGORIES, REPORTS_PER_CATEGORY)


def render_case(case_id: str, category: str) -> RenderedReport:
    number = int(case_id.rsplit("-", 1)[1])
    layout = RESULTS_LAYOUTS[number % len(RESULTS_LAYOUTS)]
    scanned = category == "scanned"
    options = {"sizes": SIZES, "status": None if scanned else category}
    return draw_report(
        SEED,
        STREAM,
        case_id,
        layout,
        sample_options=options,
        scan_kinds=("cover", "narrative") if scanned else (),
        check_layout=False,
    )


def answer_of(rendered: RenderedReport) -> Answer:
    info = rendered.report.info
    return copy_fields(
        Answer,
        info,
        report_date=info.report_date.isoformat(),
        sampling_dates=tuple(d.isoformat() for d in rendered.report.sampling_dates()),
    )


def generate(output_dir: Path, dataset: str = "synthetic-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""
    if split_of(dataset) is not None:
        return generate_v2(output_dir, dataset)
    write = dataset_writer(ReportMetadata, dataset, seed=SEED, version=VERSION)

    def render(planned: LayoutCase, path: str) -> tuple[bytes, str, Input, Answer]:
        rendered = render_case(*planned)
        return rendered.pdf, planned.layout, Input(document=path), answer_of(rendered)

    return write(
        output_dir,
        document_cases(case_ids(), render),
        title=TITLE,
        description=DESCRIPTION,
    )


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MetadataMistake:
    """A deliberate mistake in wrong.json, on the first case of `category` no other mistake took."""

    category: str
    change: dict  # field -> how to change it (see `apply`)
    errors: tuple[str, ...]  # the fields that must then be wrong
    why: str


MISTAKES: tuple[MetadataMistake, ...] = (
    MetadataMistake(
        "revised", {"status": "final"}, ("status",), "a revision read as a final report"
    ),
    MetadataMistake(
        "revised",
        {"report_date": "first-sampling-date"},
        ("report_date",),
        "a sampling date taken for the report date",
    ),
    MetadataMistake(
        "draft",
        {"status": "final", "laboratory": "shout"},
        ("status",),
        "a draft read as final; the laboratory in capitals with extra spaces is still right",
    ),
    MetadataMistake(
        "final",
        {"sampling_dates": "add-report-date"},
        ("sampling_dates",),
        "the report date counted as a sampling date",
    ),
    MetadataMistake(
        "final", {"client": "laboratory"}, ("client",), "the laboratory given as the client"
    ),
    MetadataMistake(
        "scanned",
        {"work_order": None, "sampling_dates": "reversed"},
        ("work_order",),
        "the work order not found; sampling dates listed in reverse are still right",
    ),
)


def apply(mistake: MetadataMistake, prediction: dict) -> dict:
    out = dict(prediction)
    for name, how in mistake.change.items():
        if how is None:
            out[name] = None
        elif how == "first-sampling-date":
            out[name] = prediction["sampling_dates"][0]
        elif how == "shout":
            out[name] = "  " + prediction[name].upper().replace(" ", "   ")
        elif how == "add-report-date":
            out[name] = sorted({*prediction[name], prediction["report_date"]})
        elif how == "laboratory":
            out[name] = prediction["laboratory"]
        elif how == "reversed":
            out[name] = list(reversed(prediction[name]))
        else:
            out[name] = how
    return out


def change_applies(mistake: MetadataMistake | MetadataMistakeV2, answer: Answer) -> bool:
    """False where the planned change would leave the field right (the report date already among
    the sampling dates, or already the first of them): the mistake must make an error."""
    if (
        mistake.change.get("sampling_dates") == "add-report-date"
        and answer.report_date in answer.sampling_dates
    ):
        return False
    return not (
        mistake.change.get("report_date") == "first-sampling-date"
        and answer.sampling_dates[0] == answer.report_date
    )


def planted(dataset_dir: Path) -> dict[str, MetadataMistake]:
    """Case ID -> the mistake wrong.json makes there."""
    categories = dict(case_ids())
    answers = read_answers(dataset_dir, Answer)
    return plant_mistakes(
        MISTAKES,
        answers,
        lambda m, c: categories.get(c) == m.category and change_applies(m, answers[c]),
    )


# correct.json (every field of the answer) and wrong.json (the v1 or v2 mistakes, by the
# dataset's categories), indented as shipped.
FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {name: unstructure(getattr(answer, name)) for name in FIELDS},
    planted=lambda dataset_dir, answers: (
        planted_v2(dataset_dir) if is_v2(dataset_dir) else planted(dataset_dir)
    ),
    wrong=lambda mistake, answer, prediction: apply(mistake, prediction),
    file_writer=write_json,
)


# -- v2: front-matter families, metadata traps, scans ----------------------------------------------

V2_SEED = 20261201
V2_VERSION = 1
V2_SIZES = {"dev": 90, "test": 210}
# Statuses per 100 reports: "final" is under half, so "every report final" gets status wrong
# more often than right.
V2_STATUS_SHARES = {"final": 44, "draft": 26, "revised": 30}
# Reports with scanned pages, per 100: a third of them only the front matter, two thirds every
# page of the first report (a report scanned whole), so that a quarter of the pages are images.
V2_SCANNED_SHARES = {"dev": 36, "test": 42}
MIN_SCANNED_PAGE_SHARE = {"dev": 0.2, "test": 0.25}
GRAY_SHARE = 0.2
PDF_TITLE = "Laboratory Report"
PDF_CREATOR = "EnviroBench synthetic laboratory report (front matter v2)"


@dataclass(frozen=True)
class PlannedReport:
    case_id: str
    family: str
    status: str
    scan: str  # "none", "front" (the first report's front matter) or "all" (every page of it)


def plan_v2(folder: str) -> list[PlannedReport]:
    """The reports of dataset `folder`: statuses shuffled, families in turn, scans spread."""
    split = split_of(folder)
    size = V2_SIZES[split]
    statuses = [s for s, share in V2_STATUS_SHARES.items() for _ in range(share * size // 100)]
    statuses += ["final"] * (size - len(statuses))
    make_random(V2_SEED, split, "order").shuffle(statuses)
    scanned = V2_SCANNED_SHARES[split] * size // 100
    scans = (["front", "all", "all"] * scanned)[:scanned]
    scans += ["none"] * (size - len(scans))
    make_random(V2_SEED, split, "scans").shuffle(scans)
    families = frontmatter.SPLIT_FAMILIES[split]
    return [
        PlannedReport(f"rm-{split}-{i + 1:04d}", families[i % len(families)], status, scan)
        for i, (status, scan) in enumerate(zip(statuses, scans, strict=True))
    ]


@dataclass(frozen=True)
class RenderedMetadataReport:
    pdf: bytes
    report: frontmatter.MetadataReport
    pages: int
    scanned_pages: tuple[int, ...]
    marks: tuple[str, ...]  # the kinds of what was drawn on scanned pages (stamp, initials, ...)
    damages: tuple[str, ...]  # per scanned page: mode, turn and transit damage, for the docs


def _place_marks(settings, sheet: frontmatter.Sheet):
    """Stamps and pen marks go where the page is blank (never over a fact); none if it is full."""
    region = sheet.free_region()
    damages = []
    for damage in settings.damages:
        if damage.kind in ("stamp", "handwriting"):
            if region is None:
                continue
            damage = dataclasses.replace(damage, params={**damage.params, "region": region})
        damages.append(damage)
    return dataclasses.replace(settings, damages=tuple(damages))


def render_v2(folder: str, planned: PlannedReport) -> RenderedMetadataReport:
    split = split_of(folder)
    rng = make_random(V2_SEED, split, planned.case_id)
    report = frontmatter.sample_metadata_report(rng, planned.family, planned.status)
    pages = frontmatter.render_pages(report, V2_SEED, split, planned.case_id)
    sizes = [frontmatter.PAGE] * len(pages.sheets)
    if planned.scan == "none":
        pdf = emit_document(pages.draw_page, sizes, {}, title=PDF_TITLE, creator=PDF_CREATOR)
        return RenderedMetadataReport(pdf, report, len(sizes), (), (), ())
    first_report_end = pages.starts[1] if len(pages.starts) > 1 else len(sizes)
    indexes = pages.front if planned.scan == "front" else tuple(range(first_report_end))
    # A client's RECEIVED stamp carries the day the report reached the client: a date that is
    # none of the report's own.
    arrival = report.facts.report_date + dt.timedelta(days=rng.randint(1, 9))
    # One scanner per report: grayscale one report in five (JPEG pages cost four times a
    # bitonal page's bytes), at 120 dpi.
    gray = make_random(V2_SEED, split, planned.case_id, "scanner").random() < GRAY_SHARE
    settings = {}
    for index in indexes:
        scan_rng = make_random(V2_SEED, split, planned.case_id, "scan", index)
        sampled = sample_scan_settings(
            scan_rng,
            mode="gray" if gray else "bitonal",
            dpi=120 if gray else 150,
            stamp_date=arrival.strftime("%b %d %Y").upper() if index == 0 else None,
            stamp_chance=0.6 if index == 0 else 0.2,
        )
        settings[index] = _place_marks(sampled, pages.sheets[index])
    result = scan_document(
        pages.draw_page,
        sizes,
        settings,
        V2_SEED,
        split,
        planned.case_id,
        title=PDF_TITLE,
        creator=PDF_CREATOR,
    )
    marks = tuple(m.kind for page in result.pages.values() for m in page.marks)
    damages = tuple(
        " ".join(
            [s.mode, f"turn{s.turn}"] + [d.kind for d in s.damages if d.kind in ("fax", "jpeg")]
        )
        for s in settings.values()
    )
    return RenderedMetadataReport(
        result.pdf, report, len(sizes), tuple(sorted(settings)), marks, damages
    )


def answer_v2(report: frontmatter.MetadataReport) -> Answer:
    f = report.facts
    return copy_fields(
        Answer,
        f,
        report_date=f.report_date.isoformat(),
        sampling_dates=tuple(d.isoformat() for d in f.sampling_dates()),
    )


def describe_v2(folder: str, rendered: list[RenderedMetadataReport]) -> str:
    split = split_of(folder)
    families = frontmatter.SPLIT_FAMILIES[split]
    traps = Counter(t for r in rendered for t in r.report.traps)
    statuses = Counter(r.report.facts.status for r in rendered)
    pages = sum(r.pages for r in rendered)
    scanned = sum(len(r.scanned_pages) for r in rendered)
    return (
        f"{len(rendered)} short synthetic laboratory-report PDFs, the {split} split of report "
        f"metadata v2: front-matter families {', '.join(families)}; statuses "
        + ", ".join(f"{s} {statuses[s]}" for s in frontmatter.STATUSES)
        + "; traps "
        + ", ".join(f"{t} {traps[t]}" for t in frontmatter.TRAPS)
        + f"; {scanned} of {pages} pages scanned ({sum(bool(r.scanned_pages) for r in rendered)} "
        "reports). The answer is the first report's laboratory, work order, client, project, "
        "report date, sampling dates and status."
    )


def generate_v2(output_dir: Path, dataset: str) -> Manifest:
    write = dataset_writer(ReportMetadata, dataset, seed=V2_SEED, version=V2_VERSION)
    split = split_of(dataset)
    planned = plan_v2(dataset)
    rendered: list[RenderedMetadataReport] = []
    # The description counts what was drawn, so every case is rendered before anything is
    # written.
    cases = []
    pdfs = {}
    for case in planned:
        out = render_v2(dataset, case)
        rendered.append(out)
        pdfs[case.case_id] = out.pdf
        cases.append(
            (
                case.case_id,
                case.family,
                Input(document=f"assets/{case.case_id}.pdf"),
                answer_v2(out.report),
            )
        )
    pages = sum(r.pages for r in rendered)
    scanned = sum(len(r.scanned_pages) for r in rendered)
    if scanned < MIN_SCANNED_PAGE_SHARE[split] * pages:
        raise EnviroBenchError(f"{dataset}: only {scanned} of {pages} pages scanned")

    def _written(root: Path) -> Iterator[GeneratedCase]:
        for case_id, category, case_input, answer in cases:
            (root / case_input.document).write_bytes(pdfs[case_id])
            yield case_id, category, case_input, answer

    return write(
        output_dir,
        _written,
        title=f"Report metadata, synthetic {split} v2",
        description=describe_v2(dataset, rendered),
    )


def is_v2(dataset_dir: Path) -> bool:
    """Whether a dataset folder holds v2 cases (their categories are front-matter families)."""
    return set(read_categories(dataset_dir).values()) <= set(frontmatter.FAMILIES)


@dataclass(frozen=True)
class MetadataMistakeV2:
    """A deliberate v2 mistake, on the first case (in order) whose answer has `status` and that no
    other mistake took."""

    status: str
    change: dict
    errors: tuple[str, ...]
    why: str


MISTAKES_V2: tuple[MetadataMistakeV2, ...] = (
    MetadataMistakeV2("revised", {"status": "final"}, ("status",), "a revision read as final"),
    MetadataMistakeV2(
        "draft", {"status": "final"}, ("status",), "a draft without its watermark read as final"
    ),
    MetadataMistakeV2(
        "revised",
        {"report_date": "first-sampling-date"},
        ("report_date",),
        "a sampling date taken for the report date",
    ),
    MetadataMistakeV2(
        "final",
        {"client": "laboratory", "laboratory": "shout"},
        ("client",),
        "the laboratory given as the client; the laboratory in capitals with extra spaces is still right",
    ),
    MetadataMistakeV2(
        "final",
        {"work_order": None, "sampling_dates": "reversed"},
        ("work_order",),
        "the work order not found; sampling dates listed in reverse are still right",
    ),
    MetadataMistakeV2(
        "draft",
        {"sampling_dates": "add-report-date"},
        ("sampling_dates",),
        "the report date counted as a sampling date",
    ),
)


def planted_v2(dataset_dir: Path) -> dict[str, MetadataMistakeV2]:
    answers = read_answers(dataset_dir, Answer)
    return plant_mistakes(
        MISTAKES_V2,
        answers,
        lambda m, c: answers[c].status == m.status and change_applies(m, answers[c]),
    )
