"""Standard look-ups: which screening value applies to a result, from pinned tables and a policy.

Built on envirobench_synth.standards (its `Standard` record and catalogue, unchanged; the
analytes used from each catalogue table are pinned in `PINNED_ANALYTES`, so rows the catalogue
gains later change no dataset). This module adds what the Research look-ups need beside it:

- the State of Sequoyah tables (fictitious, invented for this benchmark, shown only in the test
  split): groundwater, drinking water and soils for residential and industrial land use, each in
  two editions (effective 2012-01-01 and 2021-03-15), some metals on a dissolved basis;
- `POLICIES`: for each jurisdiction, medium and land use, the tables to consult in order (a
  state's own table first, then the federal table it falls back to). This is the screening
  hierarchy a work plan states, pinned here and shipped with the tables in every case input;
- how a look-up writes its fields (`standard_wordings`: open-ended wordings composed the way
  agencies print their tables, the test split's never a dev wording);
- `sample_lookup` and `applicable`, the truth rule.

The truth rule (`applicable`): a look-up's standard is the first table of its policy that has a
row for the analyte (by name or CAS number) that fits the result's basis (a row on the total
basis fits every result, a dissolved-basis row only a dissolved result; a result without a basis
is total) in force on the sampling date (`Standard.in_force_on`: from and to inclusive). No such
row in any of the policy's tables: no standard applies (None). The value is the row's, in the
row's unit.

The traps, recorded per look-up:

    date-change        the analyte's value in that table changes within two years of the date
                       (arsenic's MCL on 2006-01-23, a state's revision, soil lead 2024-01-17)
    before-edition     the sampling date precedes the state table's first edition: federal
    state-stricter     a state row applies and the federal fallback's value differs
    fallback           the state table lacks the analyte (or its basis): the next table applies
    land-use           a soil look-up whose other land use has another value
    medium             groundwater and drinking water have different values for the analyte
    basis              the result's basis differs from the first table's row
    units              the result's unit differs from the standard's (mg/L against µg/L)
    synonym            the analyte is written as a synonym, an abbreviation or a CAS number
    no-standard        no table of the policy lists the analyte
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable
from dataclasses import dataclass

from ..standards import STANDARDS, Standard, two_edition_table
from . import standard_wordings as wordings

TRAPS = (
    "date-change", "before-edition", "state-stricter", "fallback", "land-use", "medium", "basis",
    "units", "synonym", "no-standard",
)  # fmt: skip
SEQUOYAH = "State of Sequoyah (fictitious)"
FEDERAL = "United States (federal)"
FRANKLIN = "State of Franklin (fictitious)"
SEQUOYAH_FIRST = dt.date(2012, 1, 1)
SEQUOYAH_REVISION = dt.date(2021, 3, 15)
_SOURCE = (
    "State of Sequoyah, fictitious, for this benchmark: Sequoyah Remediation Standards, Table {n} "
    "({where}), edition effective {start}"
)
# (analyte, CAS, basis, first edition, revised edition)
_SEQ_GROUNDWATER = (  # µg/L
    ("Benzene", "71-43-2", "total", 5.0, 2.0),
    ("Toluene", "108-88-3", "total", 1000.0, 150.0),
    ("Tetrachloroethene", "127-18-4", "total", 5.0, 1.0),
    ("Trichloroethene", "79-01-6", "total", 5.0, 1.0),
    ("cis-1,2-Dichloroethene", "156-59-2", "total", 70.0, 35.0),
    ("Vinyl chloride", "75-01-4", "total", 2.0, 0.5),
    ("Methyl tert-butyl ether", "1634-04-4", "total", 70.0, 13.0),
    ("1,4-Dioxane", "123-91-1", "total", 6.0, 1.0),
    ("Arsenic", "7440-38-2", "dissolved", 10.0, 5.0),
    ("Lead", "7439-92-1", "dissolved", 15.0, 10.0),
    ("Chromium", "7440-47-3", "dissolved", 100.0, 100.0),
    ("Manganese", "7439-96-5", "total", 50.0, 300.0),
)
_SEQ_DRINKING = (  # mg/L
    ("Arsenic", "7440-38-2", "total", 0.010, 0.005),
    ("Tetrachloroethene", "127-18-4", "total", 0.005, 0.002),
    ("1,4-Dioxane", "123-91-1", "total", 0.003, 0.001),
    ("Methyl tert-butyl ether", "1634-04-4", "total", 0.013, 0.013),
)
_SEQ_SOIL_RES = (  # mg/kg
    ("Benzene", "71-43-2", "total", 1.0, 0.4),
    ("Tetrachloroethene", "127-18-4", "total", 10.0, 3.0),
    ("Trichloroethene", "79-01-6", "total", 3.0, 0.5),
    ("Arsenic", "7440-38-2", "total", 12.0, 12.0),
    ("Lead", "7439-92-1", "total", 400.0, 150.0),
    ("Cadmium", "7440-43-9", "total", 30.0, 15.0),
    ("Mercury", "7439-97-6", "total", 10.0, 5.0),
)
_SEQ_SOIL_IND = (  # mg/kg
    ("Benzene", "71-43-2", "total", 10.0, 5.0),
    ("Tetrachloroethene", "127-18-4", "total", 100.0, 50.0),
    ("Trichloroethene", "79-01-6", "total", 30.0, 6.0),
    ("Arsenic", "7440-38-2", "total", 40.0, 30.0),
    ("Lead", "7439-92-1", "total", 1000.0, 800.0),
    ("Cadmium", "7440-43-9", "total", 300.0, 300.0),
    ("Mercury", "7439-97-6", "total", 60.0, 40.0),
)


def _sequoyah(rows: Iterable[tuple], table: str, number: int, medium: str, exposure: str | None, unit: str) -> tuple[Standard, ...]:  # fmt: skip
    where = medium if exposure is None else f"{exposure} soil"
    return two_edition_table(
        rows, table=table, jurisdiction=SEQUOYAH, program=f"Sequoyah Remediation Standards Table {number} ({where})",
        medium=medium, exposure=exposure, unit=unit, first_edition=SEQUOYAH_FIRST, revision=SEQUOYAH_REVISION,  # type: ignore[arg-type]
        source=lambda start: _SOURCE.format(n=number, where=where, start=start.isoformat()),
    )  # fmt: skip


SEQUOYAH_TABLES: tuple[Standard, ...] = (
    *_sequoyah(_SEQ_GROUNDWATER, "sequoyah-groundwater", 1, "groundwater", None, "µg/L"),
    *_sequoyah(_SEQ_DRINKING, "sequoyah-drinking-water", 2, "drinking water", None, "mg/L"),
    *_sequoyah(_SEQ_SOIL_RES, "sequoyah-soil-residential", 3, "soil", "residential", "mg/kg"),
    *_sequoyah(_SEQ_SOIL_IND, "sequoyah-soil-industrial", 4, "soil", "industrial", "mg/kg"),
)
# The analytes of each catalogue table these look-ups use, pinned: the catalogue is append-only
# but may grow (new analytes in a table), and a table's new rows must not change a dataset
# generated before them (its tables file, its fallbacks, its drawn analytes).
_MCL = (
    "Benzene",
    "Toluene",
    "Ethylbenzene",
    "Xylenes, Total",
    "Tetrachloroethene",
    "Trichloroethene",
    "cis-1,2-Dichloroethene",
    "trans-1,2-Dichloroethene",
    "1,1-Dichloroethene",
    "Vinyl chloride",
    "Methylene chloride",
    "1,2-Dichloroethane",
    "Carbon tetrachloride",
    "1,1,1-Trichloroethane",
    "Benzo(a)pyrene",
    "Arsenic",
    "Barium",
    "Cadmium",
    "Chromium",
    "Mercury",
    "Selenium",
    "Antimony",
    "Beryllium",
    "Thallium",
    "Fluoride",
    "Nitrate",
    "Nitrite",
    "Lead",
    "Copper",
)
_SMCL = (
    "Aluminum",
    "Chloride",
    "Copper",
    "Fluoride",
    "Iron",
    "Manganese",
    "Silver",
    "Sulfate",
    "Total dissolved solids",
    "Zinc",
)
_RSL_TAP = (
    "Benzene",
    "Toluene",
    "Ethylbenzene",
    "Xylenes, Total",
    "Tetrachloroethene",
    "Trichloroethene",
    "cis-1,2-Dichloroethene",
    "1,1-Dichloroethene",
    "Vinyl chloride",
    "Naphthalene",
    "Arsenic",
    "Barium",
    "Cadmium",
    "Manganese",
    "Nickel",
    "Selenium",
    "Zinc",
    "Copper",
    "Nitrate",
)
_RSL_SOIL = (
    "Benzene",
    "Toluene",
    "Ethylbenzene",
    "Xylenes, Total",
    "Tetrachloroethene",
    "Trichloroethene",
    "Vinyl chloride",
    "Naphthalene",
    "Arsenic",
    "Barium",
    "Cadmium",
    "Manganese",
    "Nickel",
    "Selenium",
    "Zinc",
    "Copper",
    "Lead",
)
_FRANKLIN_GW = (
    "Benzene",
    "Toluene",
    "Ethylbenzene",
    "Xylenes, Total",
    "Tetrachloroethene",
    "Trichloroethene",
    "cis-1,2-Dichloroethene",
    "Vinyl chloride",
    "Methyl tert-butyl ether",
    "Naphthalene",
    "1,4-Dioxane",
    "Arsenic",
    "Barium",
    "Cadmium",
    "Chromium",
    "Lead",
    "Selenium",
    "Manganese",
    "Nitrate",
)
_FRANKLIN_SOIL = (
    "Benzene",
    "Toluene",
    "Tetrachloroethene",
    "Trichloroethene",
    "Naphthalene",
    "Benzo(a)pyrene",
    "Arsenic",
    "Cadmium",
    "Chromium",
    "Lead",
    "Mercury",
)
PINNED_ANALYTES: dict[str, tuple[str, ...]] = {
    "epa-mcl": _MCL, "epa-smcl": _SMCL,
    "epa-rsl-tapwater-thq1.0": _RSL_TAP, "epa-rsl-tapwater-thq0.1": _RSL_TAP,
    **{f"epa-rsl-soil-{use}-thq{thq}": _RSL_SOIL for use in ("residential", "industrial") for thq in ("1.0", "0.1")},
    "franklin-groundwater": _FRANKLIN_GW,
    "franklin-soil-residential": _FRANKLIN_SOIL, "franklin-soil-industrial": _FRANKLIN_SOIL,
}  # fmt: skip
ALL_ROWS: tuple[Standard, ...] = (
    *(row for row in STANDARDS if row.analyte in PINNED_ANALYTES.get(row.table, ())),
    *SEQUOYAH_TABLES,
)


@dataclass(frozen=True)
class Policy:
    jurisdiction: str
    medium: str
    exposure: str | None
    tables: tuple[str, ...]


POLICIES: tuple[Policy, ...] = (
    Policy(FEDERAL, "drinking water", None, ("epa-mcl", "epa-smcl")),
    Policy(FEDERAL, "groundwater", None, ("epa-mcl", "epa-rsl-tapwater-thq1.0")),
    Policy(FEDERAL, "tap water", None, ("epa-rsl-tapwater-thq1.0",)),
    Policy(FEDERAL, "soil", "residential", ("epa-rsl-soil-residential-thq1.0",)),
    Policy(FEDERAL, "soil", "industrial", ("epa-rsl-soil-industrial-thq1.0",)),
    Policy(FRANKLIN, "drinking water", None, ("epa-mcl", "epa-smcl")),
    Policy(FRANKLIN, "groundwater", None, ("franklin-groundwater", "epa-mcl")),
    Policy(FRANKLIN, "tap water", None, ("epa-rsl-tapwater-thq0.1",)),
    Policy(FRANKLIN, "soil", "residential", ("franklin-soil-residential", "epa-rsl-soil-residential-thq0.1")),
    Policy(FRANKLIN, "soil", "industrial", ("franklin-soil-industrial", "epa-rsl-soil-industrial-thq1.0")),
    Policy(SEQUOYAH, "drinking water", None, ("sequoyah-drinking-water", "epa-mcl")),
    Policy(SEQUOYAH, "groundwater", None, ("sequoyah-groundwater", "epa-mcl", "epa-rsl-tapwater-thq0.1")),
    Policy(SEQUOYAH, "soil", "residential", ("sequoyah-soil-residential", "epa-rsl-soil-residential-thq0.1")),
    Policy(SEQUOYAH, "soil", "industrial", ("sequoyah-soil-industrial", "epa-rsl-soil-industrial-thq1.0")),
)  # fmt: skip
JURISDICTIONS_BY_SPLIT = {"dev": (FEDERAL, FRANKLIN), "test": (FEDERAL, FRANKLIN, SEQUOYAH)}

NO_STANDARD = (
    ("Acetone", "67-64-1"),
    ("2-Butanone", "78-93-3"),
    ("Chloromethane", "74-87-3"),
    ("Iron", "7439-89-6"),
)
WATER_UNITS = ("mg/L", "µg/L")
SOIL_UNITS = ("mg/kg", "µg/kg")
CHANGE_DATES = (dt.date(2006, 1, 23), dt.date(2018, 7, 1), dt.date(2024, 1, 17), SEQUOYAH_REVISION,
                dt.date(2009, 7, 1), SEQUOYAH_FIRST)  # fmt: skip


@dataclass(frozen=True)
class Lookup:
    jurisdiction: str  # as written
    medium: str
    land_use: str | None
    analyte: str
    sampled: dt.date
    basis: str | None
    result_unit: str
    policy: Policy
    analyte_name: str  # canonical
    cas: str | None
    basis_key: str  # canonical: total or dissolved
    standard: Standard | None  # the truth
    traps: tuple[str, ...]


def rows_of(table: str) -> tuple[Standard, ...]:
    rows = tuple(row for row in ALL_ROWS if row.table == table)
    if not rows:
        raise KeyError(f"unknown table {table!r}")
    return rows


def _row(table: str, name: str, cas: str | None, basis: str, day: dt.date, *, any_basis: bool = False) -> Standard | None:  # fmt: skip
    for row in rows_of(table):
        same = row.analyte == name or (cas is not None and row.cas == cas)
        # A total-basis row applies to any result; a dissolved-basis row only to dissolved results.
        fits = any_basis or row.basis in (basis, "total")
        if same and fits and row.in_force_on(day):
            return row
    return None


def applicable(
    policy: Policy, name: str, cas: str | None, basis: str, day: dt.date
) -> Standard | None:
    """The truth rule: the first table of the policy with a row in force on `day` for the analyte
    on `basis`."""
    for table in policy.tables:
        row = _row(table, name, cas, basis, day)
        if row is not None:
            return row
    return None


def policy_of(jurisdiction: str, medium: str, exposure: str | None) -> Policy:
    for policy in POLICIES:
        if (policy.jurisdiction, policy.medium, policy.exposure) == (
            jurisdiction,
            medium,
            exposure,
        ):
            return policy
    raise KeyError(f"no policy for {jurisdiction}, {medium}, {exposure}")


def _date(rng: random.Random) -> dt.date:
    if rng.random() < 0.45:  # near a change: the dates that decide a value
        pivot = rng.choice(CHANGE_DATES)
        return pivot + dt.timedelta(days=rng.randint(-400, 400))
    return dt.date(1998, 1, 1) + dt.timedelta(days=rng.randint(0, 27 * 365))


def sample_lookup(rng: random.Random, split: str) -> Lookup:
    jurisdiction = rng.choice(JURISDICTIONS_BY_SPLIT[split])
    policies = [p for p in POLICIES if p.jurisdiction == jurisdiction]
    policy = rng.choice(policies)
    candidates = sorted({(r.analyte, r.cas) for t in policy.tables for r in rows_of(t)
                         if r.basis in ("total", "dissolved")})  # fmt: skip
    changing = sorted({(r.analyte, r.cas, r.in_force_to) for t in policy.tables for r in rows_of(t)
                       if r.in_force_to is not None and r.basis in ("total", "dissolved")})  # fmt: skip
    roll = rng.random()
    if roll < 0.06:
        name, cas = rng.choice(NO_STANDARD)
        day = _date(rng)
    elif roll < 0.4 and changing:
        # A date within a year or so of the day the analyte's value changed in one of the tables.
        name, cas, last = rng.choice(changing)
        day = last + dt.timedelta(days=rng.randint(-400, 400))
    else:
        name, cas = rng.choice(candidates)
        day = _date(rng)
    water = policy.medium != "soil"
    metal = cas is not None and cas.startswith("74")
    basis_key = rng.choice(("total", "dissolved")) if water and metal else "total"
    show_basis = water and metal
    standard = applicable(policy, name, cas, basis_key, day)
    unit = rng.choice(WATER_UNITS if water else SOIL_UNITS)
    analyte, synonym = wordings.analyte_wording(rng, split, name, cas)
    traps = _traps(policy, name, cas, basis_key, day, standard, unit, synonym)
    return Lookup(
        jurisdiction=wordings.jurisdiction_wording(rng, split, jurisdiction),
        medium=wordings.medium_wording(rng, split, policy.medium, unit),
        land_use=wordings.land_use_wording(rng, split, policy.exposure) if policy.exposure else None,
        analyte=analyte, sampled=day,
        basis=wordings.basis_wording(rng, split, basis_key) if show_basis else None,
        result_unit=unit, policy=policy, analyte_name=name, cas=cas, basis_key=basis_key,
        standard=standard, traps=traps,
    )  # fmt: skip


def _traps(policy: Policy, name: str, cas: str | None, basis: str, day: dt.date, standard: Standard | None,
           unit: str, synonym: bool) -> tuple[str, ...]:  # fmt: skip
    traps = set()
    if synonym:
        traps.add("synonym")
    if standard is None:
        traps.add("no-standard")
        return tuple(sorted(traps))
    if standard.unit.replace("µ", "u") != unit.replace("µ", "u"):
        traps.add("units")
    near = [day + dt.timedelta(days=d) for d in (-730, 730)]
    if any(
        (r := _row(standard.table, name, cas, basis, other)) is not None
        and r.value != standard.value
        for other in near
    ):
        traps.add("date-change")
    first = policy.tables[0]
    if standard.table != first:
        traps.add("fallback")
        if _row(first, name, cas, basis, day, any_basis=True) is not None:
            traps.add("basis")
        elif any(_row(first, name, cas, basis, other) for other in (dt.date(2022, 1, 1),)):
            traps.add("before-edition")
    elif standard.jurisdiction != FEDERAL and len(policy.tables) > 1:
        federal = _row(policy.tables[1], name, cas, basis, day)
        if (
            federal is not None
            and _in_unit(federal.value, federal.unit, standard.unit) != standard.value
        ):
            traps.add("state-stricter")
    if policy.exposure is not None:
        other = policy_of(
            policy.jurisdiction,
            "soil",
            "industrial" if policy.exposure == "residential" else "residential",
        )
        alt = applicable(other, name, cas, basis, day)
        if alt is not None and alt.value != standard.value:
            traps.add("land-use")
    if policy.medium in ("groundwater", "drinking water"):
        other_medium = "drinking water" if policy.medium == "groundwater" else "groundwater"
        alt = applicable(policy_of(policy.jurisdiction, other_medium, None), name, cas, basis, day)
        if alt is not None and _in_unit(alt.value, alt.unit, standard.unit) != standard.value:
            traps.add("medium")
    return tuple(sorted(traps))


FACTORS = {"mg/L": 1e-3, "µg/L": 1e-6, "ug/L": 1e-6, "mg/kg": 1e-6, "µg/kg": 1e-9, "ug/kg": 1e-9}


def _in_unit(value: float, unit: str, target: str) -> float:
    return float(f"{value * FACTORS[unit] / FACTORS[target]:.6g}")


def tables_document(split: str) -> dict:
    """The pinned tables and the policy a split's look-ups ship with (JSON-ready)."""
    jurisdictions = JURISDICTIONS_BY_SPLIT[split]
    policies = [p for p in POLICIES if p.jurisdiction in jurisdictions]
    wanted = list(dict.fromkeys(t for p in policies for t in p.tables))
    tables = []
    for table in wanted:
        rows = rows_of(table)
        head = rows[0]
        tables.append({
            "id": table, "program": head.program, "jurisdiction": head.jurisdiction, "medium": head.medium,
            "land_use": head.exposure, "level_unit": head.unit,
            "rows": [{
                "analyte": r.analyte, "cas": r.cas, "basis": r.basis, "level": r.value,
                "enforceable": r.enforceable,
                "in_force_from": r.in_force_from.isoformat() if r.in_force_from else None,
                "in_force_to": r.in_force_to.isoformat() if r.in_force_to else None,
                "source": r.source,
            } for r in rows],
        })  # fmt: skip
    return {
        "policy": [
            {
                "jurisdiction": p.jurisdiction,
                "medium": p.medium,
                "land_use": p.exposure,
                "tables": list(p.tables),
            }
            for p in policies
        ],
        "rule": (
            "For a result, take the policy entry of its jurisdiction, medium and land use (none for water), and the "
            "first of its tables that has a row for the analyte (by name or CAS number) on the result's basis (total "
            "when none is given) in force on the sampling date (in_force_from and in_force_to inclusive, null: open). "
            "No such row in any of the tables: no standard applies. The standard is the row's level, in its table's level_unit."
        ),
        "tables": tables,
    }


# The tables file names a row's value `level` and a table's unit `level_unit`: a look-up's answer
# (table, value, unit) is then never an object of the file it was chosen from, only its content.
