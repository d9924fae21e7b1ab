"""The generator of the `exceedance-summary` datasets (dev and test), and their fixtures.

One case per site of the split (site_records.py); the answer is `build_site(site).answers
["exceedance-summary"]`, typed strictly (envirobench_site.exceedance_summary.Answer).

Fixtures: correct.json predicts every true exceedance with its standard, value and source;
wrong.json plants, each on its own site: an exceedance screened against a standard value twice
the governing one (another edition's or land use's), an exceedance left out, and an exceedance
that is none (a copy of a true one on another sampling date).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from envirobench import FixturePlan, structure, unstructure

from ..exceedance_summary import Answer, ExceedanceSummary, TrueExceedance
from ..records import AnalyteEntry, AnalyteTable
from . import site_records
from .site_records import SiteMistake

SEED = 15_002  # the records' seeds are the site specs' (envirobench_synth.site)


EXCEEDANCE_KEYS = {
    "location", "depth", "sample_date", "analyte", "cas", "matrix", "value", "unit", "standard",
    "source",
}  # fmt: skip


def answer_from(given: dict[str, Any], analytes: list[dict[str, Any]]) -> dict[str, Any]:
    """The type's answer (JSON) from envirobench_synth's (CONTRACT.md names), checked."""
    table = AnalyteTable(structure(a, AnalyteEntry) for a in analytes)
    out = []
    for e in given["exceedances"]:
        extra = set(e) - EXCEEDANCE_KEYS
        if extra or set(e["standard"]) != {"table", "value", "unit"}:
            raise ValueError(f"an exceedance has keys the contract does not name: {sorted(extra)}")
        if table.resolve(e["analyte"]) != AnalyteEntry(e["analyte"], e["cas"]).id:
            raise ValueError(f"{e['analyte']!r} is not the input's analyte {e['cas']}")
        level = e["standard"]
        out.append(
            {
                "location": e["location"], "depth": e["depth"], "sample_date": e["sample_date"],
                "substance": e["analyte"], "matrix": e["matrix"], "result_value": e["value"],
                "result_unit": e["unit"], "source": e["source"],
                "level": {"screening_table": level["table"], "level_value": level["value"], "level_unit": level["unit"]},
            }
        )  # fmt: skip
    return {"exceedances": out, "scan_pages": given.get("scan_pages", [])}


def answer_of(site: Any) -> Answer:
    """The answer of a site (a shipped site's ID or a SiteSpec)."""
    build = site_records.built(site)
    raw = answer_from(build.answers["exceedance-summary"], build.input["analytes"])
    return structure(raw, Answer, path="$.answer")


def described(answers: list[Answer]) -> str:
    """What the dataset's description says of the split's answers."""
    count = sum(len(a.exceedances) for a in answers)
    tables = sorted({e.level.screening_table for a in answers for e in a.exceedances})
    return (
        f"The answer is every governing result above the governing screening level in force on "
        f"its sampling date, with the standard's table, value and unit: {count} exceedances "
        f"(tables {', '.join(tables) or 'none'})."
    )


generate = site_records.site_generator(ExceedanceSummary, seed=SEED, answer_of=answer_of, what=described)


def predicted(item: TrueExceedance) -> dict[str, Any]:
    return {
        "location": item.location,
        "depth": item.depth,
        "sample_date": item.sample_date,
        "analyte": item.substance,
        "matrix": item.matrix,
        "value": item.result_value,
        "unit": item.result_unit,
        "standard": {
            "table": item.level.screening_table,
            "value": item.level.level_value,
            "unit": item.level.level_unit,
        },
        "source": unstructure(item.source),
    }


MISTAKES = (
    SiteMistake("standard", "a standard value twice the governing one"),
    SiteMistake("drop", "an exceedance left out"),
    SiteMistake("invent", "an exceedance that is none (another sampling date)"),
)


# Case ID -> the mistake wrong.json makes there: each on its own site with an exceedance.
planted = FixturePlan.first_fitting(
    MISTAKES, lambda mistake, answer: bool(answer.exceedances), answer=Answer, unit="site"
)


def _invented(answer: Answer) -> dict[str, Any]:
    taken = {
        (e.location, e.depth, e.sample_date, e.substance, e.matrix) for e in answer.exceedances
    }
    first = answer.exceedances[0]
    day = dt.date.fromisoformat(first.sample_date)
    for shift in range(1, 400):
        other = (day - dt.timedelta(days=shift)).isoformat()
        if (first.location, first.depth, other, first.substance, first.matrix) not in taken:
            return {**predicted(first), "sample_date": other}
    raise AssertionError("no free sampling date for an invented exceedance")


def wrong_prediction(answer: Answer, mistake: SiteMistake) -> dict[str, Any]:
    items = [predicted(e) for e in answer.exceedances]
    if mistake.change == "drop":
        return {"exceedances": items[1:]}
    if mistake.change == "invent":
        return {"exceedances": [*items, _invented(answer)]}
    standard = {**items[0]["standard"], "value": items[0]["standard"]["value"] * 2}
    return {"exceedances": [{**items[0], "standard": standard}, *items[1:]]}


correct_prediction = site_records.predicted_back("exceedances", predicted)


FIXTURES = FixturePlan(
    Answer,
    correct=correct_prediction,
    planted=planted,
    wrong=lambda mistake, answer, prediction: wrong_prediction(answer, mistake),
)
