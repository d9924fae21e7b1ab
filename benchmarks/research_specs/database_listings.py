"""docs/reference-scores.md's Research table for `database-listings`: blind baselines and columns
(read by benchmarks/reference_scores.py --research)."""

from _spec_parts import by_category_and, count, share

BENCHMARK = "database-listings"
UNIT = "reports"
INTRO = (
    "The reference adapter (`solvers/database_listings.py`, developed on the dev split only: the text layer or OCR "
    "of a scanned report, running headers dropped, each record number's visual block, USPS suffix forms, "
    "directionals, address ranges and a listing's own range, street names cut to their first five letters or more, "
    "corporate suffixes, former and d/b/a names; a full street address decides, a name "
    "only places a listing that has a street without a number) on both splits; the test split's layouts, "
    "database titles and street-name cuts (vowels dropped) never occur in dev. Primary: the F1 of putting listings on the subject and the neighbours "
    "(pooled over listings); accuracy counts all four labels. Beside it, blind baselines that never read the report: "
    "every listing another site (match F1 0, its accuracy is the share of 'other' listings) and every listing the "
    "subject."
)
BASELINES = {
    "every listing another site": lambda case_input, answer: {
        "sites": {r: "other" for r in case_input.listings}
    },
    "every listing the subject": lambda case_input, answer: {
        "sites": {r: "subject" for r in case_input.listings}
    },
}
COLUMNS = (
    share("match_f1", "match F1"),
    share("listing_accuracy", "accuracy"),
    share("match_precision", "precision"),
    share("match_recall", "recall"),
    count("listings"),
    count("reports"),
)
GROUP_METRIC = ("correct", "listing")
GROUP_TITLE = "Share of listings the reference adapter labels right, by layout and copy"
groups = by_category_and("scanned", "scanned report", "text-layer report")
