"""Document families of recorded instruments: law-firm templates and county recorder styles.

A *family* is one template (how a firm lays out and words an instrument) paired with one
recorder style (how a county stamps what it records). Datasets hold families apart by split
(`DEV_TEMPLATES`/`DEV_RECORDERS` against `TEST_TEMPLATES`/`TEST_RECORDERS`), so that a system
developed on the dev split meets wording, fonts, stamps and numbering it never saw.

Grow these tables by appending: samplers pick by position.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..named import by_name


@dataclass(frozen=True)
class Template:
    """How one law firm drafts an instrument."""

    name: str
    font: str  # a PDF base-14 font family: Times, Helvetica or Courier
    size: float  # body text in points
    signature_line: str  # "rule" (a drawn line) or "underscore" (a run of underscores)
    signature_label: str  # printed under or before the line
    witness_clause: str  # the testimonium, {party} and {date} filled in
    blank_witness_clause: str  # the same with the date left blank
    acknowledgment: str  # {date}, {signer}, {capacity} filled in
    blank_acknowledgment: str
    notary_label: str
    commission_label: str
    page_footer: str  # "" for none; {page} and {pages} filled in
    recorder_space: bool  # page 1 leaves the top for the recorder ("space above this line")
    prepared_by: str


@dataclass(frozen=True)
class RecorderStyle:
    """How one county recorder marks what it records."""

    name: str
    county: str
    state: str
    office: str
    placement: str  # "box-first-page", "header-every-page" or "box-last-page"
    number_label: str  # "" when the style prints book and page instead
    number_format: str  # {year} and {serial} filled in
    book_page: str  # "" or a form with {book} and {page}
    date_format: str  # strftime form
    time_format: str
    heading: str
    fee_label: str


TEMPLATES: tuple[Template, ...] = (
    Template(
        "hollis-drummond",
        "Times",
        10.5,
        "rule",
        "By:",
        "IN WITNESS WHEREOF, {party} has executed this instrument as of {date}.",
        "IN WITNESS WHEREOF, {party} has executed this instrument as of ____________, 20__.",
        "This instrument was acknowledged before me on {date} by {signer}, as {capacity}.",
        "This instrument was acknowledged before me on ________________ by ______________________, as ________________.",
        "Notary Public",
        "My commission expires:",
        "Page {page} of {pages}",
        True,
        "This instrument prepared by: Hollis & Drummond LLP",
    ),
    Template(
        "castellanos-fairbairn",
        "Helvetica",
        9.5,
        "underscore",
        "Signature",
        "EXECUTED on {date} by {party}.",
        "EXECUTED this ___ day of __________, 20__ by {party}.",
        "On {date}, before me, the undersigned notary, personally appeared {signer}, known to me to be the {capacity}, and acknowledged that the foregoing instrument was signed as a free and voluntary act.",
        "On ______________, before me, the undersigned notary, personally appeared ______________________, known to me to be the ________________, and acknowledged that the foregoing instrument was signed as a free and voluntary act.",
        "NOTARY PUBLIC",
        "Commission expires",
        "",
        True,
        "Prepared by and return to: Castellanos Fairbairn PC",
    ),
    Template(
        "okonkwo-lindqvist",
        "Courier",
        9.0,
        "underscore",
        "Authorized Signatory",
        "Dated: {date}",
        "Dated: ___________________",
        "Subscribed and acknowledged before me this {date} by {signer} as {capacity}.",
        "Subscribed and acknowledged before me this ____ day of __________, 20__ by ____________________ as ______________.",
        "Notary Public, State of {state}",
        "My Commission Expires",
        "- {page} -",
        False,
        "Drafted by Okonkwo Lindqvist, Attorneys at Law",
    ),
    Template(
        "bellweather-nakashima",
        "Times",
        11.0,
        "rule",
        "Name:",
        "The undersigned has signed and delivered this instrument effective {date}.",
        "The undersigned has signed and delivered this instrument effective [__________], 20[__].",
        "The foregoing instrument was acknowledged before me this {date}, by {signer}, the {capacity}, on its behalf.",
        "The foregoing instrument was acknowledged before me this ____ day of ________, 20__, by ____________________, the ______________, on its behalf.",
        "Notary Public in and for said County and State",
        "Commission Expiration:",
        "{page}",
        True,
        "After recording return to Bellweather Nakashima LLP",
    ),
    Template(
        "esterhaus-galloway",
        "Helvetica",
        10.0,
        "rule",
        "Signed:",
        "SIGNED AND DELIVERED as of {date}.",
        "SIGNED AND DELIVERED as of the ___ day of ___________, 20__.",
        "Personally came before me on {date} the above-named {signer}, {capacity}, to me known to be the person who executed the foregoing instrument and acknowledged the same.",
        "Personally came before me on __________________ the above-named ____________________, ______________, to me known to be the person who executed the foregoing instrument and acknowledged the same.",
        "Notary Public, {state}",
        "My commission (is permanent) (expires):",
        "Page {page}",
        False,
        "Document drafted by Esterhaus Galloway S.C.",
    ),
    Template(
        "prendergast-mossberg",
        "Courier",
        9.5,
        "rule",
        "Its:",
        "WITNESS the due execution hereof on {date}.",
        "WITNESS the due execution hereof on the ____ day of ____________, 20__.",
        "Sworn to and acknowledged before me on {date} by {signer}, who is personally known to me, as {capacity}.",
        "Sworn to and acknowledged before me on ______________ by ______________________, who is personally known to me, as ______________.",
        "Notary Public - State of {state}",
        "Comm. Exp.",
        "[{page}/{pages}]",
        True,
        "Instrument prepared by Prendergast & Mossberg, P.A.",
    ),
)

RECORDERS: tuple[RecorderStyle, ...] = (
    RecorderStyle(
        "marlow-or", "Marlow", "Oregon", "County Clerk", "box-first-page", "Instrument No.",
        "{year}-{serial:06d}", "", "%m/%d/%Y", "%I:%M %p", "OFFICIAL RECORDS", "Fee:",
    ),
    RecorderStyle(
        "teasdale-ky", "Teasdale", "Kentucky", "County Clerk", "box-last-page", "",
        "", "Deed Book {book} Page {page}", "%B %d, %Y", "%I:%M %p", "RECORDED", "Recording fee",
    ),
    RecorderStyle(
        "cinder-wa", "Cinder", "Washington", "County Auditor", "header-every-page", "AFN",
        "{year}{serial:07d}", "", "%m/%d/%Y", "%H:%M", "E-RECORDED", "Fee $",
    ),
    RecorderStyle(
        "rookwood-co", "Rookwood", "Colorado", "Clerk and Recorder", "box-first-page", "Reception #",
        "{serial:07d}", "", "%m/%d/%Y", "%I:%M:%S %p", "RECEPTION", "R Fee",
    ),
    RecorderStyle(
        "saltmarsh-fl", "Saltmarsh", "Florida", "Clerk of the Circuit Court", "header-every-page", "CFN",
        "{year}{serial:08d}", "OR BK {book} PG {page}", "%m/%d/%Y", "%I:%M %p", "FILED AND RECORDED", "Rec Fee",
    ),
    RecorderStyle(
        "alder-wi", "Alder", "Wisconsin", "Register of Deeds", "box-last-page", "Document #",
        "{serial:07d}", "Vol. {book} Pg. {page}", "%d %b %Y", "%I:%M %p", "REGISTER'S OFFICE", "Fee Amount:",
    ),
)

# Families never shared across splits (docs/legal.md, Datasets): the test split's templates and stamps are new.
DEV_TEMPLATES = ("hollis-drummond", "castellanos-fairbairn", "okonkwo-lindqvist")
TEST_TEMPLATES = ("bellweather-nakashima", "esterhaus-galloway", "prendergast-mossberg")
DEV_RECORDERS = ("marlow-or", "teasdale-ky", "cinder-wa")
TEST_RECORDERS = ("rookwood-co", "saltmarsh-fl", "alder-wi")
SPLITS = {"dev": (DEV_TEMPLATES, DEV_RECORDERS), "test": (TEST_TEMPLATES, TEST_RECORDERS)}


def template(name: str) -> Template:
    return by_name(TEMPLATES, name, "template")


def recorder(name: str) -> RecorderStyle:
    return by_name(RECORDERS, name, "recorder style")
