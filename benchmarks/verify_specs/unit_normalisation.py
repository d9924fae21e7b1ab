"""docs/reference-scores.md's Verify table for `unit-normalisation`: blind baselines and columns
(read by benchmarks/reference_scores.py --verify)."""

import re

from _spec_parts import count, share

from envirobench_reference_adapter.solvers import unit_normalisation as reference

BENCHMARK = "unit-normalisation"
UNIT = "reports"
INTRO = (
    "The reference adapter (`solvers/unit_normalisation.py`: a table of mass units per litre and per kilogram, ppm "
    "and ppb by medium, percent as 10,000 mg/kg, the weight basis from the note's percent solids or moisture, species "
    "by molar mass; chosen on the dev split only) on both splits; the test split's report families and its spellings "
    "of units, bases, species and solids notes never occur in dev. A case is one report's rows (10 to 14); a value is "
    "right within a relative tolerance of 0.5 %. Both splits carry the traps of real practice: gases in parts by volume "
    "(bare ppb and ppm in air too) wanted in µg/m³ at the note's reference conditions, soil leachates (TCLP, SPLP) "
    "whose ppm is per litre beside a solids line that does not apply, the weight basis printed in the unit, "
    "qualifiers beside the number and thousands grouped. Beside the reference, a blind baseline that copies the "
    "printed number unconverted (right only where no conversion is needed), and a careless converter: the "
    "reference's unit tables, weight basis and species without the traps (each number read alone, a comma decimal "
    "where no point is printed; no gas conversion; the basis looked for in the basis column only; ppm and ppb by the "
    "sample's medium)."
)


def _number(text):
    """The first number printed, a comma read as the decimal mark where no point is printed."""
    number = re.search(r"\d[\d.,]*(?:[eE][+-]?\d+)?", text).group(0).rstrip(".,")
    return float(number.replace(",", ".") if "." not in number else number.replace(",", ""))


def _copy(case_input, answer):
    return {"results": [{"result": row.id, "value": _number(row.value)} for row in case_input.results]}


def _careless(row):
    value = _number(row.value)
    medium = "water" if row.medium == "water" else "soil"  # ppm and ppb by the sample's medium
    source, target = reference.unit_scale(row.unit, medium), reference.unit_scale(row.target_unit, medium)
    if source and target:
        value = value * source[0] / target[0]
    wanted = row.target_basis.strip()
    if wanted in ("dry weight", "wet weight"):
        fraction = reference.solids_fraction(row.note)
        if fraction and not re.search(wanted.split()[0], row.basis, re.IGNORECASE):
            value = value / fraction if wanted == "dry weight" else value * fraction
    elif wanted.startswith("as "):
        value = reference.as_species(value, row, wanted[3:])
    return value


def careless_converter(case_input, answer):
    return {"results": [{"result": row.id, "value": _careless(row)} for row in case_input.results]}


BASELINES = {
    "copy the value unconverted": _copy,
    "careless converter (unit tables, no traps)": careless_converter,
}
COLUMNS = (
    share("values_right", "values right"),
    share("mass-volume_right", "µg/L↔mg/L"),
    share("ppm-ppb_right", "ppm/ppb"),
    share("wet-to-dry_right", "wet→dry"),
    share("moisture-to-dry_right", "moisture→dry"),
    share("species_right", "species"),
    share("unchanged_right", "unchanged"),
    share("gas-volume_right", "gas ppbv→µg/m³"),
    share("leachate_right", "leachate"),
    share("unit-basis_right", "basis in unit"),
    count("values"),
)
GROUP_METRIC = ("right", "row")
GROUP_TITLE = "Values the reference adapter converts right, by report family"


def groups(case_id, category, answer):
    return [f"family: {category}"]
