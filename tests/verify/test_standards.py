"""envirobench_synth.standards: the pinned screening tables carry their sources and dates in
force, the published values the benchmark relies on, and lookup by date."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json

import pytest

from envirobench_synth import standards as st

BEFORE, AFTER = dt.date(2006, 1, 22), dt.date(2006, 1, 23)


def test_every_row_names_its_source_jurisdiction_program_and_unit():
    for row in st.STANDARDS:
        assert row.source.strip() and row.jurisdiction.strip() and row.program.strip(), row
        assert row.unit in ("mg/L", "µg/L", "mg/kg") and row.value > 0, row
        if row.in_force_from and row.in_force_to:
            assert row.in_force_from <= row.in_force_to, row
        if "Franklin" in row.jurisdiction:
            assert "fictitious" in row.source and "fictitious" in row.jurisdiction


def test_rows_are_frozen_records():
    with pytest.raises(dataclasses.FrozenInstanceError):
        st.STANDARDS[0].value = 1.0  # type: ignore[misc]


def test_no_two_rows_of_a_table_are_in_force_together_for_one_analyte_and_basis():
    for table in st.table_ids():
        rows = st.standards_of(table)
        for day in (dt.date(2000, 1, 1), BEFORE, AFTER, dt.date(2018, 6, 30),
                    dt.date(2018, 7, 1), dt.date(2024, 1, 16), dt.date(2024, 1, 17)):  # fmt: skip
            keys = [(r.cas, r.analyte, r.basis) for r in rows if r.in_force_on(day)]
            assert len(keys) == len(set(keys)), (table, day)


def test_the_published_federal_values():
    mcl = {r.analyte: r for r in st.in_force("epa-mcl", AFTER)}
    assert mcl["Benzene"].value == 0.005 and mcl["Benzene"].unit == "mg/L"
    assert mcl["Trichloroethene"].value == 0.005 and mcl["Tetrachloroethene"].value == 0.005
    assert mcl["Vinyl chloride"].value == 0.002
    assert mcl["Lead"].value == 0.015 and "141.80" in mcl["Lead"].source
    assert mcl["Nitrate"].value == 10.0 and mcl["Nitrate"].basis == "as N"
    assert all(r.enforceable for r in mcl.values())
    assert st.value_in_force("epa-mcl", "Arsenic", BEFORE).value == 0.05
    assert st.value_in_force("epa-mcl", "7440-38-2", AFTER).value == 0.010
    secondary = st.in_force("epa-smcl", AFTER)
    assert secondary and not any(r.enforceable for r in secondary)
    assert all("143.3" in r.source for r in secondary)
    assert st.value_in_force("epa-smcl", "Iron", AFTER).value == 0.3


def test_thq_tables_differ_only_where_the_noncancer_level_governs():
    day = dt.date(2020, 1, 1)
    one = {r.analyte: r.value for r in st.in_force("epa-rsl-tapwater-thq1.0", day)}
    tenth = {r.analyte: r.value for r in st.in_force("epa-rsl-tapwater-thq0.1", day)}
    assert one.keys() == tenth.keys()
    assert tenth["Toluene"] == one["Toluene"] / 10  # noncancer
    assert tenth["Benzene"] == one["Benzene"]  # cancer-based governs in both
    assert tenth["Trichloroethene"] < one["Trichloroethene"]  # noncancer at THQ 0.1 governs
    assert all(tenth[a] <= one[a] for a in one)


def test_soil_lead_and_the_fictitious_state_change_on_their_dates():
    res = "epa-rsl-soil-residential-thq1.0"
    assert st.value_in_force(res, "Lead", dt.date(2024, 1, 16)).value == 400.0
    assert st.value_in_force(res, "Lead", dt.date(2024, 1, 17)).value == 200.0
    assert st.value_in_force("epa-rsl-soil-industrial-thq1.0", "Lead", AFTER).value == 800.0
    gw = "franklin-groundwater"
    assert st.value_in_force(gw, "Benzene", dt.date(2018, 6, 30)).value == 5.0
    assert st.value_in_force(gw, "Benzene", dt.date(2018, 7, 1)).value == 1.0
    assert st.value_in_force(gw, "Lead", dt.date(2012, 1, 1), basis="dissolved").value == 15.0
    assert st.value_in_force(gw, "Lead", dt.date(2012, 1, 1), basis="total") is None
    assert st.value_in_force(gw, "Benzene", dt.date(2009, 6, 30)) is None  # before edition 1


def test_lookups_refuse_unknown_tables_and_ambiguity():
    with pytest.raises(KeyError, match="unknown screening table"):
        st.in_force("no-such-table", AFTER)
    assert st.value_in_force("epa-mcl", "Unobtainium", AFTER) is None


def test_rows_serialise_to_json_with_iso_dates():
    rows = st.as_json(st.standards_of("epa-mcl"))
    arsenic = [r for r in rows if r["analyte"] == "Arsenic"]
    assert {r["in_force_to"] for r in arsenic} == {"2006-01-22", None}
    json.dumps(rows)
