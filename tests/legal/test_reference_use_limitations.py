"""The reference adapter's `use-limitations` solver: its rules on rendered dev searches (born
digital, so fast), its vocabulary rules on sentences, and strict input checks."""

from __future__ import annotations

import pytest

from envirobench import structure
from envirobench_legal.use_limitations import Answer, Input, Prediction, UseLimitations
from envirobench_reference_adapter.solvers import use_limitations as solver
from envirobench_synth.legal import SPLITS, recorder, render_instrument
from envirobench_synth.legal.limitations import sample_search
from envirobench_synth.rng import make_random

TYPE = UseLimitations()


def solve_search(tmp_path, focus, recorder_name, seed):
    templates, _ = SPLITS["dev"]
    search = sample_search(make_random(seed, focus), "dev", templates, recorder(recorder_name), focus, 4)
    paths = {}
    for index, document in enumerate(search.documents):
        path = tmp_path / f"{focus}-{index}.pdf"
        path.write_bytes(render_instrument(document.instrument, seed, focus, index).pdf)
        paths[path.name] = path
    raw = {"parcel": {"apn": search.apn, "legal_description": search.legal_description}, "documents": sorted(paths)}
    prediction = solver.solve(structure(raw, Input), paths, "v1")
    truth = structure({
        "limitations": [{"type": i.type, "restrictions": list(i.restrictions), "holder": i.holder,
                         "reference": i.reference} for i in search.limitations],
        "excluded": [{"reference": r, "reason": why} for r, why in search.excluded],
        "traps": list(search.traps), "scanned_documents": 0,
    }, Answer)
    return TYPE.score_case(None, truth, structure(prediction, Prediction))["limitations"], search


@pytest.mark.parametrize(
    "focus, recorder_name",
    [("released-lien", "marlow-or"), ("terminated-covenant", "teasdale-ky"), ("amendment-lifts", "cinder-wa"),
     ("adjoining-parcel", "marlow-or"), ("missing-agency-signature", "teasdale-ky"), ("amendment-adds", "marlow-or")],
)
def test_each_trap_is_read_right_on_a_born_digital_dev_search(tmp_path, focus, recorder_name):
    result, search = solve_search(tmp_path, focus, recorder_name, seed=3)
    assert result.errors == (), (search.limitations, search.excluded)


def test_vocabulary_rules_need_a_prohibition_or_a_duty():
    assert solver.restrictions_in("No residential use of the Property is permitted.") == {"no-residential-use"}
    assert solver.restrictions_in("Groundwater shall not be pumped from beneath the Property.") == {
        "no-groundwater-extraction"}
    # Naming groundwater or vapor is not restricting them.
    assert solver.restrictions_in("The Agency may sample soil, groundwater and soil vapor at the Property.") == set()
    assert solver.restrictions_in("Response costs include groundwater extraction and treatment.") == set()


def test_an_amendment_adds_and_lifts_by_its_verbs():
    added, lifted = solver.amendment_changes(
        "The following restriction is added: The Property shall not be used for a school or playground. "
        "The following restriction is deleted: No residential use of the Property is permitted.")
    assert added == {"no-sensitive-use"} and lifted == {"no-residential-use"}


def test_kinds_come_from_the_title_and_releases_are_told_from_notices():
    assert solver.kind_of(["TERMINATION OF ENVIRONMENTAL COVENANT"]) == "termination"
    assert solver.kind_of(["RELEASE OF ENVIRONMENTAL LIEN"]) == "lien-release"
    assert solver.kind_of(["ENVIRONMENTAL LIEN"]) == "environmental-lien"
    assert solver.kind_of(["RELEASE OF MORTGAGE"]) == "other"
    assert solver.kind_of(["GRANT OF EASEMENT"]) == "other"
    assert solver.kind_of(["DECLARATION OF RESTRICTIONS"]) == "deed-restriction"


def test_the_parcel_is_the_labelled_line_not_a_neighbour_named_in_a_sentence():
    texts = ["The Property adjoins the parcel identified as APN 123-456-07, which this instrument does",
             "Parcel Number: 123-456-09"]
    assert solver.parcel_numbers(texts) == ["123-456-09"]


def test_an_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="unknown variant"):
        solver.SERVES.resolve("v9")  # the protocol layer refuses it before any case runs
