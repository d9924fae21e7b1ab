"""Tables: the returned geometry must match the drawn pixels exactly."""

import dataclasses

import numpy as np
import pytest
from PIL import ImageFont

from envirobench_synth import tables
from envirobench_synth.fonts import FONT_FILES, font, font_path
from envirobench_synth.png import png_bytes, write_png

HEADER = ["Analyte", "CAS No.", "Result", "Units", "Qual", "Reporting Limit", "Method"]
ROWS = [
    ["Benzene", "71-43-2", "0.0123", "mg/kg", "J", "0.0050", "SW8260D"],
    ["Toluene", "108-88-3", "ND", "mg/kg", "", "0.0050", "SW8260D"],
    ["Benzo(a)pyrene\n(BaP)", "50-32-8", "1.25", "µg/L", "B", "0.10", "EPA 8270E"],
    ["cis-1,2-Dichloroethene", "156-59-2", "<0.50", "µg/m³", "U", "0.50", "TO-15"],
    ["Vinyl chloride", "75-01-4", "12.5", "µg/L", "", "1.0", "8260D"],
]
ALIGN = ["left", "left", "right", "left", "center", "right", "left"]

STYLES = {
    "fully-ruled": tables.fully_ruled(),
    "fully-ruled-2px": tables.fully_ruled(rule_width=2, header_fill=235),
    "horizontal-rules": tables.horizontal_rules(),
    "unruled": tables.unruled(pad_x=12),
    "zebra": tables.zebra(header_rule=True),
    "zebra-second": tables.zebra(zebra_first=False),
    "wrapped-headers": tables.fully_ruled(header_wrap=60),
}


def render(style):
    return tables.render_table(HEADER, ROWS, style, ALIGN)


@pytest.mark.parametrize("name", STYLES)
def test_bands_are_the_exact_extent_of_each_rows_and_columns_text(name):
    table = render(STYLES[name])
    for labels, axis, numpy_axis in (
        (table.row_labels, table.geometry.rows, 1),
        (table.column_labels, table.geometry.columns, 0),
    ):
        for index, band in enumerate(axis.bands):
            inked = np.flatnonzero((labels == index + 1).any(axis=numpy_axis))
            # Tight: the band's first and last pixel lines hold this row's (column's) text.
            assert (inked[0], inked[-1] + 1) == (band.start, band.end)


@pytest.mark.parametrize("name", STYLES)
def test_labels_are_exactly_the_text_pixels(name):
    style = STYLES[name]
    table = render(style)
    assert np.array_equal(table.row_labels > 0, table.column_labels > 0)
    # Text drawn in black and in white differs exactly where text covers the page.
    black = np.asarray(render(dataclasses.replace(style, ink=0)).image)
    white = np.asarray(render(dataclasses.replace(style, ink=255)).image)
    assert np.array_equal(black != white, table.row_labels > 0)


@pytest.mark.parametrize("name", STYLES)
def test_every_separator_lies_in_a_gap_with_no_text(name):
    table = render(STYLES[name])
    table.geometry.check()
    for labels, axis, line in (
        (table.row_labels, table.geometry.rows, lambda a, p: a[p, :]),
        (table.column_labels, table.geometry.columns, lambda a, p: a[:, p]),
    ):
        assert len(axis.separators) == len(axis.bands) - 1
        for separator, band_before, band_after in zip(
            axis.separators, axis.bands, axis.bands[1:], strict=False
        ):
            assert band_before.end <= separator < band_after.start
            assert not line(labels, separator).any()  # a line drawn here touches no text


def test_unruled_separators_are_blank_paper_in_the_middle_of_the_gap():
    style = STYLES["unruled"]
    table = render(style)
    pixels = np.asarray(table.image)
    assert (pixels[table.geometry.rows.separators, :] == style.paper).all()
    assert (pixels[:, table.geometry.columns.separators] == style.paper).all()
    for separator, (start, end) in zip(
        table.geometry.rows.separators, table.geometry.rows.gaps(), strict=True
    ):
        assert separator == (start + end - 1) // 2
    # Nothing but text is drawn: every non-paper pixel is text, inside its bands.
    assert np.array_equal(pixels != style.paper, table.row_labels > 0)


@pytest.mark.parametrize("name", ["fully-ruled", "fully-ruled-2px", "wrapped-headers"])
def test_ruled_separators_are_the_ruling_lines(name):
    style = STYLES[name]
    table = render(style)
    pixels = np.asarray(table.image)
    rows, columns = table.geometry.rows, table.geometry.columns
    left, right = columns.bands[0].start, columns.bands[-1].end
    top, bottom = rows.bands[0].start, rows.bands[-1].end
    for y in rows.separators:
        assert (pixels[y, left:right] == style.rule_ink).all()
    for x in columns.separators:
        assert (pixels[top:bottom, x] == style.rule_ink).all()


def test_horizontal_rules_table_separates_columns_by_whitespace():
    style = STYLES["horizontal-rules"]
    table = render(style)
    pixels = np.asarray(table.image)
    rows = table.geometry.rows
    for x in table.geometry.columns.separators:
        # Only the horizontal rules cross a column gap.
        dark = (
            np.flatnonzero(pixels[rows.bands[0].start : rows.bands[-1].end, x] != style.paper)
            + rows.bands[0].start
        )
        assert set(dark) <= set(rows.separators)


@pytest.mark.parametrize("name", ["zebra", "zebra-second"])
def test_zebra_separators_are_the_shading_edges(name):
    style = STYLES[name]
    table = render(style)
    pixels = np.asarray(table.image)
    x = table.geometry.columns.separators[0]  # a column gap: no text, only fills and rules
    rows = table.geometry.rows
    fills = [pixels[(band.start + band.end) // 2, x] for band in rows.bands]
    assert len(set(fills)) == 2
    for index, y in enumerate(rows.separators):
        if index == 0 and style.header_rule:
            assert pixels[y, x] == style.rule_ink
        elif fills[index] != fills[index + 1]:
            # The first pixel of the next row's fill.
            assert (pixels[y - 1, x], pixels[y, x]) == (fills[index], fills[index + 1])
        else:  # two unshaded rows (the header and an unshaded first row): the middle of the gap
            start, end = rows.gaps()[index]
            assert y == (start + end - 1) // 2


def test_wrapped_headers_wrap_and_multi_line_cells_make_taller_bands():
    plain, wrapped = render(STYLES["fully-ruled"]), render(STYLES["wrapped-headers"])
    header_height = lambda t: t.geometry.rows.bands[0].end - t.geometry.rows.bands[0].start  # noqa: E731
    assert header_height(wrapped) > header_height(plain)
    single, double = (
        plain.geometry.rows.bands[1],
        plain.geometry.rows.bands[3],
    )  # row 3 is two lines
    assert double.end - double.start > 1.5 * (single.end - single.start)


def test_wrap_text():
    typeface = font(13)
    assert tables.wrap_text("Reporting Limit", typeface, 60) == "Reporting\nLimit"
    assert tables.wrap_text("Reporting Limit", typeface, 500) == "Reporting Limit"
    assert tables.wrap_text("Dichlorodifluoromethane", typeface, 10) == "Dichlorodifluoromethane"
    assert tables.wrap_text("a b\nc d", typeface, 500) == "a b\nc d"


def test_same_table_gives_identical_bytes_and_different_tables_differ():
    first = png_bytes(render(STYLES["zebra"]).image)
    assert first == png_bytes(render(STYLES["zebra"]).image)
    other_rows = [row[:] for row in ROWS]
    other_rows[0][2] = "0.0124"
    assert png_bytes(tables.render_table(HEADER, other_rows, STYLES["zebra"], ALIGN).image) != first
    assert png_bytes(render(STYLES["unruled"]).image) != first


def test_tables_it_cannot_answer_for_are_refused():
    with pytest.raises(ValueError, match="no text"):
        tables.render_table(["A", "B"], [["x", ""], ["", ""]], tables.unruled())
    with pytest.raises(ValueError, match="cells"):
        tables.render_table(["A", "B"], [["x"]], tables.unruled())
    with pytest.raises(ValueError, match="pad"):
        tables.TableStyle(rule_width=4)


def test_geometry_check_refuses_touching_bands_and_misplaced_separators():
    band = tables.Band
    with pytest.raises(ValueError, match="touch"):
        tables.AxisGeometry((band(0, 5), band(5, 9)), (5,)).check("rows")
    with pytest.raises(ValueError, match="outside its gap"):
        tables.AxisGeometry((band(0, 5), band(8, 9)), (8,)).check("rows")
    with pytest.raises(ValueError, match="separators"):
        tables.AxisGeometry((band(0, 5), band(8, 9)), ()).check("rows")


def test_fonts_are_the_bundled_vera_with_basic_layout():
    for style in FONT_FILES:
        assert font_path(style).is_file()
        assert font_path(style).parent.parent.name == "reportlab"
    assert font(13) is font(13)
    # RAQM lays glyphs out differently and exists only on some machines: never use it.
    assert font(13).layout_engine == ImageFont.Layout.BASIC


def test_png_files_carry_no_metadata(tmp_path):
    image = render(STYLES["unruled"]).image
    image.info["dpi"] = (300, 300)
    image.info["comment"] = "made at noon"
    data = png_bytes(image)
    assert b"pHYs" not in data and b"tEXt" not in data and b"tIME" not in data
    assert write_png(tmp_path / "t.png", image) == len(data)
    assert (tmp_path / "t.png").read_bytes() == data
    with pytest.raises(ValueError, match="grayscale"):
        png_bytes(image.convert("RGBA"))
