"""The shared table-cells mapper: every OCR adapter's words become cell texts by it alone."""

from __future__ import annotations

from types import SimpleNamespace

from envirobench_adapters_tools.cells import Word, cells_from_words, holding_cell, reading_order


def cell(row, column, box):
    return SimpleNamespace(row=row, column=column, box=box)


CELLS = [
    cell(0, 0, (0, 0, 100, 20)),
    cell(0, 1, (100, 0, 200, 20)),
    cell(1, 0, (0, 20, 100, 60)),
    cell(1, 1, (100, 20, 200, 60)),
]


def test_a_word_goes_to_the_cell_holding_its_centre_and_empty_cells_are_blank():
    words = [
        Word("Analyte", 5, 2, 60, 18),
        Word("Result", 150, 2, 195, 18),
        Word("MW-01", 90, 25, 130, 35),
    ]
    # "MW-01" straddles the column border; its centre (110) lies in column 1.
    prediction = cells_from_words(words, CELLS)
    texts = {(c["row"], c["column"]): c["text"] for c in prediction["cells"]}
    assert texts == {(0, 0): "Analyte", (0, 1): "Result", (1, 0): "", (1, 1): "MW-01"}


def test_a_word_outside_every_cell_is_dropped():
    prediction = cells_from_words([Word("caption", 300, 300, 340, 310)], CELLS)
    assert all(c["text"] == "" for c in prediction["cells"])


def test_the_smallest_cell_wins_where_boxes_overlap():
    spanning = cell(0, 0, (0, 0, 200, 40))
    inner = cell(1, 1, (100, 20, 200, 40))
    assert holding_cell(Word("x", 140, 25, 160, 35), [spanning, inner]) is inner
    assert holding_cell(Word("y", 10, 5, 20, 15), [spanning, inner]) is spanning


def test_words_are_joined_line_by_line_left_to_right():
    words = [
        Word("Total", 50, 22, 80, 32),
        Word("Mercury,", 5, 22, 45, 32),
        Word("(dissolved)", 5, 40, 60, 50),
    ]
    assert reading_order(words) == "Mercury, Total (dissolved)"


def test_whitespace_only_words_are_ignored_and_inner_spaces_collapsed():
    prediction = cells_from_words([Word("  ", 5, 2, 60, 18), Word(" a  b ", 5, 25, 60, 35)], CELLS)
    texts = {(c["row"], c["column"]): c["text"] for c in prediction["cells"]}
    assert texts[(0, 0)] == "" and texts[(1, 0)] == "a b"
