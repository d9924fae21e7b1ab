"""Names of one compound: the synonym table the `semantic` record profile resolves analyte names with.

Laboratories name one compound several ways (Tetrachloroethene, Tetrachloroethylene,
Perchloroethylene, PCE). `COMPOUNDS` lists, per compound, every name this table knows for it,
keyed by its CAS Registry Number, or, for a mixture that has none (a petroleum range), by its
usual abbreviation. `compound_of(name)` gives that key for a name, compared as record names are
(`names.normalise_name`: NFKC, ASCII quotes, one space, case-folded), or None for a name the
table does not know; such a name stands for itself.

What the table covers: every analyte name and abbreviation of the synthetic report catalogue
(envirobench_synth.catalogue.ANALYTES) and every synonym of the report vocabulary
(envirobench_synth.vocabulary.ANALYTE_SYNONYMS), dev and test alike, plus a few common spellings
marked below. tests/extract/test_semantic_records.py checks the coverage, so a synonym appended
to the vocabulary must be appended here too. The table is data, not the vocabulary module: the
scorer never imports the generators.

What it deliberately does not do: a fraction or basis that changes what was measured is not a
synonym. "Lead, Total" is Lead (reports print total metals as the plain name), but "Lead,
Dissolved" is not in the table, so it never matches a total-lead record; m,p-Xylene is not
o-Xylene, and neither is Xylenes, Total.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .names import normalise_name

COMPOUNDS: dict[str, tuple[str, ...]] = {
    # Volatile organic compounds
    "71-43-2": ("Benzene",),
    "108-88-3": ("Toluene", "Methylbenzene"),  # Methylbenzene: common spelling
    "100-41-4": ("Ethylbenzene", "Ethyl benzene"),  # Ethyl benzene: common spelling
    "1330-20-7": ("Xylenes, Total", "Total Xylenes", "Xylenes (total)"),
    "95-47-6": ("o-Xylene",),
    "1634-04-4": (
        "Methyl tert-butyl ether",
        "MTBE",
        "tert-Butyl methyl ether",
        "Methyl t-butyl ether",
    ),
    "95-63-6": ("1,2,4-Trimethylbenzene", "1,2,4-TMB"),
    "127-18-4": ("Tetrachloroethene", "PCE", "Tetrachloroethylene", "Perchloroethylene"),
    "79-01-6": ("Trichloroethene", "TCE", "Trichloroethylene"),
    "156-59-2": (
        "cis-1,2-Dichloroethene",
        "cis-1,2-DCE",
        "cis-1,2-Dichloroethylene",
        "c-1,2-DCE",
    ),
    "156-60-5": (
        "trans-1,2-Dichloroethene",
        "trans-1,2-DCE",
        "trans-1,2-Dichloroethylene",
        "t-1,2-DCE",
    ),
    "75-35-4": ("1,1-Dichloroethene", "1,1-DCE", "1,1-Dichloroethylene", "Vinylidene chloride"),
    "75-01-4": ("Vinyl chloride", "VC", "Chloroethene", "Chloroethylene"),
    "75-09-2": ("Methylene chloride", "Dichloromethane"),
    "67-66-3": ("Chloroform", "Trichloromethane"),
    "107-06-2": ("1,2-Dichloroethane", "1,2-DCA", "Ethylene dichloride"),
    # Total petroleum hydrocarbons: carbon ranges without a CAS Registry Number
    "TPH-GRO": ("TPH-Gasoline Range Organics (C6-C10)", "TPH-GRO"),
    "TPH-DRO": ("TPH-Diesel Range Organics (C10-C28)", "TPH-DRO"),
    "TPH-ORO": ("TPH-Oil Range Organics (C28-C40)", "TPH-ORO"),
    # Metals (the plain name is the total metal)
    "7440-38-2": ("Arsenic", "Arsenic (As)", "Arsenic, Total"),
    "7440-39-3": ("Barium",),
    "7440-43-9": ("Cadmium",),
    "7440-47-3": ("Chromium",),
    "7439-92-1": ("Lead", "Lead (Pb)", "Lead, Total"),
    "7782-49-2": ("Selenium",),
    "7440-22-4": ("Silver",),
    "7439-97-6": ("Mercury", "Mercury (Hg)", "Mercury, Total"),
    # Polycyclic aromatic hydrocarbons
    "91-20-3": ("Naphthalene",),
    "83-32-9": ("Acenaphthene",),
    "85-01-8": ("Phenanthrene",),
    "120-12-7": ("Anthracene",),
    "206-44-0": ("Fluoranthene",),
    "129-00-0": ("Pyrene",),
    "56-55-3": ("Benzo(a)anthracene", "Benz[a]anthracene", "Benzo[a]anthracene"),
    "218-01-9": ("Chrysene",),
    "205-99-2": ("Benzo(b)fluoranthene", "Benzo[b]fluoranthene"),
    "50-32-8": ("Benzo(a)pyrene", "BaP", "Benzo[a]pyrene", "B(a)P"),
    "193-39-5": ("Indeno(1,2,3-cd)pyrene", "Indeno[1,2,3-cd]pyrene"),
    "53-70-3": ("Dibenz(a,h)anthracene", "Dibenzo[a,h]anthracene"),
    # Semivolatiles and PCBs
    "123-91-1": ("1,4-Dioxane", "p-Dioxane"),
    "11097-69-1": ("Aroclor 1254", "PCB-1254", "Aroclor-1254"),
    "11096-82-5": ("Aroclor 1260", "PCB-1260", "Aroclor-1260"),
}


@lru_cache(maxsize=1)
def _table() -> dict[str, str]:

    table: dict[str, str] = {}
    for compound, names in COMPOUNDS.items():
        for name in names:
            other = table.setdefault(normalise_name(name), compound)
            if other != compound:
                raise ValueError(f"{name!r} names both {other} and {compound}")
    return table


def compound_of(name: str) -> str | None:
    """The compound a name (as printed) stands for: its CAS Registry Number, or for a mixture
    without one its abbreviation; None when the table does not know the name."""

    return _table().get(normalise_name(name))


def compound_of_normalised(name: str) -> str | None:
    """`compound_of` for a name already through `names.normalise_name`."""
    return _table().get(name)


_CAS = re.compile(r"^[0-9]{2,7}-[0-9]{2}-[0-9]$")


def cas_of(compound: str) -> str | None:
    """The CAS Registry Number of a compound key; None for a mixture without one."""
    return compound if _CAS.match(compound) else None
