"""Scanned bundles for `document-split`: several documents of a site file, put one after the other
and scanned as one PDF, with the first page of every document as the truth.

    rng = make_random(SEED, split, "ds-test-0007")
    bundle = sample_bundle(rng, "faxed", "test")
    rendered = render_bundle(bundle, SEED, split, "ds-test-0007")   # PDF bytes, first pages

What counts as a document (the rules the answer follows):

- every letter, invoice, laboratory report, certificate, permit, recorded instrument, chain of
  custody form, boring log, photograph log, transmittal and report excerpt is one document, however
  many pages it has; a later page is never a first page, even when it reprints the letterhead (a
  continuation letterhead) or repeats the document's heading (photograph logs);
- a fax cover sheet is a document of its own: its page is a first page, and the document it
  transmits starts on the next page (the fax machine's page counter, printed across the top of
  every page it sent, counts the transmission, not the documents);
- a blank separator sheet is not a document: it belongs to the document before it, and the page
  after it starts the next document;
- an excerpt (a report's pages 4 to 7 only) is a document: its first page is a first page though
  its page number is not 1.

Scenarios (the case category; each bundle has one): plain, blank-separators, faxed,
continuation-letterheads, same-kind-runs (two to four documents of one kind in a row: invoices of
one vendor, certificates, custody forms, boring logs) and excerpts.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from dataclasses import dataclass

from .sitekinds import (
    Site,
    boring_log,
    certificate,
    custody_form,
    fax_cover,
    fax_header,
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
    transmittal,
)
from .sitepages import FILLER, STYLES_BY_SPLIT, OfficeStyle, Sheet, emit_pdf, finish, style

SCENARIOS = (
    "plain",
    "blank-separators",
    "faxed",
    "continuation-letterheads",
    "same-kind-runs",
    "excerpts",
)
KINDS = (
    "letter",
    "invoice",
    "lab-report",
    "certificate",
    "permit",
    "covenant",
    "deed",
    "custody",
    "boring-log",
    "photo-log",
    "transmittal",
    "report",
)
# Mostly documents of several pages, as a site file's are: about a third of the pages start one.
KIND_WEIGHTS = (4, 2, 4, 1, 2, 2, 1, 1, 2, 1, 1, 3)
RUN_KINDS = ("invoice", "certificate", "custody", "boring-log", "letter")
SCAN_DPI = 100
MAX_PAGES = 22


@dataclass
class Bundle:
    scenario: str
    split: str
    site: Site
    documents: list[list[Sheet]]  # each document's sheets, separator blanks included at their end
    kinds: list[str]
    traps: list[str]

    @property
    def sheets(self) -> list[Sheet]:
        return [sheet for document in self.documents for sheet in document]

    @property
    def first_pages(self) -> tuple[int, ...]:
        pages, start = [], 1
        for document in self.documents:
            pages.append(start)
            start += len(document)
        return tuple(pages)


@dataclass(frozen=True)
class RenderedBundle:
    pdf: bytes
    pages: int
    first_pages: tuple[int, ...]
    kinds: tuple[str, ...]
    traps: tuple[str, ...]


def _styles(rng: random.Random, split: str) -> list[OfficeStyle]:
    names = list(STYLES_BY_SPLIT[split])
    rng.shuffle(names)
    return [style(name) for name in names]


def make_document(
    rng: random.Random,
    kind: str,
    split: str,
    site: Site,
    styles: list[OfficeStyle],
    *,
    continuation: str | None = None,
    excerpt: bool = False,
) -> list[Sheet]:
    """One document of `kind` in one of the split's styles (the consultant's, the lab's or a vendor's)."""
    consultant, lab, other = styles
    day = site.events[rng.randrange(len(site.events))]
    if kind == "letter":
        st = (
            consultant
            if continuation is None
            else dataclasses.replace(consultant, continuation=continuation)
        )
        count = rng.randint(5, 14) if continuation is None else rng.randint(9, 16)
        paragraphs = [
            " ".join(rng.choice(FILLER).format(agency=site.agency) for _ in range(3))
            for _ in range(count)
        ]
        return letter(
            rng,
            st,
            split,
            site,
            date=day,
            subject=f"{site.name}, {site.address}",
            paragraphs=paragraphs,
        )
    if kind == "invoice":
        return invoice(rng, other, split, site, rng.choice(site.invoices))
    if kind == "lab-report":
        wells = sorted(rng.sample(site.wells, rng.randint(2, min(4, len(site.wells)))))
        sheets = lab_report(
            rng, lab, split, site, site.events.index(day), wells, qc=rng.random() < 0.5
        )
        return sheets
    if kind == "certificate":
        return certificate(rng, rng.choice(styles), split, site)
    if kind == "permit":
        return permit(rng, other, split, site)
    if kind in ("covenant", "deed"):
        return recorded_instrument(rng, rng.choice(styles), split, site, kind)
    if kind == "custody":
        wells = sorted(rng.sample(site.wells, rng.randint(2, len(site.wells))))
        return custody_form(rng, lab, split, site, site.events.index(day), wells)
    if kind == "boring-log":
        return boring_log(rng, consultant, split, site, rng.choice(site.wells))
    if kind == "photo-log":
        return photo_log(rng, consultant, split, site, rng.randint(2, 4))
    if kind == "transmittal":
        return transmittal(
            rng,
            consultant,
            split,
            site,
            date=day,
            items=rng.sample(
                ["Laboratory report", "Boring logs", "Invoice", "Site plan", "Permit copy"], 2
            ),
        )
    if kind == "report":
        sheets = [report_title(rng, consultant, split, site, date=day)] if not excerpt else []
        sheets += narrative(
            rng,
            consultant,
            split,
            site,
            [],
            heading=f"{rng.randint(1, 5)}.0 FINDINGS",
            filler=rng.randint(10, 24),
        )
        sheets += summary_tables(rng, consultant, split, site, rng.randint(1, 4))[
            : rng.randint(1, 2)
        ]
        if excerpt:
            start = rng.randint(3, 9)
            return finish(sheets, start=start, total=start + len(sheets) + rng.randint(2, 12))
        return finish(sheets)
    raise ValueError(f"unknown document kind {kind!r}")


def sample_bundle(rng: random.Random, scenario: str, split: str) -> Bundle:
    """One bundle of `scenario`, its documents in `split`'s styles."""
    if scenario not in SCENARIOS:
        raise ValueError(f"unknown scenario {scenario!r}")
    site = sample_site(rng, wells=rng.randint(3, 6), events=rng.randint(1, 3))
    styles = _styles(rng, split)
    documents: list[list[Sheet]] = []
    kinds: list[str] = []
    traps: list[str] = []

    def add(kind: str, **options) -> None:
        documents.append(make_document(rng, kind, split, site, styles, **options))
        kinds.append(kind)

    count = rng.randint(3, 5)
    plan = [rng.choices(KINDS, KIND_WEIGHTS)[0] for _ in range(count)]
    special = rng.randrange(count)
    protected = 0
    for index, kind in enumerate(plan):
        if index == special + 1:
            protected = len(documents)
        if index == special and scenario == "continuation-letterheads":
            add("letter", continuation="full-letterhead")
            traps.append("continuation-letterhead")
        elif index == special and scenario == "same-kind-runs":
            run_kind = rng.choice(RUN_KINDS)
            for _ in range(rng.randint(2, 4)):
                add(run_kind)
            traps.append(f"run-of-{run_kind}")
        elif index == special and scenario == "excerpts":
            add("report", excerpt=True)
            traps.append("excerpt")
        elif index == special and scenario == "faxed":
            sent = [
                rng.choice(("letter", "invoice", "lab-report", "certificate", "custody"))
                for _ in range(rng.randint(1, 3))
            ]
            start = len(documents)
            cover_day = site.events[-1] + dt.timedelta(days=rng.randrange(1, 60))
            sent_docs = [make_document(rng, k, split, site, styles) for k in sent]
            total = 1 + sum(len(d) for d in sent_docs)
            documents.append(fax_cover(rng, styles[0], split, site, pages=total, date=cover_day))
            kinds.append("fax")
            documents.extend(sent_docs)
            kinds.extend(sent)
            stamp = f"{cover_day:%b-%d-%Y} {rng.randrange(8, 18):02d}:{rng.randrange(60):02d}  FROM: {styles[0].phone}"
            number = 1
            for document in documents[start:]:
                for sheet in document:
                    fax_header(
                        sheet, f"{stamp}   {styles[0].firm.upper()}   P.{number:03d}/{total:03d}"
                    )
                    number += 1
            traps.append("fax")
        else:
            add(kind)
    protected = protected or len(documents)
    if scenario == "blank-separators":
        for document in (
            rng.sample(documents[:-1], k=max(1, (len(documents) - 1) // 2))
            if len(documents) > 1
            else []
        ):
            document.append(Sheet(document[0].style, "blank", blank=True))
        traps.append("blank-separators")
    if (
        "letter" in kinds
        and scenario != "continuation-letterheads"
        and any(
            len(d) > 1 and d[0].style.continuation == "full-letterhead"
            for d, k in zip(documents, kinds, strict=True)
            if k == "letter"
        )
    ):
        traps.append("continuation-letterhead")
    # Keep bundles to a scanner's batch: drop trailing documents beyond MAX_PAGES, never the
    # scenario's own documents nor those before them.
    while sum(len(d) for d in documents) > MAX_PAGES and len(documents) > max(2, protected):
        documents.pop()
        kinds.pop()
    return Bundle(scenario, split, site, documents, kinds, sorted(set(traps)))


def render_bundle(bundle: Bundle, seed: int, *labels: str | int) -> RenderedBundle:
    """The bundle scanned page by page (black and white, SCAN_DPI) into one PDF."""
    sheets = bundle.sheets
    pdf = emit_pdf(
        sheets,
        "Scanned documents",
        scanned=range(len(sheets)),
        seed=seed,
        labels=labels,
        dpi=SCAN_DPI,
        gray=True,
    )
    return RenderedBundle(
        pdf, len(sheets), bundle.first_pages, tuple(bundle.kinds), tuple(bundle.traps)
    )
