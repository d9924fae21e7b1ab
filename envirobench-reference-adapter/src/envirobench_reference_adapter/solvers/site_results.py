"""Reference solver for `site-results`: every reportable result of a site's record, reconciled.

The record is read once (`site_record.read_site`: PDFium's text runs, OCR of scanned pages),
cut into documents at their page-numbering marks, and every printing of a result is read:
laboratory results tables (`results_tables.TableReader`), report tables with the analytes as
columns (results and cumulative historical tables), correction and rejection sentences. The
printings of one key (point, depth, date, analyte, matrix) are reconciled by the published
reprint rules (`site_record.reconcile`): rejected keys dropped; a correction letter's value, else
the revised laboratory report's, else the laboratory report's, else the value the final tables
print. Each record cites its governing page (`source`) and lists every page that prints the key
(`printings`).

Variants: `v1` (the default; `default` is its alias) as above; `no-reconciliation` lists every
printing as a record of its own (the value printed there, drafts and superseded reprints
included), the contrast that shows what reconciliation is worth; `latest-report` keeps, per key,
the value printed last in the record (a reader who trusts the newest document).

`jitter=SEED` perturbs the pixels of scanned pages before OCR.

Weaknesses: those of `site_record` (sampling points of unusual prefixes, blind duplicates,
day-first dates, OCR misreads, correction sentences worded without a cue word).
"""

from __future__ import annotations

from .. import site_record
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("site-results", variants=("latest-report", "no-reconciliation", "v1"))


def solve(
    case_input: site_record.SiteCase, sources: Sources, variant: str, jitter: Jitter = None
) -> Prediction:
    pages = site_record.read_site(case_input, sources, jitter)
    reading = site_record.read_results(case_input, pages)
    if variant == "v1":
        results, _ = site_record.reconcile(case_input, reading)
        return {"results": [site_record.result_json(r) for r in results]}
    cas = site_record.cas_numbers(case_input)
    records = []
    for key, items in reading.printings.items():
        chosen = items if variant == "no-reconciliation" else [max(items, key=lambda p: p.order)]
        for printing in chosen:
            result = site_record.SiteResult(key, printing.value, printing.unit, printing.reporting_limit,
                                            printing.qualifier, printing, [printing], cas.get(key[3], ""))  # fmt: skip
            records.append(site_record.result_json(result))
    return {"results": records}
