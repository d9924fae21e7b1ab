"""The instrument generator: byte-for-byte regeneration, splits by family, the traps it draws."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from envirobench import generator_command
from envirobench_legal.generate.instrument_execution import plan
from envirobench_legal.package import PACKAGE
from envirobench_synth.legal import (
    SCENARIOS,
    STATUS_OF,
    recorder,
    render_instrument,
    sample_instrument,
    template,
)
from envirobench_synth.rng import make_random


def test_generating_into_a_non_empty_directory_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("keep me")
    result = CliRunner().invoke(
        generator_command(PACKAGE), ["instrument-execution", "--dataset", "synthetic-dev-v1", "--output", str(tmp_path)]
    )
    assert result.exit_code == 1 and "not empty" in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_the_plan_keeps_families_apart_and_scans_every_fourth():
    dev, test = plan("synthetic-dev-v1"), plan("synthetic-test-v1")
    assert not {c.template for c in dev} & {c.template for c in test}
    assert not {c.recorder for c in dev} & {c.recorder for c in test}
    assert [c.scanned for c in dev[:8]] == [False, False, False, True] * 2
    assert plan("synthetic-dev-v1") == dev  # seeded


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_scenario_renders_reproducibly_with_evidence_inside_the_copy(scenario):
    def render():
        rng = make_random(7, "unit", scenario)
        instrument = sample_instrument(rng, scenario, template("hollis-drummond"), recorder("marlow-or"))
        return instrument, render_instrument(instrument, 7, "unit", scenario)

    (instrument, first), (_, second) = render(), render()
    assert first.pdf == second.pdf and first.pdf.startswith(b"%PDF")
    assert first.status == STATUS_OF[scenario] == instrument.status
    assert first.evidence_pages and all(1 <= page <= first.pages for page in first.evidence_pages)


def test_trap_contents():
    rng = make_random(3, "trap")
    covenant = sample_instrument(rng, "covenant-missing-signature", template("okonkwo-lindqvist"), recorder("cinder-wa"))
    assert covenant.kind == "environmental-covenant"
    assert [s.mark for s in covenant.signatures].count("blank") == 1 and len(covenant.signatures) == 3
    conformed = sample_instrument(make_random(3, "c"), "conformed-unrecorded", template("hollis-drummond"), recorder("marlow-or"))
    assert conformed.recording is None and {s.mark for s in conformed.signatures} == {"conformed"}
    notary = sample_instrument(make_random(3, "n"), "blank-notary", template("hollis-drummond"), recorder("marlow-or"))
    assert {s.mark for s in notary.signatures} == {"ink"} and notary.acknowledgments[-1].mark == "blank"
    recorded = sample_instrument(make_random(3, "r"), "recorded", template("hollis-drummond"), recorder("teasdale-ky"))
    assert recorded.recording is not None
    rendered = render_instrument(recorded, 3, "r", scanned=True)
    assert rendered.scanned and rendered.evidence_pages == (rendered.pages,)  # this recorder stamps the last page
