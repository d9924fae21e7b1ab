"""The trap counts of a site record (`SiteBuild.traps`): how many of each reconciliation trap the
documents set, how many printings of each status the site-results key lists, and how many keys
are contested (scoring v2: printed somewhere with a value other than the governing one, or
excluded)."""

from __future__ import annotations

from ..locate.sitepages import style
from .documents import Traps
from .papers import Doc


def _contested(answers: dict) -> int:
    """Keys where reconciliation decides (scoring v2's contested keys): printed somewhere with a
    value other than the governing one, or excluded."""
    out = len(answers["site-results"]["excluded"])
    for r in answers["site-results"]["results"]:
        if any(_differs(p["value"], r["value"]) for p in r["printings"]):
            out += 1
    return out


def _differs(printed, truth) -> bool:
    if printed is None or truth is None:
        return printed is not truth
    return abs(printed - truth) > 0.005 * abs(truth)


def trap_counts(traps: Traps, docs: list[Doc], answers: dict, scanned: int, consultants) -> dict:
    statuses: dict[str, int] = {}
    for r in answers["site-results"]["results"]:
        for p in r["printings"]:
            statuses[p["status"]] = statuses.get(p["status"], 0) + 1
    return {
        "draft-reports": traps.drafts,
        "revised-lab-reports": len(traps.revised),
        "results-changed-by-revision": sum(len(v) for v in traps.revised.values()),
        "correction-letters": len(traps.letters),
        "correction-letter-values": len(traps.corrected),
        "validation-memos": len(traps.memos),
        "draft-preliminary-values": sum(len(v) for v in traps.preliminary.values()),
        "scanned-lab-reports": sum(1 for d in docs for p in d.parts if p.role == "lab" and p.scan),
        "contested-keys": _contested(answers),
        "rejected-results": len(traps.rejected),
        "lab-r-flags": len(traps.lab_rejected),
        "cumulative-transcription-errors": statuses.get("transcription-error", 0),
        "blind-duplicates": traps.duplicates,
        "well-id-styles": len({style(name).well_format for _, name in consultants}),
        "scanned-pages": scanned,
        **{f"printings-{k}": v for k, v in sorted(statuses.items())},
    }
