"""Front matter of laboratory reports, in families, with the traps of report-level facts.

Report-metadata v2 asks for the facts a report states about itself: the issuing laboratory, its
work order, the client, the project, the report date, the sampling dates and the status (draft,
final, revised). Real reports state them in many ways; this module draws short reports (two to
five pages: front matter, one or two results pages, a closing page) in six families, each
modelled on a kind of real report, with its own skeleton, fonts, date formats and words:

dev families (dev words of `vocabulary`):

- `letterhead-cover`: a US commercial laboratory's cover page: letterhead, "Analytical Report"
  title, a block of `Label: value` facts, the signature of the approver; results pages with the
  laboratory and work order in a running header.
- `transmittal-letter`: a transmittal letter on letterhead (dated, addressed to the client's
  contact, an "RE:" line with project and work order, the receipt date in the body), then a
  sample summary table, as many smaller laboratories send reports.
- `summary-cover`: a one-page cover that holds everything (facts grid and sample summary
  table), compact, with status and page numbers in the running footer, and an approval page.

test families (test words, and dev words as real reports share the common ones):

- `certificate`: a "Certificate of Analysis" in the manner of Canadian and British
  laboratories: boxed fields with the label above the value, the client's block first and the
  laboratory only at the foot of the page, the status printed in the footer only.
- `case-narrative`: a typed case narrative (data-package style) in prose: who received what and
  when, the dates of sampling, the project, all in running sentences.
- `header-band`: no cover at all: every page opens with a band of boxed facts, the results
  follow at once, and the approval page closes the report (a LIMS print-out).

Traps (`TRAPS`; a report carries several, chosen per report and listed in `MetadataReport.traps`):

- `status-footer`: the status is printed only in the running footer;
- `draft-no-watermark`: a draft with no DRAFT watermark, the word only;
- `unmarked-final`: a final report that never says "final";
- `supersedes`: a revised report naming the report (number and date) it supersedes;
- `address-confusion`: the client's name and address block printed first and largest, the
  laboratory's name smaller or only at the foot of the page;
- `project-number`: the project number printed with or before the project name;
- `ids`: laboratory sample IDs (built on the work order), a purchase-order number and the
  client's project number printed near the work order;
- `other-dates`: received, analysed and printed dates beside the report date;
- `stapled`: a second report stapled behind the first in one PDF;
- `spread-sampling`: samples collected over three to six different days;
- `mixed-date-formats`: the sample tables print dates in another format than the cover;
- `day-first`: dates printed day first (DD.MM.YYYY, stated once on the cover);

Truth rules (report-metadata's answer, as a careful reader states it):

- The answer is that of the FIRST report in the PDF (the one that begins on page 1); reports
  stapled behind it are not asked about, and their samples are not its samples.
- `laboratory` is the name of the laboratory that issued the report (its letterhead or
  signature name), never the client's.
- `work_order` is the laboratory's number for the job under whatever label (Work Order, Job
  Number, SDG, Login No., ...); not a laboratory sample ID built on it (`24C0412-01`), not a
  purchase order, not the client's project number.
- `client` is the client company, never its contact person or the laboratory.
- `project` is the project (site) name without the project number, even where both are printed
  in one field (`2024-117 / Former Riverside Dry Cleaners` -> `Former Riverside Dry Cleaners`).
- `report_date` is the date this issue of the report was issued (for a revision, the revision's
  date, not the date of the report it supersedes); never the received, analysed or printed
  dates, nor a stamp's date.
- `sampling_dates` are the collection dates of this report's samples, each once, ISO.
- `status` is "draft" when the report says it is a draft (DRAFT, Preliminary, Provisional, ...:
  in a watermark, a label, a title or only the footer), "revised" when it says it is a revision
  or amended (or names the report it supersedes), otherwise "final" (a report that says nothing
  of its status is final).

The package in parts: `families` (families, traps and vocabularies), `facts` (a report's facts,
words and traps, sampled) and `drawing` (its pages).
"""

from .drawing import Sheet, render_pages
from .facts import MetadataReport, sample_metadata_report
from .families import FAMILIES, PAGE, SPLIT_FAMILIES, STATUSES, TRAPS

__all__ = [
    "FAMILIES",
    "MetadataReport",
    "PAGE",
    "SPLIT_FAMILIES",
    "STATUSES",
    "Sheet",
    "TRAPS",
    "render_pages",
    "sample_metadata_report",
]
