"""Title packets: an abstractor's cover page and the copies of recorded instruments, in one PDF.

    cover = Cover(cover_style("hartwell-abstract"), "Lot 7, Block 3, ...", "123-456-07", entries, ...)
    packet = assemble_packet(render_cover(cover), [rendered.pdf for rendered in instruments])
    packet.pdf                    # bytes, the same on every run
    packet.instrument_pages       # ((first, last), ...) 1-based pages of each instrument

The cover page is drawn with reportlab (`invariant=1`). The instruments are PDFs of their own
(born digital or scanned, see render.py); `merge_pdfs` imports their pages after the cover with
pypdfium2. PDFium stamps every saved file with the time of saving and a random file ID, so the
merged file has both replaced by values of the same length derived from its contents (the
cross-reference offsets stay valid): merging the same parts gives the same bytes.

Abstractor cover styles are document families like the law-firm templates and recorder styles
(families.py): `DEV_COVERS` and `TEST_COVERS` never share one.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pypdfium2 as pdfium

from ..named import by_name
from ..pdfpages import new_canvas, wrap
from .render import MARGIN, PAGE_H, PAGE_W, fonts

PDF_CREATOR = "EnviroBench synthetic title packet"
PINNED_DATE = b"20000101000000"  # replaces the 14 digits of PDFium's CreationDate
CREATION_DATE = re.compile(rb"(/CreationDate\(D:)\d{14}")
FILE_ID = re.compile(rb"/ID\[<([0-9A-Fa-f]+)><([0-9A-Fa-f]+)>\]")


@dataclass(frozen=True)
class CoverStyle:
    """How one abstractor (title company) lays out the index page of its packets."""

    name: str
    firm: str
    heading: str
    font: str  # Times, Helvetica or Courier
    date_format: str  # strftime form of the recording dates in the index
    newest_first: bool  # the index lists the newest instrument first (the packet stays oldest first)
    subject_label: str  # introduces the subject parcel's APN
    description_label: str
    entry_form: str  # one index line: {no}, {title}, {recorded}, {reference}
    parties_form: str  # the second line: {grantor}, {grantee}


COVER_STYLES: tuple[CoverStyle, ...] = (
    CoverStyle(
        "hartwell-abstract",
        "Hartwell Abstract & Title Co.",
        "ABSTRACT OF TITLE - INDEX OF INSTRUMENTS",
        "Times",
        "%m/%d/%Y",
        False,
        "Assessor's Parcel No.:",
        "Legal Description:",
        "{no}. {title}, recorded {recorded}, {reference}",
        "{grantor} to {grantee}",
    ),
    CoverStyle(
        "lodestar-title",
        "Lodestar Title Services",
        "TITLE PACKET - DOCUMENTS ENCLOSED",
        "Helvetica",
        "%B %d, %Y",
        True,
        "Tax Parcel:",
        "Property:",
        "Item {no}: {title} ({reference}; rec. {recorded})",
        "Grantor: {grantor}; Grantee: {grantee}",
    ),
    CoverStyle(
        "fairmount-search",
        "Fairmount Records Search LLC",
        "CHAIN OF TITLE SEARCH REPORT",
        "Courier",
        "%d %b %Y",
        False,
        "PARCEL ID",
        "DESCRIPTION",
        "[{no}] {recorded}  {title}  {reference}",
        "    {grantor} -> {grantee}",
    ),
    CoverStyle(
        "pinecrest-abstractors",
        "Pinecrest Abstractors, Inc.",
        "RECORD TITLE REPORT - SCHEDULE OF INSTRUMENTS",
        "Helvetica",
        "%Y-%m-%d",
        True,
        "APN",
        "Legal",
        "{no}) {recorded} - {title} - {reference}",
        "From {grantor} / To {grantee}",
    ),
)
DEV_COVERS = ("hartwell-abstract", "lodestar-title")
TEST_COVERS = ("fairmount-search", "pinecrest-abstractors")
COVER_SPLITS = {"dev": DEV_COVERS, "test": TEST_COVERS}


def cover_style(name: str) -> CoverStyle:
    return by_name(COVER_STYLES, name, "cover style")


@dataclass(frozen=True)
class IndexEntry:
    """One instrument as the abstractor's index lists it (which may be wrong)."""

    title: str
    recorded: dt.date
    reference: str
    grantor: str
    grantee: str


@dataclass(frozen=True)
class Cover:
    style: CoverStyle
    description: str  # the subject parcel's legal description
    apn: str
    entries: tuple[IndexEntry, ...]  # oldest first; the style decides the printed order
    order_number: str  # the abstractor's file number
    prepared: dt.date


@dataclass(frozen=True)
class Packet:
    pdf: bytes
    pages: int
    instrument_pages: tuple[tuple[int, int], ...]  # 1-based first and last page of each instrument


def render_cover(cover: Cover) -> bytes:
    """The index page(s): the abstractor, the subject parcel and the instruments enclosed."""
    style = cover.style
    regular, bold = fonts(style.font)
    size = 9.5
    width = PAGE_W - 2 * MARGIN
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, style.heading.title(), PDF_CREATOR, (PAGE_W, PAGE_H))
    y = 60.0

    def line(
        text: str, font: str = regular, font_size: float = size, *, indent: float = 0.0, center: bool = False
    ) -> None:
        nonlocal y
        for piece in wrap(text, font, font_size, width - indent) or [""]:
            if y > PAGE_H - 70:
                canvas.showPage()
                y = 60.0
            canvas.setFont(font, font_size)
            canvas.setFillGray(0)
            baseline = PAGE_H - y - font_size
            if center:
                canvas.drawCentredString(PAGE_W / 2, baseline, piece)
            else:
                canvas.drawString(MARGIN + indent, baseline, piece)
            y += font_size * 1.4

    line(style.firm.upper(), bold, 12, center=True)
    line(style.heading, bold, 11, center=True)
    y += 8
    line(f"File No. {cover.order_number}    Prepared {cover.prepared.strftime(style.date_format)}")
    line(f"{style.subject_label} {cover.apn}", bold)
    line(f"{style.description_label} {cover.description}")
    y += 8
    line("Instruments enclosed, copies of the public record:", bold)
    entries = list(enumerate(cover.entries, start=1))
    if style.newest_first:
        entries.reverse()
    for number, entry in entries:
        y += 3
        line(
            style.entry_form.format(
                no=number,
                title=entry.title,
                recorded=entry.recorded.strftime(style.date_format),
                reference=entry.reference,
            ),
            indent=6,
        )
        line(style.parties_form.format(grantor=entry.grantor, grantee=entry.grantee), indent=24)
    y += 10
    line(
        "This index is a convenience only. The abstractor does not insure title; examine the instruments themselves.",
        regular,
        7.5,
    )
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def merge_pdfs(parts: Sequence[bytes]) -> bytes:
    """The pages of every part, in order, as one PDF; the same parts give the same bytes."""
    merged = pdfium.PdfDocument.new()
    try:
        for part in parts:
            source = pdfium.PdfDocument(part)
            try:
                merged.import_pages(source)
            finally:
                source.close()
        buffer = io.BytesIO()
        merged.save(buffer, version=17)
    finally:
        merged.close()
    return pin(buffer.getvalue())


def pin(pdf: bytes) -> bytes:
    """PDFium's save time and random file ID replaced, byte for byte, by fixed and content-derived
    values of the same length (so the cross-reference table stays right)."""
    pdf, dates = CREATION_DATE.subn(lambda m: m.group(1) + PINNED_DATE, pdf)
    ids = list(FILE_ID.finditer(pdf))
    if len(ids) != 1 or dates > 1:
        raise ValueError(
            f"expected one file ID and at most one creation date in PDFium's output, found {len(ids)} and {dates}"
        )
    match = ids[0]
    digest = hashlib.sha256(pdf[: match.start()] + pdf[match.end() :]).hexdigest().upper()
    first = digest[: len(match.group(1))].encode()
    second = digest[: len(match.group(2))].encode()
    return pdf[: match.start()] + b"/ID[<" + first + b"><" + second + b">]" + pdf[match.end() :]


def page_count(pdf: bytes) -> int:
    document = pdfium.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


def assemble_packet(cover_pdf: bytes, instruments: Sequence[bytes]) -> Packet:
    """The cover page(s) followed by every instrument, with each instrument's page range."""
    ranges = []
    first = page_count(cover_pdf) + 1
    for pdf in instruments:
        pages = page_count(pdf)
        ranges.append((first, first + pages - 1))
        first += pages
    merged = merge_pdfs([cover_pdf, *instruments])
    return Packet(merged, first - 1, tuple(ranges))
