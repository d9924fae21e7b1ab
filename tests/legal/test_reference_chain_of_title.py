"""The reference adapter's `chain-of-title` solver: its rules on rendered born-digital packets (the
traps a careless reader falls into), its parts on text, and its refusals."""

from __future__ import annotations

import datetime as dt

import pytest

from envirobench import structure
from envirobench_legal.chain_of_title import Answer, ChainOfTitle, Input, Prediction
from envirobench_legal.generate.chain_of_title import answer_of
from envirobench_reference_adapter.solvers import chain_of_title as solver
from envirobench_synth.legal import recorder
from envirobench_synth.legal.packet import cover_style
from envirobench_synth.legal.title import render_packet, sample_history
from envirobench_synth.rng import make_random

DEV_TEMPLATES = ("hollis-drummond", "castellanos-fairbairn", "okonkwo-lindqvist")
TYPE = ChainOfTitle()


def solve_packet(tmp_path, focus, seed=3, style="marlow-or", variant="v1", periods=4):
    history = sample_history(make_random(seed, "ref", focus), recorder(style), periods, focus)
    rendered = render_packet(
        history,
        seed,
        "ref",
        focus,
        templates=DEV_TEMPLATES,
        cover=cover_style("lodestar-title"),
        scan=lambda index: False,
    )
    path = tmp_path / f"{focus}.pdf"
    path.write_bytes(rendered.pdf)
    raw = {"packet": path.name, "apn": history.subject.apn, "parcel": history.subject.short}
    prediction = solver.solve(structure(raw, Input), {path.name: path}, variant)
    answer: Answer = answer_of(history, 0)
    case = type("C", (), {"id": focus, "category": focus, "input": structure(raw, Input)})()
    return history, answer, TYPE.score_case(case, answer, structure(prediction, Prediction))["chain"]


@pytest.mark.parametrize(
    "focus, style",
    [
        ("corrective", "marlow-or"),
        ("wild", "teasdale-ky"),
        ("caption-two-parcels", "cinder-wa"),
        ("tax-lot", "marlow-or"),
        ("name-change", "cinder-wa"),
        ("trustees-deed", "teasdale-ky"),
    ],
)
def test_each_trap_is_read_right_on_a_born_digital_dev_packet(tmp_path, focus, style):
    history, answer, score = solve_packet(tmp_path, focus, style=style)
    assert focus in history.traps
    assert score.errors == ()
    assert score.metrics["periods_exact"] == len(answer.periods)


def test_the_baseline_variant_takes_corrective_and_wild_deeds_for_periods(tmp_path):
    _, _, careful = solve_packet(tmp_path, "corrective", seed=4)
    _, _, careless = solve_packet(tmp_path, "corrective", seed=4, variant="baseline")
    assert careful.metrics["periods_foreign_or_invented"] == 0
    assert careless.metrics["periods_foreign_or_invented"] >= 1
    assert any(error[0] == "foreign-or-invented-period" for error in careless.errors)


def test_parties_are_read_from_each_way_deeds_tag_them():
    assert solver.parties(
        'that Blue Heron Holdings, LLC ("Grantor"), for $10, conveys unto Kestrel Land LP ("Grantee"), and'
    ) == ("Blue Heron Holdings, LLC", "Kestrel Land LP")
    assert solver.parties(
        "WARRANTY DEED Alicia B. Abernathy, Grantor, for value, conveys to Old Mill Trust, Grantee, the"
    ) == ("Alicia B. Abernathy", "Old Mill Trust")
    assert solver.parties(
        "THIS DEED is made between Acme Co., as grantor, and Jonah Quist, as grantee. WITNESSETH"
    ) == ("Acme Co", "Jonah Quist")
    assert solver.labelled_parties(["Grantor: Acme Co. Grantee: Jonah K. Quist. Consideration: $10."]) == (
        "Acme Co",
        "Jonah K. Quist",
    )
    assert solver.names_of("New Co LLC, formerly known as Old Co LLC") == ["New Co LLC", "Old Co LLC"]


def test_the_subject_parcel_is_the_bodys_platted_lot_not_a_tax_lot_or_a_caption():
    subject = Input("p.pdf", "123-456-07", "Lot 7, Block 3, OAK HOLLOW SUBDIVISION")
    assert solver.is_subject("Lot 7, Block 3, OAK HOLLOW SUBDIVISION, according to the plat", subject)
    assert not solver.is_subject("Tax Lot 7 as shown on Assessor's Map 1N 2E 14. Tax Parcel No.: 999-111-01", subject)
    assert not solver.is_subject(
        "Re: Tax Parcel Nos. 123-456-07 and 123-456-08 ... Lot 8, Block 3, OAK HOLLOW "
        "SUBDIVISION, according to the plat",
        subject,
    )
    assert solver.is_subject("the property with Tax Parcel No.: 123-456-07", subject)


def test_the_stamp_gives_the_recording_date_and_reference_not_a_cited_one():
    from envirobench_reference_adapter.layout import Word, group_lines

    def lines(*texts):
        return group_lines(Word(t, 72, 100 + 14 * i, 300, 110 + 14 * i) for i, t in enumerate(texts))

    cited = lines("to correct the deed recorded as Instrument No. 1999-000248, and is not a new conveyance")
    stamped = lines("RECORDED", "Deed Book 838 Page 558", "June 13, 1990 02:52 PM", "Recording fee 110.00 Pages: 2")
    header = lines("E-RECORDED Cinder County Washington AFN 19680003469 03/26/1968 12:06 Page 1 of 2")
    assert solver.recording([cited]) == (None, "")
    assert solver.recording([stamped]) == (dt.date(1990, 6, 13), "Book 838 Page 558")
    assert solver.recording([header]) == (dt.date(1968, 3, 26), "19680003469")


def test_an_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="unknown variant"):
        solver.SERVES.resolve("v9")  # the protocol layer refuses it before any case runs
