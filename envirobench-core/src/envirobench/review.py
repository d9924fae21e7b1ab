"""Reviewing a run's changes.

`review-brief.json` (written with every run) groups the changed cases into worse, better, noisy
and remaining, by category, per gated profile. `envirobench review draft` turns it into an
unexamined draft of `interpretation.json`: one numbered finding per group, each with its cases
and one recommendation naming them. A reviewer examines cases, writes the evidence for each one
examined, and edits findings and recommendations; `envirobench review check` validates the
result. `--from-review RUN_DIR --recommendation N` on `run` and `score` targets the cases behind
recommendation N.

A review never changes scores or the gate: nothing here writes anything but interpretation.json
(and, after a successful check, report.html, which shows the interpretation).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from .converter import structure, unstructure
from .errors import EnviroBenchError
from .jsonio import atomic_write_text, dumps, read_json
from .rundir import (
    INTERPRETATION_FILE,
    INTERPRETATION_FORMAT,
    REVIEW_GROUPS,
    ReviewBrief,
    read_completed_run,
    read_metrics,
    read_review_brief,
)

STATUSES = ("draft", "reviewed")

_GROUP_TITLES = {
    "worse": "got worse than the baseline",
    "better": "got better than the baseline",
    "noisy": "changed, but the baseline system disagrees with itself on them (unstable)",
    "remaining": "still have errors",
}
_GROUP_ACTIONS = {
    "worse": "Fix these regressions, then rerun with them as target cases so they must be error-free.",
    "better": "Confirm these improvements and keep them: target them in the next run so they stay error-free.",
    "noisy": "Settle these unstable cases: rerun the baseline system as a control, or target them once fixed.",
    "remaining": "Known errors shared with the baseline: fix them and target them in a later run.",
}


@attrs.frozen
class ReviewedCase:
    """One case of a finding. An examined case must carry evidence: what the reviewer saw."""

    id: str
    category: str = ""
    examined: bool = False
    verdict: str | None = None
    evidence: str | None = None


@attrs.frozen
class Finding:
    number: int
    profile: str
    group: str
    title: str
    summary: str = ""
    cases: tuple[ReviewedCase, ...] = ()


@attrs.frozen
class Recommendation:
    number: int
    action: str
    cases: tuple[str, ...]
    finding: int | None = None


@attrs.frozen
class Interpretation:
    """`interpretation.json`: a reviewer's reading of a run's changes."""

    format: str
    run_id: str
    status: str
    findings: tuple[Finding, ...]
    recommendations: tuple[Recommendation, ...] = ()
    reviewer: str = ""
    summary: str = ""
    baseline: str | None = None
    gate: str | None = None


# -- draft --------------------------------------------------------------------------------------


def build_draft(brief: ReviewBrief) -> Interpretation:
    """One numbered finding per non-empty group of each gated profile, none of it examined."""
    findings: list[Finding] = []
    recommendations: list[Recommendation] = []
    for profile, groups in brief.profiles.items():
        for group in REVIEW_GROUPS:
            by_category = groups.group(group)
            cases = [ReviewedCase(id=cid, category=category) for category, ids in by_category.items() for cid in ids]
            if not cases:
                continue
            number = len(findings) + 1
            categories = ", ".join(f"{c} {len(ids)}" for c, ids in by_category.items())
            findings.append(Finding(
                number=number,
                profile=profile,
                group=group,
                title=f"{len(cases)} case(s) {_GROUP_TITLES[group]} in {profile} ({categories})",
                cases=tuple(cases),
            ))
            recommendations.append(Recommendation(number=number, action=_GROUP_ACTIONS[group], cases=tuple(c.id for c in cases), finding=number))
    return Interpretation(
        format=INTERPRETATION_FORMAT,
        run_id=brief.run_id,
        status="draft",
        findings=tuple(findings),
        recommendations=tuple(recommendations),
        baseline=brief.baseline,
        gate=brief.gate,
    )


def write_draft(run_dir: Path, output: Path | None = None) -> tuple[Path, Interpretation]:
    """Write the draft (default: RUN_DIR/interpretation.json); an existing file is never replaced."""
    read_completed_run(run_dir)
    draft = build_draft(read_review_brief(run_dir))
    target = output if output is not None else run_dir / INTERPRETATION_FILE
    if target.exists() or target.is_symlink():
        raise EnviroBenchError(f"{target} already exists; a review is never overwritten (move it away, or pass --output FILE)")
    atomic_write_text(target, dumps(unstructure(draft)))
    return target, draft


# -- check --------------------------------------------------------------------------------------


def run_case_ids(run_dir: Path) -> list[str]:
    return list(read_metrics(run_dir).cases)


def check_interpretation_file(path: Path, case_ids: Iterable[str] | None = None, *, run_id: str | None = None, profiles: Sequence[str] | None = None) -> tuple[dict[str, Any] | None, list[str]]:
    """(the interpretation as JSON, problems). Every problem names the file and the field."""
    try:
        raw = read_json(path)
    except EnviroBenchError as exc:
        return None, [str(exc)]
    try:
        interpretation = structure(raw, Interpretation, file=str(path))
    except EnviroBenchError as exc:
        return None, [str(exc)]
    problems = [str(EnviroBenchError(message, file=path, field=field)) for field, message in _problems(interpretation, case_ids, run_id, profiles)]
    return (raw if not problems else None), problems


def _check_number(out: list[tuple[str, str]], where: str, kind: str, number: int, seen: set[int]) -> None:
    """Findings and recommendations are numbered alike: distinct positive integers."""
    if number < 1 or number in seen:
        out.append((where + ".number", f"{kind} numbers must be distinct positive integers ({number} is not)"))
    seen.add(number)


def _problems(it: Interpretation, case_ids: Iterable[str] | None, run_id: str | None, profiles: Sequence[str] | None) -> list[tuple[str, str]]:
    known = set(case_ids) if case_ids is not None else None
    out: list[tuple[str, str]] = []
    if it.format != INTERPRETATION_FORMAT:
        out.append(("$.format", f"must be {INTERPRETATION_FORMAT!r}, not {it.format!r}"))
    if run_id is not None and it.run_id != run_id:
        out.append(("$.run_id", f"the interpretation is of run {it.run_id!r}, this run is {run_id!r}"))
    if it.status not in STATUSES:
        out.append(("$.status", f"must be one of {', '.join(STATUSES)}, not {it.status!r}"))
    numbers: set[int] = set()
    for i, finding in enumerate(it.findings):
        where = f"$.findings[{i}]"
        _check_number(out, where, "finding", finding.number, numbers)
        if finding.group not in REVIEW_GROUPS:
            out.append((where + ".group", f"must be one of {', '.join(REVIEW_GROUPS)}, not {finding.group!r}"))
        if profiles is not None and finding.profile not in profiles:
            out.append((where + ".profile", f"{finding.profile!r} is not a profile of this run ({', '.join(profiles)})"))
        if not finding.title.strip():
            out.append((where + ".title", "a finding needs a title"))
        seen: set[str] = set()
        for j, case in enumerate(finding.cases):
            cwhere = f"{where}.cases[{j}]"
            if known is not None and case.id not in known:
                out.append((cwhere + ".id", f"case {case.id!r} is not a case of this run"))
            if case.id in seen:
                out.append((cwhere + ".id", f"case {case.id!r} is listed twice in finding {finding.number}"))
            seen.add(case.id)
            if case.examined and case.evidence is None:
                out.append((cwhere + ".evidence", f"examined case {case.id!r} has no evidence field: say what you saw that supports the verdict"))
            elif case.examined and not case.evidence.strip():  # type: ignore[union-attr]
                out.append((cwhere + ".evidence", f"examined case {case.id!r} has empty evidence: say what you saw that supports the verdict"))
    rec_numbers: set[int] = set()
    for i, rec in enumerate(it.recommendations):
        where = f"$.recommendations[{i}]"
        _check_number(out, where, "recommendation", rec.number, rec_numbers)
        if not rec.action.strip():
            out.append((where + ".action", "a recommendation must say what to do"))
        if not rec.cases:
            out.append((where + ".cases", "a recommendation must name the cases it is about"))
        for j, cid in enumerate(rec.cases):
            if known is not None and cid not in known:
                out.append((f"{where}.cases[{j}]", f"case {cid!r} is not a case of this run"))
        if rec.finding is not None and rec.finding not in numbers:
            out.append((where + ".finding", f"there is no finding {rec.finding}"))
    return out


def check_run_interpretation(run_dir: Path, path: Path | None = None) -> tuple[dict[str, Any] | None, list[str]]:
    """Validate RUN_DIR/interpretation.json (or `path`) against the run's cases and profiles."""
    record = read_completed_run(run_dir)
    path = path if path is not None else run_dir / INTERPRETATION_FILE
    if not path.exists():  # anything else there (a directory, a FIFO) is refused by the reader
        raise EnviroBenchError(f"no interpretation to check; write a draft first: envirobench review draft --run {run_dir}", file=path)
    return check_interpretation_file(path, run_case_ids(run_dir), run_id=record.run_id, profiles=record.benchmark.profiles)


def recommendation_cases(review_run: Path, number: int) -> list[str]:
    """The cases behind recommendation `number` of REVIEW_RUN/interpretation.json (validated first)."""
    data, problems = check_run_interpretation(review_run)
    if problems:
        raise EnviroBenchError(
            f"the interpretation in {review_run} is not valid ({len(problems)} problem(s)); run `envirobench review check --run {review_run}`:\n  " + "\n  ".join(problems)
        )
    assert data is not None
    recommendations = data.get("recommendations") or []
    for rec in recommendations:
        if rec["number"] == number:
            return list(dict.fromkeys(rec["cases"]))
    available = ", ".join(str(r["number"]) for r in recommendations) or "none"
    raise EnviroBenchError(f"--recommendation {number}: the interpretation has no recommendation {number} (it has: {available})", file=review_run / INTERPRETATION_FILE, field="$.recommendations")


def merge_targets(*groups: Iterable[str]) -> tuple[str, ...]:
    """Targets in first-seen order without repeats."""
    return tuple(dict.fromkeys(cid for group in groups for cid in group))
