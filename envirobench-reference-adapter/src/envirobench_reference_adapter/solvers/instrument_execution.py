"""Reference solver for `instrument-execution`: is a recorded instrument's copy executed, and recorded?

Every page is read with `pdftext` (its text layer, or OCR of a scanned page read level, `level=True`) and rendered at
INK_DPI for the ink the text does not explain. The status follows the evidence a title examiner
looks for, in this order:

1. *Recording data*: a clock time (`10:42 AM`, `14:07`) with a date and either a long number
   (five digits or more: the number the recorder gave the instrument) or a book-and-page
   pair, within a few lines of one another. Recorders stamp the time of recording; nothing
   else in a deed carries a clock time, so citations of earlier instruments ("recorded in Book
   14, Page 22") are not taken for this instrument's recording. -> executed-recorded.
2. *Signs of a draft*: a draft marker in capitals (DRAFT, FOR DISCUSSION, NOT FOR EXECUTION,
   PRELIMINARY), drafting placeholders in brackets (`[●]`, `[____]`, `[NAME ...]`,
   `[INSERT ...]`, `[DATE ...]`), or fill-in blanks (a run of underscores on a line that also
   holds words: `the ___ day of ____, 20__`, `expires: ______`). -> not-executed.
3. *Signature lines* (drawn rules or runs of underscores, at least SIGNATURE_MIN_INCHES long,
   not the edge of a box): each is signed when the band above it holds pen strokes, ink that no
   word box explains; conformed when "/s/" is typed on it; blank otherwise. A blank line ->
   not-executed; a conformed copy without recording data -> cannot-tell; no signature line at
   all (the copy stops before its signature pages) -> cannot-tell; every line signed ->
   executed-unrecorded.

The evidence page is the page where the deciding evidence was found (the last page when the
signature pages are missing).

The readers of these signs live in `envirobench_reference_adapter.execution`, shared with the
`indemnity-terms` solver; the order of the rules and the statuses are this solver's.

Variants: `v1` (the default; `default` is its alias) as above; `baseline` reads the text only
(no ink analysis): recording data, draft signs and "/s/" as above, and otherwise
executed-unrecorded, so it cannot see an unsigned line.

Weaknesses: OCR drops underscores and small type on scans, so fill-in blanks and some stamps
are missed there; a hairline rule on a low-resolution black-and-white scan breaks into dots and
is not found as a line, so a blank block drawn with one can pass unseen (a false "executed"); a scribble OCR reads as a word is masked as text (the line then looks blank,
which errs towards not-executed); a signature that leaves its band (a large flourish below
the line) is measured only by its part above the line; a stamp without a clock time is not
recognised as recording data.
"""

from __future__ import annotations

from typing import Any

from .. import pdftext
from ..execution import (
    CONFORMED,
    DRAFT_MARKER,
    SignatureLine,
    fill_in_blank,
    recording_data,
    signature_lines,
)
from ..layout import Line, group_lines
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("instrument-execution", variants=("baseline", "v1"))


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    path = sources[case_input.document]
    pages = pdftext.read_pdf(path, jitter=jitter, level=True)  # hand-fed archival scans tilt
    lines = [group_lines(page.words) for page in pages]
    signatures = [] if variant == "baseline" else signature_lines(path, pages)
    status, page = decide(pages, lines, signatures, ink=variant != "baseline")
    return {"status": status, "evidence_page": page + 1}


def decide(pages: list[pdftext.PageText], lines: list[list[Line]], signatures: list[SignatureLine],
           *, ink: bool = True) -> tuple[str, int]:
    """(status, 0-based evidence page) from the pages' lines and their signature lines."""
    for index, page_lines in enumerate(lines):
        if recording_data(page_lines):
            return "executed-recorded", index
    for index, page_lines in enumerate(lines):
        if any(DRAFT_MARKER.search(line.text) for line in page_lines):
            return "not-executed", index
    blank = [s.page for s in signatures if s.state == "blank"]
    if blank:
        return "not-executed", blank[0]
    for index, page_lines in enumerate(lines):
        if any(fill_in_blank(line) for line in page_lines):
            return "not-executed", index
    conformed = [s.page for s in signatures if s.state == "conformed"]
    conformed += [i for i, page_lines in enumerate(lines) if any(CONFORMED.search(line.text) for line in page_lines)]
    if conformed:
        return "cannot-tell", min(conformed)
    if ink and not signatures:
        return "cannot-tell", len(pages) - 1
    signed = [s.page for s in signatures if s.state == "signed"]
    return "executed-unrecorded", signed[0] if signed else len(pages) - 1
