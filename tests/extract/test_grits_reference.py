"""GriTS_Top against numbers computed by table-transformer's own grits.py (the reference).

tests/extract/grits_reference_cases.json holds, for each pair of grids, the reference's
[score, precision, recall] (run by hand on the fetched src/grits.py; its numbers are stored, not
its code). The default `grits_top` must give them to the last bit; the paper's
intersection-over-union variant (`similarity=iou`, profile `topology-paper`) differs exactly on
these crossing-span cases, and gives envirobench's scores.v1 numbers there.
"""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from envirobench_extract.grits import grits_top, iou, reference_iou

DATA = json.loads((Path(__file__).with_name("grits_reference_cases.json")).read_text("utf-8"))
CASES = {case["name"]: case for case in DATA["cases"]}


def grid(data):
    rows, columns, cells = data
    return rows, columns, [tuple(cell) for cell in cells]


def test_reference_iou_divides_by_the_enclosing_box():
    assert reference_iou((0, 0, 2, 1), (0, 0, 1, 2)) == 0.25  # crossing: 1 / (2 x 2)
    assert iou((0, 0, 2, 1), (0, 0, 1, 2)) == pytest.approx(1 / 3)  # the paper: 1 / (2 + 2 - 1)
    assert reference_iou((0, 0, 2, 1), (0, 0, 1, 1)) == iou((0, 0, 2, 1), (0, 0, 1, 1)) == 0.5
    assert reference_iou((0, 0, 1, 1), (1, 0, 2, 1)) == 0.0  # touching only
    assert reference_iou((0, 0, 0, 0), (0, 0, 0, 0)) == 0.0


@pytest.mark.parametrize("name", sorted(CASES))
def test_grits_top_is_the_reference_to_the_last_bit(name):
    case = CASES[name]
    result = grits_top(grid(case["gold"]), grid(case["predicted"]))
    assert [result.score, result.precision, result.recall] == case["reference"]


def test_the_crossing_span_cases_are_where_the_paper_iou_differs():
    turned = [case for case in DATA["cases"] if case["name"].endswith("-span-turned")]
    assert len(turned) == 24
    for case in turned:
        paper = grits_top(grid(case["gold"]), grid(case["predicted"]), iou)
        assert [paper.score, paper.precision, paper.recall] == case["v1"]
        assert paper.score != case["reference"][0]
        assert 0 < abs(paper.score - case["reference"][0]) <= 0.0024


def test_a_cell_merged_across_instead_of_down_by_the_reference():
    # Position (0,0): [0,0,2,1] vs [0,0,1,2] cross, 1 over the enclosing 2 x 2 box = 1/4; (0,1)
    # and (1,0): 1/2 each; (1,1): 1. S = 9/4, GriTS = 2 * (9/4) / 8 = 9/16 (the paper's IoU: 7/12).
    case = CASES["across-vs-down"]
    assert grits_top(grid(case["gold"]), grid(case["predicted"])).score == Fraction(9, 16)
    paper = grits_top(grid(case["gold"]), grid(case["predicted"]), iou).score
    assert paper == pytest.approx(float(Fraction(7, 12)), abs=1e-12)


def test_table_structure_scores_the_reference_by_default_and_the_paper_in_its_own_profile():
    from envirobench import Case
    from envirobench_extract.table_structure import Cell, Input, TableGrid, TableStructure

    def table(cells):
        return TableGrid(2, 2, 0, tuple(Cell(*cell) for cell in cells))

    across = table([(0, 0, 1, 2), (1, 0, 1, 1), (1, 1, 1, 1)])
    down = table([(0, 0, 2, 1), (0, 1, 1, 1), (1, 1, 1, 1)])
    case = Case(id="t", category="plain", input=Input("t.png", 10, 10))
    scores = TableStructure().score_case(case, across, down)
    assert scores["topology"].metrics["grits_top"] == 9 / 16
    assert scores["topology-paper"].metrics["grits_top"] == pytest.approx(7 / 12, abs=1e-12)
    assert scores["topology"].errors == scores["topology-paper"].errors != ()
