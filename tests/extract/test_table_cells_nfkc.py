"""table-cells `exact` (scoring version v2) folds what a reader cannot see: Unicode compatibility
forms (NFKC) and spaces after a comparison sign. Each of these was an `exact` error in v1."""

import pytest

from envirobench import Case
from envirobench_extract.table_cells import (
    Answer,
    Input,
    InputCell,
    PredictedCell,
    Prediction,
    TableCells,
    exact_match,
    fold_text,
)

MICRO_SIGN, GREEK_MU = "\u00b5", "\u03bc"


def test_the_micro_sign_and_the_greek_mu_are_one_glyph():
    assert exact_match(f"{MICRO_SIGN}g/L", f"{GREEK_MU}g/L")
    assert exact_match(f"{GREEK_MU}g/kg", f"{MICRO_SIGN}g/kg")
    assert fold_text(f"{MICRO_SIGN}g/m\u00b3") == f"{GREEK_MU}g/m3"


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("<0.50", "< 0.50"),
        ("<0.50", "<  0.50"),
        ("< 0.50", "<0.50"),
        (">100", "> 100"),
        ("\u22645.0", "\u2264 5.0"),
        ("<0.50", "\uff1c 0.50"),
    ],  # ≤, and a full-width <
)
def test_spaces_after_a_comparison_sign_are_not_read(gold, predicted):
    assert exact_match(gold, predicted)


@pytest.mark.parametrize(
    ("gold", "predicted"),
    [
        ("<0.50", "<0.5"),
        ("<0.50", "0.50"),
        ("ug/L", f"{MICRO_SIGN}g/L"),
        ("1,250", "1250"),
        ("0.50 U", "0.50U"),
        ("Benzene", "benzene"),
    ],
)
def test_nothing_else_is_folded(gold, predicted):
    assert not exact_match(gold, predicted)


def test_a_table_read_with_the_greek_mu_and_spaced_signs_is_exact():
    grid = (("Analyte", "Result", "Unit"), ("Benzene", "<0.50", f"{MICRO_SIGN}g/L"))
    boxes = [
        InputCell(r, c, (10 * c, 10 * r, 10 * c + 10, 10 * r + 10))
        for r in range(2)
        for c in range(3)
    ]
    case = Case(id="t", category="plain", input=Input("t.png", 40, 30, tuple(boxes)))
    texts = {
        (0, 0): "Analyte",
        (0, 1): "Result",
        (0, 2): "Unit",
        (1, 0): "Benzene",
        (1, 1): "< 0.50",
        (1, 2): f"{GREEK_MU}g/L",
    }
    prediction = Prediction(tuple(PredictedCell(r, c, t) for (r, c), t in texts.items()))
    scores = TableCells().score_case(case, Answer(grid), prediction)
    assert scores["exact"].errors == () and scores["exact"].metrics["right"] == 6.0
