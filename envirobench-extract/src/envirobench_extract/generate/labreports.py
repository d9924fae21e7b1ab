"""What the lab-report generators share: drawing a report until it shows its layout, records, fixtures.

`draw_report` samples and renders a report from its own stream, make_random(SEED, stream,
case_id, attempt), trying the next attempt while the result lacks what its layout is for (a
continued layout whose tables all happen to fit, a footnote layout without a qualifier, ...).
Everything is deterministic: the same seed gives the same attempts, so the same files.

Record fixtures (table-records and document-extraction) are built from the answer key by
`RecordMistake`s: each finds the first case it applies to (case order) and changes its
prediction in a documented way, and states by hand the errors it must give in each profile. The
tests compare those expectations with the scorer; they are never computed by the scorer itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envirobench import (
    EnviroBenchError,
    FixturePlan,
    copy_fields,
    read_categories,
    unstructure,
    write_json,
)
from envirobench_synth.labreport import RenderedReport, TruthRecord, render_pdf, sample_report
from envirobench_synth.rng import make_random

from ..records import Record, normalise_name, normalise_unit

MAX_ATTEMPTS = 40
MIN_PAGES, MAX_PAGES = 3, 8


def record_of(truth: TruthRecord) -> Record:
    return copy_fields(Record, truth)


def layout_problem(rendered: RenderedReport) -> str | None:
    """Why a rendered report does not show its layout (None when it does)."""
    layout = rendered.report.layout
    if not MIN_PAGES <= len(rendered.pages) <= MAX_PAGES:
        return f"{len(rendered.pages)} pages"
    if not rendered.records:
        return "no records"
    if layout == "continued" and not any(t.part > 0 for t in rendered.tables):
        return "no table runs over a page"
    if layout == "two-per-page":
        per_page = [sum(1 for t in rendered.tables if t.page == p.number) for p in rendered.pages]
        if max(per_page) < 2:
            return "no page holds two tables"
    if layout == "qualifier-footnotes" and not any(r.qualifier for r in rendered.records):
        return "no qualifier to footnote"
    return None


def draw_report(
    seed: int,
    stream: str,
    case_id: str,
    layout: str,
    *,
    accept: Callable[[RenderedReport], str | None] | None = None,
    sample_options: dict[str, Any] | None = None,
    scan_kinds: Sequence[str] = (),
    check_layout: bool = True,
) -> RenderedReport:
    """The first attempt whose report passes `accept` (and shows its layout, with `check_layout`)."""
    problems = []
    for attempt in range(MAX_ATTEMPTS):
        report = sample_report(
            make_random(seed, stream, case_id, attempt), layout, **(sample_options or {})
        )
        labels = (stream, case_id, attempt)
        preview = render_pdf(report, seed, *labels, scan_kinds=scan_kinds, scan=False)
        problem = (layout_problem(preview) if check_layout else None) or (
            accept(preview) if accept else None
        )
        if problem is None:
            if any(page.scanned for page in preview.pages):  # now the scans, for the one kept
                return render_pdf(report, seed, *labels, scan_kinds=scan_kinds)
            return preview
        problems.append(problem)
    raise EnviroBenchError(
        f"{case_id}: no acceptable {layout} report in {MAX_ATTEMPTS} attempts ({'; '.join(sorted(set(problems)))})"
    )


# -- record fixtures ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordMistake:
    """A deliberate mistake in a record prediction, applied to the first case it fits."""

    name: str
    why: str
    layout: str | None = None  # only cases of this layout (category)

    def target(self, records: Sequence[Record]) -> int | None:
        """The index of the record this mistake changes, or None when the case has none."""
        keys = [(normalise_name(r.sample_id), normalise_name(r.analyte)) for r in records]
        unique = [keys.count(k) == 1 for k in keys]
        for i, r in enumerate(records):
            if self._fits(i, r, records, keys, unique):
                return i
        return None

    def _fits(self, i: int, r: Record, records: Sequence[Record], keys: list, unique: list) -> bool:
        name = self.name
        if name in ("drop", "wrong-sample"):
            return unique[i]
        if name == "invent":
            return i == 0
        if name == "nondetect-as-detected":
            return unique[i] and r.nondetect and r.qualifier is None
        if name == "convert-unit":
            return (
                unique[i]
                and not r.nondetect
                and normalise_unit(r.unit) == "μg/l"
                and r.reporting_limit is not None
            )
        if name == "swap-result-rl":
            return (
                unique[i]
                and not r.nondetect
                and r.reporting_limit not in (None, r.result)
                and not r.qualifier
            )
        if name == "drop-qualifier":
            return unique[i] and r.qualifier == "J"
        if name == "misread-thousands":
            return unique[i] and r.result is not None and r.result >= 1000 and not r.qualifier
        if name == "reverse-duplicates":  # the first of exactly two records of one key
            if keys.count(keys[i]) != 2 or keys.index(keys[i]) != i:
                return False
            j = keys.index(keys[i], i + 1)
            return bool(records[j].qualifier) and records[j] != r
        raise ValueError(f"unknown mistake {name!r}")

    def apply(self, records: list[dict[str, Any]], i: int) -> list[dict[str, Any]]:
        """The prediction (records as JSON) with this mistake made on record i."""
        out = [dict(r) for r in records]
        r = out[i]
        name = self.name
        if name == "drop":
            del out[i]
        elif name == "wrong-sample":
            r["sample_id"] = r["sample_id"] + "-X"
        elif name == "invent":
            out.append(
                {
                    **r,
                    "analyte": "Dieldrin",
                    "cas": "60-57-1",
                    "result": 0.42,
                    "nondetect": False,
                    "qualifier": None,
                }
            )
        elif name == "nondetect-as-detected":
            r.update(result=r["reporting_limit"], nondetect=False)
        elif name == "convert-unit":
            r.update(
                unit="mg/L", result=r["result"] / 1000, reporting_limit=r["reporting_limit"] / 1000
            )
        elif name == "swap-result-rl":
            r.update(result=r["reporting_limit"], reporting_limit=r["result"])
        elif name == "drop-qualifier":
            r["qualifier"] = None
        elif name == "misread-thousands":
            r["result"] = r["result"] / 1000
        elif name == "reverse-duplicates":
            j = next(k for k in range(i + 1, len(out)) if _key(out[k]) == _key(r))
            second = dict(out[j], qualifier=None)
            out[i], out[j] = second, r
        return out

    def expected(self, records: Sequence[Record], i: int) -> dict[str, list[tuple]]:
        """The errors this mistake must give, per profile, stated without the scorer."""
        r = records[i]
        s, a = r.sample_id, r.analyte

        def wrong(*fields: str) -> list[tuple]:
            return [("wrong-field", s, a, f) for f in fields]

        name = self.name
        if name == "reverse-duplicates":
            # The flag lost is that of the second record of the pair. In `semantic` a non-detect
            # written without its U is still a non-detect: no error when U was all it carried.
            j = next(k for k in range(i + 1, len(records)) if _key_of(records[k]) == _key_of(r))
            second = records[j]
            only_u = second.nondetect and (second.qualifier or "").strip().upper() == "U"
            return {
                "semantic": [] if only_u else wrong("qualifier"),
                "exact": wrong("qualifier"),
                "value": wrong("qualifier"),
            }
        if name == "drop":
            both = [("missing-record", s, a)]
        elif name == "wrong-sample":
            both = [
                ("missing-record", s, a),
                ("extra-record", normalise_name(s + "-X"), normalise_name(a)),
            ]
        elif name == "invent":
            both = [("extra-record", normalise_name(s), "dieldrin")]
        elif name == "nondetect-as-detected":
            both = wrong("result", "nondetect")
        elif name == "convert-unit":
            return {
                "semantic": [],
                "exact": wrong("result", "unit", "reporting_limit"),
                "value": [],
            }
        elif name == "swap-result-rl":
            both = wrong("result", "reporting_limit")
        elif name == "drop-qualifier":
            both = wrong("qualifier")
        elif name == "misread-thousands":
            both = wrong("result")
        else:
            raise ValueError(f"unknown mistake {name!r}")
        # Every other mistake changes what the record means: wrong alike in every profile.
        return {"semantic": list(both), "exact": both, "value": list(both)}


def _key(record: dict[str, Any]) -> tuple[str, str]:
    return normalise_name(record["sample_id"]), normalise_name(record["analyte"])


def _key_of(record: Record) -> tuple[str, str]:
    return normalise_name(record.sample_id), normalise_name(record.analyte)


@dataclass(frozen=True)
class Planted:
    case: str
    mistake: RecordMistake
    record: int
    expected: dict[str, list[tuple]]

    @property
    def why(self) -> str:
        return self.mistake.why


def plant_mistakes(
    mistakes: Sequence[RecordMistake], answers: dict[str, Any], categories: dict[str, str]
) -> list[Planted]:
    """Each mistake on the first case (in case order) it fits and no earlier mistake took."""
    taken: set[str] = set()
    planted = []
    for mistake in mistakes:
        for case_id, answer in answers.items():
            if case_id in taken or (mistake.layout and categories[case_id] != mistake.layout):
                continue
            i = mistake.target(answer.records)
            if i is not None:
                taken.add(case_id)
                planted.append(Planted(case_id, mistake, i, mistake.expected(answer.records, i)))
                break
        else:
            raise EnviroBenchError(
                f"no case of the dataset fits the deliberate mistake {mistake.name!r} ({mistake.why})"
            )
    return planted


def record_fixtures(
    answer_cls: type, mistakes_of: Callable[[Path], Sequence[RecordMistake]]
) -> FixturePlan:
    """The FixturePlan of a record type: correct.json is the answer key as predictions, wrong.json
    the same with the dataset's mistakes (`mistakes_of(dataset_dir)`) planted."""

    def planted(dataset_dir: Path, answers: dict[str, Any]) -> dict[str, Planted]:
        chosen = plant_mistakes(mistakes_of(dataset_dir), answers, read_categories(dataset_dir))
        return {p.case: p for p in chosen}

    return FixturePlan(
        answer_cls,
        correct=lambda answer: {"records": [unstructure(r) for r in answer.records]},
        planted=planted,
        wrong=lambda p, answer, prediction: {"records": p.mistake.apply(prediction["records"], p.record)},
        file_writer=write_json,
    )
