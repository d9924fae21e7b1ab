"""The seeded site model: parcels and owners, operations, tanks, releases, sampling and results.

`sample_model(spec)` draws one site from its `SiteSpec` (id, split, seed, archetype, page target):
the owners of the parcel over decades (each transfer a recorded deed), the business and its
tanks, the release and the agency case it opened, the sampling campaigns (tank-pit samples at
tank removal, a Phase II's borings and first wells, further characterization, quarterly then
semiannual groundwater monitoring, soil-vapor, sub-slab and indoor-air rounds where solvents are
the concern), the remedy and the closure. Results follow a plume: each sampling point sits at a
distance from the source, concentrations fall off with distance and, once the remedy starts,
with time (chlorinated ethenes degrade PCE to TCE to cis-1,2-DCE to vinyl chloride), with
lognormal scatter; a value below a third of its reporting limit is a non-detect, one between
that and the limit is an estimated ("J") detection.

The truth of every result is here; documents (`papers`) print it, and the record (`record`)
decides which printing governs.

The package in parts: `specs` (the sites), `records` (the model's records), `archetypes` and
`sampling` (`sample_model`).
"""

from .archetypes import ARCHETYPES, three_figures
from .records import Campaign, Measurement, Sample, SiteModel, key_of, result_fact
from .sampling import sample_model
from .specs import SITES, SMALL_PAGES, SPECS, SiteSpec, sized_spec

__all__ = [
    "ARCHETYPES",
    "Campaign",
    "Measurement",
    "SITES",
    "SMALL_PAGES",
    "SPECS",
    "Sample",
    "SiteModel",
    "SiteSpec",
    "key_of",
    "result_fact",
    "sample_model",
    "sized_spec",
    "three_figures",
]
