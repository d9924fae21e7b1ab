"""docs/reference-scores.md's Extract v2 table for `report-metadata`: blind and trivial baselines
(read by benchmarks/reference_scores.py --extract)."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

from _spec_parts import always, share

BENCHMARK = "report-metadata"
UNIT = "reports"  # a case is one report PDF; the bootstrap resamples reports
INTRO = (
    "The reference adapter (`solvers/report_metadata.py`: labelled lines, the letterhead, the sample summary's "
    "collection dates, status words; OCR of image-only pages; developed on the dev split only) on both splits; "
    "the test split's front-matter families (certificate, case narrative, header band), laboratories and label "
    "and status words never occur in dev. Beside it, baselines that read nothing: every field empty but the "
    'status "final"; the dev split\'s commonest laboratory, client and project with status "final" (what '
    "priors alone are worth); and one that copies the key's names and dates (which no blind system could know) "
    "and calls every report final, to show what reading the status is worth."
)
GROUP_TITLE = "Fields right (sum over reports) / reports (reference adapter), by family (the case category) and status"
COLUMNS = (
    share("fields_right", "fields right"),
    share("reports_exact", "reports exact"),
    share("laboratory_right", "laboratory"),
    share("work_order_right", "work order"),
    share("client_right", "client"),
    share("project_right", "project"),
    share("report_date_right", "report date"),
    share("sampling_dates_right", "sampling dates"),
    share("status_right", "status"),
)
GROUP_METRIC = ("fields_right", None)  # fields right summed / reports: the mean per group

DEV_ANSWERS = (
    Path(__file__).resolve().parents[2]
    / "envirobench-extract/src/envirobench_extract/benchmarks/report-metadata/datasets"
    / "synthetic-dev-v2/answers.jsonl"
)
EMPTY = dict.fromkeys(
    ("laboratory", "work_order", "client", "project", "report_date", "sampling_dates")
)


@cache
def dev_commonest() -> dict[str, str]:
    """The commonest laboratory, client and project of the dev split's answers (a prior a system
    could learn from dev without reading a test document)."""
    answers = [
        json.loads(line)["answer"]
        for line in DEV_ANSWERS.read_text(encoding="utf-8").splitlines()
        if line
    ]
    return {
        name: Counter(a[name] for a in answers).most_common(1)[0][0]
        for name in ("laboratory", "client", "project")
    }


def dev_priors_all_final(case_input, answer):
    """The dev split's commonest laboratory, client and project, every report final."""
    return {**EMPTY, **dev_commonest(), "status": "final"}


def key_facts_all_final(case_input, answer):
    """The key's names and dates copied (no blind system could know them), every report final."""
    return {
        "laboratory": answer.laboratory,
        "work_order": answer.work_order,
        "client": answer.client,
        "project": answer.project,
        "report_date": answer.report_date,
        "sampling_dates": list(answer.sampling_dates),
        "status": "final",
    }


BASELINES = {
    # Every field empty (not found) but the status: "final", the commonest status.
    'every report "final", every other field empty': always({**EMPTY, "status": "final"}),
    'the dev split\'s commonest laboratory, client and project, every report "final"': dev_priors_all_final,
    'the key\'s names and dates, every report "final" (copies the key)': key_facts_all_final,
}


# Reference points, not shortcuts: they copy part of the answer key (left out of the summary's best shortcut).
KEY_COPIES = ('the key\'s names and dates, every report "final" (copies the key)',)


def groups(case_id, category, answer):
    return [category or "-", f"status {answer.status}"]
