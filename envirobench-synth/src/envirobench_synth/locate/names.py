"""The names and places both locate sets (the document-type set's documents and the site file's
pages) draw from: the start of each pool, which each set extends with names of its own
(locate.documents.kinds and locate.sitepages), so a name both sets use is written once.
"""

SHARED_FIRST = (
    "Alma",
    "Boris",
    "Celeste",
    "Dmitri",
    "Esme",
    "Farid",
    "Gwen",
    "Hiro",
    "Ines",
    "Jasper",
    "Kalani",
)
SHARED_LAST = (
    "Ashworth",
    "Brandt",
    "Castellano",
    "Dimitriou",
    "Eklund",
    "Fairweather",
    "Guerrero",
    "Haldane",
    "Ibarra",
    "Jankowski",
)
SHARED_LABS = (
    "Northfork Analytical Laboratories",
    "Clearwater Testing Services",
    "Pinnacle Environmental Labs",
)
SHARED_AGENCIES = (
    "Department of Environmental Quality",
    "Department of Ecology",
    "Department of Environmental Protection",
)
SHARED_STREETS = (
    "Depot Street",
    "Main Street",
    "Railroad Avenue",
    "Industrial Parkway",
    "Mill Road",
    "Harbor Drive",
)
