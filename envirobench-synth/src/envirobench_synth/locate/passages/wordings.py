"""The wordings of passages, by split: dates, events, wells, concentrations, standards, sources and
the `Writer` that words each fact.
"""

from __future__ import annotations

import datetime as dt
import random

from .site import Analyte, Ownership, Site, Tank

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
QUARTERS = (
    "first",
    "first",
    "first",
    "second",
    "second",
    "second",
    "third",
    "third",
    "third",
    "fourth",
    "fourth",
    "fourth",
)


def month_year(day: dt.date) -> str:
    return f"{MONTHS[day.month - 1]} {day.year}"


def long_date(day: dt.date) -> str:
    return f"{MONTHS[day.month - 1]} {day.day}, {day.year}"


def event_words(day: dt.date, split: str, rng: random.Random) -> str:
    """How a passage names a sampling event."""
    if split == "dev":
        return rng.choice(
            (
                f"the {month_year(day)} event",
                f"the {month_year(day)} sampling event",
                f"the event of {long_date(day)}",
            )
        )
    return rng.choice(
        (
            f"the {QUARTERS[day.month - 1]} quarter {day.year} event",
            f"the {QUARTERS[day.month - 1]}-quarter {day.year} monitoring round ({day.month}/{day.day}/{day.year})",
            f"the round sampled {day.month:02d}/{day.day:02d}/{day.year}",
        )
    )


def well_words(well: str, split: str, rng: random.Random) -> str:
    if split == "dev":
        return rng.choice((well, f"monitoring well {well}", f"well {well}"))
    number = well.split("-")[1]
    return rng.choice((f"monitoring well {number}", f"MW{number}", f"well No. {number}", well))


def concentration(value: float, split: str, rng: random.Random) -> str:
    if split == "dev":
        return f"{value:g} µg/L"
    return rng.choice((f"{value:g} ug/L", f"{value:g} micrograms per liter", f"{value:g} ppb"))


def standard_words(analyte: Analyte, split: str) -> str:
    if split == "dev":
        return {
            "MCL": "maximum contaminant level (MCL)",
            "action level": "action level",
            "screening level": "groundwater screening level",
        }[analyte.standard_name]
    return {
        "MCL": "federal drinking water standard",
        "action level": "state cleanup action level",
        "screening level": "tier 1 groundwater cleanup level",
    }[analyte.standard_name]


SOURCES = {
    "dev": {
        "monitoring": "Quarterly Groundwater Monitoring Report, {when}",
        "lab": "Laboratory Analytical Report, {lab}, {when}",
        "phase1": "Phase I Environmental Site Assessment, {year}",
        "phase2": "Phase II Subsurface Investigation Report, {year}",
        "closure": "UST Closure Report, {year}",
        "deed": "Recorded deed, {year}",
        "letter": "Letter from {agency}, {when}",
    },
    "test": {
        "monitoring": "Groundwater Sampling Summary — {when}",
        "lab": "{lab} certificate of analysis ({when})",
        "phase1": "Environmental site assessment (ASTM E1527) {year}",
        "phase2": "Site characterization report {year}",
        "closure": "Tank removal and closure documentation {year}",
        "deed": "Title search exhibit: conveyance of {year}",
        "letter": "Correspondence, {agency}, {when}",
    },
}


def source(kind: str, split: str, site: Site, day: dt.date) -> str:
    return SOURCES[split][kind].format(
        when=month_year(day), year=day.year, lab=site.lab, agency=site.agency
    )


class Writer:
    """Writes the passages of one question, in one split's wordings, from its own stream."""

    def __init__(self, rng: random.Random, split: str, site: Site):
        self.rng, self.split, self.site = rng, split, site

    def pick(self, dev: tuple[str, ...], test: tuple[str, ...], **values: object) -> str:
        return self.rng.choice(dev if self.split == "dev" else test).format(**values)

    # result statements: the fact of `result` and `exceedance` questions, and many hard negatives
    def result(self, site: Site, well: str, event: dt.date, analyte: Analyte) -> str:
        r = self.rng
        values = {
            "analyte": analyte.name,
            "Analyte": analyte.name[0].upper() + analyte.name[1:],
            "well": well_words(well, self.split, r),
            "event": event_words(event, self.split, r),
            "value": concentration(site.results[(well, event, analyte.name)], self.split, r),
            "site": site.name,
            "lab": site.lab,
        }
        return self.pick(
            (
                "During {event}, {analyte} was detected in {well} at {value}.",
                "{Analyte} in the groundwater sample collected from {well} during {event} was reported at {value} by {lab}.",
                "The sample from {well} ({event}) contained {analyte} at {value}; the result was not qualified.",
            ),
            (
                "Laboratory analysis of the {well} sample from {event} reported {analyte} at a concentration of {value}.",
                "For {event}, {value} of {analyte} was measured at {well}, per the {lab} data package.",
                "{Analyte}: {value} at {well} ({event}); the data were validated without qualification.",
            ),
            **values,
        )

    def standard(self, analyte: Analyte) -> str:
        return self.pick(
            (
                "The {standard} for {analyte} in groundwater is {value}.",
                "Results were compared with the {standard} of {value} for {analyte}.",
            ),
            (
                "{Analyte} is evaluated against the {standard}, {value}.",
                "The applicable {standard} for {analyte} is {value}.",
            ),
            standard=standard_words(analyte, self.split),
            analyte=analyte.name,
            Analyte=analyte.name[0].upper() + analyte.name[1:],
            value=concentration(analyte.standard, self.split, self.rng),
        )

    def results_table(self, event: dt.date, analyte: Analyte) -> str:
        return self.pick(
            (
                "Analytical results for {event}, including {analyte} in every well, are summarized in Table {n}.",
                "Table {n} presents the {analyte} results of {event} for all monitoring wells.",
            ),
            (
                "Concentrations detected in {event} (all wells, {analyte} included) are tabulated in Table {n}.",
                "See Table {n} for the data of {event}, {analyte} among them, by well.",
            ),
            event=event_words(event, self.split, self.rng),
            analyte=analyte.name,
            n=self.rng.randint(2, 6),
        )

    def sampled(self, well: str, event: dt.date) -> str:
        return self.pick(
            (
                "{well} was purged and sampled with low-flow methods during {event}.",
                "During {event}, field parameters stabilized in {well} before sampling.",
            ),
            (
                "{well} was gauged, purged and sampled in {event}; no free product was observed.",
                "Field crews sampled {well} in {event} using a peristaltic pump.",
            ),
            well=well_words(well, self.split, self.rng),
            event=event_words(event, self.split, self.rng),
        )

    def tank_removed(self, tank: Tank, site: Site) -> str:
        return self.pick(
            (
                "The {capacity:,}-gallon {product} UST was removed on {date} and the excavation was backfilled.",
                "On {date}, the {capacity:,}-gallon underground storage tank that held {product} was excavated and removed from {site}.",
            ),
            (
                "Removal of the {product} tank ({capacity:,} gal.) was completed {date}; soil samples were taken beneath it.",
                "A {capacity:,} gallon underground tank formerly storing {product} was pulled from the ground on {date}.",
            ),
            capacity=tank.capacity,
            product=tank.product,
            date=long_date(tank.removed),
            site=site.name,
        )

    def tank_installed(self, tank: Tank) -> str:
        return self.pick(
            (
                "A {capacity:,}-gallon {product} UST was installed at the site in {year}.",
                "Fire department records show a {capacity:,}-gallon {product} tank permitted in {year}.",
            ),
            (
                "Records indicate the {product} tank ({capacity:,} gal.) was placed in service in {year}.",
                "A {capacity:,} gallon underground tank for {product} dates from {year}.",
            ),
            capacity=tank.capacity,
            product=tank.product,
            year=tank.installed,
        )

    def closure_pointer(self, tank: Tank) -> str:
        return self.pick(
            (
                "Closure of the {capacity:,}-gallon {product} UST, with the removal date and soil results, is documented in Appendix {x}.",
            ),
            (
                "Appendix {x} holds the closure documentation of the {capacity:,} gal. {product} tank, its removal date included.",
            ),
            capacity=tank.capacity,
            product=tank.product,
            x=self.rng.choice("BCDEF"),
        )

    def conveyance(self, site: Site, index: int, address: str) -> str:
        grantor = site.owners[index - 1].owner if index else "the United States"
        grantee = site.owners[index]
        return self.pick(
            (
                "By deed recorded {date}, {grantor} conveyed the property at {address} to {grantee}.",
                "{grantee} acquired {address} from {grantor} on {date}.",
            ),
            (
                "{grantor}, grantor, to {grantee}, grantee: warranty deed dated {date}, the parcel known as {address}.",
                "Title to {address} passed from {grantor} to {grantee} on {date}.",
            ),
            date=long_date(grantee.start),
            grantor=grantor,
            grantee=grantee.owner,
            address=address,
        )

    def operations(self, owner: Ownership, address: str) -> str:
        return self.pick(
            ("Interviews indicate that {owner} operated a business at {address} for many years.",),
            ("{owner} is remembered by neighbours as the operator at {address}.",),
            owner=owner.owner,
            address=address,
        )

    def flow(self, site: Site, direction: str, scope: str) -> str:
        if scope == "site":
            return self.pick(
                (
                    "Shallow groundwater beneath the site flows toward the {d}, based on the {month} gauging.",
                    "The potentiometric surface indicates groundwater flow to the {d} across the site.",
                ),
                (
                    "Water levels measured in {month} show shallow groundwater moving {d}ward under the property.",
                    "Groundwater gradient at the site is directed to the {d} (calculated from well elevations).",
                ),
                d=direction,
                month=month_year(site.events[-1]),
            )
        if scope == "regional":
            return self.pick(
                (
                    "Regional groundwater flow in the basin is toward the {d}, following topography.",
                ),
                ("Published hydrogeologic maps show regional flow in the aquifer to the {d}.",),
                d=direction,
            )
        return self.pick(  # the deep zone
            ("In the deeper aquifer, groundwater flows toward the {d}.",),
            (
                "Flow in the lower water-bearing zone is to the {d}, opposite in part to the shallow zone.",
            ),
            d=direction,
        )

    def depth(self, site: Site) -> str:
        return self.pick(
            ("Depth to groundwater ranged from about {d} feet below grade in the site wells.",),
            ("Groundwater was gauged at roughly {d} ft bgs across the monitoring network.",),
            d=site.depth_to_water,
        )

    def flow_figure(self, site: Site) -> str:
        return self.pick(
            (
                "Figure {n} shows groundwater elevation contours and the inferred flow direction for {month}.",
            ),
            ("The {month} potentiometric map (Figure {n}) shows contours and the flow arrow.",),
            n=self.rng.randint(3, 7),
            month=month_year(site.events[-1]),
        )
