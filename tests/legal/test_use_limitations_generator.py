"""The use-limitations generator: byte-for-byte regeneration, and the truth each trap draws."""

from __future__ import annotations

import pytest

from envirobench_synth.legal import SPLITS, recorder
from envirobench_synth.legal.limitations import (
    FOCUSES,
    RESTRICTION_TEXT,
    TITLES,
    neighbour_apn,
    reference_of,
    sample_search,
)
from envirobench_synth.rng import make_random


def search(focus, split="dev", documents=4, seed=5):
    templates, recorders = SPLITS[split]
    return sample_search(make_random(seed, focus), split, templates, recorder(recorders[0]), focus, documents)


def test_the_wording_of_restrictions_and_titles_is_split_between_dev_and_test():
    for table in (RESTRICTION_TEXT, TITLES):
        for name, wording in table.items():
            assert not set(wording["dev"]) & set(wording["test"]), name


@pytest.mark.parametrize("focus", FOCUSES)
def test_every_instrument_is_recorded_and_is_either_a_limitation_or_excluded_with_a_reason(focus):
    found = search(focus)
    assert len(found.documents) == 4
    references = [doc.reference for doc in found.documents]
    assert len(set(references)) == len(references)
    for doc in found.documents:
        assert doc.instrument.recording is not None
        assert reference_of(doc.instrument.recording, doc.instrument.recorder) == doc.reference
    current = {item.reference for item in found.limitations}
    assert current | {ref for ref, _ in found.excluded} == set(references)
    assert not current & {ref for ref, _ in found.excluded}
    whens = [doc.instrument.recording.when for doc in found.documents]
    assert whens == sorted(whens)  # a search lists instruments as recorded


def test_the_traps_draw_the_truth_they_name():
    released = search("released-lien")
    assert ("released" in {why for _, why in released.excluded}
            and "release-or-termination" in {why for _, why in released.excluded})
    other = search("adjoining-parcel")
    foreign = next(doc for doc in other.documents if doc.reason == "other-parcel")
    assert foreign.instrument.apn != other.apn
    unsigned = next(d for d in search("missing-agency-signature").documents if d.reason == "not-signed-by-agency")
    assert [s.mark for s in unsigned.instrument.signatures if s.role == "AGENCY"] == ["blank"]
    assert not search("nothing-recorded").limitations


def test_an_amendment_changes_the_restrictions_under_the_original_reference():
    for focus, changed in (("amendment-adds", 1), ("amendment-lifts", -1)):
        found = search(focus)
        original = next(doc for doc in found.documents if doc.reason is None and doc.restrictions)
        item = next(i for i in found.limitations if i.reference == original.reference)
        assert len(item.restrictions) - len(original.restrictions) == changed


def test_a_neighbour_apn_keeps_the_form_and_differs():
    rng = make_random(1, "apn")
    for apn in ("123-456-07", "R001002", "12-34-567-010"):
        other = neighbour_apn(rng, apn)
        assert other != apn and len(other) == len(apn) and other[:2] == apn[:2]
