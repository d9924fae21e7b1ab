"""The column titles, alignment, column orders and table looks the v1 grid-table generators draw
(table-separators, and through `grid_tables` table-structure and table-cells): every v1 table task
draws the same kind of lab-results table. Kept as they are: the v1 datasets regenerate from them
byte for byte. The v2 generators take their words from `envirobench_synth.vocabulary` instead.
"""

from __future__ import annotations

import random

from envirobench_synth import tables

# The looks a v1 table is drawn in; its other layouts (wrapped, multi-line, scanned...) reuse them.
CLEAN_LAYOUTS = ("fully-ruled", "horizontal-rules", "unruled", "zebra")


def method_on_two_lines(method: str) -> str:
    """A multi-line-cells table's method cell: "SW-846 8260D" -> "SW-846" over "8260D", the
    method's prefix on its own line (a bare code gets the prefix its methods have)."""
    prefix, _, code = method.rpartition(" ")
    if not prefix:
        prefix = "EPA" if code.startswith("TO-") else "SW-846"
    return f"{prefix}\n{code}"


# Column title variants as reports print them; the long forms are the ones worth wrapping.
TITLES: dict[str, tuple[str, ...]] = {
    "analyte": ("Analyte", "Parameter", "Compound"),
    "cas": ("CAS No.", "CAS", "CAS Number", "CASRN"),
    "result": ("Result", "Conc.", "Concentration"),
    "unit": ("Units", "Unit"),
    "qualifier": ("Qual", "Q", "Qualifier", "Flag"),
    "reporting_limit": ("RL", "PQL", "Reporting Limit", "MRL"),
    "method": ("Method", "Test Method", "Analytical Method"),
}
LONG_TITLES: dict[str, tuple[str, ...]] = {
    "analyte": ("Analyte Name", "Target Analyte"),
    "cas": ("CAS Registry Number", "CAS Number"),
    "result": ("Sample Result", "Measured Concentration"),
    "unit": ("Reporting Units", "Result Units"),
    "qualifier": ("Laboratory Qualifier", "Data Qualifier"),
    "reporting_limit": ("Reporting Limit", "Practical Quantitation Limit"),
    "method": ("Analytical Method", "EPA Method Number"),
}
ALIGN: dict[str, tables.Alignment] = {
    "analyte": "left",
    "cas": "left",
    "result": "right",
    "unit": "left",
    "qualifier": "center",
    "reporting_limit": "right",
    "method": "left",
}
ORDERS: tuple[tuple[str, ...], ...] = (
    ("analyte", "cas", "result", "qualifier", "unit", "reporting_limit", "method"),
    ("analyte", "cas", "result", "unit", "qualifier", "reporting_limit", "method"),
    ("method", "analyte", "cas", "result", "reporting_limit", "unit", "qualifier"),
    ("cas", "analyte", "result", "qualifier", "reporting_limit", "unit", "method"),
    ("analyte", "result", "reporting_limit", "unit", "qualifier", "method", "cas"),
)
OPTIONAL = ("cas", "method", "qualifier", "unit")


def table_style(rng: random.Random, base: str, layout: str, scanned_pad_y: tuple[int, int]) -> tables.TableStyle:
    """The style of a v1 table of `layout` in the look `base` (a clean layout, or "spanning-headers"
    for one drawn here); a scanned table's rows `scanned_pad_y` apart (each type's own range)."""
    pad_x, pad_y = rng.randint(6, 10), rng.randint(3, 6)
    if layout == "multi-line-cells":
        pad_y = rng.randint(5, 7)  # rows clearly further apart than the lines of one cell
    if layout == "scanned":
        # Skew makes text drift across the table, eating into the gaps: leave room for it.
        pad_x, pad_y = rng.randint(9, 13), rng.randint(*scanned_pad_y)
    common: dict[str, object] = {
        "font_size": rng.choice((12, 13, 13, 14, 15)),
        "header_bold": rng.random() < 0.8,
        "pad_x": pad_x,
        "pad_y": pad_y,
        "line_gap": rng.randint(1, 3),
        "margin": rng.randint(6, 14),
    }
    if layout == "wrapped-headers":
        common["header_wrap"] = rng.randint(60, 90)
    if base == "spanning-headers":
        base = rng.choice(CLEAN_LAYOUTS)
    if base == "fully-ruled":
        return tables.fully_ruled(
            rule_width=rng.choice((1, 1, 2)), header_fill=rng.choice((None, None, 235)), **common
        )
    if base == "horizontal-rules":
        return tables.horizontal_rules(rule_width=rng.choice((1, 1, 2)), **common)
    if base == "unruled":
        # Without rules, whitespace alone must read as column boundaries.
        common["pad_x"] = max(pad_x, rng.randint(9, 14))
        return tables.unruled(**common)
    return tables.zebra(
        shade=rng.randint(220, 238),
        zebra_first=rng.random() < 0.5,
        header_rule=rng.random() < 0.5,
        **common,
    )
