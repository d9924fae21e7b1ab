"""Sampling a family report (`sample_family_report`): its conventions, sections, field samples and
planted traps.
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from ... import catalogue
from ...catalogue import MATRICES
from ...vocabulary import (
    LABEL_ROLES,
    LABEL_TERMS,
    Split,
    choose,
)
from .. import names
from .cells import _conventions, _field_blocks, _field_cell, _quantize, _sections
from .family import Family
from .planting import (
    ResultGrid,
    _plant_lab_qc,
    _plant_not_results,
    _plant_reanalyses,
    _plant_revision,
    _plant_validation,
)
from .printed import Cell, FamilyReport, ReportFacts


def sample_family_report(rng: random.Random, family: Family, split: Split) -> FamilyReport:
    """A whole report of `family`, its words drawn from the vocabulary of `split`."""
    if family.split == "dev" and split != "dev":
        raise ValueError(f"family {family.name} is a dev family")
    if family.split == "test" and split != "test":
        raise ValueError(f"family {family.name} is a test family")
    matrix = rng.choice(family.matrices)
    conventions = _conventions(rng, family, split)
    collected = catalogue.sample_date(rng)
    received = collected + dt.timedelta(days=rng.randint(0, 2))
    lab_index = rng.randrange(len(catalogue.LABORATORIES))
    work_order = f"{rng.choice(('L', 'J', '480-', 'WO'))}{rng.randint(10000, 99999)}"
    traps: list[str] = []
    sections = _sections(rng, family, matrix, split, conventions)
    blocks = _field_blocks(rng, family, matrix, collected, work_order, sections, traps)
    narrative: list[str] = []
    cells: dict[tuple[int, int, int], Cell] = {}
    base_rl = {
        s: Decimal(rng.choice(MATRICES[matrix].reporting_limits.get(sections[s].group, ("1.0",))))
        for s in range(len(sections))
    }
    dilution = {
        (b, s): rng.choice((1, 1, 1, 1, 1, 2, 5))
        if sections[s].group != "voc" and blocks[b].kind != "field-blank"
        else 1
        for b in range(len(blocks))
        for s in range(len(sections))
    }
    hot = rng.randrange(len(blocks)) if rng.random() < 0.5 else -1
    flagged_r = rng.random() < 0.35
    for b, block in enumerate(blocks):
        for s in block.sections:
            section = sections[s]
            for a, (name, cas) in enumerate(section.analytes):
                cells[(b, s, a)] = _field_cell(
                    rng,
                    family,
                    conventions,
                    block,
                    section,
                    base_rl[s],
                    dilution[(b, s)],
                    hot == b,
                    name,
                    cas,
                )
    blocks_list = list(blocks)
    grid = ResultGrid(family, conventions, sections, blocks_list, cells, base_rl)
    _plant_reanalyses(rng, grid, narrative)
    _plant_validation(rng, grid, narrative, flagged_r)
    _plant_lab_qc(rng, grid)
    _plant_not_results(rng, grid)
    screening = {}
    if conventions.screening:
        for s, section in enumerate(sections):
            for a in range(len(section.analytes)):
                if not section.percent:
                    level = _quantize(base_rl[s] * Decimal(rng.choice((2, 5, 10, 20, 50))))
                    screening[(s, a)] = conventions.number(level)
    superseded: dict[tuple[int, int, int], Cell] = {}
    status = rng.choice(("final", "final", "final", "draft", "revised"))
    revision = 0
    if status == "revised":
        revision = rng.choice((1, 1, 2))
        superseded = _plant_revision(rng, conventions, cells, narrative)
        if superseded:
            traps.append("original-pages-appended")
    if status == "draft" and not conventions.draft_watermark:
        traps.append("draft-no-watermark")
    if conventions.status_footer_only:
        traps.append("status-footer-only")
    if conventions.decimal_comma:
        traps.append("decimal-comma")
    if conventions.screening:
        traps.append("screening-level")
    if matrix == "soil":
        traps.append("dry-weight")
    site = rng.choice(names.SITES)
    facts = ReportFacts(
        laboratory=catalogue.LABORATORIES[lab_index],
        lab_address=(
            f"{rng.randint(10, 9899)} {rng.choice(names.STREETS)}",
            "{}, {} {}".format(*rng.choice(names.CITIES)),
        ),
        work_order=work_order,
        client=rng.choice(names.CLIENTS),
        contact=names.person(rng),
        project=site,
        project_number=f"{received.year}-{rng.randint(10, 999):03d}",
        received=received,
        reported=received + dt.timedelta(days=rng.randint(7, 20)),
        status=status,
        revision=revision,
        approver=names.person(rng),
        matrix=matrix,
    )
    labels = {role: choose(rng, LABEL_TERMS[role], split) for role in LABEL_ROLES}
    return FamilyReport(
        family,
        split,
        facts,
        conventions,
        tuple(sections),
        tuple(blocks_list),
        cells,
        tuple(narrative),
        labels,
        superseded,
        tuple(traps),
        screening,
    )
