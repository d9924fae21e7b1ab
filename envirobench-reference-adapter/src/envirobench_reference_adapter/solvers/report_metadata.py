"""Reference solver for `report-metadata`: laboratory, work order, client, project, report date,
sampling dates and status of a lab-report PDF.

The first pages (cover, narrative, sample summary: at most FIRST_PAGES) are read with `pdftext`
(text layer, or OCR of image-only pages), and the facts are taken by rules about where reports
print them:

- `laboratory`: the top line of the cover (the letterhead); when the cover has no text, the
  left part of the running header of the next page;
- labelled fields, `Label: value` lines, each label read by its words (`label_field`), not
  looked up in a list of one laboratory's labels: the client (a label saying client, or whom
  the report is *for*), the project (project or site, without a number word),
  the work order (the laboratory's own number: work order, job, login, submission, delivery
  group, the laboratory's project or report number, written with a number word or as an
  abbreviation of such words), and the date of the report (labelled with a date word and one
  of reporting or issuing: printed, issued, released, completed or a word of the report
  itself; never the day samples were received, collected or analysed);
- `sampling_dates`: the sample summary's column titled with a date word and a collection word
  (read down while the rows hold dates); failing that, every caption so labelled (`<date word>
  <collection word>: ...`) on the pages read;
- `status`: "draft" when the cover says DRAFT or preliminary, "revised" when it says revised
  report or revision, else "final" when it says final report;
- dates in any of the usual printed forms (`03/26/2018`, `26-Mar-2018`, `March 26, 2018`,
  `2018-03-26`, `03/26/18`) become ISO `YYYY-MM-DD`; a two-digit year is 20yy.

Variants: `v1` (the default; `default` is its alias) as above; `baseline` takes only the first
page and only labelled lines (so no sampling dates from the summary table, no fallback for the
laboratory), the simpler reading.

`jitter=SEED` perturbs the pixels of image-only pages before OCR; text-layer pages are read
exactly.

Weaknesses: a label it does not know leaves its field null; a day-first date (`03/04/2018` as 3
April) is read month first; OCR errors in a name or a date (a misread digit) pass through; the
laboratory is wrong when the cover's top line is something other than its name.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from .. import pdftext
from ..layout import Line, em_size, group_lines, normalize_space, split_phrases
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("report-metadata", variants=("baseline", "v1"))

FIRST_PAGES = 3
DATE_FORMATS = ("%m/%d/%Y", "%m/%d/%y", "%d-%b-%Y", "%d-%b-%y", "%B %d, %Y", "%b %d, %Y", "%Y-%m-%d", "%d %B %Y")
DATE_PATTERN = re.compile(
    r"(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4}|\d{1,2}-[A-Za-z]{3}-\d{2,4}|"
    r"[A-Z][a-z]+\.?\s+\d{1,2},\s*\d{4}|\d{1,2}\s+[A-Z][a-z]+\s+\d{4})"
)
NUMBER_WORDS = frozenset({"no", "number", "num", "#", "id", "ref", "reference"})
ORDER_WORDS = frozenset({"work", "order", "job", "login", "submission", "delivery", "file", "batch", "reference", "ref"})
LAB_WORDS = frozenset({"lab", "laboratory", "labs"})
REPORT_WORDS = frozenset({"report", "reported", "issued", "issue", "released", "release", "printed", "completed", "final"})
OTHER_DATE_WORDS = frozenset({"received", "collected", "sampling", "analyzed", "analysed", "prepared", "extracted", "due"})
CLIENT_WORDS = frozenset({"client"})
LABEL_LINE = re.compile(r"^(?P<label>[A-Za-z][A-Za-z .#/]{0,40}?)\s*:\s*(?P<value>.+)$")


def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    path = sources[case_input.document]
    count = pdftext.page_count(path)
    wanted = 1 if variant == "baseline" else min(FIRST_PAGES, count)
    pages = pdftext.read_pdf(path, jitter=jitter, pages=list(range(wanted)))
    return extract(pages, thorough=variant == "v1")


def extract(pages: list[pdftext.PageText], *, thorough: bool = True) -> dict[str, Any]:
    """The seven fields from the words of the first pages (a field not found is None)."""
    page_lines = [group_lines(page.words) for page in pages]
    cover = page_lines[0] if page_lines else []
    found: dict[str, Any] = {
        "laboratory": None,
        "work_order": None,
        "client": None,
        "project": None,
        "report_date": None,
        "sampling_dates": None,
        "status": None,
    }
    for line in (line for lines in (page_lines if thorough else page_lines[:1]) for line in lines):
        for label, value in labelled(line, em_size(line.words)):
            key = label_field(label)
            if key == "report_date":
                value = iso_date(value)
            if key is not None and found[key] is None and value:
                found[key] = value
    found["laboratory"] = letterhead(cover)
    if found["laboratory"] is None and thorough and len(page_lines) > 1:
        found["laboratory"] = running_header_name(page_lines[1])
    if found["client"] is not None and found["client"] == found["laboratory"]:
        # The laboratory's name beside a label of the client's block: look for the client again.
        found["client"] = next(
            (value for line in (ln for lines in page_lines for ln in lines) for label, value in labelled(line, em_size(line.words))
             if label_field(label) == "client" and value != found["laboratory"]),
            None,
        )
    found["status"] = status_of(cover if not thorough else [line for lines in page_lines for line in lines])
    if thorough:
        dates = summary_dates(page_lines) or caption_dates(page_lines)
        found["sampling_dates"] = sorted(set(dates)) if dates else None
    return found


def labelled(line: Line, em: float) -> list[tuple[str, str]]:
    """`Label: value` pairs of a line; a line may hold two (`Client Sample ID: X   Lab ID: Y`)."""
    pairs = []
    texts = [normalize_space(p.text) for p in split_phrases(line, 2.5 * em)]
    for index, text in enumerate(texts):
        if text.endswith(":") and index + 1 < len(texts) and not texts[index + 1].endswith(":"):
            # A label set in its own column, its value further right (the cover's layout).
            pairs.append((text[:-1].strip(), texts[index + 1]))
            continue
        for part in re.split(r";\s*", text):  # a letter's subject line: "Project: X; Work Order Y"
            match = LABEL_LINE.match(part)
            while match:
                label, value = normalize_space(match.group("label")), normalize_space(match.group("value"))
                inner = LABEL_LINE.match(value)
                if inner and label_field(label) is None:
                    match = inner  # "RE: Project Name: X": the label inside the value is the one
                    continue
                pairs.append((label, value))
                break
            if not match and label_field_words(part) == "work_order":
                number = re.search(r"[A-Z0-9][A-Z0-9-]{4,}$", part)
                if number:
                    pairs.append((part[: number.start()].strip(), number.group(0)))
    return pairs


def label_field_words(text: str) -> str | None:
    """The field of a label written without a colon before its value ("Work Order L2431983")."""
    return label_field(re.sub(r"\s+\S*\d\S*$", "", text)) if re.search(r"\d", text) else None


def label_words(label: str) -> list[str]:
    return re.findall(r"#|[a-z0-9]+", label.lower())


def label_field(label: str) -> str | None:
    """The field a label names, from its words (see the module docstring), or None."""
    words = label_words(label)
    if not words or len(words) > 5:
        return None
    found = set(words)
    numbered = bool(found & NUMBER_WORDS)
    if "date" in found or found & {"dated"}:
        return "report_date" if found & REPORT_WORDS and not found & OTHER_DATE_WORDS else None
    if found & CLIENT_WORDS and not numbered and not found & {"sample", "project", "contact", "address", "phone"}:
        return "client"
    if words[-1] == "for" and found & {"prepared", "report", "submitted", "reported", "issued"}:
        return "client"  # whom the report is for
    if "project" in found or "site" in found:
        if found & LAB_WORDS and numbered:
            return "work_order"  # the laboratory's project number is its work order
        return None if numbered or found & CLIENT_WORDS or len(words) > 2 else "project"
    if found & REPORT_WORDS and numbered and not found & {"sample"}:
        return "work_order"
    if found & ORDER_WORDS and (numbered or {"work", "order"} <= found or found & LAB_WORDS):
        return "work_order"
    if found & {"delivery"} and "group" in found:
        return "work_order"
    # An abbreviation of such words, one to four capitals (a delivery group, a job or work order).
    if re.fullmatch(r"[A-Z]{2,4}", label.strip()) and label.strip()[-1] in "GJO" and not label.strip().startswith("P"):
        return "work_order"
    return None


def letterhead(cover: list[Line]) -> str | None:
    """The cover's top line: where a laboratory prints its name."""
    for line in cover:
        # A label set at the left of the same line ("Client:", "Prepared For:") belongs to the
        # address block below it, not to the letterhead beside it.
        phrases = [normalize_space(p.text) for p in split_phrases(line, 2.5 * em_size(line.words))]
        text = " ".join(p for p in phrases if not p.endswith(":"))
        if text and not re.fullmatch(r"(draft|page \d+ of \d+)", text, re.I) and any(ch.isalpha() for ch in text):
            return text
    return None


def running_header_name(lines: list[Line]) -> str | None:
    if not lines:
        return None
    phrases = split_phrases(lines[0], 2.5 * em_size(lines[0].words))
    return normalize_space(phrases[0].text) if phrases else None


def status_of(lines: list[Line]) -> str | None:
    """The report's status: a status label's value wherever it is printed (a footer), else the
    words of the pages read: draft or preliminary, revised or a revision number, final."""
    for line in lines:
        match = re.search(r"\bstatus\s*:\s*(draft|preliminary|revised|final)\b", normalize_space(line.text), re.I)
        if match:
            word = match.group(1).lower()
            return "draft" if word == "preliminary" else word
    text = " ".join(normalize_space(line.text) for line in lines).lower()
    if re.search(r"\bdraft\b|preliminary", text):
        return "draft"
    if re.search(r"\brevised\b|\brevision\s+\d", text):
        return "revised"
    if re.search(r"\bfinal\b", text):
        return "final"
    return None


def iso_date(text: str) -> str | None:
    """The first date in `text` as ISO `YYYY-MM-DD`, or None."""
    match = DATE_PATTERN.search(text)
    if not match:
        return None
    raw = normalize_space(match.group(1)).replace(" ,", ",")
    for form in DATE_FORMATS:
        try:
            return dt.datetime.strptime(raw, form).date().isoformat()
        except ValueError:
            continue
    return None


def summary_dates(page_lines: list[list[Line]]) -> list[str]:
    """Dates in the sample summary's "Date Collected" column."""
    dates: list[str] = []
    for lines in page_lines:
        for index, line in enumerate(lines):
            words = line.words
            starts = [k for k in range(len(words) - 1) if is_sampling_title(words[k].text, words[k + 1].text)]
            if not starts or ":" in words[starts[0] + 1].text:
                continue
            em = em_size(words)
            left = min(words[starts[0]].x0, words[starts[0] + 1].x0) - 0.5 * em
            later = [w.x0 for w in words[starts[0] + 2 :]]
            right = later[0] - 0.3 * em if later else float("inf")
            above = line
            for row in lines[index + 1 :]:
                if row.top - above.top > 2.5 * em:
                    break  # the table ended (a footer further down is no row of it)
                cell = " ".join(w.text for w in row.words if left <= (w.x0 + w.x1) / 2 < right and w.x0 >= left)
                date = iso_date(cell)
                if date is None:
                    break
                dates.append(date)
                above = row
    return dates


SAMPLING_WORDS = ("collect", "sampl")  # word beginnings: collected, collection, sampling ...


def is_sampling_title(first: str, second: str) -> bool:
    """Two words titling the sampling date: a date word and a collection word, either order."""
    pair = {re.sub(r"[^a-z]", "", first.lower()), re.sub(r"[^a-z]", "", second.lower())}
    return bool(pair & {"date", "time"}) and any(word.startswith(SAMPLING_WORDS) for word in pair)


def caption_dates(page_lines: list[list[Line]]) -> list[str]:
    """Dates of sampling-date captions (`<date word> <collection word>: ...`; results pages print
    one per sample)."""
    dates = []
    caption = re.compile(r"\b(\w+)\s+(\w+)\s*:\s*(.+?)(?:\s{2,}|$)")
    for lines in page_lines:
        for line in lines:
            for match in caption.finditer(normalize_space(line.text)):
                if not is_sampling_title(match.group(1), match.group(2)):
                    continue
                date = iso_date(match.group(3))
                if date:
                    dates.append(date)
    return dates
