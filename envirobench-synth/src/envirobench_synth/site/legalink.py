"""Recorded instruments of a site record, drawn by `envirobench_synth.legal` (called, not copied).

The deeds of the parcel's owners (`legal.title.to_instrument` of a `TitleInstrument`), the
railroad lease of a bulk plant (`legal.parties.draft_railroad_lease`) and the environmental
covenant (`legal.instruments.sample_instrument`), each rendered by `legal.render_instrument`.
Each is the copy an archive holds (`render_instrument(..., archival=True)`: the recording stamp of
its era, signatures in their hands, seals); those recorded before SCAN_BEFORE are filed as scans,
photocopies or faxes, each page's degradation recorded (`Part.scan_pages`). Their facts are where
the copy prints them: the recording on the pages that carry the recorder's stamp (the rendering's
page tags; every page for an e-recording header), a date or a limitation on the pages whose
born-digital text states it (the same pages a scan shows).
"""

from __future__ import annotations

import dataclasses
import datetime as dt

import pypdfium2 as pdfium

from ..legal import families, render_instrument
from ..legal.instruments import (
    Acknowledgment,
    Instrument,
    Recording,
    Signature,
    person,
    recording_fee,
    sample_instrument,
)
from ..legal.parties import WORDING_SPLITS, Drafter, draft_railroad_lease, wording
from ..legal.render import RenderedInstrument
from ..legal.title import TITLES, Parcel, TitleInstrument, to_instrument
from ..rng import make_random
from .papers import Doc, Part, Pen

SCAN_BEFORE = 1990  # instruments recorded before this are in the file as recorder's scans


def _texts(pdf: bytes) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        out = []
        for page in document:
            textpage = page.get_textpage()
            out.append(textpage.get_text_range())
            textpage.close()
            page.close()
        return out
    finally:
        document.close()


def _family(pen: Pen, label: str) -> tuple[str, families.RecorderStyle]:
    templates, recorders = families.SPLITS[pen.split]
    rng = make_random(pen.m.spec.seed, "legal-family", label)
    return rng.choice(templates), families.recorder(recorders[pen.m.spec.seed % len(recorders)])


def _parcel(pen: Pen, recorder: families.RecorderStyle) -> Parcel:
    rng = make_random(pen.m.spec.seed, "parcel")
    return Parcel(
        pen.m.apn,
        rng.randint(1, 24),
        rng.randint(1, 12),
        "DEPOT STREET INDUSTRIAL ADDITION",
        rng.randint(3, 40),
        rng.randint(1, 90),
        recorder.county,
        recorder.state,
    )


def _filed(pen: Pen, instrument: Instrument, seed: int, label: str, scanned: bool) -> tuple[RenderedInstrument, Part]:
    """The instrument as the file holds it: an archive's copy of its era (`render_instrument(...,
    archival=True)`: its recording stamp, signatures and seals; scanned, the copy's degradation
    recorded page by page), as a part whose facts the caller sets."""
    rendered = render_instrument(instrument, seed, pen.m.spec.site_id, label, scanned=scanned, archival=True)
    part = Part(pdf=rendered.pdf, pdf_facts=[set() for _ in range(rendered.pages)], role="instrument",
                scan_pages=rendered.scan_pages)
    part.scan = scanned
    return rendered, part


def _born_digital_texts(pen: Pen, instrument: Instrument, seed: int, label: str, part: Part) -> list[str]:
    """The text of each page of the filed instrument: its own text layer, or for a scan (which
    has none) the born-digital rendering of the same pages."""
    pdf = part.pdf if not part.scan else render_instrument(instrument, seed, pen.m.spec.site_id, label, archival=True).pdf
    texts = _texts(pdf)
    if len(texts) != part.pages:
        raise ValueError(f"{instrument.title}: {len(texts)} born-digital pages for {part.pages} filed")
    return texts


def _doc(
    pen: Pen, instrument: Instrument, fact: str, when: dt.datetime, kind: str, seed: int, label: str
) -> Doc:
    # the recording's facts are on the pages that show the recorder's stamp (every page of an
    # e-recording header), found by the rendering's page tags: a scan has no text to search
    rendered, part = _filed(pen, instrument, seed, label, when.year < SCAN_BEFORE)
    part.pdf_facts = [{fact} if "stamp" in tags else set() for tags in rendered.page_tags]
    if not any(part.pdf_facts):
        raise ValueError(f"the recording stamp of {instrument.title} is on no page")
    return Doc(kind, instrument.title, when.date(), [part])


def deeds(pen: Pen, seed: int) -> list[Doc]:
    m = pen.m
    docs = []
    previous = "Juniper Valley Land Company"
    for k, owner in enumerate(m.owners):
        template, recorder = _family(pen, f"deed-{k}")
        rng = make_random(seed, "deed", m.spec.site_id, k)
        kind = rng.choice(("warranty-deed", "special-warranty-deed"))
        item = TitleInstrument(
            role="vesting",
            kind=kind,
            title=rng.choice(TITLES[kind]),
            grantor=previous,
            grantee=owner.name,
            parcel=_parcel(pen, recorder),
            date=owner.signed,
            recorded=owner.recorded,
            number=recorder.number_format.format(
                year=owner.recorded.year, serial=rng.randint(1000, 9999999)
            )
            if recorder.number_label
            else "",
            book=rng.randint(100, 9999),
            page=rng.randint(1, 999),
            signer=person(rng),
            capacity=rng.choice(("President", "Manager", "Grantor")),
        )
        instrument = to_instrument(item, template, recorder, rng)
        fact = f"event|ownership-transfer|{m.apn}|{owner.recorded.date().isoformat()}"
        docs.append(_doc(pen, instrument, fact, owner.recorded, "deed", seed, f"deed-{k}"))
        previous = owner.name
    return docs


def lease(pen: Pen, seed: int) -> list[Doc]:
    """The railroad's lease of the bulk plant's site; the model takes its parties' names."""
    m = pen.m
    template_name, recorder = _family(pen, "lease")
    rng = make_random(seed, "lease", m.spec.site_id)
    words = wording(WORDING_SPLITS[pen.split][0])
    drafter = Drafter(rng, words, recorder)
    signed = m.lease[2]
    parcel = _parcel(pen, recorder)
    title, body, parties, _recorded = draft_railroad_lease(
        drafter, signed, parcel.description, m.apn
    )
    m.lease = (parties[0].name, parties[1].name, signed)
    template = families.template(template_name)
    signatures = [Signature(p.caption, p.name, s, c, "ink") for p in parties for s, c in p.signers]
    expires = signed + dt.timedelta(days=rng.randint(200, 1400))
    notary = person(rng)
    acks = [
        Acknowledgment(
            recorder.state,
            recorder.county,
            s.signer,
            s.capacity,
            notary,
            signed,
            expires,
            f"{rng.randint(100000, 999999)}",
            "ink",
        )
        for s in signatures
    ]
    when = dt.datetime.combine(
        signed + dt.timedelta(days=rng.randint(3, 30)),
        dt.time(rng.randint(8, 16), rng.randint(0, 59)),
    )
    recording = Recording(
        recorder.number_format.format(year=when.year, serial=rng.randint(1000, 9999999))
        if recorder.number_label
        else "",
        rng.randint(100, 9999),
        rng.randint(1, 999),
        when,
        recording_fee(rng),
    )
    instrument = Instrument(
        kind="railroad-lease",
        title=title,
        scenario="recorded",
        template=template,
        recorder=recorder,
        date=signed,
        return_to=[
            "When recorded, return to:",
            parties[1].name,
            f"{rng.randint(100, 9999)} Depot Street",
        ],
        body=body,
        witness_clause=template.witness_clause.format(
            party="each party", date=f"{signed:%B} {signed.day}, {signed.year}"
        ),
        signatures=signatures,
        acknowledgments=acks,
        recording=recording,
        apn=m.apn,
    )
    # the lease is dated by its signing; the file's copy shows it recorded, and the model's event is
    # the signing day, stated in the opening paragraph
    m_event = f"event|lease-executed|{m.apn}|{signed.isoformat()}"
    _rendered, part = _filed(pen, instrument, seed, "lease", when.year < SCAN_BEFORE)
    # the opening paragraph states the date
    texts = _born_digital_texts(pen, instrument, seed, "lease", part)
    long = f"{signed:%B} {signed.day}, {signed.year}"
    part.pdf_facts = [{m_event} if long in " ".join(t.split()) else set() for t in texts]
    if not any(part.pdf_facts):
        raise ValueError("the lease's date is on no page")
    return [Doc("lease", title, signed, [part])]


def covenant(pen: Pen, seed: int) -> list[Doc]:
    m = pen.m
    template_name, recorder = _family(pen, "covenant")
    rng = make_random(seed, "covenant", m.spec.site_id)
    instrument = sample_instrument(
        rng, "recorded", families.template(template_name), recorder, kind="environmental-covenant"
    )
    day = m.covenant
    signed = day - dt.timedelta(days=rng.randint(3, 20))
    when = dt.datetime.combine(day, dt.time(rng.randint(8, 16), rng.randint(0, 59)))
    instrument.date = signed
    instrument.recording = dataclasses.replace(instrument.recording, when=when)
    instrument.apn = m.apn
    instrument.body = [
        text.replace(text.split(", as Owner")[0].split(" by ")[-1], m.owner_on(day))
        if ", as Owner" in text
        else text
        for text in instrument.body
    ]
    instrument.body = [
        f"Parcel Number: {m.apn}" if text.startswith("Parcel Number:") else text
        for text in instrument.body
    ]
    owner = m.owner_on(day)
    agency = instrument.signatures[2].party
    instrument.body = [text.replace(agency, m.agency) for text in instrument.body]
    instrument.signatures[2] = dataclasses.replace(instrument.signatures[2], party=m.agency)
    instrument.signatures[0] = Signature(
        "OWNER",
        owner,
        instrument.signatures[0].signer,
        instrument.signatures[0].capacity,
        "ink",
    )
    instrument.witness_clause = families.template(template_name).witness_clause.format(
        party=owner, date=f"{signed:%B} {signed.day}, {signed.year}"
    )
    for ack in instrument.acknowledgments:
        ack.date = signed
    fact = f"event|covenant-recorded|{m.apn}|{day.isoformat()}"
    doc = _doc(pen, instrument, fact, when, "covenant", seed, "covenant")
    # every page that states the activity and use limitations supports the condition it controls
    texts = _born_digital_texts(pen, instrument, seed, "covenant", doc.parts[0])
    controlled = [c.kind for c in m.conditions if c.cls == "CREC"]
    for index, text in enumerate(texts):
        if "use limitations" in " ".join(text.split()).lower():
            doc.parts[0].pdf_facts[index] |= {f"condition|{k}" for k in controlled}
    _ = Acknowledgment
    return [doc]
