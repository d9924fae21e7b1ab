"""docs/reference-scores.md's Legal table for `indemnity-terms`: blind baselines and columns
(read by benchmarks/reference_scores.py --legal)."""

from _spec_parts import count, formula_score, share, trap_groups

BENCHMARK = "indemnity-terms"
UNIT = "contracts"
INTRO = (
    "The reference adapter (`solvers/indemnity_terms.py`, rules developed on the dev split only) on both splits; "
    "the test split's law-firm templates, drafting styles and defined terms never occur in dev. Beside it, blind "
    "baselines that give every contract the same terms, with the two parties' names copied from the answer key "
    "or, in the truly blind one, answered not found (null). The score is the category's formula, "
    "100 × max(0, (exact − 5 × overstating) ÷ contracts); *unclipped* drops the max(0, ·)."
)


def _terms(case_input, answer, **terms):
    return {"indemnitor": answer.indemnitor, "indemnitee": answer.indemnitee, **terms}


def _boldest(case_input, answer):
    return _terms(case_input, answer, scope="all-environmental-liabilities", cap=None, basket=None, de_minimis=None,
                  survival_months=None, survival_end=None, exclusions=[], executed=True)


def _narrowest(case_input, answer):
    # Every term read as narrowly as the formats allow: nothing can overstate, nothing is exact. The
    # one-month survival ends the day before the contract is read, so it is never read as live.
    import datetime as dt

    end = (dt.date.fromisoformat(case_input.as_of) - dt.timedelta(days=1)).isoformat()
    return _terms(case_input, answer, scope="scheduled-matters-only", cap=0,
                  basket={"type": "deductible", "amount": 1_000_000_000}, de_minimis=1_000_000_000,
                  survival_months=1, survival_end=end,
                  exclusions=["buyer-initiated-testing", "change-to-residential-use", "late-notice", "risk-based-remedy"],
                  executed=False)


def _typical(executed: bool):
    def baseline(case_input, answer):
        return _terms(case_input, answer, scope="pre-closing-conditions", cap=1_000_000, basket=None, de_minimis=None,
                      survival_months=None, survival_end=None, exclusions=[], executed=executed)

    return baseline


def _abstaining(case_input, answer):
    # Truly blind: no party found (null never overstates) and every term at its narrowest.
    return {**_narrowest(case_input, answer), "indemnitor": None, "indemnitee": None}


BASELINES = {
    "all liabilities, uncapped, forever, executed (parties from the key)": _boldest,
    "narrowest reading everywhere (parties from the key)": _narrowest,
    "nothing found: parties null, narrowest terms (blind)": _abstaining,
    "typical terms: pre-closing, $1M cap, executed (parties from the key)": _typical(True),
    "typical terms, never executed (parties from the key)": _typical(False),
}
COLUMNS = (
    *formula_score("indemnity"),
    count("contracts_exact", "exact"),
    count("contracts_overstating", "overstating"),
    count("contracts"),
    share("scope_accuracy", "scope"),
    share("cap_accuracy", "cap"),
    share("basket_accuracy", "basket"),
    share("survival_end_accuracy", "survival end"),
    share("exclusions_accuracy", "exclusions"),
    share("executed_accuracy", "executed"),
)
GROUP_METRIC = ("contract_exact", None)
GROUP_TITLE = "Contracts read exactly by the reference adapter, by scope (the case category), form, copy and trap"


def groups(case_id, category, answer):
    return [
        category or "-",
        answer.form,
        "scanned copies" if answer.scanned else "born-digital copies",
        "executed" if answer.executed else "not executed",
        *trap_groups(answer.traps),
    ]
