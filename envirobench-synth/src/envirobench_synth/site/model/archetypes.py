"""The archetypes of a site (the kinds of business and release, their analytes and plumes) and the
names, places and reporting limits a model draws from.

Length: one table of data, an entry per kind of site (the public test sites', dev's and the
many-sites test split's eight), each its analytes, tanks, conditions with their wording, remedy
and governing tables; splitting it would scatter the one place that says which kinds exist.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass

from ... import catalogue
from .records import Measurement

ANALYTE_BY_NAME = {a.name: a for a in catalogue.ANALYTES}

# Source concentrations per analyte and matrix (groundwater in the catalogue's unit: µg/L for
# VOCs and PAHs, mg/L for TPH and metals; soil mg/kg; vapor and air µg/m³).
_GW = {
    "Benzene": 2400.0,
    "Toluene": 3800.0,
    "Ethylbenzene": 850.0,
    "Xylenes, Total": 5200.0,
    "Methyl tert-butyl ether": 640.0,
    "TPH-Gasoline Range Organics (C6-C10)": 28.0,
    "TPH-Diesel Range Organics (C10-C28)": 9.5,
    "Naphthalene": 160.0,
    "Tetrachloroethene": 3100.0,
    "Trichloroethene": 420.0,
    "cis-1,2-Dichloroethene": 380.0,
    "Vinyl chloride": 45.0,
    "Arsenic": 0.034,
    "Chromium": 2.6,
    "Cadmium": 0.048,
    "Lead": 0.021,
    # the many-sites split's kinds (issue 33)
    "1,2-Dichloroethane": 95.0,
    "Acenaphthene": 48.0,
    "1,2,4-Trimethylbenzene": 410.0,
    "Methylene chloride": 260.0,
    "1,1-Dichloroethene": 36.0,
}
_SOIL = {
    "Benzene": 14.0,
    "Toluene": 90.0,
    "Ethylbenzene": 42.0,
    "Xylenes, Total": 260.0,
    "Methyl tert-butyl ether": 1.6,
    "TPH-Gasoline Range Organics (C6-C10)": 2100.0,
    "TPH-Diesel Range Organics (C10-C28)": 6400.0,
    "TPH-Oil Range Organics (C28-C40)": 3900.0,
    "Naphthalene": 38.0,
    "Benzo(a)anthracene": 4.2,
    "Chrysene": 5.1,
    "Benzo(a)pyrene": 3.4,
    "Tetrachloroethene": 48.0,
    "Trichloroethene": 6.5,
    "Arsenic": 64.0,
    "Lead": 1450.0,
    "Chromium": 2300.0,
    "Cadmium": 95.0,
    "Aroclor 1254": 6.8,
    "Aroclor 1260": 2.9,
    "1,2-Dichloroethane": 0.85,
    "Benzo(b)fluoranthene": 4.6,
    "Barium": 2600.0,
    "Phenanthrene": 62.0,
}
_AIR = {  # µg/m³ at the source for soil vapor; sub-slab and indoor scale down
    "Tetrachloroethene": 52000.0,
    "Trichloroethene": 4100.0,
    "cis-1,2-Dichloroethene": 1900.0,
    "Vinyl chloride": 240.0,
}
_BACKGROUND = {"Arsenic": (0.002, 7.0), "Lead": (0.001, 22.0), "Chromium": (0.004, 28.0)}
_RL = {  # reporting limits by group and matrix
    ("voc", "groundwater"): 1.0,
    ("tph", "groundwater"): 0.10,
    ("metal", "groundwater"): 0.0050,
    ("pah", "groundwater"): 0.20,
    ("voc", "soil"): 0.0050,
    ("tph", "soil"): 10.0,
    ("metal", "soil"): 1.0,
    ("pah", "soil"): 0.033,
    ("pcb", "soil"): 0.050,
    ("voc", "air"): 2.5,
}


@dataclass(frozen=True)
class Archetype:
    name: str
    business: tuple[str, ...]
    gw: tuple[str, ...]
    soil: tuple[str, ...]
    air: tuple[str, ...]
    tanks: tuple[tuple[str, str, int], ...]  # (kind, contents, gallons)
    conditions: tuple[tuple[str, str, str], ...]  # (kind, class, summary)
    remedy: str
    standards: dict[str, str]
    land_use: str


ARCHETYPES = {
    "station": Archetype(
        "station",
        ("Quik Fuel #{n}", "Redline Gas & Go #{n}", "Northway Service #{n}"),
        (
            "Benzene",
            "Toluene",
            "Ethylbenzene",
            "Xylenes, Total",
            "Methyl tert-butyl ether",
            "TPH-Gasoline Range Organics (C6-C10)",
            "Naphthalene",
        ),
        (
            "Benzene",
            "Toluene",
            "Ethylbenzene",
            "Xylenes, Total",
            "TPH-Gasoline Range Organics (C6-C10)",
            "Lead",
        ),
        (),
        (
            ("UST", "regular unleaded gasoline", 10000),
            ("UST", "premium unleaded gasoline", 8000),
            ("UST", "diesel", 6000),
            ("UST", "waste oil", 550),
        ),
        (
            (
                "petroleum-ust-release",
                "REC",
                "the release of gasoline from the former UST system, whose dissolved plume "
                "remains above the groundwater cleanup standards",
            ),
            (
                "waste-oil-ust",
                "HREC",
                "the former waste-oil UST, removed with its impacted soil and closed by the "
                "agency without restrictions",
            ),
            (
                "hydraulic-lifts",
                "de-minimis",
                "minor staining around the in-ground hydraulic lifts of the service bays, not "
                "likely to be the subject of enforcement action",
            ),
        ),
        "over-excavation and soil vapor extraction",
        {"groundwater": "franklin-groundwater", "soil": "franklin-soil-industrial"},
        "industrial",
    ),
    "bulk-plant": Archetype(
        "bulk-plant",
        ("{owner} Bulk Plant", "{owner} Oil Distributors Terminal"),
        (
            "TPH-Diesel Range Organics (C10-C28)",
            "TPH-Gasoline Range Organics (C6-C10)",
            "Benzene",
            "Toluene",
            "Ethylbenzene",
            "Xylenes, Total",
            "Naphthalene",
            "Arsenic",
        ),
        (
            "TPH-Diesel Range Organics (C10-C28)",
            "TPH-Oil Range Organics (C28-C40)",
            "Benzene",
            "Naphthalene",
            "Benzo(a)anthracene",
            "Chrysene",
            "Benzo(a)pyrene",
            "Arsenic",
            "Lead",
            "Aroclor 1254",
            "Aroclor 1260",
        ),
        (),
        (
            ("AST", "diesel", 20000),
            ("AST", "gasoline", 20000),
            ("AST", "heating oil", 15000),
            ("AST", "kerosene", 12000),
            ("UST", "gasoline (loading rack sump)", 1000),
        ),
        (
            (
                "ast-loading-rack-release",
                "REC",
                "releases of petroleum at the loading rack and the aboveground tank farm, "
                "with diesel- and gasoline-range hydrocarbons in soil and groundwater",
            ),
            (
                "railroad-ties-herbicides",
                "REC",
                "arsenic and lead in surface soil along the spur track from treated ties and "
                "historical herbicide application on the railroad right-of-way",
            ),
            (
                "pcb-equipment",
                "CREC",
                "PCBs at the former pole-mounted transformer pad, remediated to industrial "
                "standards under an activity and use limitation",
            ),
            (
                "drum-storage-staining",
                "de-minimis",
                "minor staining beneath the drum rack in the warehouse, not likely to be the "
                "subject of enforcement action",
            ),
        ),
        "excavation of the loading rack soils",
        {"groundwater": "epa-mcl", "soil": "epa-rsl-soil-industrial-thq1.0"},
        "industrial",
    ),
    "dry-cleaner": Archetype(
        "dry-cleaner",
        ("{name} Cleaners", "{name} Dry Cleaning & Laundry"),
        (
            "Tetrachloroethene",
            "Trichloroethene",
            "cis-1,2-Dichloroethene",
            "Vinyl chloride",
        ),
        ("Tetrachloroethene", "Trichloroethene"),
        ("Tetrachloroethene", "Trichloroethene", "cis-1,2-Dichloroethene", "Vinyl chloride"),
        (("UST", "heating oil", 1000),),
        (
            (
                "chlorinated-solvent-release",
                "CREC",
                "the release of tetrachloroethene from the dry-cleaning operations, addressed "
                "under the state drycleaner program with an environmental covenant and "
                "engineering controls that remain in place",
            ),
            (
                "vapor-intrusion",
                "REC",
                "chlorinated solvent vapors beneath the building slab and in indoor air of "
                "the adjoining tenant space, controlled only in part by the sub-slab "
                "depressurization system",
            ),
            (
                "heating-oil-tank",
                "HREC",
                "the former heating-oil UST, removed and closed by the agency without restrictions",
            ),
        ),
        "sub-slab depressurization",
        {"groundwater": "franklin-groundwater", "soil": "franklin-soil-residential"},
        "residential",
    ),
    "auto-repair": Archetype(
        "auto-repair",
        ("{name} Auto Repair", "{name} Motors Service Center"),
        (
            "Benzene",
            "Toluene",
            "Ethylbenzene",
            "Xylenes, Total",
            "TPH-Diesel Range Organics (C10-C28)",
            "Tetrachloroethene",
            "Trichloroethene",
        ),
        ("TPH-Diesel Range Organics (C10-C28)", "TPH-Oil Range Organics (C28-C40)", "Lead"),
        (),
        (("UST", "waste oil", 550), ("UST", "gasoline", 4000)),
        (
            (
                "waste-oil-ust",
                "REC",
                "the release from the former waste-oil UST and the parts-washer area, with "
                "solvents and petroleum in groundwater",
            ),
            (
                "floor-drains-dry-well",
                "REC",
                "service-bay floor drains that discharged to a dry well",
            ),
            (
                "hydraulic-lifts",
                "REC",
                "hydraulic oil in soil beneath the in-ground lifts, where a lift cylinder leaked",
            ),
        ),
        "excavation of the dry well",
        {"groundwater": "epa-rsl-tapwater-thq1.0", "soil": "epa-rsl-soil-industrial-thq1.0"},
        "industrial",
    ),
    "plating-shop": Archetype(
        "plating-shop",
        ("{name} Plating Works", "{name} Metal Finishing"),
        ("Chromium", "Cadmium", "Trichloroethene", "cis-1,2-Dichloroethene"),
        ("Chromium", "Cadmium", "Lead", "Trichloroethene"),
        (),
        (("UST", "heating oil", 2000),),
        (
            (
                "plating-solutions",
                "REC",
                "chromium and cadmium from the plating line sumps in soil and groundwater",
            ),
            (
                "chlorinated-solvent-release",
                "REC",
                "trichloroethene from the vapor degreaser",
            ),
            (
                "heating-oil-tank",
                "HREC",
                "the former heating-oil UST, removed and closed without restrictions",
            ),
            (
                "fill-material",
                "de-minimis",
                "a thin layer of cinder fill under the parking area, not likely to be the "
                "subject of enforcement action",
            ),
        ),
        "in-situ chemical reduction",
        {"groundwater": "epa-mcl", "soil": "epa-rsl-soil-residential-thq1.0"},
        "residential",
    ),
    # Dev's own kinds of site: no test site's archetype, history or (kind, class) of condition
    # occurs in dev (tests/site/test_recognized_conditions.py checks the shipped keys).
    "fleet-garage": Archetype(
        "fleet-garage",
        ("{owner} Fleet Services Yard", "{name} Transit Garage"),
        (
            "TPH-Diesel Range Organics (C10-C28)",
            "TPH-Gasoline Range Organics (C6-C10)",
            "Benzene",
            "Toluene",
            "Ethylbenzene",
            "Xylenes, Total",
            "Naphthalene",
        ),
        (
            "TPH-Diesel Range Organics (C10-C28)",
            "TPH-Oil Range Organics (C28-C40)",
            "Benzene",
            "Naphthalene",
            "Lead",
        ),
        (),
        (
            ("UST", "diesel", 12000),
            ("UST", "gasoline", 6000),
            ("UST", "waste oil", 1000),
        ),
        (
            (
                "petroleum-ust-release",
                "CREC",
                "the release of diesel and gasoline from the former fueling USTs, with residual "
                "petroleum in groundwater beneath the yard managed under an environmental "
                "covenant that prohibits the use of groundwater",
            ),
            (
                "hydraulic-lifts",
                "HREC",
                "the former in-ground hydraulic lifts of the maintenance bays, removed with their "
                "impacted soil and closed by the agency without restrictions",
            ),
            (
                "floor-drains-dry-well",
                "REC",
                "maintenance-bay trench drains that discharged to a dry well, whose sediment "
                "holds petroleum and lead not yet addressed",
            ),
        ),
        "dual-phase extraction",
        {"groundwater": "epa-rsl-tapwater-thq1.0", "soil": "epa-rsl-soil-industrial-thq1.0"},
        "industrial",
    ),
    "printing-plant": Archetype(
        "printing-plant",
        ("{name} Printing Company", "{name} Press & Lithograph"),
        (
            "Toluene",
            "Ethylbenzene",
            "Xylenes, Total",
            "Trichloroethene",
            "cis-1,2-Dichloroethene",
            "TPH-Diesel Range Organics (C10-C28)",
        ),
        (
            "Toluene",
            "Xylenes, Total",
            "Trichloroethene",
            "TPH-Diesel Range Organics (C10-C28)",
            "Lead",
            "Chromium",
            "Aroclor 1260",
        ),
        (),
        (("UST", "heating oil", 4000), ("UST", "press-wash solvent", 1000)),
        (
            (
                "drum-storage-staining",
                "REC",
                "releases of spent press-wash solvents at the former drum storage area, with "
                "toluene, xylenes and trichloroethene in soil and groundwater",
            ),
            (
                "pcb-equipment",
                "HREC",
                "the former transformer vault, whose PCB-impacted concrete and soil were removed "
                "and closed by the agency without restrictions",
            ),
            (
                "heating-oil-tank",
                "CREC",
                "residual heating oil left beneath the building footprint where the former "
                "heating-oil UST was removed, managed under an activity and use limitation",
            ),
            (
                "fill-material",
                "de-minimis",
                "a thin layer of ash and cinder fill along the rear loading dock, not likely to "
                "be the subject of enforcement action",
            ),
        ),
        "excavation of the drum storage area and groundwater extraction",
        {"groundwater": "epa-mcl", "soil": "epa-rsl-soil-residential-thq1.0"},
        "industrial",
    ),
}

# The many-sites test split's kinds of site (issue 33, "a Site test with power"): none is a dev
# kind or a public test site's, none of their (condition kind, class) pairs occurs in dev.
def _many(
    name, business, gw, soil, tanks, conditions, remedy, standards, land_use
) -> Archetype:
    return Archetype(name, business, gw, soil, (), tanks, conditions, remedy, standards, land_use)


_RSL_IND = {"groundwater": "epa-mcl", "soil": "epa-rsl-soil-industrial-thq1.0"}
ARCHETYPES.update(
    {
        "ag-chem-dealer": _many(
            "ag-chem-dealer",
            ("{name} Farm Supply", "{owner} Agri-Chemical Company"),
            ("Arsenic", "Lead", "1,2-Dichloroethane", "Benzene", "TPH-Diesel Range Organics (C10-C28)"),
            ("Arsenic", "Lead", "1,2-Dichloroethane", "TPH-Diesel Range Organics (C10-C28)"),
            (("UST", "diesel", 6000), ("AST", "liquid fertilizer", 30000), ("UST", "gasoline", 2000)),
            (
                (
                    "drum-storage-staining",
                    "CREC",
                    "arsenic and lead in surface soil at the former pesticide mixing and loading "
                    "pad and drum storage area, capped with asphalt and managed under an "
                    "environmental covenant",
                ),
                (
                    "ast-loading-rack-release",
                    "HREC",
                    "the former bulk fertilizer and fuel tank loading area, whose impacted soil "
                    "was excavated and closed by the agency without restrictions",
                ),
                (
                    "offsite-source",
                    "REC",
                    "1,2-dichloroethane in groundwater entering the property from the adjoining "
                    "grain elevator's former fumigant storage",
                ),
            ),
            "excavation and capping of the mixing pad soils",
            _RSL_IND,
            "industrial",
        ),
        "former-mgp": _many(
            "former-mgp",
            ("{name} Gas Light Company", "{owner} Gas Works"),
            ("Benzene", "Toluene", "Xylenes, Total", "Naphthalene", "Acenaphthene", "Arsenic"),
            (
                "Benzene",
                "Naphthalene",
                "Phenanthrene",
                "Benzo(a)anthracene",
                "Benzo(a)pyrene",
                "Benzo(b)fluoranthene",
                "Arsenic",
                "Lead",
            ),
            (("AST", "tar (relief holder)", 25000), ("UST", "heating oil", 2000)),
            (
                (
                    "fill-material",
                    "CREC",
                    "coal tar, purifier waste and ash in the fill across the former gas works, "
                    "left in place beneath a soil cap under an environmental covenant",
                ),
                (
                    "drum-storage-staining",
                    "HREC",
                    "the former tar separator and drip-oil drum area, excavated and closed by the "
                    "agency without restrictions",
                ),
                (
                    "heating-oil-tank",
                    "de-minimis",
                    "minor staining at the fill port of the heating-oil tank of the former "
                    "office, not likely to be the subject of enforcement action",
                ),
            ),
            "excavation of the tar holder and a soil cap",
            _RSL_IND,
            "industrial",
        ),
        "landfill-adjacent": _many(
            "landfill-adjacent",
            ("{name} Salvage & Recycling", "{owner} Landfill Road Yard"),
            ("Vinyl chloride", "cis-1,2-Dichloroethene", "Benzene", "1,1-Dichloroethene", "Arsenic"),
            ("Lead", "Arsenic", "TPH-Oil Range Organics (C28-C40)", "Benzo(a)pyrene"),
            (("UST", "gasoline", 2000), ("UST", "waste oil", 550)),
            (
                (
                    "offsite-source",
                    "REC",
                    "landfill leachate from the closed municipal landfill adjoining to the east, "
                    "with vinyl chloride and benzene in groundwater beneath the property",
                ),
                (
                    "fill-material",
                    "HREC",
                    "demolition debris fill in the former borrow pit, excavated and closed by the "
                    "agency without restrictions",
                ),
                (
                    "waste-oil-ust",
                    "de-minimis",
                    "minor staining around the waste-oil tank's fill port, not likely to be the "
                    "subject of enforcement action",
                ),
            ),
            "excavation of the debris fill",
            {"groundwater": "epa-rsl-tapwater-thq1.0", "soil": "epa-rsl-soil-industrial-thq1.0"},
            "industrial",
        ),
        "rail-yard": _many(
            "rail-yard",
            ("{owner} Rail Yard", "{name} Locomotive Servicing Facility"),
            ("TPH-Diesel Range Organics (C10-C28)", "Benzene", "Naphthalene", "Arsenic", "Lead"),
            (
                "TPH-Diesel Range Organics (C10-C28)",
                "TPH-Oil Range Organics (C28-C40)",
                "Arsenic",
                "Lead",
                "Benzo(a)pyrene",
                "Aroclor 1260",
            ),
            (("AST", "diesel", 50000), ("AST", "lubricating oil", 10000), ("UST", "waste oil", 2000)),
            (
                (
                    "railroad-ties-herbicides",
                    "CREC",
                    "arsenic and lead in the ballast and surface soil of the yard tracks, left in "
                    "place under an environmental covenant limiting the property to industrial use",
                ),
                (
                    "ast-loading-rack-release",
                    "HREC",
                    "diesel released at the former locomotive fueling rack, excavated and closed "
                    "by the agency without restrictions",
                ),
                (
                    "pcb-equipment",
                    "REC",
                    "PCBs in soil at the former substation of the engine house, not yet addressed",
                ),
                (
                    "floor-drains-dry-well",
                    "de-minimis",
                    "minor oil staining in the engine-house pit drains, not likely to be the "
                    "subject of enforcement action",
                ),
            ),
            "excavation of the fueling rack soils",
            _RSL_IND,
            "industrial",
        ),
        "machine-shop": _many(
            "machine-shop",
            ("{name} Machine & Tool", "{name} Precision Machining"),
            (
                "Trichloroethene",
                "cis-1,2-Dichloroethene",
                "1,1-Dichloroethene",
                "Vinyl chloride",
                "TPH-Diesel Range Organics (C10-C28)",
                "Chromium",
            ),
            ("Trichloroethene", "TPH-Oil Range Organics (C28-C40)", "Chromium", "Lead"),
            (("UST", "cutting oil", 1000), ("UST", "heating oil", 2000)),
            (
                (
                    "chlorinated-solvent-release",
                    "HREC",
                    "trichloroethene from the former vapor degreaser, remediated and closed by the "
                    "agency without restrictions",
                ),
                (
                    "floor-drains-dry-well",
                    "CREC",
                    "cutting oils and chromium in the dry well the machining floor drains "
                    "discharged to, closed in place under an environmental covenant",
                ),
                (
                    "heating-oil-tank",
                    "de-minimis",
                    "minor staining at the heating-oil tank's vent and fill pipes, not likely to "
                    "be the subject of enforcement action",
                ),
            ),
            "enhanced reductive dechlorination",
            {"groundwater": "franklin-groundwater", "soil": "franklin-soil-industrial"},
            "industrial",
        ),
        "paint-manufacturer": _many(
            "paint-manufacturer",
            ("{name} Paint & Varnish Company", "{name} Coatings, Inc."),
            (
                "Toluene",
                "Ethylbenzene",
                "Xylenes, Total",
                "1,2,4-Trimethylbenzene",
                "Methylene chloride",
            ),
            ("Toluene", "Xylenes, Total", "Lead", "Chromium", "Barium", "Cadmium"),
            (
                ("AST", "mineral spirits", 12000),
                ("AST", "toluene", 8000),
                ("UST", "heating oil", 3000),
            ),
            (
                (
                    "ast-loading-rack-release",
                    "CREC",
                    "solvents released at the former tank farm and tank-truck unloading rack, "
                    "with residual toluene and xylenes in groundwater managed under an "
                    "environmental covenant",
                ),
                (
                    "drum-storage-staining",
                    "HREC",
                    "lead and chromium pigment wastes at the former drum yard, excavated and "
                    "closed by the agency without restrictions",
                ),
                (
                    "heating-oil-tank",
                    "HREC",
                    "the former heating-oil UST, removed and closed by the agency without "
                    "restrictions",
                ),
                (
                    "pcb-equipment",
                    "de-minimis",
                    "minor staining on the concrete pad of the pad-mounted transformer, not "
                    "likely to be the subject of enforcement action",
                ),
            ),
            "excavation of the drum yard and groundwater extraction",
            {"groundwater": "epa-mcl", "soil": "epa-rsl-soil-residential-thq1.0"},
            "industrial",
        ),
        "truck-stop": _many(
            "truck-stop",
            ("{owner} Travel Plaza", "{name} Truck Stop #{n}"),
            (
                "TPH-Diesel Range Organics (C10-C28)",
                "TPH-Gasoline Range Organics (C6-C10)",
                "Benzene",
                "Toluene",
                "Ethylbenzene",
                "Xylenes, Total",
                "Methyl tert-butyl ether",
                "Naphthalene",
            ),
            (
                "TPH-Diesel Range Organics (C10-C28)",
                "TPH-Gasoline Range Organics (C6-C10)",
                "Benzene",
                "Naphthalene",
                "Lead",
            ),
            (
                ("UST", "diesel", 20000),
                ("UST", "diesel", 20000),
                ("UST", "gasoline", 12000),
                ("UST", "waste oil", 1000),
            ),
            (
                (
                    "petroleum-ust-release",
                    "REC",
                    "diesel and gasoline released from the fuel island USTs, with free product "
                    "and a dissolved plume still under corrective action",
                ),
                (
                    "offsite-source",
                    "REC",
                    "a gasoline plume from the former service station across the highway, whose "
                    "MTBE reaches the property's upgradient wells",
                ),
                (
                    "waste-oil-ust",
                    "de-minimis",
                    "minor staining around the waste-oil tank's fill box at the lube bay, not "
                    "likely to be the subject of enforcement action",
                ),
            ),
            "multi-phase extraction",
            {"groundwater": "franklin-groundwater", "soil": "franklin-soil-industrial"},
            "industrial",
        ),
        "boatyard": _many(
            "boatyard",
            ("{name} Boatyard & Marina", "{owner} Marine Services"),
            (
                "Benzene",
                "TPH-Gasoline Range Organics (C6-C10)",
                "TPH-Diesel Range Organics (C10-C28)",
                "Lead",
                "Chromium",
            ),
            ("Lead", "Chromium", "Arsenic", "TPH-Oil Range Organics (C28-C40)", "Benzo(a)pyrene"),
            (("UST", "gasoline", 6000), ("UST", "diesel", 4000)),
            (
                (
                    "petroleum-ust-release",
                    "HREC",
                    "the release from the former fuel dock USTs, remediated and closed by the "
                    "agency without restrictions",
                ),
                (
                    "drum-storage-staining",
                    "CREC",
                    "lead and chromium from hull scraping and bottom-paint wastes in the soil of "
                    "the boat storage yard, capped under an environmental covenant",
                ),
                (
                    "fill-material",
                    "REC",
                    "dredge spoils used as fill along the bulkhead, with arsenic and PAHs not yet "
                    "characterized",
                ),
            ),
            "excavation of the fuel dock soils",
            {"groundwater": "epa-rsl-tapwater-thq1.0", "soil": "epa-rsl-soil-residential-thq1.0"},
            "residential",
        ),
    }
)

OWNER_NAMES = (
    "Harlan & Sons Oil Company",
    "Meriwether Holdings LLC",
    "Tobias Renner",
    "Greywater Land Company",
    "Ostrander Family Trust",
    "Copperline Properties, Inc.",
    "Yellowstone & Pacific Railway Company",
    "Calder Real Estate Partners LP",
    "Wexley Commercial LLC",
    "Pruitt Investment Group",
    "Delmonico Enterprises",
    "Foxglove Realty Corp.",
)
PLACE_NAMES = ("Juniper", "Ashgrove", "Bellhaven", "Corliss", "Duxbury", "Elmstead", "Fairlight")
CITIES = (
    ("Port Ellery", "Rookwood"),
    ("Marlow", "Marlow"),
    ("Teasdale", "Teasdale"),
    ("Alder Falls", "Alder"),
    ("Cinder Bluff", "Cinder"),
    ("Saltmarsh", "Saltmarsh"),
)
STREETS = ("Depot Street", "Main Street", "Railroad Avenue", "Industrial Parkway", "Mill Road")
CONTACTS = ("Dana Whitcombe", "Luis Ferreira", "Priya Raman", "Gordon Achebe", "Marta Lindqvist")


def _day(rng: random.Random, year: int) -> dt.date:
    return dt.date(year, rng.randint(1, 12), rng.randint(1, 28))


def three_figures(value: float) -> float:
    """`value` rounded to three significant figures (0 for zero or less)."""
    if value <= 0:
        return 0.0
    digits = 3 - int(math.floor(math.log10(value))) - 1
    return round(value, digits)


def _unit(analyte: str, matrix: str) -> str:
    group = ANALYTE_BY_NAME[analyte].group
    if matrix in ("soil-vapor", "sub-slab-vapor", "indoor-air"):
        return "µg/m³"
    if matrix == "soil":
        return "mg/kg"
    return {"voc": "µg/L", "pah": "µg/L", "tph": "mg/L"}.get(group, "mg/L")


def _rl(analyte: str, matrix: str) -> float:
    group = ANALYTE_BY_NAME[analyte].group
    if group == "mercury":
        group = "metal"
    medium = "air" if matrix in ("soil-vapor", "sub-slab-vapor", "indoor-air") else matrix
    base = _RL[(group, medium)]
    if matrix == "indoor-air":
        return 0.20 if analyte != "Vinyl chloride" else 0.10
    return base


def measure(
    rng: random.Random, analyte: str, matrix: str, true_value: float, dilution: float = 1.0
) -> Measurement:
    """A laboratory's measurement of `true_value`: scatter, reporting limit, non-detect, J flag."""
    rl = _rl(analyte, matrix)
    if true_value > 200 * rl:
        # high concentrations are run diluted: the reporting limit rises with the dilution
        dilution = 10 ** math.floor(math.log10(true_value / (20 * rl)))
        rl = three_figures(rl * dilution)
    value = true_value * rng.lognormvariate(0.0, 0.22)
    unit = _unit(analyte, matrix)
    if value < rl / 3:
        return Measurement(analyte, None, unit, rl, "U" if rng.random() < 0.5 else "")
    if value < rl:
        return Measurement(analyte, three_figures(value), unit, rl, "J")
    return Measurement(analyte, three_figures(value), unit, rl, "")
