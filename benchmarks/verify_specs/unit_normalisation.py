"""docs/reference-scores.md's Verify table for `unit-normalisation`: blind baselines and columns
(read by benchmarks/reference_scores.py --verify)."""

from _spec_parts import count, share

BENCHMARK = "unit-normalisation"
UNIT = "reports"
INTRO = (
    "The reference adapter (`solvers/unit_normalisation.py`: a table of mass units per litre and per kilogram, ppm "
    "and ppb by medium, percent as 10,000 mg/kg, the weight basis from the note's percent solids or moisture, species "
    "by molar mass; chosen on the dev split only) on both splits; the test split's report families and its spellings "
    "of units, bases, species and solids notes never occur in dev. A case is one report's rows (10 to 14); a value is "
    "right within a relative tolerance of 0.5 %. Beside it, a blind baseline that copies the printed value "
    "unconverted (right only where no conversion is needed, and on no row whose printed number it cannot read)."
)


def _copy(case_input, answer):
    out = []
    for row in case_input.results:
        text = row.value.replace(",", ".") if "." not in row.value else row.value.replace(",", "")
        out.append({"result": row.id, "value": float(text)})
    return {"results": out}


BASELINES = {"copy the value unconverted": _copy}
COLUMNS = (
    share("values_right", "values right"),
    share("mass-volume_right", "µg/L↔mg/L"),
    share("ppm-ppb_right", "ppm/ppb"),
    share("wet-to-dry_right", "wet→dry"),
    share("moisture-to-dry_right", "moisture→dry"),
    share("species_right", "species"),
    share("unchanged_right", "unchanged"),
    count("values"),
)
GROUP_METRIC = ("right", "row")
GROUP_TITLE = "Values the reference adapter converts right, by report family"


def groups(case_id, category, answer):
    return [f"family: {category}"]
