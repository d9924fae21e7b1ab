"""The plan of a site file: `plan_documents` lists its documents in filing order with their traps."""

from __future__ import annotations

from ...rng import make_random
from .. import legalink
from ..model import Campaign, SiteModel
from ..papers import (
    Doc,
    Pen,
)
from .letters import (
    ceased_letter,
    correction_letter,
    nfa_letter,
    remedy_papers,
    review_letter,
    revised_lab,
    validation_memo,
)
from .monitoring import monitoring_report
from .phase_i import phase_i
from .results import phase_ii, tank_closure_report
from .small import lease_amendment, release_papers, tank_papers
from .traps import Traps, _choose_traps


def plan_documents(model: SiteModel, seed: int) -> tuple[list[Doc], Traps]:
    rng = make_random(seed, "documents", model.spec.site_id)
    pen = Pen(model, rng)
    traps = _choose_traps(model, rng)
    docs: list[Doc] = []
    docs += legalink.deeds(pen, seed)
    if model.lease is not None:
        docs += legalink.lease(pen, seed)
        docs += [lease_amendment(pen, day, k) for k, day in enumerate(model.lease_amendments, 1)]
    docs += tank_papers(pen)
    docs += release_papers(pen, traps)
    for index, day in enumerate(model.phase_i):
        docs += phase_i(pen, day, index, draft=index == 0 and not model.spec.compact)
    by_id = {c.id: c for c in model.campaigns}
    history: list[Campaign] = []
    monitoring_seen = 0
    draft_at = {2, 5, 8}
    for campaign in model.campaigns:
        if campaign.kind == "tank-closure":
            docs.append(tank_closure_report(pen, campaign, traps))
        elif campaign.kind == "phase-ii":
            docs += phase_ii(pen, campaign, traps)
        elif campaign.kind in ("characterization", "monitoring", "vapor"):
            if campaign.kind == "monitoring":
                monitoring_seen += 1
            draft = campaign.kind == "monitoring" and monitoring_seen in draft_at
            reports = monitoring_report(pen, campaign, history, traps, draft=draft)
            docs += reports
            if campaign.kind == "monitoring" and monitoring_seen % 3 == 1:
                docs.append(review_letter(pen, reports[-1]))
        history.append(campaign)
        if campaign.id in traps.revised:
            docs.append(revised_lab(pen, campaign, traps))
    docs += remedy_papers(pen, traps)
    for cid, day, keys in traps.letters:
        docs.append(correction_letter(pen, by_id[cid], day, keys, traps))
    for cid, day, analyte in traps.memos:
        docs.append(validation_memo(pen, by_id[cid], day, analyte, traps))
    if model.closed is not None:
        docs.append(ceased_letter(pen))
    if model.nfa is not None:
        docs.append(nfa_letter(pen))
    if model.covenant is not None:
        docs += legalink.covenant(pen, seed)
    docs.sort(key=lambda d: d.issued)
    return docs, traps
