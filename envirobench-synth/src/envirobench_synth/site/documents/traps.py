"""The traps of a site record (`Traps`): which keys each revised laboratory report, correction
letter, validation memo, misprinted cumulative cell, draft report and scanned laboratory report
touches, chosen so that no two traps share a key.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field

from ..model import Campaign, Measurement, Sample, SiteModel, key_of, three_figures
from ..papers import (
    Key,
)


@dataclass
class Traps:
    revised: dict[str, dict[Key, Measurement]] = field(
        default_factory=dict
    )  # campaign -> originals
    revised_on: dict[str, dt.date] = field(default_factory=dict)
    corrected: dict[Key, Measurement] = field(default_factory=dict)  # key -> the wrong printing
    corrected_on: dict[Key, dt.date] = field(default_factory=dict)  # key -> its letter's date
    letters: list[tuple[str, dt.date, tuple[Key, ...]]] = field(default_factory=list)
    rejected: set[Key] = field(default_factory=set)
    rejected_on: dict[Key, dt.date] = field(default_factory=dict)  # key -> its memo's date
    memos: list[tuple[str, dt.date, str]] = field(default_factory=list)  # campaign, day, analyte
    lab_rejected: set[Key] = field(default_factory=set)  # printed with an R flag by the lab
    transcription: dict[tuple[str, Key], float | None] = field(default_factory=dict)
    scanned_labs: set[str] = field(default_factory=set)  # campaigns whose lab report is a scan
    preliminary: dict[str, dict[Key, float]] = field(
        default_factory=dict
    )  # campaign -> the values its draft report prints from the preliminary data
    drafts: int = 0
    duplicates: int = 0
    scale: float = 1.0  # the trap counts per document grow with the record's keys (TRAP_KEYS)

    def lab_printing(self, campaign: Campaign, sample: Sample, m: Measurement) -> Measurement:
        """What the laboratory's original report printed for this result."""
        key = key_of(sample, m)
        if key in self.revised.get(campaign.id, {}):
            return self.revised[campaign.id][key]
        if key in self.corrected:
            return self.corrected[key]
        if key in self.lab_rejected:
            return Measurement(m.analyte, m.value, m.unit, m.rl, "R")
        return m

    def fixed_by(self, key: Key) -> dt.date | None:
        if key in self.corrected:
            return self.corrected_on[key]
        for cid, keys in self.revised.items():
            if key in keys:
                return self.revised_on[cid]
        return None

    def contested(self) -> set[Key]:
        """Keys some trap touches (every one is printed somewhere with a non-governing value or
        is excluded), except cumulative misprints, which the tables set as they are drawn."""
        out = set(self.corrected) | self.rejected
        for keys in (*self.revised.values(), *self.preliminary.values()):
            out |= set(keys)
        return out


TRAP_KEYS = 400  # a record with more keys than this scales the values per trap up with them
LAB_SCAN_SHARE = 0.3  # of the laboratory reports filed as the consultant's scan of the paper copy


def _choose_traps(model: SiteModel, rng: random.Random) -> Traps:
    """The record's reconciliation traps, on keys that never overlap (one trap per key): 2-4
    revised laboratory reports (2-8 values each, times `scale`), 2 correction letters (2-5 values of one job
    each), validation memos rejecting 2-3 analyte/event combinations, 2-3 laboratory R flags,
    and which laboratory reports are filed as scans."""
    traps = Traps()
    traps.scale = max(1.0, len(model.truth) / TRAP_KEYS)
    monitoring = [c for c in model.campaigns if c.kind in ("monitoring", "characterization")]
    n = len(monitoring)
    taken: set[Key] = set()
    detected = lambda c: [  # noqa: E731
        (s, m)
        for s in c.samples
        if not s.is_duplicate
        for m in s.results
        if m.value is not None and key_of(s, m) not in taken
    ]
    # rejected data first (whole analyte/event combinations): validation memos, one per event
    victims = rng.sample(
        range(n // 4, max(n // 4 + 1, (3 * n) // 4)), min(rng.randint(2, 3), max(1, n // 2))
    )
    for index in sorted(victims):
        victim = monitoring[index]
        day = victim.issued + dt.timedelta(days=rng.randint(50, 80))
        analyte = rng.choice(sorted({m.analyte for s in victim.samples for m in s.results}))
        traps.memos.append((victim.id, day, analyte))
        for s in victim.samples:
            if s.is_duplicate:
                continue
            for m in s.results:
                if m.analyte == analyte:
                    traps.rejected.add(key_of(s, m))
                    traps.rejected_on[key_of(s, m)] = day
                    taken.add(key_of(s, m))
    # laboratory R flags in the later events
    late = monitoring[max(0, (2 * n) // 3) :] or monitoring
    for c in sorted(rng.sample(late, min(len(late), rng.randint(2, 3))), key=lambda c: c.start):
        pool = [
            (s, m)
            for s in c.samples
            if not s.is_duplicate
            for m in s.results
            if key_of(s, m) not in taken
        ]
        if pool:
            s, m = rng.choice(pool)
            traps.lab_rejected.add(key_of(s, m))
            traps.rejected.add(key_of(s, m))
            traps.rejected_on[key_of(s, m)] = c.issued
            taken.add(key_of(s, m))
    # revised laboratory reports: each original printed 2-8 results wrong (calculation errors)
    order = list(range(1, n)) or [0]
    revised = sorted(rng.sample(order, min(len(order), rng.randint(2, 4), max(2, n // 3))))
    for index in revised:
        target = monitoring[index]
        pool = detected(target)
        originals = {}
        for s, m in rng.sample(pool, min(round(rng.randint(2, 8) * traps.scale), len(pool))):
            originals[key_of(s, m)] = Measurement(
                m.analyte, _misprint(rng, m.value), m.unit, m.rl, m.qualifier
            )
            taken.add(key_of(s, m))
        traps.revised[target.id] = originals
        traps.revised_on[target.id] = target.issued + dt.timedelta(days=rng.randint(40, 80))
    # correction letters: 2-5 results of one job misreported (a dilution factor not applied)
    spare = [i for i in range(n) if monitoring[i].id not in traps.revised] or list(range(n))
    for index in sorted(rng.sample(spare, min(2, len(spare)))):
        other = monitoring[index]
        day = other.issued + dt.timedelta(days=rng.randint(30, 60))
        pool = detected(other)
        keys = []
        for s, m in rng.sample(pool, min(rng.randint(2, 5), len(pool))):
            key = key_of(s, m)
            traps.corrected[key] = Measurement(
                m.analyte,
                three_figures(m.value / rng.choice((10, 10, 100))),
                m.unit,
                m.rl,
                m.qualifier,
            )
            traps.corrected_on[key] = day
            taken.add(key)
            keys.append(key)
        if keys:
            traps.letters.append((other.id, day, tuple(sorted(keys))))
    # laboratory reports filed as scans, of jobs no revision replaces (a revision is e-mailed,
    # and the scanned original is then what governs)
    jobs = [c.id for c in model.campaigns if any(not s.is_duplicate for s in c.samples)]
    kept = [cid for cid in jobs if cid not in traps.revised]
    traps.scanned_labs = set(rng.sample(kept, min(len(kept), round(len(jobs) * LAB_SCAN_SHARE))))
    for c in model.campaigns:
        traps.duplicates += sum(1 for s in c.samples if s.is_duplicate)
    return traps


def _misprint(rng: random.Random, value: float) -> float:
    form = rng.choice(("swap", "shift", "digit"))
    if form == "shift":
        return three_figures(value * 10)
    # Only the significand's digits are swapped: `.3g` prints 1000 as "1e+03", and swapping its
    # "1" with the exponent's "0" gave "0e+13", a result of 0 that no laboratory prints (and
    # that the report's number formatting refuses). A one-digit significand falls through to
    # the x1.8 misprint.
    text, _, exponent = f"{value:.3g}".partition("e")
    digits = [c for c in text if c.isdigit()]
    if form == "swap" and len(digits) >= 2 and digits[0] != digits[1]:
        i, j = text.index(digits[0]), text.index(digits[1], text.index(digits[0]) + 1)
        chars = list(text)
        chars[i], chars[j] = chars[j], chars[i]
        out = float("".join(chars) + (f"e{exponent}" if exponent else ""))
        if out != value:
            return out
    return three_figures(value * 1.8) if value * 1.8 != value else value + 1
