"""docs/reference-scores.md's Legal table for `use-limitations`: blind baselines and columns
(read by benchmarks/reference_scores.py --legal).

The baselines that list instruments are given what such a reader would see, rebuilt from the
seeded generator (each instrument's title kind, its recording reference and, for the careless
examiner, the type, restrictions and holder it states); nothing is read from the answer.
"""

from functools import cache

from _spec_parts import always, by_category_and, count, formula_score, share

from envirobench import split_of
from envirobench_legal.generate.use_limitations import plan, search_of
from envirobench_legal.package import PACKAGE

BENCHMARK = "use-limitations"
UNIT = "parcels"
INTRO = (
    "The reference adapter (`solvers/use_limitations.py`, developed on the dev split only) on both splits; the "
    "test split's law-firm templates, recorder stamps, titles and restriction wording never occur in dev. Beside "
    "it, blind baselines: nothing recorded (an empty list for every parcel); every instrument of the search listed "
    "as a deed restriction with no restriction and no holder; every covenant-titled instrument (its title has "
    "COVENANT: covenants, restrictive covenants, their terminations and amendments) listed as an environmental "
    "covenant with every restriction; and a careless examiner who reads every limitation instrument perfectly "
    "(type, restrictions as recorded, holder, reference) but lists it whatever its parcel, later release, "
    "termination, amendment or missing agency signature. The listing baselines are rebuilt from the seeded "
    "generator, not read from the PDFs. The score (scoring v2) is the Legal category's penalty form, 100 × max(0, "
    "(exact − 5 × not current) ÷ limitations): *exact* counts listed items with type, restrictions, holder and "
    "reference all right; *not current* counts listed items that match no current limitation of the parcel "
    "(another parcel's, released, terminated, unsigned by the agency, an amendment, an easement, a deed, an unknown "
    "reference, a duplicate), *foreign* those of them of another parcel, released or terminated. F1 (v1's primary) "
    "is 2 × exact ÷ (listed + limitations); *parcels exact* is the share of parcels whose list is exactly right."
)


@cache
def _search(documents: tuple[str, ...]):
    case_id = documents[0].rsplit("/", 1)[-1].rsplit("-", 1)[0]
    split = case_id.split("-")[1]
    folder = next(name for name in PACKAGE.layout(BENCHMARK).datasets if split_of(name) == split)
    planned = next(p for p in plan(folder) if p.case_id == case_id)
    return search_of(folder, planned)


def every_instrument_a_deed_restriction(case_input, answer):
    search = _search(case_input.documents)
    return {"limitations": [{"type": "deed-restriction", "restrictions": [], "holder": "unknown",
                             "reference": doc.reference} for doc in search.documents]}


def every_covenant_titled_with_every_restriction(case_input, answer):
    from envirobench_synth.legal.limitations import RESTRICTIONS

    search = _search(case_input.documents)
    return {"limitations": [
        {"type": "environmental-covenant", "restrictions": list(RESTRICTIONS), "holder": doc.holder or "unknown",
         "reference": doc.reference}
        for doc in search.documents if "COVENANT" in doc.instrument.title
    ]}


def careless_examiner(case_input, answer):
    from envirobench_synth.legal.limitations import TYPES

    search = _search(case_input.documents)
    return {"limitations": [
        {"type": doc.kind, "restrictions": list(doc.restrictions), "holder": doc.holder, "reference": doc.reference}
        for doc in search.documents if doc.kind in TYPES
    ]}


BASELINES = {
    "nothing recorded": always({"limitations": []}),
    "every instrument a deed restriction": every_instrument_a_deed_restriction,
    "every covenant-titled instrument, every restriction": every_covenant_titled_with_every_restriction,
    "careless examiner (reads each instrument, examines no title)": careless_examiner,
}
COLUMNS = (
    *formula_score("limitations"),
    count("exact_items", "exact"),
    count("items_not_current", "not current"),
    share("limitations_f1", "F1"),
    share("parcels_exact", "parcels exact"),
    share("limitations_precision", "precision"),
    share("limitations_recall", "recall"),
    share("references_found", "references found"),
    count("foreign_items", "foreign"),
    count("predicted_items", "listed"),
    count("answer_items", "limitations"),
)
GROUP_METRIC = ("parcel_exact", None)
GROUP_TITLE = "Parcels read exactly by the reference adapter, by trap (the case category) and by scans in the search"
groups = by_category_and("scanned_documents", "searches with a scanned copy", "born-digital searches")
