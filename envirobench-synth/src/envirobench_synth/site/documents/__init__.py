"""The document plan of a site record: which documents the file holds, in filing order.

`plan_documents(model, seed)` turns the site model into `papers.Doc`s: recorded deeds and the
lease (rendered by `envirobench_synth.legal`), tank registration and tightness tests, tank
closure, the agency's letters, Phase I and Phase II reports (drafts and finals), quarterly and
semiannual monitoring reports with their laboratory reports and cumulative historical tables,
vapor-intrusion reports, the corrective action plan, remediation reports, the data validation
memo, a laboratory's correction letter and revised report, the no-further-action letter and the
environmental covenant, and the paper that fills a real file (invoices, transmittals, fax covers,
disposal certificates, photographs).

The traps (`Traps`) are set here, on keys that never share a trap: which results each of the
revised laboratory reports changes, which each correction letter names, which analyte of which
event each validation memo rejects and which results a laboratory flags R, which cells of which
cumulative table are misprinted, which reports have drafts in the file and which preliminary
values a draft prints, which laboratory reports are filed as scans. Enough keys are contested
(printed somewhere with a non-governing value, or excluded: 8 % or more of a record's keys) that
the reprint rules, not reading alone, decide a share of the score.

The package in parts: `plan` (the filing order), `traps`, `small` (small documents and shared
helpers), `phase_i`, `results` (results tables, tank closure, Phase II), `monitoring`, `letters`
and `forms` (the paper that fills a file).
"""

from .forms import LOOSE, filler_doc
from .plan import plan_documents
from .traps import Traps

__all__ = ["LOOSE", "Traps", "filler_doc", "plan_documents"]
