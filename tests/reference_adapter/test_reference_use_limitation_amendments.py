"""How the reference `use-limitations` solver reads an amendment: a restriction stated in its own
sentence takes the verb of the sentence that introduced it, as an examiner reads it."""

from __future__ import annotations

from envirobench_reference_adapter.solvers import use_limitations as solver


def test_a_restriction_after_an_introducing_sentence_takes_its_verb():
    added, lifted = solver.amendment_changes(
        "The Original Instrument is amended by adding the following restriction. "
        "The Property shall not be used for a school or playground. "
        "The following restriction is deleted. "
        "No residential use of the Property is permitted.")
    assert added == {"no-sensitive-use"} and lifted == {"no-residential-use"}


def test_a_sentence_that_changes_nothing_ends_the_introduction():
    # The closing clause changes nothing, so the restriction restated after it is neither added nor lifted.
    added, lifted = solver.amendment_changes(
        "The following restriction is added. Groundwater shall not be pumped from beneath the Property. "
        "Except as amended here, the Original Instrument remains in full force and effect. "
        "No residential use of the Property is permitted.")
    assert added == {"no-groundwater-extraction"} and lifted == set()


def test_a_supplement_is_read_as_an_amendment():
    assert solver.kind_of(["FIRST SUPPLEMENT TO DECLARATION OF RESTRICTIONS"]) == "amendment"
