"""Long site files for `page-locate`: one PDF of 30 to 150 pages assembled from a site's documents,
and questions that each ask for the page(s) stating one fact.

    rng = make_random(SEED, split, "file-0007")
    site_file = sample_file(rng, "test")
    rendered = render_file(site_file, SEED, split, "file-0007")   # PDF bytes, per-page facts
    questions = sample_questions(make_random(SEED, split, "file-0007", "questions"), site_file, 10)

A file is what a consultant's report with its appendices looks like: a cover letter, the report
(title page, findings text, a well construction table and results tables), then appendices of
boring logs, laboratory reports with their chain-of-custody forms, photographs, the permit, the
recorded environmental covenant and a deed, and invoices. The recorded instruments are scans
(black and white, SCAN_DPI) in every file, and the boring logs too in about a quarter of them.
Pages are as dense as a real file's (`pagefill`): a laboratory's results page lists its method's
whole analyte list (16 to 21 rows, the site's few detections among non-detects), surrogates,
batch lines and notes; a report's results table has notes, field parameters of the same wells
and days and discussion under it; custody forms, boring logs and invoices carry their notes.

Which pages state a fact (`sitekinds` defines the fact keys): *every* page that prints the
fact's value with what identifies it. A laboratory result is stated on the laboratory's results
page of that well and day, on the report's results table that holds that well and day (one page
per event or one per well, as the style lays it out) and in a findings sentence that gives the
value or says the analyte was not detected there that day; a well's total depth on its boring log and in the well construction table; an invoice's
amount due on the invoice; the permit's expiration date on the permit's first page and in the
condition that restates it; the covenant's recording number on its first page (the recorder's
stamp) and in a cover letter that cites it. Near misses are not answers: the same well on
another day, another well on the same day, a chain of custody or a photo caption that names the
well, the deed's recording number, a findings sentence that names the well and analyte without a
value.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from .pagefill import (
    field_parameters,
    fill_boring_log,
    fill_custody,
    fill_invoice,
    fill_lab_page,
    fill_table_page,
    fill_well_table,
    method_analytes,
)
from .sitekinds import (
    Site,
    boring_log,
    certificate,
    custody_form,
    invoice,
    lab_report,
    letter,
    narrative,
    permit,
    photo_log,
    recorded_instrument,
    report_title,
    sample_site,
    summary_tables,
    well_table,
)
from .sitepages import FILLER, MARGIN, STYLES_BY_SPLIT, OfficeStyle, Sheet, emit_pdf, finish, style

SCAN_DPI = 100
QUESTION_KINDS = ("result", "depth", "invoice", "permit-expiry", "covenant-recording")
# Question wordings per split: the test split's never occur in dev.
WORDINGS = {
    "result": {
        "dev": (
            "the page that reports {analyte} in {well} on {date}.",
            "the page giving the {analyte} result for {well} sampled {date}.",
        ),
        "test": (
            "where is the {analyte} concentration of the {well} sample collected {date} stated?",
            "which page has {well}'s {analyte} result from {date}?",
        ),
    },
    "depth": {
        "dev": ("the page that gives the total depth of well {well}.",),
        "test": ("on which page is the total depth of the {well} boring given?",),
    },
    "invoice": {
        "dev": ("the page showing the amount due on invoice {number}.",),
        "test": ("which page shows the total billed on invoice number {number}?",),
    },
    "permit-expiry": {
        "dev": ("the page stating when permit {number} expires.",),
        "test": ("which page gives the expiration date of permit {number}?",),
    },
    "covenant-recording": {
        "dev": ("the page stating the recording number of the environmental covenant.",),
        "test": (
            "where is the instrument number under which the environmental covenant was recorded?",
        ),
    },
}


@dataclass
class SiteFile:
    split: str
    site: Site
    consultant: OfficeStyle
    sheets: list[Sheet]
    scanned_pages: tuple[int, ...]  # 0-based
    scanned_document: str


@dataclass(frozen=True)
class RenderedFile:
    pdf: bytes
    pages: int
    scanned_pages: tuple[int, ...]  # 1-based


@dataclass(frozen=True)
class Question:
    kind: str
    text: str
    fact: str
    pages: tuple[int, ...]  # 1-based, every page stating the fact
    near_misses: tuple[int, ...]  # 1-based pages of the same well on other days (result questions)


def appendix(st: OfficeStyle, letter_: str, title: str) -> list[Sheet]:
    sheet = Sheet(st, "report")
    sheet.gap(300)
    sheet.text(f"APPENDIX {letter_}", size=st.size + 8, bold=True, align="center")
    sheet.text(title, size=st.size + 3, align="center")
    return [sheet]


def sample_file(rng: random.Random, split: str, *, max_pages: int = 150) -> SiteFile:
    names = list(STYLES_BY_SPLIT[split])
    rng.shuffle(names)
    consultant, lab, other = (style(name) for name in names)
    site = sample_site(
        rng,
        wells=rng.randint(4, 9),
        events=rng.randint(2, 6),
        analytes=rng.randint(4, 7),
        invoices=rng.randint(2, 5),
    )
    last = len(site.events) - 1
    report_day = site.events[-1] + dt.timedelta(days=rng.randrange(20, 60))
    sheets: list[Sheet] = []
    cite = rng.random() < 0.5
    paragraphs = [
        f"Enclosed is the {rng.choice(('groundwater monitoring report', 'investigation report'))} for "
        f"{site.name}, covering the sampling events through {consultant.date(site.events[-1])}."
    ]
    facts: list[set[str]] = [set()]
    if cite:
        number, at = site.covenant
        paragraphs.append(
            f"The environmental covenant for the property was recorded on {consultant.date(at.date())} as "
            f"Instrument No. {number} in the records of {site.county} County; a copy is enclosed."
        )
        facts.append({"covenant-recording"})
    paragraphs += [rng.choice(FILLER).format(agency=site.agency) for _ in range(rng.randint(1, 3))]
    facts += [set()] * (len(paragraphs) - len(facts))
    sheets += letter(
        rng,
        consultant,
        split,
        site,
        date=report_day,
        subject=f"{site.name}: report transmittal",
        paragraphs=paragraphs,
        facts=facts,
    )
    report = [report_title(rng, consultant, split, site, date=report_day)]
    sentences: list[tuple[str, set[str]]] = []
    day = site.events[last]
    for well in rng.sample(site.wells, min(3, len(site.wells))):
        name = rng.choice(site.analytes)[0]
        value = site.results[(well, last, name)]
        if value is not None:
            sentences.append(
                (
                    f"{name.capitalize()} was detected in {consultant.well(well)} at {value:g} "
                    f"{consultant.unit} on {consultant.date(day)}.",
                    {f"result|{well}|{day.isoformat()}|{name}"},
                )
            )
        else:
            sentences.append(
                (
                    f"{name.capitalize()} was not detected in {consultant.well(well)} during the "
                    f"{consultant.date(day)} event.",
                    {f"result|{well}|{day.isoformat()}|{name}"},
                )
            )
    for well in rng.sample(site.wells, min(2, len(site.wells))):
        name = rng.choice(site.analytes)[0]
        sentences.append(
            (
                f"{name.capitalize()} concentrations in {consultant.well(well)} remain within the range "
                "observed since monitoring began.",
                set(),
            )
        )
    report += narrative(
        rng, consultant, split, site, sentences, heading="FINDINGS", filler=rng.randint(10, 24)
    )
    # Each page carries what a real one does around its facts (pagefill): notes, field data,
    # the laboratory method's whole analyte list, surrogates.
    method = method_analytes(rng)
    params = field_parameters(rng, site)
    construction = well_table(rng, consultant, split, site)
    fill_well_table(rng, site, construction[0])
    report += construction
    for sheet in (tables := summary_tables(rng, consultant, split, site, 2)):
        fill_table_page(rng, site, sheet, params)
    report += tables
    sheets += finish(report)
    parts: list[tuple[str, list[list[Sheet]]]] = []
    logs = [boring_log(rng, consultant, split, site, w) for w in site.wells]
    for sheet in (sheet for log in logs for sheet in log):
        fill_boring_log(rng, sheet)
    parts.append(("Boring Logs", logs))
    labs = []
    for e in range(len(site.events)):
        report_ = lab_report(
            rng, lab, split, site, e, site.wells, qc=rng.random() < 0.6, method=method
        )
        for sheet in report_[1:]:
            fill_lab_page(rng, sheet)
        custody = custody_form(rng, lab, split, site, e, site.wells)
        for sheet in custody:
            fill_custody(rng, sheet)
        labs += [report_, custody]
    parts.append(("Laboratory Reports", labs))
    parts.append(("Photographs", [photo_log(rng, consultant, split, site, rng.randint(1, 4))]))
    parts.append(
        (
            "Permits and Recorded Instruments",
            [
                permit(rng, other, split, site),
                recorded_instrument(rng, other, split, site, "covenant"),
                recorded_instrument(rng, other, split, site, "deed"),
            ],
        )
    )
    parts.append(
        (
            "Invoices and Certificates",
            [
                filled(invoice(rng, other, split, site, inv), fill_invoice, rng)
                for inv in site.invoices
            ]
            + [certificate(rng, other, split, site)],
        )
    )
    # The recorder's copies are scans in every file (the covenant's stamp is read by OCR); in a
    # quarter of the files the boring logs too (field forms scanned).
    scanned_choice = (
        "recorded instruments" if rng.random() < 0.75 else "recorded instruments and boring logs"
    )
    scanned: list[int] = []
    for index, (title, documents) in enumerate(parts):
        sheets += appendix(consultant, "ABCDEFG"[index], title)
        for document in documents:
            start = len(sheets)
            sheets += document
            scan = document[0].kind in ("covenant", "deed") or (
                scanned_choice.endswith("boring logs") and title == "Boring Logs"
            )
            if scan:
                scanned += range(start, len(sheets))
    if len(sheets) > max_pages:
        raise ValueError(f"the file has {len(sheets)} pages, more than {max_pages}")
    return SiteFile(split, site, consultant, sheets, tuple(scanned), scanned_choice)


def filled(sheets: list[Sheet], fill, rng: random.Random) -> list[Sheet]:
    for sheet in sheets:
        fill(rng, sheet)
    return sheets


def render_file(site_file: SiteFile, seed: int, *labels: str | int) -> RenderedFile:
    pdf = emit_pdf(
        site_file.sheets,
        f"{site_file.site.name}: site file",
        scanned=site_file.scanned_pages,
        seed=seed,
        labels=labels,
        dpi=SCAN_DPI,
    )
    return RenderedFile(pdf, len(site_file.sheets), tuple(p + 1 for p in site_file.scanned_pages))


def pages_stating(site_file: SiteFile, fact: str) -> tuple[int, ...]:
    return tuple(i + 1 for i, sheet in enumerate(site_file.sheets) if fact in sheet.facts)


def sample_questions(rng: random.Random, site_file: SiteFile, count: int) -> list[Question]:
    """`count` distinct questions: one of each kind but `result`, the rest laboratory results."""
    site, split = site_file.site, site_file.split
    canonical = "MW-{n}"
    out: list[Question] = []
    seen: set[str] = set()

    def ask(kind: str, fact: str, near: tuple[int, ...] = (), **fields: str) -> None:
        pages = pages_stating(site_file, fact)
        if not pages or fact in seen:
            return
        seen.add(fact)
        text = rng.choice(WORDINGS[kind][split]).format(**fields)
        out.append(Question(kind, text[0].upper() + text[1:], fact, pages, near))

    well = rng.choice(site.wells)
    ask("depth", f"depth|{well}", well=canonical.format(n=well))
    chosen = rng.choice(site.invoices)
    ask("invoice", f"invoice|{chosen.number}", number=chosen.number)
    ask("permit-expiry", "permit-expiry", number=site.permit[0])
    ask("covenant-recording", "covenant-recording")
    attempts = 0
    while len(out) < count and attempts < 200:
        attempts += 1
        well = rng.choice(site.wells)
        event = rng.randrange(len(site.events))
        name = rng.choice(site.analytes)[0]
        day = site.events[event].isoformat()
        fact = f"result|{well}|{day}|{name}"
        others = tuple(
            sorted(
                {
                    p
                    for e, other in enumerate(site.events)
                    if e != event
                    for p in pages_stating(site_file, f"result|{well}|{other.isoformat()}|{name}")
                }
                - set(pages_stating(site_file, fact))
            )
        )
        ask("result", fact, others, analyte=name, well=canonical.format(n=well), date=day)
    return out


__all__ = [
    "MARGIN",
    "QUESTION_KINDS",
    "Question",
    "RenderedFile",
    "SiteFile",
    "pages_stating",
    "render_file",
    "sample_file",
    "sample_questions",
]
