"""Every contract template of envirobench_synth.legal.contracts renders both forms to a PDF that
names the parties of the indemnity, every execution scenario renders, and every trap the module
declares is set by some contract and shows in it (read back with PDFium)."""

from __future__ import annotations

from functools import cache

import pytest
from synth_kit import page_texts, squeeze

from envirobench_synth.legal import SPLITS, recorder, render_instrument
from envirobench_synth.legal.contracts import (
    CONTRACT_SPLITS,
    EXECUTED,
    contract_template,
    sample_contract,
)
from envirobench_synth.legal.contracts.templates import FORMS
from envirobench_synth.rng import make_random

SEED = 20261203
CONTRACTS = 16  # per template and form, when looking for traps
# The traps `ContractTerms.traps` records (the module's docstring).
TRAPS = (
    "percent-cap",
    "cross-reference",
    "rep-cap-elsewhere",
    "other-survival",
    "general-survival",
    "notwithstanding-scope",
    "access-indemnity",
    "brokers-indemnity",
    "disclosure-schedule",
    "benign-notice",
    "parent-indemnitor",
    "lender-named",
    "deposit-amount",
    "signing-before-closing",
)
TEMPLATES = [(split, name) for split, names in CONTRACT_SPLITS.items() for name in names]


@cache
def contract(split: str, name: str, form: str, execution: str, n: int):
    style = recorder(SPLITS[split][1][0]) if execution == "recorded" else None
    rng = make_random(SEED, split, name, form, execution, n)
    return sample_contract(rng, split, contract_template(name), execution, form, style)


@cache
def text_of(split: str, name: str, form: str, execution: str, n: int) -> str:
    drawn = contract(split, name, form, execution, n)
    rendered = render_instrument(drawn.instrument, SEED, split, name, form, execution, n)
    assert rendered.pdf.startswith(b"%PDF-")
    return squeeze(" ".join(page_texts(rendered.pdf)))


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("split", "name"), TEMPLATES)
def test_every_template_renders_both_forms_naming_the_indemnity_parties(split, name, form):
    drawn = contract(split, name, form, "unrecorded", 0)
    text = text_of(split, name, form, "unrecorded", 0)
    assert drawn.terms.form == form and drawn.terms.executed
    assert squeeze(drawn.terms.indemnitor) in text
    assert squeeze(drawn.terms.indemnitee) in text
    assert squeeze(drawn.instrument.title) in text


@pytest.mark.parametrize("execution", sorted(EXECUTED))
def test_every_execution_scenario_renders_and_says_whether_it_binds(execution):
    split, name = TEMPLATES[0]
    drawn = contract(split, name, "indemnity-agreement", execution, 0)
    assert drawn.instrument.scenario == execution
    assert drawn.terms.executed is EXECUTED[execution]
    assert text_of(split, name, "indemnity-agreement", execution, 0)


def test_an_unknown_scenario_or_form_is_refused():
    with pytest.raises(ValueError, match="unknown execution scenario"):
        sample_contract(make_random(1), "dev", contract_template(TEMPLATES[0][1]), "x", FORMS[0])
    with pytest.raises(ValueError, match="unknown contract form"):
        sample_contract(
            make_random(1), "dev", contract_template(TEMPLATES[0][1]), "unrecorded", "x"
        )


def keys_with(trap: str):
    found = [
        (split, name, form, "unrecorded", n)
        for split, name in TEMPLATES
        for form in FORMS
        for n in range(CONTRACTS)
        if trap in contract(split, name, form, "unrecorded", n).terms.traps
    ]
    assert found, f"no contract sets {trap}"
    return found


def test_every_declared_trap_is_set_and_no_other():
    seen = {
        trap
        for split, name in TEMPLATES
        for form in FORMS
        for n in range(CONTRACTS)
        for trap in contract(split, name, form, "unrecorded", n).terms.traps
    }
    assert seen == set(TRAPS)


def test_the_traps_show_in_the_contract():
    for key in keys_with("parent-indemnitor")[:3]:
        terms = contract(*key).terms
        assert terms.form == "indemnity-agreement"
        assert squeeze(terms.indemnitor) in text_of(*key)
    for key in keys_with("signing-before-closing")[:3]:
        drawn = contract(*key)
        assert drawn.instrument.date < drawn.terms.closing_date
    for key in keys_with("percent-cap")[:3]:
        assert contract(*key).terms.cap is not None
        text = text_of(*key).lower()
        assert "%" in text or "percent" in text
