"""Sampling a passage-rerank question (`sample_question`): the question, its candidates and which
of them answers it.
"""

from __future__ import annotations

import datetime as dt
import random

from .site import (
    CANDIDATES,
    DIRECTIONS,
    QUESTION_KINDS,
    SPLITS,
    CandidatePassage,
    RerankQuestion,
    Site,
    Tank,
    _value,
    sample_site,
)
from .wordings import Writer, month_year, source, standard_words


def _other_site(rng: random.Random, site: Site) -> Site:
    """A neighbouring site with the same well names and events, for hard negatives."""
    other = sample_site(rng)
    while other.name == site.name:
        other = sample_site(rng)
    other.wells, other.events = site.wells, site.events
    other.analytes = list(dict.fromkeys(site.analytes + other.analytes))
    other.results = {
        (w, e, a.name): _value(rng, a)
        for w in other.wells
        for e in other.events
        for a in other.analytes
    }
    return other


def _at(site: Site, text: str, rng: random.Random, split: str) -> str:
    """The passage with its site named, as many records do (and a neighbouring site's always do)."""
    prefix = rng.choice(
        (
            (f"At the {site.name}, ", f"{site.name}: "),
            (f"{site.name} ({site.address}) — ", f"At {site.address}, "),
        )[split == "test"]
    )
    return prefix + text[0].lower() + text[1:] if not text[:2].isupper() else prefix + text


def sample_question(rng: random.Random, kind: str, split: str) -> RerankQuestion:
    """One question of `kind` with CANDIDATES graded passages, in `split`'s wordings."""
    if kind not in QUESTION_KINDS:
        raise ValueError(f"unknown question kind {kind!r}; choose from {', '.join(QUESTION_KINDS)}")
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; choose from {', '.join(SPLITS)}")
    site = sample_site(rng)
    other = _other_site(rng, site)
    w = Writer(rng, split, site)
    out: list[tuple[str, str, int, bool, str]] = []  # text, source, grade, essential, role

    def add(
        text: str,
        src: str,
        grade: int,
        role: str,
        essential: bool = False,
        named: bool | None = None,
    ) -> None:
        text = text[0].upper() + text[1:]
        if named if named is not None else rng.random() < 0.3:
            text = _at(other if role == "other-site" else site, text, rng, split)
        out.append((text, src, grade, essential, role))

    event = rng.choice(site.events)
    analyte = rng.choice(site.analytes)
    well = rng.choice(site.wells)
    mon = source("monitoring", split, site, event)
    if kind in ("result", "exceedance"):
        if kind == "result":
            question = w.pick(
                (
                    "What was the {analyte} concentration in {well} in the {when} sampling event at the {site}?",
                    "At the {site}, what {analyte} result was reported for {well} in {when}?",
                ),
                (
                    "How much {analyte} was found in groundwater from {well} when the {site} was sampled in {when}?",
                    "{site}: {analyte} level in {well}, {when} round?",
                ),
                analyte=analyte.name,
                well=well,
                when=month_year(event),
                site=site.name,
            )
        else:
            question = w.pick(
                (
                    "Did {analyte} in {well} exceed its {standard} in the {when} event at the {site}?",
                    "At the {site}, was the {when} {analyte} result for {well} above the {standard}?",
                ),
                (
                    "Was {analyte} in {well} over the {standard} when the {site} was sampled in {when}?",
                    "{site}: did {well} exceed the {standard} for {analyte} in {when}?",
                ),
                analyte=analyte.name,
                well=well,
                when=month_year(event),
                site=site.name,
                standard=standard_words(analyte, "dev") if split == "dev" else "cleanup standard",
            )
        add(
            w.result(site, well, event, analyte),
            rng.choice((mon, source("lab", split, site, event))),
            3,
            "statement",
            True,
        )
        if kind == "exceedance":
            add(w.standard(analyte), mon, 2, "standard", True)
            for a in rng.sample([a for a in site.analytes if a != analyte], 2):
                add(w.standard(a), mon, 0, "other-standard")
        else:
            add(w.results_table(event, analyte), mon, 2, "table")
        others = [e for e in site.events if e != event]
        for e in rng.sample(others, 2):
            add(
                w.result(site, well, e, analyte),
                source("monitoring", split, site, e),
                1,
                "other-event",
            )
        add(w.sampled(well, event), mon, 1, "sampled")
        for other_well in rng.sample([x for x in site.wells if x != well], 3):
            add(w.result(site, other_well, event, analyte), mon, 0, "other-well")
        for a in rng.sample([a for a in site.analytes if a != analyte], 2):
            add(w.result(site, well, event, a), mon, 0, "other-analyte")
        add(
            w.result(other, well, event, analyte),
            source("monitoring", split, other, event),
            0,
            "other-site",
            named=True,
        )
    elif kind == "tank-removal":
        tank = rng.choice(site.tanks)
        question = w.pick(
            (
                "When was the {capacity:,}-gallon {product} UST removed from the {site}?",
                "On what date was the {product} underground storage tank ({capacity:,} gallons) removed at the {site}?",
            ),
            (
                "Removal date of the {capacity:,} gal. {product} tank at the {site}?",
                "When did the {site}'s {capacity:,}-gallon {product} tank come out of the ground?",
            ),
            capacity=tank.capacity,
            product=tank.product,
            site=site.name,
        )
        closure = source("closure", split, site, tank.removed)
        add(w.tank_removed(tank, site), closure, 3, "statement", True)
        add(w.closure_pointer(tank), source("phase2", split, site, tank.removed), 2, "appendix")
        add(w.tank_installed(tank), source("phase1", split, site, tank.removed), 1, "installed")
        for t in site.tanks:
            if t != tank:
                add(w.tank_removed(t, site), closure, 0, "other-tank")
                add(
                    w.tank_installed(t),
                    source("phase1", split, site, t.removed),
                    0,
                    "other-tank-installed",
                )
        twin = Tank(tank.capacity, tank.product, other.tanks[0].installed, other.tanks[0].removed)
        add(
            w.tank_removed(twin, other),
            source("closure", split, other, twin.removed),
            0,
            "other-site",
            named=True,
        )
    elif kind == "ownership":
        index = rng.randrange(len(site.owners) - 1) if len(site.owners) > 1 else 0
        held = site.owners[index]
        end = held.end or dt.date(2026, 1, 1)
        year = rng.randint(held.start.year + 1, max(held.start.year + 1, end.year - 1))
        question = w.pick(
            (
                "Who owned the property at {address} in {year}?",
                "Which party held title to {address} ({site}) in {year}?",
            ),
            (
                "Owner of record of {address} as of {year}?",
                "In {year}, who was the titleholder of the {site} parcel at {address}?",
            ),
            address=site.address,
            year=year,
            site=site.name,
        )
        deeds = source("deed", split, site, held.start)
        add(w.conveyance(site, index, site.address), deeds, 3, "statement", True, named=False)
        if index + 1 < len(site.owners):
            add(
                w.conveyance(site, index + 1, site.address),
                source("deed", split, site, site.owners[index + 1].start),
                2,
                "deed-out",
                named=False,
            )
        add(
            w.operations(held, site.address),
            source("phase1", split, site, event),
            1,
            "operations",
            named=False,
        )
        for i in range(len(site.owners)):
            if i not in (index, index + 1):
                add(
                    w.conveyance(site, i, site.address),
                    source("deed", split, site, site.owners[i].start),
                    0,
                    "other-conveyance",
                    named=False,
                )
        adjoining = f"{int(site.address.split()[0]) + rng.choice((2, 4, 6, 8))} {' '.join(site.address.split()[1:])}"
        for i in rng.sample(range(len(other.owners)), min(3, len(other.owners))):
            add(
                w.conveyance(other, i, adjoining),
                source("deed", split, other, other.owners[i].start),
                0,
                "adjoining-parcel",
                named=False,
            )
    else:  # flow-direction
        question = w.pick(
            (
                "In which direction does shallow groundwater flow beneath the {site}?",
                "What is the groundwater flow direction at the {site}?",
            ),
            (
                "Shallow groundwater at the {site} moves which way?",
                "Which way is the groundwater gradient under the {site} ({address})?",
            ),
            site=site.name,
            address=site.address,
        )
        add(w.flow(site, site.flow, "site"), mon, 3, "statement", True)
        add(w.flow_figure(site), mon, 2, "figure")
        add(w.depth(site), mon, 1, "depth")
        add(
            w.flow(site, site.regional_flow, "regional"),
            source("phase1", split, site, event),
            0,
            "regional-flow",
        )
        add(
            w.flow(site, rng.choice([d for d in DIRECTIONS if d != site.flow]), "deep"),
            source("phase2", split, site, event),
            0,
            "deep-zone",
        )
        add(
            w.flow(other, other.flow, "site"),
            source("monitoring", split, other, event),
            0,
            "other-site",
            named=True,
        )
    traps = tuple(role for _, _, grade, _, role in out if grade == 0)
    # Fill with other facts of the same site: every record of the site file shares its words. A
    # filler never restates what the graded passages are about (the asked tank, the depth to water
    # of a flow question), so it is rightly graded 0.
    asked_tank = tank if kind == "tank-removal" else None
    fillers = [
        lambda: (
            w.result(
                site,
                rng.choice(site.wells),
                rng.choice(site.events),
                rng.choice([a for a in site.analytes if a != analyte]),
            ),
            mon,
        ),
        lambda: (
            w.tank_installed(rng.choice([t for t in site.tanks if t != asked_tank])),
            source("phase1", split, site, event),
        ),
        lambda: (w.standard(rng.choice([a for a in site.analytes if a != analyte])), mon),
        lambda: (
            w.sampled(rng.choice([x for x in site.wells if x != well]), rng.choice(site.events)),
            mon,
        ),
    ]
    if kind != "flow-direction":
        fillers.append(lambda: (w.depth(site), mon))
    texts = {text for text, *_ in out}
    while len(out) < CANDIDATES:
        text, src = rng.choice(fillers)()
        if text not in texts:
            texts.add(text)
            add(text, src, 0, "same-site")
    rng.shuffle(out)
    prefix = rng.choice(("p", "c", "s"))
    passages = tuple(
        CandidatePassage(f"{prefix}{i + 1:02d}", text, src, grade, essential, role)
        for i, (text, src, grade, essential, role) in enumerate(out)
    )
    return RerankQuestion(kind, question, passages, site.name, traps)
