"""The table-separators solver on tables drawn with known gaps, and its building blocks."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont
from reference_table_drawing import LAYOUTS, count_hits, degrade, draw_table

from envirobench_reference_adapter.solvers import table_separators as ts


def gray_of(image: Image.Image) -> np.ndarray:
    return np.asarray(image, dtype=np.float32)


def score(table, variant: str) -> dict[str, tuple[int, int]]:
    prediction = ts.find_separators(gray_of(table.image), variant)
    return {
        "rows": count_hits(prediction["rows"], table.row_bands),
        "columns": count_hits(prediction["columns"], table.column_bands),
    }


@pytest.mark.parametrize("layout", [layout for layout in LAYOUTS if layout != "two-line-header"])
@pytest.mark.parametrize("scanned", [False, True], ids=["clean", "scanned"])
def test_v2_puts_one_separator_in_every_gap(layout, scanned):
    table = draw_table(layout, seed=3)
    if scanned:
        table = degrade(table, angle=0.8, seed=3)
    result = score(table, "v2")
    assert result["rows"] == (len(table.row_bands), 0)
    assert result["columns"] == (len(table.column_bands), 0)


@pytest.mark.parametrize("layout", ["ruled", "hrules", "unruled", "zebra"])
def test_baseline_finds_every_gap_of_single_line_clean_tables(layout):
    table = draw_table(layout, seed=1)
    result = score(table, "baseline")
    assert result["rows"] == (len(table.row_bands), 0)
    assert result["columns"] == (len(table.column_bands), 0)


@pytest.mark.parametrize("layout", ["multiline", "wrapped-header"])
def test_baseline_splits_multi_line_cells_where_v2_does_not(layout):
    # The baseline's fixed gap threshold cannot tell line spacing inside a cell from a row
    # boundary; v2 can. This is the intended difference between the two methods.
    table = draw_table(layout)
    baseline_hits, baseline_extras = score(table, "baseline")["rows"]
    assert baseline_hits == len(table.row_bands)
    assert baseline_extras >= 1
    assert score(table, "v2")["rows"] == (len(table.row_bands), 0)


def test_v2_splits_a_header_whose_every_cell_wraps():
    # A documented weakness: the header's second line fills every column, as a row does, so it
    # is taken for one. (The baseline splits it too.)
    table = draw_table("two-line-header")
    for variant in ("baseline", "v2"):
        hits, extras = score(table, variant)["rows"]
        assert (hits, extras) == (len(table.row_bands), 1)
        prediction = ts.find_separators(gray_of(table.image), variant)["rows"]
        assert min(prediction) < table.row_bands[0][0]  # the extra one cuts the header


def test_v2_puts_zebra_row_separators_on_the_shading_edges():
    # The benchmark's gold line between a shaded and an unshaded row is the shading edge: the
    # first pixel row of the second row's fill.
    table = draw_table("zebra")
    rows = ts.find_separators(gray_of(table.image), "v2")["rows"]
    assert rows[1:] == table.row_edges[1:]  # the header/first-row edge is shaded too...
    assert rows[0] == table.row_edges[0]  # ...because the first body row is shaded


@pytest.mark.parametrize("layout", ["ruled", "unruled"])
def test_v2_keeps_three_line_cells_together(layout):
    # Every analyte cell has three lines, so unruled gaps (line spacing) outnumber row gaps. In
    # the ruled table the rules still decide; in the unruled one the note lines fill one column
    # where a row fills most, so they continue the row above.
    table = draw_table(layout, extra_lines=2)
    assert score(table, "v2")["rows"] == (len(table.row_bands), 0)
    assert score(table, "baseline")["rows"][1] >= 2 * len(table.row_bands)


def test_consistently_ruled_needs_two_rules():
    assert ts.consistently_ruled([10, None, None, 40, None, None])
    assert not ts.consistently_ruled([10, None, None, None])  # a header rule alone


def test_baseline_is_defeated_by_a_speckled_skewed_scan():
    table = degrade(draw_table("unruled"), angle=0.8, seed=5)
    hits, _ = score(table, "baseline")["rows"]
    assert hits < len(table.row_bands)


@pytest.mark.parametrize("layout", ["ruled", "hrules", "multiline"])
def test_v2_places_row_separators_on_the_ruling_lines(layout):
    table = draw_table(layout)
    rows = ts.find_separators(gray_of(table.image), "v2")["rows"]
    assert len(rows) == len(table.row_rules)
    for predicted, rule in zip(rows, table.row_rules, strict=True):
        assert abs(predicted - rule) <= 1


def test_v2_places_column_separators_on_the_ruling_lines():
    table = draw_table("ruled")
    columns = ts.find_separators(gray_of(table.image), "v2")["columns"]
    assert columns == pytest.approx(table.column_rules, abs=1)


@pytest.mark.parametrize("angle", [-1.0, -0.4, 0.6, 0.9])
def test_skew_estimate_undoes_the_rotation(angle):
    table = degrade(draw_table("hrules"), angle=angle, noise=0.0)
    smooth = ts.despeckle(gray_of(table.image))
    estimate = ts.estimate_skew(smooth < ts.grey_levels(smooth).text_threshold)
    assert estimate == pytest.approx(-angle, abs=0.1)


def test_level_table_is_not_rotated():
    table = draw_table("unruled")
    smooth = ts.despeckle(gray_of(table.image))
    assert ts.estimate_skew(smooth < ts.grey_levels(smooth).text_threshold) == 0.0


def test_default_alias_is_v2():
    assert ts.SERVES.resolve("default") == "v2"


def test_unknown_variant_is_refused():
    with pytest.raises(ValueError, match="unknown variant"):
        ts.find_separators(np.full((20, 20), 255, np.float32), "v3")


@pytest.mark.parametrize("variant", ["baseline", "v2"])
def test_blank_and_single_line_images_have_no_separators(variant):
    blank = np.full((60, 200), 255, np.float32)
    assert ts.find_separators(blank, variant) == {"rows": [], "columns": []}
    one_word = Image.new("L", (200, 60), 255)
    ImageDraw.Draw(one_word).text((20, 20), "Benzene", fill=0, font=ImageFont.load_default(size=14))
    assert ts.find_separators(gray_of(one_word), variant) == {"rows": [], "columns": []}


def test_predictions_are_sorted_unique_python_ints():
    prediction = ts.find_separators(gray_of(draw_table("zebra").image), "v2")
    for positions in prediction.values():
        assert positions == sorted(set(positions))
        assert all(type(p) is int for p in positions)


def test_load_grayscale_checks_the_declared_size(tmp_path):
    path = tmp_path / "t.png"
    image = draw_table("unruled").image
    image.save(path)
    width, height = image.size
    assert ts.load_grayscale(path, width, height).shape == (height, width)
    with pytest.raises(ValueError, match="request says"):
        ts.load_grayscale(path, width + 1, height)


def test_transparent_pixels_are_paper(tmp_path):
    table = draw_table("unruled")
    rgba = Image.new("RGBA", table.image.size, (0, 0, 0, 0))  # transparent *black*
    rgba.putalpha(Image.eval(table.image, lambda v: 255 - v))  # ink opaque, paper transparent
    path = tmp_path / "t.png"
    rgba.save(path)
    gray = ts.load_grayscale(path, *rgba.size)
    assert count_hits(ts.find_separators(gray, "v2")["rows"], table.row_bands) == (len(table.row_bands), 0)


def test_runs_and_gaps():
    mask = np.array([0, 1, 1, 0, 0, 1, 0, 1, 1, 1], bool)
    assert ts.runs(mask) == [(1, 3), (5, 6), (7, 10)]
    assert ts.gaps_between(ts.runs(mask)) == [(3, 5), (6, 7)]
    assert ts.middle((3, 5)) == 3
    assert ts.merge_narrow_gaps(ts.runs(mask), 2) == [(1, 3), (5, 10)]


def test_longest_run_bridges_small_breaks():
    line = np.array([1, 1, 0, 1, 1, 0, 0, 0, 1], bool)
    assert ts.longest_run(line, bridge=0) == 2
    assert ts.longest_run(line, bridge=1) == 5
    assert ts.longest_run(np.zeros(5, bool), bridge=2) == 0


def test_content_spans_drop_speckle_but_keep_thin_strokes():
    profile = np.array([0, 9, 1, 9, 0, 0, 1, 0, 0, 8, 8])
    # The 1-pixel bin inside the first run is a thin stroke and stays; the lone one is speckle.
    assert ts.content_spans(profile, min_size=1, min_ink=5) == [(1, 4), (9, 11)]


def test_rule_lines_need_a_long_continuous_run():
    ink = np.zeros((30, 100), bool)
    ink[10, 5:95] = True  # a rule
    ink[20, 5:95:5] = True  # dotted text-like row: as much extent, no long run
    ink[2:12, 50] = True  # a glyph's stem: the only vertical ink, but short
    assert ts.rule_lines(ink, axis=1) == [(10, 11)]
    assert ts.rule_lines(ink, axis=0) == []


def test_faint_rule_is_found_but_noisy_shading_is_not():
    # On a low-contrast noisy scan a zebra band and a blurred rule are both a few tens of grey
    # levels below the paper; only the rule is darker than the paper on both sides.
    rng = np.random.default_rng(0)
    gray = np.full((80, 300), 245.0, np.float32)
    gray[20:45, :] = 222  # a shaded band
    gray[60, 10:290] = 185  # a faint 1-px rule
    gray += rng.normal(0, 6, gray.shape).astype(np.float32)
    levels = ts.GreyLevels(paper=245, ink=60)
    assert ts.rule_lines(ts.line_pixels(gray, levels, axis=1), axis=1) == [(60, 61)]
    assert ts.rule_lines(ts.line_pixels(gray, levels, axis=0), axis=0) == []
