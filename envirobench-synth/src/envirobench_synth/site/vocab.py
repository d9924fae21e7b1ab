"""The pinned vocabularies of the site records: matrices, condition kinds and event kinds.

Every case input carries these lists (`build_site(...).input`), so the category package never
imports synth at run time. They are append-only: a dataset pins them by value.
"""

from __future__ import annotations

MATRICES = (
    "groundwater",
    "soil",
    "soil-vapor",
    "sub-slab-vapor",
    "indoor-air",
    "surface-water",
    "sediment",
)

# Recognized-environmental-condition kinds (what the condition is about); the class (REC, CREC,
# HREC, de minimis, ASTM E1527-21) is the answer, not part of the kind.
CONDITION_KINDS = (
    "petroleum-ust-release",  # gasoline or diesel released from underground storage tanks
    "waste-oil-ust",  # a used-oil or waste-oil underground tank
    "heating-oil-tank",  # a heating-oil tank for the building
    "ast-loading-rack-release",  # bulk-plant aboveground tanks, loading rack, product piping
    "railroad-ties-herbicides",  # arsenic and lead from treated ties, ballast and herbicide use
    "pcb-equipment",  # transformers or hydraulic equipment holding PCBs
    "chlorinated-solvent-release",  # PCE or TCE from dry cleaning, degreasing or parts washing
    "vapor-intrusion",  # volatile chemicals in sub-slab vapor or indoor air
    "hydraulic-lifts",  # in-ground hydraulic lifts of a service bay
    "floor-drains-dry-well",  # floor drains discharging to a dry well or septic system
    "plating-solutions",  # metal-plating tanks, rinse waters and their sumps
    "drum-storage-staining",  # drums, stained pavement, minor surface spills
    "offsite-source",  # a release on a neighbouring property reaching the site
    "fill-material",  # imported fill of unknown origin
)
CONDITION_CLASSES = ("REC", "CREC", "HREC", "de-minimis")

# Dated events of a site's timeline. Subjects: a tank ID for tank events, the parcel's tax number
# for ownership, lease and covenant events, none for the others.
EVENT_KINDS = (
    "ownership-transfer",  # a deed recorded (subject: the parcel's tax number)
    "lease-executed",  # a lease of the site (subject: the parcel)
    "lease-amended",  # an amendment of that lease
    "operations-began",  # the business at the site opened
    "operations-ceased",  # the business closed
    "tank-installed",  # subject: the tank ID (T-1, AST-2)
    "tank-removed",  # subject: the tank ID
    "release-reported",  # a release reported to the agency (its case opened)
    "phase-i-esa",  # a Phase I environmental site assessment issued (final)
    "phase-ii-esa",  # a Phase II investigation report issued (final)
    "corrective-action-plan",  # a corrective action plan issued (final)
    "remediation-began",  # a remedy started
    "remediation-ended",  # a remedy stopped
    "no-further-action",  # the agency's no-further-action determination (partial or whole)
    "covenant-recorded",  # an environmental covenant recorded
)

# Location prefixes by kind of sampling point.
LOCATION_KINDS = {
    "MW": "monitoring well",
    "SB": "soil boring",
    "TP": "tank pit sample",
    "SV": "soil vapor probe",
    "SS": "sub-slab vapor port",
    "IA": "indoor air sample",
}
