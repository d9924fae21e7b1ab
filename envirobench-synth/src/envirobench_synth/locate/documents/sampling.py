"""Sampling a document (`sample_document`): its kind's content, title (generic, misleading or
none), cover letter, fax cover, contents page, excerpt and cross-references.
"""

from __future__ import annotations

import random

from .kinds import (
    GENERIC_TITLES,
    KINDS,
    MISLEADING_SHARE,
    MISLEADING_TITLES,
    SITE_REPORTS,
    TITLES,
    UNTITLED_SHARE,
    Block,
    Document,
    Family,
)
from .reports import data_validation, site_report
from .short_kinds import (
    Writer,
    boring_log,
    certificate,
    contract,
    custody,
    deed,
    invoice,
    laboratory_report,
    lease,
    letter,
    permit,
    photo_page,
    transmittal,
)
from .site_file import (
    agency_letter,
    contents,
    cover_letter,
    excerpt,
    fax_cover,
    lab_invoice,
    lease_amendment,
    recorded_instrument,
    registration,
    tightness_test,
)

# Kinds a site file often holds behind a cover letter of their issuer (a laboratory's letter to
# its client, a consultant's letter to the agency): the document is the report, not the letter.
COVERED = (
    "laboratory-report",
    *SITE_REPORTS,
    "data-validation-report",
    "permit",
    "certificate",
    "boring-log",
)
COVER_SHARE = 0.25  # a cover letter on page 1
FAX_SHARE = 0.12  # a fax cover sheet on page 1
CONTENTS_SHARE = 0.2  # of the reports left: a table of contents after the title
EXCERPT_SHARE = 0.2  # of the reports left: the middle pages only
EXCERPTED = (*SITE_REPORTS, "data-validation-report")


CROSS_REFERENCING = (
    "phase-i-report",
    "phase-ii-report",
    "letter",
    "invoice",
    "lease",
    "contract",
    "transmittal",
)


def sample_document(rng: random.Random, kind: str, split: str, fam: Family) -> Document:
    """One document of `kind` in family `fam`, in `split`'s title wordings.

    Truth rules: the kind is what the document *is* (its purpose, scope and sections), not what
    its first page, its title or its body names. A document behind a cover letter or a fax cover
    sheet is the document behind it; a report's table of contents does not make it anything
    else; an excerpt (a report's middle pages, no title, letterhead or signature) is the kind of
    the report it comes from. Variants: a limited site investigation is a `phase-ii-report`; a
    no-further-action letter or a notice of violation is a `letter`; an easement or an
    environmental covenant is a `deed` (a recorded instrument burdening the land); a lease
    amendment is a `lease`; an agency's tank registration certificate is a `permit`; a tank
    tightness-test certificate is a `certificate`; a laboratory's bill is an `invoice`.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown document kind {kind!r}; choose from {', '.join(KINDS)}")
    if split not in ("dev", "test"):
        raise ValueError(f"unknown split {split!r}")
    w = Writer(rng, split, fam)
    traps: list[str] = []
    other = (
        w.other_kind(kind)
        if kind in CROSS_REFERENCING and (kind == "transmittal" or rng.random() < 0.6)
        else None
    )
    if other:
        traps.append("cross-reference")
    variant = rng.random()
    makers = {
        "laboratory-report": lambda: laboratory_report(w),
        "phase-i-report": lambda: site_report(w, kind, other),
        "phase-ii-report": lambda: site_report(w, kind, other),
        "monitoring-report": lambda: site_report(w, kind, other),
        "remedial-action-plan": lambda: site_report(w, kind, other),
        "closure-report": lambda: site_report(w, kind, other),
        "data-validation-report": lambda: data_validation(w),
        "letter": lambda: (
            agency_letter(w, "nfa" if variant < 0.25 else "nov")
            if variant < 0.5 and not other
            else letter(w, other)
        ),
        "invoice": lambda: lab_invoice(w) if variant < 0.35 and not other else invoice(w, other),
        "permit": lambda: registration(w) if variant < 0.4 else permit(w),
        "certificate": lambda: tightness_test(w) if variant < 0.4 else certificate(w),
        "deed": lambda: (
            recorded_instrument(w, "easement" if variant < 0.25 else "covenant")
            if variant < 0.5
            else deed(w)
        ),
        "lease": lambda: lease_amendment(w) if variant < 0.35 and not other else lease(w, other),
        "contract": lambda: contract(w, other),
        "boring-log": lambda: boring_log(w),
        "photo-page": lambda: photo_page(w),
        "chain-of-custody": lambda: custody(w),
        "transmittal": lambda: transmittal(w, other),
    }
    header, blocks = makers[kind]()
    if w.title is not None:
        title = w.title
    elif kind in MISLEADING_TITLES and rng.random() < MISLEADING_SHARE:
        title = rng.choice(MISLEADING_TITLES[kind][split] + GENERIC_TITLES[split])
        traps.append("misleading-title")
    else:
        title = rng.choice(TITLES[kind][split])
    if kind == "laboratory-report" and title.startswith("CERTIFICATE"):
        traps.append("certificate-title")
    cover: list[Block] = []
    front = rng.random() if kind in COVERED else 1.0
    if front < COVER_SHARE:
        cover = cover_letter(w, kind)
        traps.append("cover-letter")
    elif front < COVER_SHARE + FAX_SHARE:
        cover = fax_cover(w, kind)
        traps.append("fax-cover")
    elif kind in EXCERPTED:
        pick = rng.random()
        if pick < CONTENTS_SHARE:
            blocks = [*contents(w, blocks), Block("page"), *blocks]
            traps.append("contents")
        elif pick < CONTENTS_SHARE + EXCERPT_SHARE:
            return Document(kind, split, fam, "", [], excerpt(blocks), (*traps, "excerpt"))
    if title and rng.random() < UNTITLED_SHARE:
        title = ""
        traps.append("untitled")
    return Document(kind, split, fam, title, header, blocks, tuple(traps), cover)
