"""The paper that fills a real file (invoices, transmittals, fax covers, disposal certificates,
photographs): `form_doc`, `filler_doc` and the loose kinds (`LOOSE`).
"""

from __future__ import annotations

import datetime as dt

from ...locate import sitekinds
from ...locate.sitepages import (
    MARGIN,
    PAGE_W,
    Sheet,
    finish,
    person,
)
from ..papers import (
    Doc,
    Part,
    Pen,
    loc_name,
)
from .small import shim

# The loose paper of each kind of site, in the order a file repeats it.
LOOSE = {
    "station": ("invoice", "transmittal", "invoice", "fax", "certificate", "product-gauging"),
    "bulk-plant": ("invoice", "spcc-inspection", "transmittal", "manifest", "invoice", "fax"),
    "dry-cleaner": ("invoice", "manifest", "ssd-inspection", "transmittal", "invoice", "fax"),
    "auto-repair": ("invoice", "transmittal", "manifest", "invoice", "fax", "certificate"),
    "plating-shop": ("invoice", "manifest", "transmittal", "invoice", "certificate", "fax"),
    "fleet-garage": ("invoice", "product-gauging", "transmittal", "invoice", "fax", "manifest"),
    "printing-plant": ("invoice", "manifest", "transmittal", "fax", "invoice", "certificate"),
    "ag-chem-dealer": ("invoice", "spcc-inspection", "transmittal", "fax", "invoice"),
    "former-mgp": ("invoice", "transmittal", "certificate", "fax", "invoice"),
    "landfill-adjacent": ("invoice", "fax", "transmittal", "invoice", "certificate"),
    "rail-yard": ("invoice", "spcc-inspection", "manifest", "transmittal", "fax"),
    "machine-shop": ("invoice", "manifest", "transmittal", "certificate", "fax"),
    "paint-manufacturer": ("invoice", "manifest", "spcc-inspection", "transmittal", "fax"),
    "truck-stop": ("invoice", "product-gauging", "transmittal", "fax", "invoice"),
    "boatyard": ("invoice", "transmittal", "manifest", "fax", "invoice"),
}


def form_doc(pen: Pen, day: dt.date, which: str) -> Doc:
    """The site-specific one-page forms: an SPCC monthly tank inspection, a hazardous waste
    manifest (F002 spent solvent for a dry cleaner), an SSD system O&M checklist, a free-product
    gauging log."""
    m = pen.m
    st = pen.office(day)
    sheet = Sheet(st, which)
    rng = pen.rng
    if which == "spcc-inspection":
        sheet.text(
            "SPCC MONTHLY INSPECTION CHECKLIST - ABOVEGROUND STORAGE TANKS",
            bold=True,
            align="center",
        )
        sheet.text(f"Facility: {m.business}, {m.address}    Month: {day:%B %Y}", align="center")
        sheet.gap(8)
        rows = []
        for t in [t for t in m.tanks if t.kind == "AST"] or m.tanks:
            for item in (
                "Tank shell: leaks, corrosion",
                "Secondary containment: cracks, water",
                "Valves and piping",
                "Level gauge / overfill alarm",
            ):
                rows.append(
                    [
                        t.id,
                        item,
                        rng.choice(
                            (
                                "OK",
                                "OK",
                                "OK",
                                "Rain water in berm - drained",
                                "Weep at flange - tightened",
                            )
                        ),
                    ]
                )
        sheet.table(
            ["Tank", "Item inspected", "Condition / action"],
            rows[:30],
            [60, 220, 210],
            size=st.size - 1,
        )
        sheet.text(
            f"Loading rack drip pans emptied: {rng.choice(('yes', 'yes', 'n/a'))}.  Inspector: {person(rng)}"
        )
        sheet.text("Records retained for three years per 40 CFR 112.7(e).", size=st.size - 1)
    elif which == "manifest":
        waste = {
            "dry-cleaner": (
                "F002",
                "Waste tetrachloroethylene, 6.1, UN1897, PG III (spent dry-cleaning solvent "
                "and still bottoms)",
            ),
            "plating-shop": (
                "F006",
                "Wastewater treatment sludge from electroplating (chromium, cadmium)",
            ),
            "auto-repair": ("D001", "Waste petroleum naphtha and spent parts-washer solvent"),
            "fleet-garage": (
                "D001",
                "Waste petroleum naphtha, 3, UN1268, PG II (parts-washer solvent)",
            ),
            "printing-plant": (
                "F005",
                "Waste toluene and xylene press-wash solvent, 3, UN1993, PG II",
            ),
            "rail-yard": ("NON-HAZ", "Used oil and oily water from the engine-house pits"),
            "machine-shop": (
                "F001",
                "Spent trichloroethylene degreasing solvent, 6.1, UN1710, PG III",
            ),
            "paint-manufacturer": (
                "F003",
                "Waste paint-related material, 3, UN1263, PG II (spent mineral spirits, xylene)",
            ),
            "boatyard": ("D008", "Bottom-paint blasting and sanding dust (lead, copper)"),
            "bulk-plant": (
                "NON-HAZ",
                "Petroleum-contaminated water and tank bottoms, non-regulated",
            ),
        }[m.spec.archetype]
        sheet.box(MARGIN - 10, 40, PAGE_W - 2 * MARGIN + 20, 560, width=1.4)
        sheet.y = 50
        sheet.text(
            "UNIFORM HAZARDOUS WASTE MANIFEST"
            if waste[0] != "NON-HAZ"
            else "NON-HAZARDOUS WASTE MANIFEST",
            size=st.size + 3,
            bold=True,
            align="center",
        )
        sheet.text("Form Approved. OMB No. 2050-0039", size=st.size - 2, align="center")
        sheet.gap(8)
        for label, value in (
            ("1. Generator ID Number", f"FRD{rng.randint(100000000, 999999999)}"),
            ("4. Manifest Tracking Number", f"{rng.randint(10000000, 99999999)} JJK"),
            ("5. Generator's Name and Site Address", f"{m.client_on(day)}, {m.address}"),
            (
                "6. Transporter 1 Company Name",
                rng.choice(("Cascade Waste Transport", "Safe-Haul Environmental")),
            ),
            (
                "8. Designated Facility",
                rng.choice(("Clean Harbors Recycling Center", "Heritage Solvents TSDF")),
            ),
            ("9b. U.S. DOT Description", waste[1]),
            ("11. Total Quantity", f"{rng.randint(2, 55) * 5} {rng.choice(('gallons', 'pounds'))}"),
            ("13. Waste Codes", waste[0]),
        ):
            sheet.text(label, bold=True, size=st.size - 1)
            sheet.text(value, x=MARGIN + 20)
        sheet.gap(10)
        sheet.para(
            "15. GENERATOR'S/OFFEROR'S CERTIFICATION: I hereby declare that the contents of this consignment "
            "are fully and accurately described above by the proper shipping name, and are classified, "
            "packaged, marked and labeled/placarded.",
            size=st.size - 1,
        )
        sheet.text(
            f"Printed name: {person(rng)}     Signature: __________     Date: {st.date(day)}"
        )
    elif which == "ssd-inspection":
        sheet.text("SUB-SLAB DEPRESSURIZATION SYSTEM - O&M INSPECTION", bold=True, align="center")
        sheet.text(f"{m.name}, {m.address}    Inspection date: {st.date(day)}", align="center")
        sheet.gap(8)
        rows = [
            [
                f"VP-{k}",
                f"-{rng.uniform(0.02, 0.35):.3f}",
                rng.choice(("OK", "OK", "OK", "Low - adjusted")),
            ]
            for k in range(1, 7)
        ]
        sheet.table(
            ["Monitoring point", "Vacuum (in. w.c.)", "Remarks"],
            rows,
            [140, 140, 180],
            size=st.size - 1,
        )
        sheet.text(
            f"Fan: {rng.choice(('RP-265', 'GP-501', 'HP-220'))}   Manometer at riser: "
            f"{rng.uniform(0.8, 2.6):.2f} in. w.c.   Alarm tested: yes"
        )
        sheet.text(
            f"Technician: {person(rng)}. Next inspection due in 3 months under the O&M plan."
        )
    else:  # product-gauging
        sheet.text("FREE PRODUCT GAUGING AND RECOVERY LOG", bold=True, align="center")
        sheet.text(f"{m.name}    Date: {st.date(day)}", align="center")
        sheet.gap(8)
        rows = []
        for k in range(1, 5):
            dtw = rng.uniform(7, 12)
            thickness = rng.choice((0.0, 0.0, 0.0, 0.01, 0.12, 0.35)) if k != 3 else 0.0
            if thickness:
                rows.append(
                    [
                        loc_name(st, f"MW-{k}"),
                        f"{dtw - thickness:.2f}",
                        f"{dtw:.2f}",
                        "sheen" if thickness < 0.05 else f"{thickness * 0.6:.2f} gal bailed",
                    ]
                )
            else:
                rows.append([loc_name(st, f"MW-{k}"), "--", f"{dtw:.2f}", "none (no product)"])
        sheet.table(
            ["Well", "Depth to product (ft)", "Depth to water (ft)", "Recovered"],
            rows,
            [90, 130, 130, 140],
            size=st.size - 1,
        )
        sheet.text(f"Absorbent socks replaced in {loc_name(st, 'MW-1')}. Technician: {person(rng)}")
    return Doc(
        which,
        which.replace("-", " ").title(),
        day,
        [Part(finish([sheet], mark=""))],
        scannable=True,
        filler=True,
    )


def filler_doc(pen: Pen, day: dt.date, which: str) -> Doc:
    """A one-page document most of a file is made of: an invoice, a transmittal, a fax cover, a
    disposal certificate (the locate package's kinds)."""
    if which in ("spcc-inspection", "manifest", "ssd-inspection", "product-gauging"):
        return form_doc(pen, day, which)
    st = pen.office(day)
    site = shim(pen, day)
    if which == "invoice":
        inv = sitekinds.Invoice(
            pen.rng.choice(
                (
                    "Ridgeline Drilling Co.",
                    "Delta Pump & Well Service",
                    st.firm,
                    "Cascade Waste Transport",
                )
            ),
            f"{pen.rng.randint(10000, 99999)}",
            day,
            [
                (
                    pen.rng.choice(
                        (
                            "Groundwater sampling, labor",
                            "Field vehicle",
                            "Purge water disposal",
                            "Report preparation",
                            "Laboratory analysis",
                            "Project management",
                        )
                    ),
                    pen.rng.randint(150, 4800) * 100,
                )
                for _ in range(pen.rng.randint(2, 6))
            ],
        )
        sheets = sitekinds.invoice(pen.rng, st, pen.split, site, inv)
    elif which == "transmittal":
        sheets = sitekinds.transmittal(
            pen.rng,
            st,
            pen.split,
            site,
            date=day,
            items=[
                pen.rng.choice(
                    (
                        "Monitoring report (2 copies)",
                        "Laboratory data package",
                        "Field notes",
                        "Waste manifests",
                        "Site plan, revised",
                    )
                )
            ],
        )
    elif which == "fax":
        sheets = sitekinds.fax_cover(
            pen.rng, st, pen.split, site, pages=pen.rng.randint(2, 9), date=day
        )
    else:
        sheets = sitekinds.certificate(pen.rng, st, pen.split, site)
    return Doc(which, which.title(), day, [Part(sheets)], scannable=True, filler=True)
