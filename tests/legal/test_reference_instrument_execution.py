"""The reference adapter's `instrument-execution` solver: its rules on rendered instruments, its
independence from the generator's families, and a run through core on part of the dev split."""

from __future__ import annotations

from pathlib import Path

import pytest
from legal_kit import dev_sample, reference_run

from envirobench_legal.instrument_execution import Input
from envirobench_reference_adapter.solvers import instrument_execution as solver
from envirobench_synth.legal import (
    RECORDERS,
    TEMPLATES,
    recorder,
    render_instrument,
    sample_instrument,
    template,
)
from envirobench_synth.rng import make_random


def solve(tmp_path, scenario, template_name="hollis-drummond", recorder_name="marlow-or", seed=11):
    instrument = sample_instrument(make_random(seed, scenario), scenario, template(template_name), recorder(recorder_name))
    rendered = render_instrument(instrument, seed, scenario)
    path = tmp_path / f"{scenario}.pdf"
    path.write_bytes(rendered.pdf)
    case_input = Input(document=path.name)
    return rendered, solver.solve(case_input, {path.name: path}, "v1")


@pytest.mark.parametrize(
    "scenario",
    ["recorded", "recorded-conformed", "unrecorded", "draft-marker", "blank-notary", "covenant-missing-signature",
     "conformed-unrecorded", "missing-signature-pages", "bracketed-blanks", "execution-version-unsigned"],
)
def test_each_execution_signal_is_read_on_a_born_digital_dev_copy(tmp_path, scenario):
    rendered, prediction = solve(tmp_path, scenario)
    assert prediction["status"] == rendered.status
    assert prediction["evidence_page"] in rendered.evidence_pages


def test_the_baseline_variant_cannot_see_an_unsigned_line(tmp_path):
    instrument = sample_instrument(make_random(5, "x"), "execution-version-unsigned", template("hollis-drummond"), recorder("marlow-or"))
    path = tmp_path / "c.pdf"
    path.write_bytes(render_instrument(instrument, 5, "x").pdf)
    case_input = Input(document="c.pdf")
    assert solver.solve(case_input, {"c.pdf": path}, "v1")["status"] == "not-executed"
    assert solver.solve(case_input, {"c.pdf": path}, "baseline")["status"] == "executed-unrecorded"
    with pytest.raises(ValueError, match="unknown variant"):
        solver.SERVES.resolve("v9")  # the protocol layer refuses it before any case runs


def test_recording_data_needs_a_clock_time_not_just_a_book_and_page():
    from envirobench_reference_adapter.layout import Word, group_lines

    def lines(*texts):
        words = [Word(t, 72, 100 + 14 * i, 300, 110 + 14 * i) for i, t in enumerate(texts)]
        return group_lines(words)

    cited = lines("recorded in Book 14 of Plats, Page 22, on March 3, 1998")
    stamped = lines("Instrument 2019-0045121", "03/14/2019 10:42 AM")
    book_page = lines("Bk 1201 Pg 77", "March 14, 2019 at 2:05 PM")
    commission = lines("COMMISSION NO. 374213", "MY COMMISSION EXPIRES 04/19/1992")
    assert not solver.recording_data(cited) and not solver.recording_data(commission)
    assert solver.recording_data(stamped) and solver.recording_data(book_page)


def test_the_solver_keys_on_no_string_of_the_generators_families():
    """The split holds families apart; the solver must read by general means, so no family's
    own wording (a stamp heading, a number label, a notary label, a clause) may be in it."""
    source = Path(solver.__file__).read_text(encoding="utf-8").lower()
    wording = ("witness_clause", "blank_witness_clause", "acknowledgment", "blank_acknowledgment", "notary_label",
               "commission_label", "prepared_by", "signature_label", "office", "number_label", "book_page",
               "heading", "fee_label")
    phrases = set()
    for family in (*TEMPLATES, *RECORDERS):
        for name in wording:
            if hasattr(family, name):
                # The fixed words before the first blank to fill in: two words or more.
                phrase = " ".join(getattr(family, name).split("{")[0].lower().split()[:4]).strip(" :,.")
                if len(phrase.split()) >= 2:
                    phrases.add(phrase)
    assert len(phrases) > 20
    found = sorted(p for p in phrases if p in source)
    assert found == []


@pytest.mark.slow
def test_reference_adapter_runs_the_dev_split_through_core(tmp_path):
    # One born-digital copy of every scenario and one scanned copy: every rule, at a test's cost.
    ids = dev_sample("instrument-execution", scanned=True)
    metrics = reference_run(tmp_path, "instrument-execution", ids)
    headline = metrics["profiles"]["execution"]["headline"]
    assert headline["instruments"] == len(ids)
    assert headline["false_executed"] == 0
    assert headline["execution_score"] >= 80.0
    assert metrics["profiles"]["execution"]["intervals"]["execution_score"]
