"""How a standard look-up writes its fields: open-ended wordings, drawn the way agencies and
laboratories print screening tables and data summaries.

Real screening tables (EPA's Regional Screening Levels, the MCL list, state cleanup tables) and the
data tables that cite them write the same few things in many ways: a column head with its unit
("Groundwater (µg/L)", "GW [ug/l]"), an abbreviation ("PWS", "SO", "Res."), a qualifier after the
head ("Soil - direct contact", "residential (child)"), a footnote mark ("Benzene*", "Arsenic ᶜ",
"Lead †"), capitals, a word order turned round ("Water, ground", "Dichloroethene, 1,1-"), an agency
for its state ("Franklin DEQ", "FDEQ"). A look-up's wording of each field (jurisdiction, medium,
land use, basis, analyte) is composed here from such parts:

    head        a way of writing the thing itself (the canonical name, a synonym, an
                abbreviation, another spacing or word order)
    qualifier   words that narrow or describe it without changing it (a depth, a program, a
                scenario, a filter size); a few name a thing of another field or kind in
                parentheses ("drinking water (groundwater source)"), as tables do
    unit        a column head's unit (medium only), in the result's dimension
    mark        a footnote mark
    case        as printed, capitals or lower case

Each part list is split in two: the dev split draws from one half, the test split from the other
(`_Parts.dev`, `_Parts.test`), and the halves share no head and no qualifier or mark once case is
folded, so no test wording is a dev wording (tests/research/test_regulatory_standards.py checks
it over many draws). Most test heads are other surface forms of meanings the dev heads show
(spacing and hyphens, word order, initials, stems, plural); a few are words the dev split never
uses at all ("finished water", "composite worker"): a reader grown on dev alone is not expected to
know every one.

The analyte is written as its name (as printed, capitals or lower case, sometimes with a
qualifier such as ", total" or " and compounds", or its locants turned round, "Dioxane, 1,4-"),
a synonym (the -ylene names; dev writes an abbreviation in parentheses after the name,
"Tetrachloroethylene (PCE)", test the abbreviation alone), or its CAS number in several forms.
`synonym` is True when the base form is not the name (a synonym, an abbreviation, a CAS number):
case, qualifiers and marks do not count.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class _Parts:
    dev: tuple[str, ...]
    test: tuple[str, ...]

    def of(self, split: str) -> tuple[str, ...]:
        return self.dev if split == "dev" else self.test


# -- jurisdiction ----------------------------------------------------------------------------------

_FEDERAL_HEADS = _Parts(
    dev=("United States (federal)", "federal", "U.S. EPA", "EPA", "US EPA Region 5", "Federal (EPA)"),
    test=("USEPA", "U.S. federal", "EPA Region 9", "United States EPA", "FEDERAL ONLY", "US Environmental Protection Agency"),
)  # fmt: skip
_FEDERAL_QUALIFIERS = _Parts(
    dev=(" (no state program)", " - Superfund", " lead"),
    test=(" (tribal trust land)", " / CERCLA", " oversight", ": no delegated program"),
)  # fmt: skip
# {s}: the state's name, {i}: its initial.
_STATE_HEADS = _Parts(
    dev=("State of {s}", "{s} (state)", "{s} DEQ", "{s} Department of Environmental Quality", "{i}DEQ"),
    test=("{S}", "{s} Dept. of Env. Protection", "{s} DEP", "{i}DEP", "Commonwealth of {s}", "{s} state program"),
)  # fmt: skip
_STATE_QUALIFIERS = _Parts(
    dev=(" (voluntary cleanup)", " jurisdiction", " - state-lead site"),
    test=(" (delegated program)", " - brownfields", " oversight", " / RCRA corrective action"),
)  # fmt: skip

# -- medium ----------------------------------------------------------------------------------------

_MEDIUM_HEADS = {
    "groundwater": _Parts(
        dev=("groundwater", "ground water", "GW", "shallow aquifer", "monitoring well water"),
        test=("Ground-water", "Water, ground", "Ground Water (GW)", "aquifer", "Groundwaters", "well water (monitoring)"),
    ),
    "drinking water": _Parts(
        dev=("drinking water", "public water supply", "potable water", "DW"),
        test=("Drinking-water", "PWS", "Water, drinking", "potable supply", "finished water", "water supply (public)"),
    ),
    "tap water": _Parts(
        dev=("tap water", "residential tap", "tap"),
        test=("Tapwater", "Water, tap", "TAP-WATER", "kitchen tap", "tap (residential)"),
    ),
    "soil": _Parts(
        dev=("soil", "surface soil", "SO", "soil (direct contact)"),
        test=("Soils", "Soil, surface", "subsurface soil", "SS", "SOIL/FILL", "sub-surface soils"),
    ),
}  # fmt: skip
_MEDIUM_QUALIFIERS = {
    "groundwater": _Parts(dev=(" (monitoring well)", " - shallow zone", " (unconfined)"),
                          test=(" - Class GA", " (bedrock)", " (2nd quarter)", " - overburden")),
    "drinking water": _Parts(dev=(" (groundwater source)", " - at the tap", " (treated)"),
                             test=(" (point of entry)", " (ground-water source)", " - community system")),
    "tap water": _Parts(dev=(" (groundwater supply)", " - ingestion"),
                        test=(" (private well)", " - residential use", " (screening)")),
    "soil": _Parts(dev=(" (0-2 ft)", " - direct contact", " (ingestion)"),
                   test=(" (2-10 ft bgs)", " - dermal/ingestion", " (0-1 ft)", " - fill material")),
}  # fmt: skip
_UNIT_FORMS = _Parts(
    dev=(" ({u})", " ({u})", " - {u}"), test=(" [{u}]", ", {u}", " in {u}", " ({U})")
)

# -- land use --------------------------------------------------------------------------------------

_LAND_USE_HEADS = {
    "residential": _Parts(dev=("residential", "unrestricted use", "Res.", "resident"),
                          test=("Residential (child)", "unrestricted", "RES", "residence", "Residential land use")),
    "industrial": _Parts(dev=("industrial", "commercial/industrial", "non-residential", "industrial worker", "Ind."),
                         test=("Nonresidential", "Industrial/Commercial", "IND", "commercial", "composite worker",
                               "restricted (non-residential) use")),
}  # fmt: skip
_LAND_USE_QUALIFIERS = _Parts(dev=(" scenario", " (default)", " - direct contact"),
                              test=(" exposure", " land use", " - soil ingestion", " (site-specific)"))  # fmt: skip

# -- basis (metals in water) -----------------------------------------------------------------------

_BASIS_HEADS = {
    "total": _Parts(dev=("total", "unfiltered", "T", "total metals"),
                    test=("Total recoverable", "TOT", "un-filtered", "tot.", "TOTAL (unfiltered)")),
    "dissolved": _Parts(dev=("dissolved", "filtered", "D", "field filtered", "dissolved metals"),
                        test=("Diss.", "DISS", "Field-filtered", "lab filtered", "Dissolved-phase")),
}  # fmt: skip
_BASIS_QUALIFIERS = {
    "total": _Parts(dev=(" (acid digested)", " fraction"), test=(" - no filtration", " (EPA 200.8)")),
    "dissolved": _Parts(dev=(" (0.45 um)", " fraction"), test=(" - 0.45 µm", " (EPA 200.8)")),
}  # fmt: skip

# -- marks and case --------------------------------------------------------------------------------

_MARKS = _Parts(dev=("*", " (a)", "¹", " b"), test=("†", " [2]", "ᶜ", "‡", " (f)", "²"))


def _case(rng: random.Random, text: str) -> str:
    roll = rng.random()
    if roll < 0.15:
        return text.upper()
    if roll < 0.3:
        return text.lower()
    return text


def _decorate(rng: random.Random, split: str, head: str, qualifiers: _Parts | None, p_qualifier: float,
              p_mark: float = 0.25, unit: str | None = None) -> str:  # fmt: skip
    text = _case(rng, head)
    if qualifiers is not None and rng.random() < p_qualifier:
        text += rng.choice(qualifiers.of(split))
    if unit is not None and rng.random() < 0.35:
        form = rng.choice(_UNIT_FORMS.of(split))
        text += form.format(u=unit, U=unit.replace("µ", "u").upper())
    if rng.random() < p_mark:
        text += rng.choice(_MARKS.of(split))
    return text


def jurisdiction_wording(rng: random.Random, split: str, jurisdiction: str) -> str:
    if not jurisdiction.startswith("State of "):  # the federal jurisdiction
        head = rng.choice(_FEDERAL_HEADS.of(split))
        return _decorate(rng, split, head, _FEDERAL_QUALIFIERS, 0.4)
    state = jurisdiction.removeprefix("State of ").split(" (")[0]
    head = rng.choice(_STATE_HEADS.of(split)).format(s=state, S=state.upper(), i=state[0])
    return _decorate(rng, split, head, _STATE_QUALIFIERS, 0.4)


def medium_wording(rng: random.Random, split: str, medium: str, unit: str) -> str:
    head = rng.choice(_MEDIUM_HEADS[medium].of(split))
    return _decorate(rng, split, head, _MEDIUM_QUALIFIERS[medium], 0.4, unit=unit)


def land_use_wording(rng: random.Random, split: str, exposure: str) -> str:
    head = rng.choice(_LAND_USE_HEADS[exposure].of(split))
    return _decorate(rng, split, head, _LAND_USE_QUALIFIERS, 0.35)


def basis_wording(rng: random.Random, split: str, basis: str) -> str:
    head = rng.choice(_BASIS_HEADS[basis].of(split))
    return _decorate(rng, split, head, _BASIS_QUALIFIERS[basis], 0.3, p_mark=0.15)


# -- analytes --------------------------------------------------------------------------------------

# Other names a table or a laboratory prints (both splits' halves; dev and test never share one).
_SYNONYMS = {
    "Tetrachloroethene": _Parts(dev=("Tetrachloroethylene",), test=("Perchloroethylene", "Ethene, tetrachloro-")),
    "Trichloroethene": _Parts(dev=("Trichloroethylene",), test=("Ethene, trichloro-",)),
    "cis-1,2-Dichloroethene": _Parts(dev=("cis-1,2-Dichloroethylene",), test=("1,2-Dichloroethylene, cis-",)),
    "1,1-Dichloroethene": _Parts(dev=("1,1-Dichloroethylene",), test=("Vinylidene chloride",)),
    "Vinyl chloride": _Parts(dev=("Chloroethene",), test=("Chloroethylene",)),
    "Methyl tert-butyl ether": _Parts(dev=("Methyl tertiary butyl ether",), test=("tert-Butyl methyl ether",)),
    "Xylenes, Total": _Parts(dev=("Xylenes (total)",), test=("Total xylenes", "Xylene (mixed isomers)")),
    "Benzo(a)pyrene": _Parts(dev=("Benzo[a]pyrene",), test=("B(a)P",)),
    "Ethylbenzene": _Parts(dev=("Ethyl-benzene",), test=("Ethyl benzene", "Benzene, ethyl-")),
    "1,1,1-Trichloroethane": _Parts(dev=("Methyl chloroform",), test=("Ethane, 1,1,1-trichloro-",)),
}  # fmt: skip
# The abbreviations site reports use: dev prints them after the name, test alone.
ABBREVIATIONS = {
    "Tetrachloroethene": "PCE", "Trichloroethene": "TCE", "cis-1,2-Dichloroethene": "cis-1,2-DCE",
    "1,1-Dichloroethene": "1,1-DCE", "Vinyl chloride": "VC", "Methyl tert-butyl ether": "MTBE",
    "Benzo(a)pyrene": "BaP", "1,1,1-Trichloroethane": "1,1,1-TCA",
}  # fmt: skip
_NAME_QUALIFIERS = _Parts(
    dev=(", total", " and compounds"), test=(" (total)", ", inorganic", " compounds")
)
_CAS_FORMS = _Parts(dev=("{c}", "CAS {c}"), test=("CAS No. {c}", "CASRN {c}", "{c} (CAS)"))


def _inverted(name: str) -> str | None:
    """'1,1-Dichloroethene' -> 'Dichloroethene, 1,1-' (the RSL's order); None for a name without
    leading locants."""
    head, sep, rest = name.partition("-")
    if sep and rest and head[:1].isdigit() and not rest[:1].isdigit():
        return f"{rest}, {head}-"
    return None


def analyte_wording(rng: random.Random, split: str, name: str, cas: str | None) -> tuple[str, bool]:
    """The analyte as written, and whether its base form is other than its name."""
    synonyms = _SYNONYMS.get(name)
    abbreviation = ABBREVIATIONS.get(name)
    roll = rng.random()
    if synonyms and roll < 0.25:
        text = rng.choice(synonyms.of(split))
        if text.casefold() != name.casefold():
            if split == "dev" and abbreviation and rng.random() < 0.4:
                text += f" ({abbreviation})"
            return _decorate(rng, split, text, None, 0.0, p_mark=0.2), True
    if abbreviation and roll < 0.45:
        if split == "test":
            return _decorate(rng, split, abbreviation, None, 0.0, p_mark=0.15), True
        return _decorate(rng, split, f"{name} ({abbreviation})", None, 0.0, p_mark=0.2), False
    if cas and rng.random() < 0.2:
        return rng.choice(_CAS_FORMS.of(split)).format(c=cas), True
    text = name
    inverted = _inverted(name)
    if split == "test" and inverted and rng.random() < 0.5:
        text = inverted
    metal = cas is not None and cas.startswith("74")
    return _decorate(rng, split, text, _NAME_QUALIFIERS if metal else None, 0.3, p_mark=0.2), False
