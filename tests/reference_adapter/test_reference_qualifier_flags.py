"""The reference solver of `qualifier-flags` reads a report's own qualifier legend and applies its
definitions over the NFG meanings. The legend lines here are worded the ways laboratories and
validators word them (CLP and NFG definitions, commercial laboratories' footnotes), not as the
benchmark's generator prints them: the solver must read definitions by general means."""

from __future__ import annotations

import pytest

from envirobench import structure
from envirobench_reference_adapter.solvers import qualifier_flags as solver
from envirobench_verify.qualifier_flags import Input

NOTHING = {}
ESTIMATED = {"estimated": True}


def said(meanings: solver.Meanings) -> dict:
    """The meanings a definition claims (the fields that are not False / "none")."""
    return {name: value for name, value in vars(meanings).items() if value not in (False, "none")}


@pytest.mark.parametrize(
    ("line", "flag", "meanings"),
    [
        ("U Indicates the analyte was analyzed for but not detected.", "U", {"nondetect": True}),
        ("J = The associated numerical value is the approximate concentration.", "J", ESTIMATED),
        ("J Result is less than the RL but greater than or equal to the MDL.", "J", ESTIMATED),
        ("J - MDL <= result < RL", "J", ESTIMATED),
        (
            "UJ - Not detected; the reported quantitation limit is approximate.",
            "UJ",
            {"nondetect": True, "estimated": True},
        ),
        ("U Not detected at or above the reporting limit.", "U", {"nondetect": True}),
        ("B Compound was found in the blank and sample.", "B", {"blank": True}),
        ("Z - Analyte detected above the reporting limit in the trip blank", "Z", {"blank": True}),
        # The CLP inorganic B, and the same estimate worded without the CLP's acronyms.
        (
            "B Reported value is less than the CRDL but greater than or equal to the IDL.",
            "B",
            ESTIMATED,
        ),
        (
            "B - The value is between the method detection limit and the practical quantitation limit.",
            "B",
            ESTIMATED,
        ),
        ("E Result exceeded calibration range.", "E", {"estimated": True, "over_range": True}),
        (
            "E - Concentration is above the upper limit of the instrument's linear range.",
            "E",
            {"estimated": True, "over_range": True},
        ),
        # The CLP inorganic E is an interference estimate, not an over-range result.
        (
            "E The reported value is estimated because of the presence of interference.",
            "E",
            ESTIMATED,
        ),
        (
            "D3 Sample was diluted due to high levels of non-target analytes.",
            "D3",
            {"diluted": True},
        ),
        (
            "H Sample was prepped or analyzed beyond the specified holding time",
            "H",
            {"estimated": True, "bias": "low"},
        ),
        (
            "L1 Analyte recovery in the LCS was above QC limits.",
            "L1",
            {"estimated": True, "bias": "high"},
        ),
        (
            "L2 Analyte recovery in the LCS was below QC limits.",
            "L2",
            {"estimated": True, "bias": "low"},
        ),
        ("F2 MS/MSD RPD exceeds control limits", "F2", ESTIMATED),
        ("M Duplicate injection precision not met.", "M", ESTIMATED),
        ("J+ Result estimated, potential high bias", "J+", {"estimated": True, "bias": "high"}),
        ("R: The data are unusable. The sample results are rejected.", "R", {"rejected": True}),
        ("N - Presumptive evidence of a compound.", "N", {"tentative": True}),
        (
            "T Result is a tentatively identified compound (TIC).",
            "T",
            {"estimated": True, "tentative": True},
        ),
        (
            "(a) Identified by mass spectral library search.",
            "a",
            {"estimated": True, "tentative": True},
        ),
        ("X Confirmed by analysis on a second column.", "X", NOTHING),
    ],
)
def test_a_definition_is_read_for_what_it_says(line, flag, meanings):
    assert {f: said(m) for f, m in solver.read_legend((line,)).items()} == {flag: meanings}


def test_legend_layouts():
    """Several entries on one line, a flag after its definition, a flag that holds a dash."""
    legend = solver.read_legend(
        ("Qualifiers: U = not detected; J = estimated; B = found in method blank",
         "Estimated value (Q)",
         "J- - Estimated, likely biased low.")
    )  # fmt: skip
    assert {f: said(m) for f, m in legend.items()} == {
        "U": {"nondetect": True},
        "J": ESTIMATED,
        "B": {"blank": True},
        "Q": ESTIMATED,
        "J-": {"estimated": True, "bias": "low"},
    }


def test_a_standard_flag_read_as_meaning_nothing_keeps_its_nfg_meaning():
    legend = solver.read_legend(("J - See the case narrative.", "X - Refer to the case narrative."))
    assert "J" not in legend  # so the NFG's J (estimated) stands
    # A footnote flag the legend defines as nothing means nothing.
    assert said(legend["X"]) == NOTHING
    case = structure(
        {
            "legend": ["J - See the case narrative.", "X - Refer to the case narrative."],
            "results": [row("r1", "0.8", "J X"), row("r2", "1.1", "X")],
        },
        Input,
    )
    first, second = solver.solve(case, {}, "v1")["results"]
    assert first["estimated"] and first["detected"]
    assert not second["estimated"] and second["detected"]


def test_the_report_governs_the_laboratory_flags_and_the_validator_writes_nfg():
    """A legend's CLP B is an estimate, not a blank detection; a flag printed after "ND" counts;
    the validator's flags keep their NFG meanings whatever the laboratory's legend says."""
    legend = ["B - Value is between the instrument detection limit and the contract required detection limit.",
              "* Surrogate recovery below the lower control limit; result may be biased low.",
              "U - Not detected above the sample quantitation limit."]  # fmt: skip
    case = structure(
        {
            "legend": legend,
            "results": [
                row("r1", "4.2", "B"),
                row("r2", "ND *", ""),
                row("r3", "4.2", "", validator="J+"),
                row("r4", "0.30", "B", validator="U"),
            ],
        },
        Input,
    )
    r1, r2, r3, r4 = solver.solve(case, {}, "v1")["results"]
    assert r1["estimated"] and not r1["blank_contamination"]
    assert r2["detected"] is False and r2["estimate_bias"] == "low"
    assert r3["estimate_bias"] == "high" and r3["detected"]
    assert r4["detected"] is False and r4["estimated"] and not r4["blank_contamination"]


def row(row_id: str, printed: str, lab: str, validator: str = "") -> dict:
    """A result row of the input as JSON (the case's Input record structures it)."""
    return {"id": row_id, "sample_id": "MW-01", "analyte": "Lead", "unit": "mg/L", "printed": printed,
            "lab_qualifier": lab, "validation_qualifier": validator}  # fmt: skip
