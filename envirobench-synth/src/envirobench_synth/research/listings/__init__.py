"""Regulatory database reports of a property and its neighbours, rendered as PDFs.

A commercial database report (the kind a Phase I assessor orders) lists, for a search radius
around a subject property, every record of every searched database: underground tanks, leaking
tank incidents, spills, hazardous-waste generators, discharge permits, enforcement actions. Each
listing gives a site name, an address, a distance and direction from the subject, the elevation
relative to it and the database's record number. The reader's job is to say, for every listing,
which site it is: the subject property, one of the neighbours the client named, another site, or
none that can be placed.

    rng = make_random(SEED, "test", "dl-test-0007")
    report = sample_report(rng, "test")
    pdf, scanned = render_report(report, SEED, "test", "dl-test-0007")

The truth rule (`Listing.site`), which is what an assessor does:

- a listing with a full street address (a number and a street) is the site at that address: the
  same street number (or a number inside a site's address range, "1200-1250 Main St"), the same
  street name, directional and city, whatever the suffix, directional or unit is written as
  ("St"/"Street", "N."/"North", "Suite 200"/"#200"), however a database's short field cut a long
  street name (COMMER or CMMRC for Commerce), and *whatever name* it is listed under (a former
  occupant at the subject's address is the subject); a listing that gives a range of numbers
  (1415-1421) is the site whose number the range holds; another number, directional, street or
  city is "other";
- a listing whose address gives a street but no number is placed by its name: the site on that
  street whose name (or former name, or d/b/a) it is, written with any corporate suffix
  ("Inc."/"Incorporated", "Co."/"Company"); a name that is no known site's is "unmappable";
- a listing without a street (only a geocoded point, or "address not reported") is "unmappable".

So a name never overrides a full address: the subject's name at another address (a chain's other
store, the owner's other plant) is "other".

The traps, recorded per listing (`Listing.trap`):

    address-variant     a known site's address written differently (suffix, directional, unit,
                        case) under a name variant
    other-occupant      a known site's address under an unrelated or former occupant's name
    in-range            a number inside a neighbour's address range
    named-street-only   a street without a number and a known site's name (or d/b/a, former name)
    same-name-elsewhere a known site's name at another address: "other"
    near-number         a known site's street with a nearby number, or just outside its range
    other-directional   a known site's number and street with the opposite directional
    other-city          a known site's number and street in another city
    other-site          an unrelated site
    unmappable-point    no street, only a geocoded point
    unmappable-street   a street without a number under a name no known site has
    truncated-street    a known site's address with its long street name cut short (TRUNCATION)
    listing-range       a range of numbers holding a known site's number

Families (`LAYOUTS_BY_SPLIT`, `DATABASES_BY_SPLIT`): how listings are laid out and what the
databases are called. The test split's layouts and database titles never occur in dev. Some
reports are scanned (their detail pages are images without a text layer).

The package in parts: `vocabulary` (with the records), `sampling` and `rendering`.
"""

from .rendering import Line, paginate, render_pages, render_report
from .sampling import sample_report, truncate
from .vocabulary import LAYOUTS_BY_SPLIT, SCAN_DPI, SITE_TRAPS, TRAPS, Report

__all__ = [
    "LAYOUTS_BY_SPLIT",
    "Line",
    "Report",
    "SCAN_DPI",
    "SITE_TRAPS",
    "TRAPS",
    "paginate",
    "render_pages",
    "render_report",
    "sample_report",
    "truncate",
]
