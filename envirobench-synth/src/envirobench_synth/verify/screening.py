"""Seeded laboratory reports to screen against a pinned table: the cases of Verify's
`screening-exceedances` type (envirobench_verify.screening_exceedances holds the truth rules;
`findings_of` here applies them).

A report is a laboratory-report family's report (envirobench_synth.labreport: its skeleton,
vocabulary, conventions and traps; rendered with `render_family_reports`, some scanned) of the
medium the case's screening scenario needs, its sampling dates moved into the window the
scenario tests: both sides of the arsenic MCL change (2006-01-23) for MCL cases, of the State of
Franklin revision (2018-07-01) for Franklin cases and of the residential soil lead guidance
(2024-01-17) for RSL soil cases, sometimes with one report's samples straddling the change. Some
groundwater reports screened against MCLs carry an anions section with nitrate printed as N or
as NO3 (the MCL is 10 mg/L as N).

Truth (`findings_of`) over the report's truth records (envirobench_synth.labreport.families'
record rules: reportable results only, R-flagged results dropped, fractions named
"Lead (dissolved)"):
- compared: results of field samples and field duplicates (field blanks are not screened), of
  the total or dissolved fraction (leachates and percent solids are not), with the row of each
  named table for the analyte (by CAS; the name for nitrate) on the same basis (total with
  total, dissolved with dissolved; nitrate as N) in force on the sample's collection date;
- units converted to the table's (µg/L, mg/L, µg/kg, mg/kg; nitrate as NO3 to as N by
  14.007 / 62.004);
- a detection above the level exceeds it, by the factor result ÷ level; a non-detect whose
  reporting limit is above the level "cannot be ruled out"; equal is not above.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
import re
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal

from .. import catalogue, standards
from ..labreport.families import (
    Family,
    FamilyReport,
    Section,
    _field_cell,
    families_of,
    sample_family_report,
)
from ..labreport.model import TruthRecord
from ..labreport.skeletons import render_family_reports


@dataclass(frozen=True)
class Scenario:
    name: str
    matrix: str
    tables: tuple[str, ...]
    change: dt.date | None  # the date a value of these tables changes, tested on both sides


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("mcl", "groundwater", ("epa-mcl",), standards.ARSENIC_MCL_CHANGE),
    Scenario(
        "mcl-and-secondary", "groundwater", ("epa-mcl", "epa-smcl"), standards.ARSENIC_MCL_CHANGE
    ),  # fmt: skip
    Scenario("rsl-tapwater-thq1", "groundwater", ("epa-rsl-tapwater-thq1.0",), None),
    Scenario("rsl-tapwater-thq0.1", "groundwater", ("epa-rsl-tapwater-thq0.1",), None),
    Scenario(
        "rsl-residential-thq1",
        "soil",
        ("epa-rsl-soil-residential-thq1.0",),
        standards.SOIL_LEAD_GUIDANCE_CHANGE,
    ),  # fmt: skip
    Scenario(
        "rsl-residential-thq0.1",
        "soil",
        ("epa-rsl-soil-residential-thq0.1",),
        standards.SOIL_LEAD_GUIDANCE_CHANGE,
    ),  # fmt: skip
    Scenario("rsl-industrial-thq1", "soil", ("epa-rsl-soil-industrial-thq1.0",), None),
    Scenario("rsl-industrial-thq0.1", "soil", ("epa-rsl-soil-industrial-thq0.1",), None),
    Scenario(
        "franklin-groundwater",
        "groundwater",
        ("franklin-groundwater",),
        standards.FRANKLIN_REVISION,
    ),  # fmt: skip
    Scenario(
        "franklin-residential", "soil", ("franklin-soil-residential",), standards.FRANKLIN_REVISION
    ),  # fmt: skip
    Scenario(
        "franklin-industrial", "soil", ("franklin-soil-industrial",), standards.FRANKLIN_REVISION
    ),  # fmt: skip
)
NITRATE_NAMES = {
    "dev": ("Nitrate as N", "Nitrate (as NO3)"),
    "test": ("Nitrate-Nitrogen", "Nitrate, as NO3"),
}
NITRATE_CAS = "14797-55-8"
N_PER_NO3 = Decimal("14.007") / (Decimal("14.007") + 3 * Decimal("15.999"))
UNIT_UG = {"µg/L": Decimal(1), "mg/L": Decimal(1000), "µg/kg": Decimal(1), "mg/kg": Decimal(1000)}
_CANONICAL = {u.lower().replace("µ", "u"): u for u in UNIT_UG}


def canonical_unit(unit: str) -> str | None:
    """A printed unit (ug/L, µg/l, mg/Kg ...) as the tables write it, or None when not a mass
    concentration of water or soil."""
    return _CANONICAL.get(unit.strip().lower().replace("µ", "u").replace("μ", "u"))


@dataclass(frozen=True)
class Finding:
    sample: str
    analyte: str  # the table's analyte name
    cas: str | None
    fraction: str  # "total" or "dissolved"
    table: str
    status: str  # "exceeds" or "cannot-be-ruled-out"
    factor: float | None  # result ÷ level for an exceedance
    level: float
    unit: str  # the table's unit
    traps: tuple[str, ...]


@dataclass(frozen=True)
class ScreeningReport:
    family: str
    scenario: Scenario
    pdf: bytes
    pages: int
    findings: tuple[Finding, ...]
    compared: int  # results compared with a level
    traps: tuple[str, ...]
    dates: tuple[dt.date, ...]


def _screened(report: FamilyReport, tables: tuple[str, ...]) -> int:
    """How many of the report's analytes the tables list (any date, any basis)."""
    listed = {r.cas for t in tables for r in standards.standards_of(t)}
    return sum(cas in listed for s in report.sections for _, cas in s.analytes)


def _report_of(rng: random.Random, family: Family, split: str, scenario: Scenario) -> FamilyReport:
    """A report of the scenario's matrix with at least four analytes its tables list, whose
    sample IDs carry no date: the dates are moved (`_move_dates`), and an ID naming the old date
    would contradict them."""
    for _ in range(100):
        report = sample_family_report(rng, family, split)  # type: ignore[arg-type]
        dated = any(re.search(r"\d{6}|\d/\d", b.label) for b in report.blocks)
        if (
            report.facts.matrix == scenario.matrix
            and not dated
            and _screened(report, scenario.tables) >= 4
        ):
            return report
    raise RuntimeError(f"family {family.name} drew no report for {scenario.name} in 100 tries")


def _window(rng: random.Random, scenario: Scenario) -> tuple[dt.date, bool]:
    """The first sampling date, and whether the report straddles the scenario's change."""
    if scenario.change is None:
        return dt.date(2018, 1, 1) + dt.timedelta(days=rng.randint(0, 7 * 365)), False
    roll = rng.random()
    if roll < 0.25:  # the samples straddle the change date
        return scenario.change - dt.timedelta(days=rng.randint(1, 2)), True
    if roll < 0.6:
        return scenario.change - dt.timedelta(days=rng.randint(20, 4 * 365)), False
    return scenario.change + dt.timedelta(days=rng.randint(0, 4 * 365)), False


def _move_dates(report: FamilyReport, first: dt.date, straddle: bool) -> FamilyReport:
    dates = [b.collected for b in report.blocks if b.collected is not None]
    start = min(dates)
    shift = first - start
    blocks = []
    for index, block in enumerate(report.blocks):
        if block.collected is None:
            blocks.append(block)
            continue
        moved = block.collected + shift
        if straddle and block.truth_id and index % 2 == 1:
            moved += dt.timedelta(days=3)  # every other sample after the change
        blocks.append(dataclasses.replace(block, collected=moved))
    last = max(b.collected for b in blocks if b.collected is not None)
    facts = dataclasses.replace(
        report.facts,
        received=last + dt.timedelta(days=1),
        reported=last + dt.timedelta(days=12),
    )
    return dataclasses.replace(report, blocks=tuple(blocks), facts=facts)


def _add_nitrate(rng: random.Random, report: FamilyReport, split: str) -> FamilyReport:
    """An anions section (nitrate, printed as N or as NO3) for every field sample."""
    name = rng.choice(NITRATE_NAMES[split])
    section = Section("Anions", "EPA 300.0", "metal", "mg/L", ((name, NITRATE_CAS),))
    s = len(report.sections)
    cells = dict(report.cells)
    blocks = []
    for b, block in enumerate(report.blocks):
        if block.kind in ("field", "field-duplicate", "field-blank"):
            cells[(b, s, 0)] = _field_cell(
                rng,
                report.family,
                report.conventions,
                block,
                section,
                Decimal(rng.choice(("0.10", "0.050", "0.20"))),
                1,
                False,
                name,
                NITRATE_CAS,
            )
            block = dataclasses.replace(block, sections=(*block.sections, s))
        blocks.append(block)
    return dataclasses.replace(
        report, sections=(*report.sections, section), blocks=tuple(blocks), cells=cells
    )


def _alternative(row: standards.Standard, table: str, day: dt.date) -> float | None:
    """The value a careless reader would take instead: the other edition or era of the same
    table, or the THQ 1.0 twin of a THQ 0.1 table."""
    values = {
        r.value
        for r in standards.standards_of(table)
        if r.cas == row.cas and r.basis == row.basis and r.value != row.value
    }
    if "thq0.1" in table:
        twin = standards.value_in_force(
            table.replace("thq0.1", "thq1.0"), row.cas or row.analyte, day, basis=row.basis
        )
        if twin is not None and twin.value != row.value:
            values.add(twin.value)
    return max(values) if values else None


def _plant(rng: random.Random, report: FamilyReport, scenario: Scenario) -> FamilyReport:
    """Move a few detections near the levels that apply: between a level and the value a
    careless reader would use instead (the other era, edition or THQ), or just below or well above
    the level. Only unflagged detections of field samples below the calibration range are moved,
    so no re-analysis depends on them."""
    cas_of = _name_to_cas(report)
    # A primary-only MCL case gets secondary-level values too: the trap is to report them.
    tables = scenario.tables + (("epa-smcl",) if scenario.tables == ("epa-mcl",) else ())
    candidates = []
    for (b, s, a), cell in sorted(report.cells.items()):
        block, section = report.blocks[b], report.sections[s]
        truth = cell.truth
        if (
            truth is None
            or truth.result is None
            or cell.qualifier
            or block.kind not in ("field", "field-duplicate")
            or section.fraction not in ("", "dissolved")
            or canonical_unit(truth.unit) is None
            or block.collected is None
        ):
            continue
        cas = truth.cas or cas_of.get(truth.analyte)
        basis = "as N" if cas == NITRATE_CAS else (section.fraction or "total")
        for table in tables:
            row = cas and standards.value_in_force(table, cas, block.collected, basis=basis)  # type: ignore[arg-type]
            if row:
                candidates.append(((b, s, a), row, block.collected))
                break
    rng.shuffle(candidates)
    # Nitrate first: its as-N level is the trap of the anions section.
    candidates.sort(key=lambda c: c[1].cas != NITRATE_CAS)
    cells = dict(report.cells)
    for key, row, day in candidates[: rng.randint(2, 5)]:
        cell = cells[key]
        assert cell.truth is not None
        alternative = _alternative(row, row.table, day)
        if cell.truth.analyte.endswith("NO3") and rng.random() < 0.6:
            # Below 10 mg/L as N, above 10 as printed (as NO3).
            level_value = Decimal(repr(rng.uniform(2.5, 9.5)))
        elif alternative is not None and rng.random() < 0.7:
            low, high = sorted((row.value, alternative))
            level_value = Decimal(repr(low + (high - low) * rng.uniform(0.15, 0.85)))
        else:
            level_value = Decimal(repr(row.value)) * Decimal(
                repr(rng.choice((rng.uniform(0.5, 0.95), rng.uniform(1.1, 30.0))))
            )
        value = level_value * UNIT_UG[row.unit] / UNIT_UG[canonical_unit(cell.truth.unit) or ""]
        if cell.truth.analyte.endswith("NO3"):
            value = value / N_PER_NO3
        value = Decimal(catalogue.significant(value, 3))
        rl = Decimal(repr(cell.truth.reporting_limit)) if cell.truth.reporting_limit else None
        # Above the RL, below the calibration range (nitrate's anions run is ours: no re-analysis
        # depends on it, and ion chromatography reads a wider range).
        top = rl * (1000 if row.cas == NITRATE_CAS else 100) if rl is not None else None
        if rl is None or top is None or not rl < value < top:
            continue
        cells[key] = dataclasses.replace(
            cell,
            result=report.conventions.number(value),
            truth=dataclasses.replace(cell.truth, result=float(value)),
        )
    return dataclasses.replace(report, cells=cells)


def _name_to_cas(report: FamilyReport) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for section in report.sections:
        for name, cas in section.analytes:
            key = f"{name} ({section.fraction})" if section.fraction else name
            out[key] = cas
    return out


def _status(measured: Decimal, nondetect: bool, level: Decimal) -> str:
    if measured <= level:
        return "below"
    return "cannot-be-ruled-out" if nondetect else "exceeds"


def _other_exposure(table: str) -> str | None:
    for a, b in (("residential", "industrial"), ("industrial", "residential")):
        if a in table:
            return table.replace(a, b)
    return None


def findings_of(
    records: tuple[TruthRecord, ...],
    report: FamilyReport,
    tables: tuple[str, ...],
) -> tuple[tuple[Finding, ...], int, Counter[str]]:
    """The findings of the truth rule (module docstring), the number of results compared, and
    the traps that decide a compared result's status (the status a careless reading would give
    differs from the truth): "unit-decides" (the number compared without converting units),
    "nitrate-decides" (nitrate as NO3 compared with a level as N), "date-decides" (the value of
    another era or edition of the table), "thq-decides" (the THQ 1.0 level for a THQ 0.1 table),
    "exposure-decides" (the other land use's level), "secondary-not-named" (a secondary MCL
    exceeded where the case names the primary table only), "total-not-compared" (a total result
    of an analyte the table lists on a dissolved basis only), "nondetect-limit-above"."""
    collected = {b.truth_id: b.collected for b in report.blocks if b.truth_id and b.collected}
    blanks = {b.truth_id for b in report.blocks if b.kind == "field-blank"}
    cas_of = _name_to_cas(report)
    findings: list[Finding] = []
    traps: Counter[str] = Counter()
    compared = 0
    for record in records:
        unit = canonical_unit(record.unit)
        if record.sample_id in blanks or unit is None:
            continue
        fraction = "dissolved" if record.analyte.endswith("(dissolved)") else "total"
        if record.analyte.endswith(("(TCLP)", "(SPLP)")):
            continue
        cas = record.cas or cas_of.get(record.analyte)
        if cas is None:
            continue
        day = collected[record.sample_id]
        printed = Decimal(repr(record.reporting_limit if record.nondetect else record.result))
        for table in tables:
            basis = "as N" if cas == NITRATE_CAS else fraction
            row = standards.value_in_force(table, cas, day, basis=basis)  # type: ignore[arg-type]
            if row is None:
                other = "dissolved" if fraction == "total" else "total"
                if cas != NITRATE_CAS and standards.value_in_force(table, cas, day, basis=other):  # type: ignore[arg-type]
                    traps[
                        "total-not-compared" if fraction == "total" else "dissolved-not-compared"
                    ] += 1
                continue
            compared += 1
            if row.unit[-1] != unit[-1]:
                raise ValueError(f"{record.unit} results against a table in {row.unit}")
            scale = UNIT_UG[unit] / UNIT_UG[row.unit]
            nitrate_no3 = cas == NITRATE_CAS and "NO3" in record.analyte
            if nitrate_no3:
                scale *= N_PER_NO3
            level = Decimal(repr(row.value))
            measured = printed * scale
            status = _status(measured, record.nondetect, level)
            tags: list[str] = []
            if unit != row.unit:
                tags.append("unit")
            if _status(printed, record.nondetect, level) != status:
                traps["unit-decides" if not nitrate_no3 else "nitrate-decides"] += 1
            if nitrate_no3:
                tags.append("nitrate-as-no3")
            alternatives = {
                "date-decides": [
                    Decimal(repr(r.value))
                    for r in standards.standards_of(table)
                    if r.cas == cas and r.basis == row.basis and not r.in_force_on(day)
                ]
            }
            twin = table.replace("thq0.1", "thq1.0") if "thq0.1" in table else None
            exposure = _other_exposure(table)
            for name, other_table in (("thq-decides", twin), ("exposure-decides", exposure)):
                if other_table:
                    other_row = standards.value_in_force(other_table, cas, day, basis=row.basis)
                    if other_row:
                        alternatives[name] = [Decimal(repr(other_row.value))]
            for name, values in alternatives.items():
                if any(_status(measured, record.nondetect, v) != status for v in values):
                    traps[name] += 1
            if row.in_force_from is not None or row.in_force_to is not None:
                tags.append("dated-value")
            if table == "epa-mcl" and cas == "7440-38-2":
                side = "before" if day < standards.ARSENIC_MCL_CHANGE else "from"
                traps[f"arsenic-mcl-{side}-2006-01-23"] += 1
            if not row.enforceable:
                tags.append("guidance-only")
            if fraction == "dissolved":
                tags.append("dissolved")
            if status == "below":
                continue
            if status == "cannot-be-ruled-out":
                traps["nondetect-limit-above"] += 1
                tags.append("nondetect-limit-above")
            factor = None if record.nondetect else float(f"{measured / level:.6g}")
            findings.append(
                Finding(
                    record.sample_id,
                    row.analyte,
                    row.cas,
                    fraction,
                    table,
                    status,
                    factor,
                    row.value,
                    row.unit,
                    tuple(tags),
                )  # fmt: skip
            )
        if "epa-mcl" in tables and "epa-smcl" not in tables:
            secondary = standards.value_in_force("epa-smcl", cas, day, basis=fraction)  # type: ignore[arg-type]
            if secondary and not record.nondetect:
                scale = UNIT_UG[unit] / UNIT_UG[secondary.unit]
                if printed * scale > Decimal(repr(secondary.value)):
                    traps["secondary-not-named"] += 1
    return tuple(findings), compared, traps


def sample_screening_report(
    rng: random.Random, split: str, index: int, scenario: Scenario, scan: bool, seed: int,
    labels: tuple[str, ...],
) -> ScreeningReport:  # fmt: skip
    """One report of the families of `split` for `scenario`, rendered (scanned when `scan`)."""
    families = [f for f in families_of(split) if scenario.matrix in f.matrices]  # type: ignore[arg-type]
    family = families[index % len(families)]
    report = _report_of(rng, family, split, scenario)
    first, straddle = _window(rng, scenario)
    report = _move_dates(report, first, straddle)
    traps: set[str] = set()
    if scenario.name.startswith("mcl") and rng.random() < 0.7:
        report = _add_nitrate(rng, report, split)
    report = _plant(rng, report, scenario)
    if straddle:
        traps.add("dates-straddle-change")
    rendered = render_family_reports([report], seed, *labels, scan="results" if scan else "none")
    findings, compared, deciding = findings_of(rendered.records, report, scenario.tables)
    traps.update(deciding)
    dates = tuple(sorted({b.collected for b in report.blocks if b.collected is not None}))
    if (
        scenario.change
        and any(d < scenario.change for d in dates)
        and any(d >= scenario.change for d in dates)
    ):
        traps.add("dates-straddle-change")
    if scan:
        traps.add("scanned")
    return ScreeningReport(
        family=family.name,
        scenario=scenario,
        pdf=rendered.pdf,
        pages=len(rendered.pages),
        findings=findings,
        compared=compared,
        traps=tuple(sorted(traps)),
        dates=dates,
    )
