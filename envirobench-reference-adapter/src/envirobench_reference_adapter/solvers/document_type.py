"""Reference solver for `document-type`: a site-file document classified from its vocabulary.

Every page is read with `pdftext` (its text layer, or OCR of a scanned page) and grouped into
lines. Each kind has *cues*: words and short phrases any reader of site files knows mark it (an
invoice bills and asks for payment, a lease names a landlord and a tenant, a boring log lists
depths and soils, a letter opens with "Dear" and closes with a complimentary close). A cue found
in the document's *heading* (its first HEADING_LINES lines, where letterheads and titles are)
counts TITLE_WEIGHT, elsewhere 1, each cue once; the kind with the highest total wins, ties to
the earlier kind in KINDS. A document with no cue at all is called a letter, the commonest
untitled paper of a site file.

The cues were chosen on the dev split only and are general words of the trade, not any
generator's wording; a title worded in a way no cue knows is read from its body alone.

Variants: `v1` (the default; `default` is its alias) as above; `title-only` reads the heading
only (no body cues), to show how much the body adds.

The three kinds added with the v1 datasets' rework (remedial-action-plan, closure-report,
data-validation-report) have the names of their trade (a remedial or corrective action plan, a
closure or no-further-action request, a data validation with its qualifiers and holding times);
TITLE_WEIGHT was raised from 4 to 6 on the dev split.

Weaknesses: the site reports (Phase I, Phase II, monitoring, remedial action plan, closure) share
their vocabulary and a later one retells the earlier ones, so the cues of an earlier stage
outnumber those of the report's own purpose; a cover letter, fax cover or excerpt leaves the
heading without the title; a document that talks about another kind (a letter enclosing a laboratory report,
a transmittal listing boring logs) collects that kind's cues too, and the heading weight is all
that keeps it right; OCR errors on scans lose cues; Phase I and Phase II reports share most of
their words.
"""

from __future__ import annotations

import re
from typing import Any

from .. import pdftext
from ..layout import group_lines
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("document-type", variants=("v1", "title-only"))

HEADING_LINES = 6
TITLE_WEIGHT = 6

# kind -> cue patterns (regular expressions over lower-cased text, words separated by spaces).
CUES: dict[str, tuple[str, ...]] = {
    "laboratory-report": (
        r"analytical",
        r"laborator(y|ies)",
        r"reporting limit",
        r"\bmethod\b",
        r"sample id",
        r"\bunits\b",
        r"quality control",
        r"\brl\b",
        r"of analysis",
        r"not detected",
    ),
    "phase-i-report": (
        r"phase i\b",
        r"recognized environmental condition",
        r"reconnaissance",
        r"aerial photograph",
        r"city director",
        r"records review",
        r"historical",
        r"interviews",
    ),
    "phase-ii-report": (
        r"phase ii\b",
        r"subsurface",
        r"borings",
        r"direct.push",
        r"screening level",
        r"investigation",
        r"soil and (grab )?groundwater",
    ),
    "monitoring-report": (
        r"monitoring",
        r"gauged",
        r"depth to water",
        r"groundwater flow",
        r"sampling event",
        r"quarter",
        r"monitoring wells",
    ),
    "letter": (
        r"\bdear\b",
        r"sincerely",
        r"truly yours",
        r"\bre:",
        r"respectfully",
        r"enclosed",
        r"please contact",
    ),
    "invoice": (
        r"invoice",
        r"total due",
        r"\bremit",
        r"payment",
        r"bill to",
        r"net 30",
        r"\bqty\b",
        r"\bamount\b",
        r"finance charge",
    ),
    "permit": (
        r"\bpermit",
        r"permittee",
        r"conditions",
        r"expiration",
        r"effective date",
        r"authoriz",
        r"licen[cs]e",
    ),
    "certificate": (r"certif(y|ies|ied)", r"certificate"),
    "deed": (
        r"\bgrantor",
        r"\bgrantee",
        r"\bconvey",
        r"\bdeed\b",
        r"notary",
        r"\bplat\b",
        r"warrant",
    ),
    "lease": (r"\blease", r"landlord", r"\btenant", r"premises", r"\brent\b"),
    "contract": (
        r"agreement",
        r"whereas",
        r"now, therefore",
        r"governing law",
        r"\bparties\b",
        r"indemnif",
    ),
    "boring-log": (
        r"\bboring",
        r"\bpid\b",
        r"\bclay\b",
        r"\bsand\b",
        r"\bsilt\b",
        r"auger",
        r"driller",
        r"total depth",
        r"logged by",
    ),
    "photo-page": (r"\bphoto", r"view of", r"photographer"),
    "chain-of-custody": (
        r"custody",
        r"relinquished",
        r"received by",
        r"sampler",
        r"containers",
        r"\bmatrix\b",
        r"turnaround",
        r"analyses",
    ),
    "transmittal": (
        r"transmittal",
        r"we are sending",
        r"\bcopies\b",
        r"remarks",
        r"for your files",
    ),
    "remedial-action-plan": (
        r"remedial action plan",
        r"corrective action plan",
        r"work plan",
        r"remedial alternative",
        r"feasibility",
        r"cleanup (level|goal)",
    ),
    "closure-report": (r"closure", r"no further action", r"confirmation sampl"),
    "data-validation-report": (
        r"validation",
        r"qualifier",
        r"holding time",
        r"usab(le|ility)",
        r"functional guidelines",
    ),
}
KINDS = tuple(CUES)
PATTERNS = {kind: [re.compile(cue) for cue in cues] for kind, cues in CUES.items()}


def classify(lines: list[str], *, body: bool = True) -> str:
    """The kind whose cues weigh most in the lines (the first HEADING_LINES are the heading)."""
    heading = " ".join(lines[:HEADING_LINES]).lower()
    rest = " ".join(lines[HEADING_LINES:]).lower() if body else ""
    best, best_score = "letter", 0
    for kind in KINDS:
        score = 0
        for pattern in PATTERNS[kind]:
            if pattern.search(heading):
                score += TITLE_WEIGHT
            elif pattern.search(rest):
                score += 1
        if score > best_score:
            best, best_score = kind, score
    return best


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    pages = pdftext.read_pdf(sources[case_input.document], jitter=jitter)
    lines = [line.text for page in pages for line in group_lines(page.words)]
    return {"kind": classify(lines, body=variant == "v1")}
