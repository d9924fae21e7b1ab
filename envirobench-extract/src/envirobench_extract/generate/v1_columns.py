"""The column titles, alignment and column orders the v1 grid-table generators draw (table-
separators, and through `grid_tables` table-structure and table-cells): every v1 table task draws
the same kind of lab-results table. Kept as they are: the v1 datasets regenerate from them byte for
byte. The v2 generators take their words from `envirobench_synth.vocabulary` instead.
"""

from __future__ import annotations

from envirobench_synth import tables

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
