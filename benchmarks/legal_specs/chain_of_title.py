"""docs/reference-scores.md's Legal table for `chain-of-title`: blind baselines and columns
(read by benchmarks/reference_scores.py --legal).

Two baselines stand for careless readers of a packet and are given what such a reader would
see, rebuilt from the seeded generator (the packet's history and the abstractor's index; nothing
is read from the answer): one takes every deed in the packet for a period, the other takes the
cover page's index for the chain.
"""

from functools import cache

from _spec_parts import always, by_category_and, count, formula_score, share

from envirobench import split_of
from envirobench_legal.generate.chain_of_title import SEED, history_of, plan_packets
from envirobench_legal.package import PACKAGE
from envirobench_synth.legal.packet import cover_style
from envirobench_synth.legal.title import cover_of, references_of
from envirobench_synth.rng import make_random

BENCHMARK = "chain-of-title"
UNIT = "packets"
INTRO = (
    "The reference adapter (`solvers/chain_of_title.py`, developed on the dev split only) on both splits; the "
    "test split's law-firm templates (and so deed wording), recorder stamps and abstractor cover pages never occur "
    "in dev. Beside it, blind baselines: no periods at all; every deed in the packet a period, whatever its "
    "parcel, grantor or purpose (a reader who finds and reads every instrument perfectly but does not examine "
    "title; deeds of trust included, mortgages and easements not); and the abstractor's cover index taken as the "
    "chain (every entry titled a deed, other than a deed of trust, with the index's dates and references, which "
    "may be mistyped or left out). Both are rebuilt from the seeded generator, not read from the PDF. The score is "
    "the category's formula, 100 × max(0, (exact periods − 5 × foreign or invented periods) ÷ periods); "
    "*unclipped* drops the max(0, ·)."
)


@cache
def _packet(packet_path: str):
    case_id = packet_path.rsplit("/", 1)[-1].removesuffix(".pdf")
    split = case_id.split("-")[1]
    folder = next(name for name in PACKAGE.layout(BENCHMARK).datasets if split_of(name) == split)
    planned = next(p for p in plan_packets(folder) if p.case_id == case_id)
    history = history_of(folder, planned)
    cover, _ = cover_of(history, cover_style(planned.cover), make_random(SEED, split, case_id, "cover"))
    return history, cover


def _chained(rows):
    """(grantee, recorded date, reference) rows as periods, each ending where the next begins."""
    periods = []
    for index, (grantee, start, reference) in enumerate(rows):
        end = rows[index + 1][1] if index + 1 < len(rows) else None
        periods.append(
            {
                "grantee": grantee,
                "from_date": start.isoformat(),
                "to_date": end.isoformat() if end else None,
                "instrument": reference,
            }
        )
    return {"periods": periods}


def every_deed(case_input, answer):
    history, _ = _packet(case_input.packet)
    deeds = [i for i in history.instruments if i.kind not in ("mortgage", "easement")]
    return _chained([(i.grantee, i.recorded.date(), references_of(history.recorder, i)[0]) for i in deeds])


def cover_index(case_input, answer):
    _, cover = _packet(case_input.packet)
    entries = [e for e in cover.entries if "deed" in e.title.lower() and "trust" not in e.title.lower()]
    return _chained([(e.grantee, e.recorded, e.reference) for e in entries])


BASELINES = {
    "no periods": always({"periods": []}),
    "every deed in the packet a period (from the generator's history)": every_deed,
    "the cover page's index as the chain (from the generator's index)": cover_index,
}
COLUMNS = (
    *formula_score("chain"),
    count("periods_exact", "exact"),
    count("periods_foreign_or_invented", "foreign or invented"),
    count("periods"),
    share("period_precision", "precision"),
    share("period_recall", "recall"),
    share("packets_exact", "packets exact"),
)
GROUP_METRIC = ("periods_exact", "periods")
GROUP_TITLE = "Exact periods of the reference adapter by focus trap (the case category) and by copies"
groups = by_category_and("scanned_instruments", "packets with scanned instruments", "all born digital")
