"""Sampling a database report (`sample_report`): the subject, its listings and the traps among them."""

from __future__ import annotations

import dataclasses
import random

from .vocabulary import (
    BRAND_STEMS,
    CITIES,
    CORPORATE,
    DATABASES_BY_SPLIT,
    DIRECTIONALS,
    HOLDING_STEMS,
    LAYOUTS_BY_SPLIT,
    LONG_NAME,
    NAME_STEMS,
    OPPOSITE,
    POINTS,
    SCANNED_SHARE,
    STREET_NAMES,
    SUFFIXES,
    TRUNCATION,
    Address,
    Database,
    Listing,
    Report,
    Site,
)


def _corporate_form(rng: random.Random, corporate: str) -> str:
    return rng.choice(CORPORATE[corporate]) if corporate else ""


def name_variant(rng: random.Random, stem: str, corporate: str) -> str:
    """`stem` with its corporate suffix in one of its printed forms, in upper or title case."""
    suffix = _corporate_form(rng, corporate)
    comma = rng.choice((", ", " "))
    text = f"{stem}{comma}{suffix}" if suffix else stem
    if rng.random() < 0.2:
        text = text.replace(" & ", " and ") if " & " in text else text
    return text.upper() if rng.random() < 0.6 else text


def address_variant(rng: random.Random, address: Address, *, number: int | None = None,
                    keep_unit: bool = True) -> str:  # fmt: skip
    """The street line of `address` as a database prints it (suffix, directional, unit forms)."""
    n = address.number if number is None else number
    parts = [str(n)] if n is not None else []
    if address.predir:
        parts.append(
            rng.choice((address.predir, f"{address.predir}.", DIRECTIONALS[address.predir]))
        )
    parts.append(address.street)
    parts.append(rng.choice(SUFFIXES[address.suffix]))
    line = " ".join(parts)
    if address.unit and keep_unit and rng.random() < 0.6:
        line += rng.choice((" ", ", ")) + _unit_form(rng, address.unit)
    elif not address.unit and rng.random() < 0.1:
        line += rng.choice((" Suite ", " Ste ", " Unit ", " #")) + str(
            rng.choice((1, 2, 4, 100, 210))
        )
    return line.upper() if rng.random() < 0.65 else line


def _unit_form(rng: random.Random, unit: str) -> str:
    word, number = unit.split(" ", 1)
    forms = {"Suite": ("Suite", "Ste", "Ste.", "#"), "Unit": ("Unit", "#", "Unit No.")}[word]
    form = rng.choice(forms)
    return f"#{number}" if form == "#" else f"{form} {number}"


def city_line(
    rng: random.Random, address: Address, city: tuple[str, str, str] | None = None
) -> str:
    name, state, zipcode = city or (address.city, address.state, address.zip)
    line = f"{name}, {state} {zipcode}" if rng.random() < 0.8 else f"{name} {state}"
    return line.upper() if rng.random() < 0.7 else line


def _street(rng: random.Random, used: set[tuple[str, str]]) -> tuple[str, str]:
    while True:
        street = (rng.choice(STREET_NAMES), rng.choice(tuple(SUFFIXES)))
        if street not in used:
            used.add(street)
            return street


def sample_report(rng: random.Random, split: str) -> Report:
    """One report: a subject, three to five neighbours and 12 to 28 listings (see the module)."""
    if split not in LAYOUTS_BY_SPLIT:
        raise ValueError(f"split must be dev or test, got {split!r}")
    layout = rng.choice(LAYOUTS_BY_SPLIT[split])
    databases = DATABASES_BY_SPLIT[split]
    city = rng.choice(CITIES)
    other_city = rng.choice([c for c in CITIES if c != city])
    used_streets: set[tuple[str, str]] = set()
    main_street = _street(rng, used_streets)
    cross_street = _street(rng, used_streets)
    far_street = _street(rng, used_streets)
    predir = rng.choice(("", "N", "S", "E", "W", "N", "S"))
    stems = rng.sample(NAME_STEMS, 14)
    block = rng.randrange(1, 40) * 100

    def address(number: int | None, street: tuple[str, str], *, pre: str = "", number_to=None,
                unit: str = "", where=city) -> Address:  # fmt: skip
        return Address(
            number, pre, street[0], street[1], where[0], where[1], where[2], number_to, unit
        )

    subject_number = block + rng.randrange(2, 98, 2)
    subject_unit = rng.choice(("", "", "", "Suite 100", "Unit 2"))
    subject = Site(
        "subject", stems[0], rng.choice(tuple(CORPORATE) + ("",)),
        address(subject_number, main_street, pre=predir, unit=subject_unit),
        former=stems[1] if rng.random() < 0.4 else "",
    )  # fmt: skip
    neighbours: list[Site] = []
    count = rng.randint(3, 5)
    taken = {subject_number}
    ranged = rng.random() < 0.7
    for index in range(count):
        on_main = index < 2 or rng.random() < 0.4
        street = main_street if on_main else cross_street
        pre = predir if on_main else ""
        number = block + rng.randrange(2, 98)
        while any(abs(number - t) < 6 for t in taken):
            number = block + rng.randrange(2, 98)
        taken.add(number)
        number_to = None
        if ranged and index == 0:
            number = block + 100 + rng.choice((0, 10, 20))
            number_to = number + rng.choice((30, 50, 60))
        dba = ""
        name, corporate = stems[2 + index], rng.choice(tuple(CORPORATE) + ("", ""))
        if index == 1 and rng.random() < 0.5:
            name, corporate, dba = (
                rng.choice(BRAND_STEMS) + f" #{rng.randint(2, 480)}",
                "",
                rng.choice(HOLDING_STEMS) + " LLC",
            )
        neighbours.append(Site(
            f"N{index + 1}", name, corporate,
            address(number, street, pre=pre, number_to=number_to,
                    unit=rng.choice(("", "", "", "", "Suite 200"))),
            former=stems[8 + index] if rng.random() < 0.3 else "",
            dba=dba,
        ))  # fmt: skip
    known = [subject, *neighbours]
    spare_stems = [s for s in NAME_STEMS if s not in stems]
    records: set[str] = set()

    def spare_business(form: str | None = None) -> str:
        """Another business's name, on a stem no site of the report uses (in `form`, or in a
        corporate form drawn after the stem)."""
        stem = spare_stems.pop(rng.randrange(len(spare_stems)))
        return name_variant(rng, stem, form or rng.choice(tuple(CORPORATE)))

    def record_number(db: Database) -> str:
        while True:
            if split == "dev":
                text = f"{rng.randint(1000000000, 1009999999)}"
            else:
                text = f"{db.record_prefix}-{rng.randint(1000, 99999):06d}"
            if text not in records:
                records.add(text)
                return text

    distances: dict[str, tuple[float, str, str]] = {"subject": (0.0, "TP", "Equal")}
    for site in neighbours:
        distances[site.id] = (
            round(rng.uniform(0.01, 0.12), 3),
            rng.choice(POINTS),
            rng.choice(("Higher", "Lower", "Equal")),
        )

    def far() -> tuple[float, str, str]:
        return round(rng.uniform(0.13, 1.0), 3), rng.choice(POINTS), rng.choice(("Higher", "Lower"))

    def site_name(site: Site) -> str:
        choice = rng.random()
        if site.dba and choice < 0.5:
            return f"{site.dba.upper()} DBA {site.name.upper()}" if rng.random() < 0.5 else site.dba
        if site.former and choice < 0.35:
            return name_variant(rng, site.former, site.corporate)
        return name_variant(rng, site.name, site.corporate)

    plan: list[str] = []
    n_listings = rng.randint(12, 28)
    weights = {
        "address-variant": 6, "other-occupant": 1.5, "in-range": 1.5 if ranged else 0,
        "named-street-only": 1.2, "same-name-elsewhere": 1.2, "near-number": 1.5,
        "other-directional": 0.8 if predir else 0, "other-city": 0.6, "other-site": 3,
        "unmappable-point": 1, "unmappable-street": 0.8,
        "truncated-street": 2.0 if any(len(k.address.street) >= LONG_NAME for k in known) else 0,
        "listing-range": 1.0,
    }  # fmt: skip
    # Every report carries at least one listing of the subject and of a neighbour, and one trap.
    plan += [
        "address-variant",
        "address-variant",
        rng.choice(("same-name-elsewhere", "near-number", "unmappable-point")),
    ]
    kinds, w = zip(*[(k, v) for k, v in weights.items() if v], strict=True)
    plan += rng.choices(kinds, w, k=n_listings - len(plan))
    listings: list[Listing] = []
    first_site_done = False
    for trap in plan:
        db = rng.choice(databases)
        status = _status(rng, db)
        point = ""
        city_text = city_line(rng, subject.address)
        if trap == "address-variant":
            site = subject if not first_site_done else rng.choice(known)
            first_site_done = True
            number = site.address.number
            if site.address.number_to:
                number = site.address.number if rng.random() < 0.5 else site.address.number_to
            line = address_variant(rng, site.address, number=number)
            name, truth = site_name(site), site.id
        elif trap == "truncated-street":
            site = rng.choice([k for k in known if len(k.address.street) >= LONG_NAME])
            cut = dataclasses.replace(
                site.address, street=truncate(site.address.street, TRUNCATION[split])
            )
            line = address_variant(rng, cut, number=site.address.number)
            name, truth = site_name(site), site.id
        elif trap == "listing-range":
            # The listing spans a few numbers (a facility's frontage), one of them the site's.
            site = rng.choice([k for k in known if not k.address.number_to])
            low = site.address.number - rng.choice((0, 2, 4))
            high = low + rng.choice((4, 6, 8))
            if any(k is not site and _overlaps(k.address, low, high, site.address) for k in known):
                low, high = site.address.number, site.address.number
            line = address_variant(rng, site.address, number=low)
            if high != low:
                line = f"{low}-{high}" + line[len(str(low)) :]
            name, truth = site_name(site), site.id
        elif trap == "other-occupant":
            site = rng.choice(known)
            line = address_variant(rng, site.address, number=site.address.number)
            name, truth = spare_business(), site.id
        elif trap == "in-range":
            site = neighbours[0]
            number = rng.randrange(site.address.number + 1, site.address.number_to)
            line = address_variant(rng, site.address, number=number)
            name = site_name(site) if rng.random() < 0.5 else spare_business("Company")
            truth = site.id
        elif trap == "named-street-only":
            site = rng.choice(known)
            line = address_variant(rng, site.address, keep_unit=False).split(" ", 1)[1]
            name, truth = site_name(site), site.id
        elif trap == "same-name-elsewhere":
            site = rng.choice(known)
            street = (
                far_street
                if rng.random() < 0.6 or site.address.street == cross_street[0]
                else cross_street
            )
            number = rng.randrange(100, 9900)
            while any(
                _covers(k.address, number, None) and k.address.street == street[0] for k in known
            ):
                number = rng.randrange(100, 9900)
            elsewhere = address(number, street)
            line = address_variant(rng, elsewhere)
            name, truth = name_variant(rng, site.name, site.corporate), "other"
        elif trap == "near-number":
            site = rng.choice(known)
            base = site.address.number_to or site.address.number
            number = base + rng.choice(
                (2, 4, 6, 10, 18, 36, -2 if not site.address.number_to else 2)
            )
            if site.address.number_to is None and rng.random() < 0.4:
                digits = str(site.address.number)
                number = (
                    int(digits[:-2] + digits[-1] + digits[-2])
                    if len(digits) > 2 and digits[-1] != digits[-2]
                    else number
                )
            if any(_covers(k.address, number, site.address) for k in known):
                number += 200
            line = address_variant(rng, site.address, number=number, keep_unit=False)
            name, truth = spare_business(), "other"
        elif trap == "other-directional":
            site = rng.choice([k for k in known if k.address.predir])
            flipped = Address(site.address.number, OPPOSITE[site.address.predir], site.address.street,
                              site.address.suffix, city[0], city[1], city[2])  # fmt: skip
            line = address_variant(rng, flipped)
            name, truth = spare_business(), "other"
        elif trap == "other-city":
            site = rng.choice(known)
            line = address_variant(rng, site.address, keep_unit=False)
            city_text = city_line(rng, site.address, other_city)
            name = spare_business()
            truth = "other"
        elif trap == "other-site":
            street = rng.choice((far_street, cross_street, main_street))
            number = rng.randrange(100, 9900)
            while any(
                _covers(k.address, number, None) and k.address.street == street[0] for k in known
            ):
                number = rng.randrange(100, 9900)
            other = address(number, street, pre=predir if street == main_street else "")
            line = address_variant(rng, other)
            name, truth = spare_business(), "other"
        elif trap == "unmappable-point":
            line = ""
            city_text = city_line(rng, subject.address) if rng.random() < 0.5 else ""
            point = f"{rng.uniform(30, 47):.5f}, {-rng.uniform(75, 118):.5f}"
            name, truth = spare_business(), "unmappable"
        else:  # unmappable-street
            street = rng.choice((main_street, cross_street))
            line = address_variant(
                rng, address(None, street, pre=predir if street == main_street else "")
            )
            name, truth = spare_business(), "unmappable"
        if not spare_stems:
            spare_stems = [s for s in NAME_STEMS if s not in stems]
        if truth in distances:
            distance, direction, elevation = distances[truth]
        elif trap == "near-number":  # next door: as close as a neighbour, so distance tells nothing
            distance, direction, elevation = (
                round(rng.uniform(0.01, 0.12), 3),
                rng.choice(POINTS),
                rng.choice(("Higher", "Lower", "Equal")),
            )
        else:
            distance, direction, elevation = far()
        if truth == "unmappable":
            distance, direction, elevation = -1.0, "", ""
        listings.append(Listing(record_number(db), db, name, line, city_text, point, distance,
                                direction, elevation, status, truth, trap))  # fmt: skip
    order = {db.code: i for i, db in enumerate(databases)}
    listings.sort(
        key=lambda item: (order[item.database.code], item.distance_mi < 0, item.distance_mi)
    )
    return Report(
        subject, tuple(neighbours), tuple(listings), layout, databases,
        search_date=f"{rng.randint(2019, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        order_number=f"{rng.randint(4000000, 7999999)}.{rng.randint(1, 9)}s",
        scanned=rng.random() < SCANNED_SHARE,
    )  # fmt: skip


def truncate(street: str, style: str) -> str:
    """A long street name as a database's short field holds it (see TRUNCATION)."""
    if style == "prefix":
        return street[:6]
    return street[0] + "".join(ch for ch in street[1:] if ch.lower() not in "aeiou")


def _overlaps(address: Address, low: int, high: int, like: Address) -> bool:
    if (address.street, address.predir) != (like.street, like.predir) or address.number is None:
        return False
    return not (high < address.number or (address.number_to or address.number) < low)


def _covers(address: Address, number: int, like: Address | None) -> bool:
    """Whether `number` is `address`'s number or inside its range (on `like`'s street, if given)."""
    if like is not None and (address.street, address.predir) != (like.street, like.predir):
        return False
    if address.number is None:
        return False
    high = address.number_to or address.number
    return address.number <= number <= high


def _status(rng: random.Random, db: Database) -> str:
    options = {
        0: ("Tanks: 2 (1 removed)", "Tanks: 3 in use", "Tanks: 1 closed in place", "Tanks: 4 (all removed)"),
        1: ("Status: Open", "Status: Closed - NFA issued", "Status: Case closed", "Status: Active remediation"),
        2: ("Spill: 30 gal diesel", "Spill: unknown petroleum", "Spill: 5 gal hydraulic oil", "Release: gasoline to soil"),
        3: ("Generator class: SQG", "Generator class: CESQG", "Violations: none found", "Violations: 2"),
        4: ("Permit status: Active", "Permit status: Expired", "Permit: general stormwater", "Permit: individual"),
        5: ("Action: consent order", "Action: notice of violation", "Penalty: $4,500", "Action: compliance letter"),
    }  # fmt: skip
    # Both splits list their databases in the same order: tanks, leaks, spills, waste, permits, enforcement.
    position = [d.code for d in DATABASES_BY_SPLIT["dev"] + DATABASES_BY_SPLIT["test"]].index(
        db.code
    ) % 6
    return rng.choice(options[position])
