"""The generator of the `site-results` datasets (dev and test), and their fixtures.

One case per site of the split (site_records.py); the answer is `build_site(site).answers
["site-results"]`, typed strictly (envirobench_site.site_results.Answer).

Fixtures: correct.json predicts every true record with its value, unit, source page and every
printing; wrong.json plants, each on its own site: a superseded (or otherwise non-governing)
printing's value taken instead of the governing one (a value ten times the truth where no
printing records another value), a record dropped, and one record listed twice (no
reconciliation).
"""

from __future__ import annotations

from typing import Any

from envirobench import FixturePlan, structure, unstructure

from ..records import AnalyteEntry, AnalyteTable, values_agree
from ..site_results import NOT_GOVERNING, Answer, SiteResults, TrueResult
from . import site_records
from .site_records import SiteMistake

SEED = 15_001  # the records' seeds are the site specs' (envirobench_synth.site)


RESULT_KEYS = {
    "location", "depth", "sample_date", "analyte", "cas", "matrix", "value", "detected", "unit",
    "reporting_limit", "qualifier", "source", "printings",
}  # fmt: skip
EXCLUDED_KEYS = {"location", "depth", "sample_date", "analyte", "cas", "matrix", "printings"}


def _printing(given: dict[str, Any]) -> dict[str, Any]:
    extra = set(given) - {"file", "page", "status", "value", "unit"}
    if extra:
        raise ValueError(f"a printing has keys the contract does not name: {sorted(extra)}")
    out = {"file": given["file"], "page": given["page"], "status": given["status"]}
    if given.get("unit") is not None:
        out.update(printed_value=given.get("value"), printed_unit=given["unit"])
    return out


def _checked(given: dict[str, Any], keys: set[str], table: AnalyteTable) -> None:
    extra = set(given) - keys
    if extra:
        raise ValueError(f"a result has keys the contract does not name: {sorted(extra)}")
    expected = AnalyteEntry(given["analyte"], given["cas"]).id
    if table.resolve(given["analyte"]) != expected:
        raise ValueError(f"{given['analyte']!r} is not the input's analyte {given['cas']}")


def answer_from(given: dict[str, Any], analytes: list[dict[str, Any]]) -> dict[str, Any]:
    """The type's answer (JSON) from envirobench_synth's (CONTRACT.md names), checked."""
    table = AnalyteTable(structure(a, AnalyteEntry) for a in analytes)
    results, excluded = [], []
    for r in given["results"]:
        _checked(r, RESULT_KEYS, table)
        results.append(
            {
                "location": r["location"], "depth": r["depth"], "sample_date": r["sample_date"],
                "substance": r["analyte"], "matrix": r["matrix"], "result_value": r["value"],
                "detected": r["detected"], "result_unit": r["unit"],
                "reporting_limit": r["reporting_limit"], "qualifier": r["qualifier"],
                "source": r["source"], "printings": [_printing(p) for p in r["printings"]],
            }
        )  # fmt: skip
    for e in given.get("excluded", ()):
        _checked(e, EXCLUDED_KEYS, table)
        excluded.append(
            {
                "location": e["location"], "depth": e["depth"], "sample_date": e["sample_date"],
                "substance": e["analyte"], "matrix": e["matrix"],
                "printings": [_printing(p) for p in e["printings"]],
            }
        )  # fmt: skip
    return {"results": results, "excluded": excluded, "scan_pages": given.get("scan_pages", [])}


def answer_of(site: Any) -> Answer:
    """The answer of a site (a shipped site's ID or a SiteSpec)."""
    build = site_records.built(site)
    raw = answer_from(build.answers["site-results"], build.input["analytes"])
    return structure(raw, Answer, path="$.answer")


def described(answers: list[Answer]) -> str:
    """What the dataset's description says of the split's answers."""
    records = sum(len(a.results) for a in answers)
    printings = sum(len(r.printings) for a in answers for r in a.results)
    superseded = sum(
        1 for a in answers for r in a.results for p in r.printings if p.status in NOT_GOVERNING
    )
    excluded = sum(len(a.excluded) for a in answers)
    return (
        f"The answer is every reportable result reconciled, one record per location, depth, date, "
        f"analyte and matrix with its governing value and page: {records} records printed "
        f"{printings} times ({superseded} printings superseded, drafts, rejected or misprinted), "
        f"{excluded} keys rejected (no record)."
    )


generate = site_records.site_generator(SiteResults, seed=SEED, answer_of=answer_of, what=described)


# -- fixtures -----------------------------------------------------------------------------------


def predicted(record: TrueResult) -> dict[str, Any]:
    return {
        "location": record.location,
        "depth": record.depth,
        "sample_date": record.sample_date,
        "analyte": record.substance,
        "matrix": record.matrix,
        "value": record.result_value,
        "detected": record.detected,
        "unit": record.result_unit,
        "reporting_limit": record.reporting_limit,
        "qualifier": record.qualifier,
        "source": unstructure(record.source),
        "printings": [{"file": p.file, "page": p.page} for p in record.printings],
    }


MISTAKES = (
    SiteMistake(
        "superseded", "a non-governing printing's value taken (or a value ten times off)"
    ),
    SiteMistake("drop", "a record left out"),
    SiteMistake("duplicate", "a record listed twice (a reprint not reconciled)"),
)


def _detections(answer: Answer) -> list[TrueResult]:
    return [r for r in answer.results if r.detected]


def fits(mistake: SiteMistake, answer: Answer) -> bool:
    return bool(_detections(answer)) if mistake.change == "superseded" else bool(answer.results)


# Case ID -> the mistake wrong.json makes there: each on its own site.
planted = FixturePlan.first_fitting(MISTAKES, fits, answer=Answer, unit="site")


def _superseded_value(record: TrueResult) -> tuple[float, str] | None:
    """A non-governing printing's detected value that disagrees with the governing one."""
    for printing in record.printings:
        if (
            printing.status in NOT_GOVERNING
            and printing.printed_value is not None
            and printing.printed_unit is not None
            and not values_agree(
                printing.printed_value,
                printing.printed_unit,
                record.result_value,
                record.result_unit,
                record.matrix,
            )
        ):
            return printing.printed_value, printing.printed_unit
    return None


def wrong_prediction(answer: Answer, mistake: SiteMistake) -> dict[str, Any]:
    records = [predicted(r) for r in answer.results]
    if mistake.change == "drop":
        return {"results": records[1:]}
    if mistake.change == "duplicate":
        return {"results": [*records, {**records[0], "printings": []}]}
    # The first record with a non-governing value to take, else the first detection ten times off.
    detections = _detections(answer)
    target = next((r for r in detections if _superseded_value(r)), detections[0])
    value, unit = _superseded_value(target) or (target.result_value * 10, target.result_unit)
    index = answer.results.index(target)
    records[index] = {**records[index], "value": value, "unit": unit}
    return {"results": records}


correct_prediction = site_records.predicted_back("results", predicted)


FIXTURES = FixturePlan(
    Answer,
    correct=correct_prediction,
    planted=planted,
    wrong=lambda mistake, answer, prediction: wrong_prediction(answer, mistake),
)
