"""The reference reader's year rule (property_records.by_day): a result asked for a year is asked
again for the one day of that year the record reports a sample of the well on, and stays without
a day (so "not in the record") where it reports several or none. Hand-made lines, in the shapes a
results table and a laboratory page print."""

from __future__ import annotations

from types import SimpleNamespace

from envirobench_reference_adapter.property_records import (
    NOT_IN_RECORD,
    Line,
    Record,
    answer,
    by_day,
    sampling_days,
)

LINES = [
    # a results table of MW-2: each row starts with the day
    Line("a.pdf", 1, "Table 3. Historical Results, MW-2 (ug/L)"),
    Line("a.pdf", 1, "Date benzene toluene"),
    Line("a.pdf", 1, "09/30/2012 19.3 10.7"),
    Line("a.pdf", 1, "01/01/2013 ND 4.2"),
    Line("a.pdf", 1, "03/31/2013 16.3 11.8"),
    # a laboratory page of MW-4, sampled once in 2012
    Line("b.pdf", 2, "Client Sample ID: MW-4"),
    Line("b.pdf", 2, "Date Sampled: 30 Sep 2012 Matrix: Groundwater"),
    Line("b.pdf", 2, "Date Reported: 08 Oct 2012"),
    Line("b.pdf", 2, "benzene 7.5 ug/L"),
    # a well construction row: MW-4 drilled in 2012 is no sample of it
    Line("c.pdf", 1, "MW-4 03/02/2012 35 25-35 2-inch PVC"),
]
RECORD = Record(LINES, {"a.pdf": "", "b.pdf": "", "c.pdf": ""})


def q(text: str) -> SimpleNamespace:
    return SimpleNamespace(text=text, answer_type="quantity", unit="ug/L")


def test_the_days_a_well_was_sampled_come_from_rows_and_sampled_lines():
    assert sampling_days(RECORD, "id:mw2", "2013") == {"2013-01-01", "2013-03-31"}
    assert sampling_days(RECORD, "id:mw2", "2012") == {"2012-09-30"}
    # the report date and the drilling date are not sampling days
    assert sampling_days(RECORD, "id:mw4", "2012") == {"2012-09-30"}
    assert sampling_days(RECORD, "id:mw4", "2014") == set()


def test_one_day_in_the_year_is_asked_for_several_days_are_not():
    asked = by_day(q("What was the benzene concentration in MW-4 in 2012?"), RECORD)
    assert asked.text == "What was the benzene concentration in MW-4 on 2012-09-30?"
    assert by_day(q("What was the benzene concentration in MW-2 in 2013?"), RECORD) is None
    assert by_day(q("What was the benzene concentration in MW-2 in 2015?"), RECORD) is None


def test_answers_by_the_year_rule():
    assert (
        answer(q("What was the benzene concentration in MW-4 in 2012?"), RECORD, "v1") == "7.5 ug/L"
    )
    several = q("What was the benzene concentration in MW-2 in 2013?")
    assert answer(several, RECORD, "v1") == NOT_IN_RECORD
