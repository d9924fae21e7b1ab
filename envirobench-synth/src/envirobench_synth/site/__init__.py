"""Site records (issue 15): a seeded site model rendered into the documents of a site file.

    from envirobench_synth.site import SITES, build_site
    build = build_site("dev-former-station")   # volumes (PDF bytes), standards, input, answers
    small = build_site(sized_spec("demo-1", "test", seed, pages=SMALL_PAGES))  # a site of a chosen size

`model` draws the site (owners, tanks, release, sampling and results), `documents` plans the
file (reports, letters, forms, instruments, laboratory reports, with their traps), `papers`
draws pages with the facts they state, `record` files, scans, splits into volumes and derives
the four answer keys from where each fact was drawn; `vocab` pins the vocabularies.
"""

from .model import SITES, SMALL_PAGES, SPECS, SiteSpec, sized_spec
from .record import SiteBuild
from .record import build as build_site
from .vocab import CONDITION_CLASSES, CONDITION_KINDS, EVENT_KINDS, MATRICES

__all__ = [
    "CONDITION_CLASSES",
    "CONDITION_KINDS",
    "EVENT_KINDS",
    "MATRICES",
    "SITES",
    "SMALL_PAGES",
    "SPECS",
    "SiteBuild",
    "SiteSpec",
    "build_site",
    "sized_spec",
]
