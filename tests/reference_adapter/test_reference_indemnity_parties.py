"""How the reference `indemnity-terms` solver decides it has found a party: a defined term names
a party only when the words before it read as a name, and on a scanned copy only when the name is
spelled the same in two places (a wrong indemnitee overstates; null does not)."""

from __future__ import annotations

import datetime as dt

from envirobench_reference_adapter.solvers import indemnity_terms as solver

CONTRACT = (
    'This Agreement is made by and between Halsey Chemical Distribution Co., a Delaware corporation ("Seller"), '
    'and Larkfield Housing Partners LLC ("Buyer"), under the Sale Agreement dated May 2, 2019 (the "Purchase '
    'Agreement"). The Closing shall occur on June 3, 2019 (the "Closing Date"). '
    "7.1 Indemnity. Seller shall indemnify and hold Buyer harmless from all Losses arising from Hazardous "
    "Substances at the Property before the Closing. "
    "7.2 Survival. The obligations of Seller under Section 7.1 shall survive the Closing for a period of one (t) years. "
    "Halsey Chemical Distribution Co. Larkfield Housing Partners LLC"
)


def test_a_defined_term_after_a_sentence_fragment_names_no_party():
    parties = solver.defined_parties(CONTRACT)
    assert parties["Seller"] == "Halsey Chemical Distribution Co."
    assert parties["Buyer"] == "Larkfield Housing Partners LLC"
    assert "Purchase Agreement" not in parties  # "Sale Agreement dated May 2, 2019" is not a name


def test_a_name_read_once_in_that_spelling_is_not_confirmed():
    text = "Alderbrook Acquisitions, LLC (\"Buyer\") ... Alderbrook Acquistons. LLC By: its Manager"
    assert not solver.confirmed("Alderbrook Acquistons. LLC", text)
    assert solver.confirmed("Alderbrook Acquisitions, LLC", text + " Alderbrook Acquisitions, LLC")


def test_an_entity_suffix_is_mended_and_not_counted():
    text = "Northgate Fuel Distributors, Ine. (\"Indemnitor\") ... Northgate Fuel Distributors, Ine."
    name = solver.consensus("Northgate Fuel Distributors, Ine.", text)
    assert name == "Northgate Fuel Distributors, Inc."
    assert solver.confirmed(name, text)


def test_a_period_in_words_is_read_when_ocr_garbles_its_figure():
    terms = solver.read_terms(CONTRACT, dt.date(2024, 1, 1))
    assert (terms["indemnitor"], terms["indemnitee"]) == ("Halsey Chemical Distribution Co.",
                                                          "Larkfield Housing Partners LLC")
    assert (terms["survival_months"], terms["survival_end"]) == (12, "2020-06-03")
