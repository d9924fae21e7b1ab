"""Synthetic contracts with an environmental indemnity, as `Instrument`s rendered to PDF.

    rng = make_random(SEED, "dev", "it-dev-0007")
    contract = sample_contract(rng, "dev", contract_template("ashcombe-vries"), "unrecorded", "purchase-and-sale")
    rendered = render_instrument(contract.instrument, SEED, "dev", "it-dev-0007")
    contract.terms                                     # the truth: parties, scope, cap, basket, ...

Two forms: a purchase and sale agreement whose environmental indemnity is one article among
unrelated ones (definitions, price and deposit, closing, title, inspections, representations,
brokers, limitations, survival, miscellaneous), and a stand-alone environmental indemnity
agreement delivered at a closing (recitals naming the purchase agreement, its price and closing
date). Each term of the indemnity is written in one of several drafting styles, and the styles of
the dev split never occur in the test split (`WORDING[term][split]`), nor do its law-firm
templates (`CONTRACT_SPLITS`) or its defined terms for the parties ("Seller"/"Buyer" in dev,
"Vendor"/"Purchaser" and "Indemnified Party" in test).

Traps, each recorded in `ContractTerms.traps` when the contract sets it:

    percent-cap            the cap is a percentage of the purchase price (the answer is dollars)
    cross-reference        the cap or basket amount is only in the definitions ("as defined in
                           Section 1.1")
    rep-cap-elsewhere      a cap on claims for breach of representations, stated not to apply to
                           the environmental indemnity
    other-survival         a survival period for another article (brokers, representations)
    general-survival       a general survival clause that a "notwithstanding" sentence of the
                           indemnity article displaces
    notwithstanding-scope  the indemnity reads wide; a later "notwithstanding" sentence narrows it
    access-indemnity       the buyer indemnifies the seller for its inspections (the other way round)
    brokers-indemnity      each party indemnifies the other against brokers' claims
    disclosure-schedule    a schedule of environmental reports (not of indemnified matters)
    benign-notice          a notice clause that forfeits nothing (no late-notice exclusion)
    parent-indemnitor      the indemnitor is the seller's parent, not the seller
    lender-named           the buyer's lender is named (it is not the indemnitee)
    deposit-amount         an earnest-money deposit stated in dollars
    signing-before-closing the agreement is dated months before its closing date

Execution follows the instruments' scenarios (envirobench_synth.legal.instruments): signed in
ink ("unrecorded"), conformed ("conformed-unrecorded"), recorded with acknowledgments (a few
stand-alone agreements), or not executed: a draft marker, bracketed blanks, an unsigned
"Execution Version", one party's line left blank ("covenant-missing-signature", whatever the
kind). `EXECUTED` says which of them count as executed for the indemnity-terms benchmark.

The package in parts: `templates` (families and parties), `wording`, `terms` (the truth) and
`document` (`sample_contract`).
"""

from .document import sample_contract
from .templates import CONTRACT_SPLITS, CONTRACT_TEMPLATES, EXECUTED, contract_template
from .terms import Contract
from .wording import WORDING, add_months

__all__ = ["CONTRACT_SPLITS", "CONTRACT_TEMPLATES", "Contract", "EXECUTED", "WORDING", "add_months", "contract_template", "sample_contract"]
