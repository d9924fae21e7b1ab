"""GriTS (envirobench_extract.grits) on tables worked out by hand.

Notation in the comments: U is the relative span of a 1x1 cell, [0, 0, 1, 1]. A grid of n
positions scores 2 * S / (|gold| + |predicted|) where S is the sum of the entry similarities over
the aligned rows x aligned columns.
"""

from fractions import Fraction

import pytest

from envirobench_extract.grits import GriTS, grits, grits_top, iou, relative_span_grid

U = (0, 0, 1, 1)


def plain(rows, columns):
    """A grid of 1x1 cells."""
    return (rows, columns, [(r, c, 1, 1) for r in range(rows) for c in range(columns)])


def approx(value):
    return pytest.approx(float(value), abs=1e-12)


def test_relative_spans():
    # Row 0: one cell over both columns; column 0 of rows 1-2: one cell over both rows.
    grid = relative_span_grid(3, 2, [(0, 0, 1, 2), (1, 0, 2, 1), (1, 1, 1, 1), (2, 1, 1, 1)])
    assert grid == [
        [(0, 0, 2, 1), (-1, 0, 1, 1)],
        [(0, 0, 1, 2), U],
        [(0, -1, 1, 1), U],
    ]


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ([(0, 0, 1, 1), (0, 1, 1, 1), (1, 0, 1, 1)], r"no cell covers the position \(1, 1\)"),
        ([(0, 0, 1, 2), (0, 1, 1, 1), (1, 0, 1, 2)], r"two cells cover the position \(0, 1\)"),
        ([(0, 0, 2, 3)], "reaches outside"),
        ([(0, 0, 0, 1)], "span below 1"),
    ],
)
def test_grids_that_do_not_tile_are_refused(cells, message):
    with pytest.raises(ValueError, match=message):
        relative_span_grid(2, 2, cells)


def test_iou():
    assert iou(U, U) == 1.0
    assert iou((0, 0, 2, 1), U) == 0.5
    assert iou((0, 0, 2, 1), (0, 0, 1, 2)) == pytest.approx(1 / 3)  # crossing: 1 / (2 + 2 - 1)
    assert iou((0, 0, 1, 1), (1, 0, 2, 1)) == 0.0  # touching only
    assert iou((0, 0, 0, 0), (0, 0, 0, 0)) == 0.0


def test_identical_grids_score_one():
    result = grits_top(plain(4, 3), plain(4, 3))
    assert result == GriTS(
        1.0, 1.0, 1.0, ((0, 0), (1, 1), (2, 2), (3, 3)), ((0, 0), (1, 1), (2, 2))
    )
    spanned = (3, 3, [(0, 0, 1, 3), (1, 0, 2, 1), (1, 1, 1, 1), (1, 2, 1, 1), (2, 1, 1, 2)])
    assert grits_top(spanned, spanned).score == 1.0


def test_the_identity_shortcut_is_what_the_alignment_computes():
    # Entries that compare unequal but have the same content force the full programme.
    class Box:
        def __init__(self, span):
            self.span = span

        def __hash__(self):
            return id(self)

    gold = relative_span_grid(
        3, 3, [(0, 0, 1, 3), (1, 0, 2, 1), (1, 1, 1, 1), (1, 2, 1, 1), (2, 1, 1, 2)]
    )
    boxed = [[Box(e) for e in row] for row in gold]
    copy = [[Box(e.span) for e in row] for row in boxed]
    result = grits(boxed, copy, lambda a, b: iou(a.span, b.span))
    assert result.score == 1.0
    assert result.rows == ((0, 0), (1, 1), (2, 2)) and result.columns == ((0, 0), (1, 1), (2, 2))


def test_a_missing_row():
    # 3 x 2 gold, 2 x 2 predicted, all 1x1: two rows align, both columns align, S = 4.
    # GriTS = 2 * 4 / (6 + 4) = 0.8; precision 4 / 4, recall 4 / 6.
    result = grits_top(plain(3, 2), plain(2, 2))
    assert result.score == approx(Fraction(4, 5))
    assert result.precision == 1.0 and result.recall == approx(Fraction(2, 3))
    assert len(result.rows) == 2 and result.columns == ((0, 0), (1, 1))


def test_a_missing_row_in_a_table_with_a_section_row():
    # Gold 4 x 2: header (1x1, 1x1), section row (one cell over both columns), two body rows.
    # Predicted: the last body row missed. Rows 0-2 align with themselves, every entry equal,
    # S = 6; GriTS = 2 * 6 / (8 + 6) = 6 / 7.
    gold = (
        4,
        2,
        [
            (0, 0, 1, 1),
            (0, 1, 1, 1),
            (1, 0, 1, 2),
            (2, 0, 1, 1),
            (2, 1, 1, 1),
            (3, 0, 1, 1),
            (3, 1, 1, 1),
        ],
    )
    predicted = (3, 2, [(0, 0, 1, 1), (0, 1, 1, 1), (1, 0, 1, 2), (2, 0, 1, 1), (2, 1, 1, 1)])
    result = grits_top(gold, predicted)
    assert result.score == approx(Fraction(6, 7))
    # Gold rows 2 and 3 tie for predicted row 2; the traceback from the end pairs the last.
    assert result.rows == ((0, 0), (1, 1), (3, 2)) and result.columns == ((0, 0), (1, 1))


def test_a_merged_header_cell_read_as_two():
    # Gold 2 x 2, header row one cell over both columns: spans [0,0,2,1] and [-1,0,1,1], each
    # with IoU 1/2 against U. S = 1/2 + 1/2 + 1 + 1 = 3; GriTS = 2 * 3 / (4 + 4) = 0.75.
    merged = (2, 2, [(0, 0, 1, 2), (1, 0, 1, 1), (1, 1, 1, 1)])
    result = grits_top(merged, plain(2, 2))
    assert result.score == approx(Fraction(3, 4))
    assert result.precision == result.recall == approx(Fraction(3, 4))
    assert grits_top(plain(2, 2), merged).score == approx(Fraction(3, 4))  # symmetric here


def test_a_cell_merged_across_instead_of_down():
    # Gold: the top-left cell spans two columns; predicted: it spans two rows. Position (0,0):
    # [0,0,2,1] vs [0,0,1,2], IoU 1/3 by the paper's union, 1/4 by the reference code's enclosing
    # box (the default); (0,1): [-1,0,1,1] vs U, 1/2; (1,0): U vs [0,-1,1,1], 1/2; (1,1): 1.
    # S = 7/3 (paper) or 9/4 (reference); GriTS = 2 * S / 8 = 7/12 or 9/16.
    across = (2, 2, [(0, 0, 1, 2), (1, 0, 1, 1), (1, 1, 1, 1)])
    down = (2, 2, [(0, 0, 2, 1), (0, 1, 1, 1), (1, 1, 1, 1)])
    assert grits_top(across, down, iou).score == approx(Fraction(7, 12))
    assert grits_top(across, down).score == approx(Fraction(9, 16))


def test_a_transposed_table():
    # 2 x 3 against 3 x 2, all 1x1: every entry pair scores 1; two rows and two columns align.
    # S = 4; GriTS = 2 * 4 / (6 + 6) = 2/3.
    result = grits_top(plain(2, 3), plain(3, 2))
    assert result.score == approx(Fraction(2, 3))
    assert len(result.rows) == 2 and len(result.columns) == 2


def test_a_transposed_table_with_a_spanning_header():
    # Gold 2 x 3: a title over all three columns (row 0), then three 1x1 cells (row 1).
    # Predicted: its transpose, 3 x 2: the title down column 0, three 1x1 cells in column 1.
    # Gold row 0 spans A0..A2 = [0,0,3,1], [-1,0,2,1], [-2,0,1,1]; predicted column 0 spans
    # B0..B2 = [0,0,1,3], [0,-1,1,2], [0,-2,1,1]. Every A and B has area 3 and holds U, so
    # IoU(A, U) = IoU(U, B) = 1/3, and IoU(A, B) = 1 / (3 + 3 - 1) = 1/5 by the paper's union (they
    # cross in U), 1/9 by the reference's enclosing 3 x 3 box. By the paper:
    #
    # Rows (gold row vs predicted row, best 1D alignment): row 0 vs (B, U): A~B + A~U
    # = 1/5 + 1/3 = 8/15; row 1 vs (B, U): U~B + U~U = 1/3 + 1 = 4/3. Gold row 0 then row 1
    # pair with two predicted rows in order, 8/15 + 4/3 = 28/15; ties go to the diagonal at
    # the end of the table, so the rows pair (0, 1) and (1, 2).
    # Columns (transposed): gold column k = (A_k, U) vs predicted (B0, B1, B2): 1/5 + 1/3 = 8/15;
    # vs (U, U, U): 1/3 + 1 = 4/3; likewise the columns pair (1, 0) and (2, 1).
    # Entries of the aligned substructures: G[0][1]~P[1][0] = A1~B1 = 1/5, G[0][2]~P[1][1] =
    # A2~U = 1/3, G[1][1]~P[2][0] = U~B2 = 1/3, G[1][2]~P[2][1] = 1. S = 28/15 and
    # GriTS = 2 * (28/15) / (6 + 6) = 14/45. By the reference, the same alignment (1/9 + 1/3 <
    # 4/3 still) and S = 1/9 + 1/3 + 1/3 + 1 = 16/9: GriTS = 2 * (16/9) / 12 = 8/27.
    gold = (2, 3, [(0, 0, 1, 3), (1, 0, 1, 1), (1, 1, 1, 1), (1, 2, 1, 1)])
    predicted = (3, 2, [(0, 0, 3, 1), (0, 1, 1, 1), (1, 1, 1, 1), (2, 1, 1, 1)])
    result = grits_top(gold, predicted, iou)
    assert result.rows == ((0, 1), (1, 2))
    assert result.columns == ((1, 0), (2, 1))
    assert result.score == approx(Fraction(14, 45))
    reference = grits_top(gold, predicted)
    assert (reference.rows, reference.columns) == (result.rows, result.columns)
    assert reference.score == approx(Fraction(8, 27))


def test_an_unrelated_prediction_still_scores_its_overlap():
    # A one-cell table predicted as 2 x 2 plain: the 1x1 gold cell aligns with one of them.
    # S = 1; GriTS = 2 * 1 / (1 + 4) = 0.4.
    assert grits_top(plain(1, 1), plain(2, 2)).score == approx(Fraction(2, 5))


def test_generic_grits_on_text():
    same = lambda a, b: 1.0 if a == b else 0.0  # noqa: E731
    gold = [["Analyte", "Result"], ["Benzene", "0.50"], ["Toluene", "1.2"]]
    predicted = [["Analyte", "Result"], ["Toluene", "1.2"]]
    # The Benzene row is missing: rows 0 and 2 align, S = 4, GriTS = 2 * 4 / (6 + 4) = 0.8.
    result = grits(gold, predicted, same)
    assert result.score == approx(Fraction(4, 5)) and result.rows == ((0, 0), (2, 1))
