"""A site's whole record: documents filed in order, padded to the exact page count, scanned in
part, split into volumes, rendered to PDF bytes, and its four answer keys.

Reprint rules (the answer key of site-results; CONTRACT.md):
- The key of a result is (location, depth, sampling date, analyte, matrix). One record per key.
- A laboratory's report of the sample is the governing printing. A revised laboratory report
  supersedes the original for every result of it (the original's printings are `superseded`).
  A laboratory's correction letter overrides only the values it names: it governs those, and
  every earlier printing of the old value is `superseded`.
- Data a later report rejects (a validation memo, or an R flag of the laboratory) is excluded:
  no record for the key.
- A final supersedes its draft: every printing in a draft is `draft`.
- Consultants' tables, findings sentences, appendices and cumulative historical tables are
  `reprint`s when they print the governing value, `transcription-error`s when a later table
  misprints it (the laboratory report settles it), and `superseded` when they copied a value
  before the laboratory fixed it.
- A blind field duplicate (DUP-1) is a quality-control sample: it is not a record of any key
  (its parent's own sample is).
"""

from __future__ import annotations

import datetime as dt
import json
import math
from dataclasses import dataclass

from .. import standards as standards_mod
from ..catalogue import ANALYTES
from ..legal.packet import merge_pdfs
from ..locate.sitepages import emit_pdf, style
from ..rng import make_random
from ..vocabulary import ANALYTE_SYNONYMS, terms_of
from . import vocab
from .counts import trap_counts
from .documents import LOOSE, Traps, filler_doc, plan_documents
from .model import ARCHETYPES, SPECS, SiteModel, SiteSpec, result_fact, sample_model
from .papers import SHORT, Doc, Pen, loc_name
from .scanning import filed_scan, scan_records

FILL_SHARE = 0.03  # at least this share of pages is loose one-page paper
SCAN_SHARE = 0.095  # of the record's pages filed as scans besides the laboratory reports
MAX_VOLUME = 250
MIN_VOLUME = 60
CAS = {a.name: a.cas for a in ANALYTES}


@dataclass(frozen=True)
class SiteBuild:
    site_id: str
    volumes: tuple[tuple[str, bytes], ...]
    standards: bytes
    input: dict
    answers: dict
    traps: dict
    pages: int
    page_facts: tuple[tuple[frozenset[str], ...], ...] = ()  # per volume, per page: facts stated


@dataclass
class Page:
    doc: int  # index into the filed documents
    part: int
    facts: set[str]
    file: str = ""
    number: int = 0  # 1-based within its volume


def standards_asset() -> bytes:
    """The pinned screening tables every site may name, as one JSON asset (the same bytes for
    every site)."""
    tables = sorted({t for spec in SPECS.values() for t in _arch_tables(spec.archetype)})
    rows = [row for table in tables for row in standards_mod.standards_of(table)]
    payload = {
        "format": "envirobench.site.standards.v1",
        "tables": tables,
        "rows": standards_mod.as_json(rows),
    }
    return json.dumps(payload, ensure_ascii=False, sort_keys=True, indent=1).encode("utf-8")


def _arch_tables(archetype: str) -> tuple[str, ...]:
    return tuple(ARCHETYPES[archetype].standards.values())


def file_documents(model: SiteModel, seed: int) -> tuple[SiteModel, list[Doc], Traps]:
    """Every document of the record in filing order, padded with one-page paper to the exact
    page count of the spec."""
    docs, traps = plan_documents(model, seed)
    core = sum(d.pages for d in docs)
    # a small record (pages 0) is as long as its documents and its share of loose paper
    target = model.spec.pages or math.ceil(core / (1 - FILL_SHARE)) + 1
    events = sum(1 for c in model.campaigns if c.kind == "monitoring")
    budget = target * (1 - FILL_SHARE)
    reduced = False
    while core > budget:
        # fewer monitoring rounds until the documents leave room for the file's loose paper
        if events <= 2:
            raise ValueError(f"{model.spec.site_id}: the documents do not fit in {target} pages")
        per = sum(d.pages for d in docs if d.kind == "monitoring-report") / max(1, events)
        events = max(2, events - max(1, int((core - budget) / max(per, 1.0))))
        model = sample_model(model.spec, events)
        docs, traps = plan_documents(model, seed)
        core = sum(d.pages for d in docs)
        reduced = True
    while reduced:
        # then as many rounds as still fit
        trial = sample_model(model.spec, events + 1)
        if sum(1 for c in trial.campaigns if c.kind == "monitoring") <= events:
            break
        trial_docs, trial_traps = plan_documents(trial, seed)
        trial_core = sum(d.pages for d in trial_docs)
        if trial_core > budget:
            break
        model, docs, traps, core, events = trial, trial_docs, trial_traps, trial_core, events + 1
    pen = Pen(model, make_random(seed, "filler", model.spec.site_id))
    # loose paper comes with the consultants' work: from the release on
    start = model.release_found - dt.timedelta(days=60)
    span = (model.spec.as_of - start).days
    kinds = LOOSE[model.spec.archetype]
    missing = target - core
    extra = []
    for k in range(missing):
        day = start + dt.timedelta(days=int(span * (k + 0.5) / missing))
        extra.append(filler_doc(pen, day, kinds[k % len(kinds)]))
    docs = sorted(docs + extra, key=lambda d: d.issued)
    assert sum(d.pages for d in docs) == target
    return model, docs, traps


def choose_scans(docs: list[Doc], target: int) -> int:
    """Mark old documents (whole) and hand-filled forms as scans, oldest first, until about
    SCAN_SHARE of the pages are scans besides the laboratory reports filed as scans (chosen
    with the traps); returns the number of scanned pages."""
    scanned = sum(p.pages for d in docs for p in d.parts if p.scan)
    goal = scanned + round(target * SCAN_SHARE)
    candidates = []
    for doc in docs:
        if doc.scannable and all(p.sheets is not None for p in doc.parts):
            candidates.append((doc.issued, doc.parts))
        else:
            candidates += [
                (doc.issued, [p]) for p in doc.parts if p.scannable and p.sheets is not None
            ]
    for _, parts in sorted(candidates, key=lambda c: c[0]):
        if scanned >= goal:
            break
        pages = sum(p.pages for p in parts)
        if scanned + pages > goal + 3:
            continue
        for part in parts:
            part.scan = True
        scanned += pages
    return scanned


def split_volumes(docs: list[Doc]) -> list[list[int]]:
    """Document indexes per volume: equal-ish volumes of 60-250 pages ending between documents."""
    total = sum(d.pages for d in docs)
    count = max(1, -(-total // 230))
    bounds = []
    done = 0
    position = 0
    for v in range(1, count):
        goal = total * v / count
        while position < len(docs) and done + docs[position].pages <= goal:
            done += docs[position].pages
            position += 1
        bounds.append(position)
    volumes = []
    previous = 0
    for b in [*bounds, len(docs)]:
        volumes.append(list(range(previous, b)))
        previous = b
    for v in volumes:
        pages = sum(docs[i].pages for i in v)
        if not (MIN_VOLUME <= pages <= MAX_VOLUME) and len(volumes) > 1:
            raise ValueError(f"a volume of {pages} pages")
    return volumes


def render_volume(
    docs: list[Doc], indexes: list[int], seed: int, site_id: str, number: int
) -> bytes:
    """The volume's PDF: runs of drawn sheets as they are, each scanned part of sheets as the
    record's scan of its paper (`scanning.filed_scan`: its pages' scans kept on the part), and
    the PDFs of other parts (instruments, laboratory reports) as they were made."""
    parts: list[bytes] = []
    run: list = []

    def flush() -> None:
        if run:
            parts.append(emit_pdf(run, f"{site_id} volume {number}"))
            run.clear()

    for i in indexes:
        doc = docs[i]
        for p, part in enumerate(doc.parts):
            if part.sheets and part.scan:
                flush()
                clean = emit_pdf(part.sheets, doc.title)
                sender = part.sheets[0].style.firm
                pdf, part.scan_pages = filed_scan(clean, len(part.sheets), seed, site_id, "filed", i, p,
                                                  sender=sender, sent=doc.issued)
                parts.append(pdf)
            elif part.sheets is not None:
                run.extend(part.sheets)
            else:
                flush()
                parts.append(part.pdf)
    flush()
    return merge_pdfs(parts)


def build(site: str | SiteSpec) -> SiteBuild:
    """The record of a site of SPECS (by ID), or of any spec (`sized_spec`: a site of a chosen
    size drawn from a chosen seed)."""
    if isinstance(site, SiteSpec):
        spec = site
    elif site in SPECS:
        spec = SPECS[site]
    else:
        raise KeyError(f"unknown site {site!r}; known: {', '.join(SPECS)}")
    site_id = spec.site_id
    model = sample_model(spec)
    model, docs, traps = file_documents(model, spec.seed)
    scanned = choose_scans(docs, sum(d.pages for d in docs))
    volumes = split_volumes(docs)
    pages: list[Page] = []
    files = []
    scans = []
    for v, indexes in enumerate(volumes, 1):
        name = f"volume-{v}.pdf"
        number = 0
        files.append((name, render_volume(docs, indexes, spec.seed, site_id, v)))
        for i in indexes:
            for p, part in enumerate(docs[i].parts):
                for k, facts in enumerate(part.facts()):
                    number += 1
                    pages.append(Page(i, p, facts, name, number))
                    if part.scan_pages:
                        scans.append((name, number, part.scan_pages[k]))
    answers = answer_keys(model, docs, traps, pages)
    for answer in answers.values():
        answer["scan_pages"] = scan_records(scans)
    counts = trap_counts(traps, docs, answers, scanned, model.consultants)
    return SiteBuild(
        site_id=site_id,
        volumes=tuple(files),
        standards=standards_asset(),
        input=case_input(model, docs, volumes, pages),
        answers=answers,
        traps=counts,
        pages=len(pages),
        page_facts=tuple(
            tuple(frozenset(p.facts) for p in pages if p.file == name) for name, _ in files
        ),
    )


def canonical_style(model: SiteModel, docs: list[Doc]):
    finals = [d for d in docs if d.kind.endswith("-report") and not d.draft]
    return style(model.consultant_on(finals[-1].issued))


def case_input(
    model: SiteModel, docs: list[Doc], volumes: list[list[int]], pages: list[Page]
) -> dict:
    analytes = []
    for name in model.analytes():
        cas = CAS.get(name)
        terms = terms_of(ANALYTE_SYNONYMS.get(cas, ()), model.split) if cas else ()
        synonyms = sorted(
            {t for t in terms if t != name} | ({SHORT[name]} - {name} if name in SHORT else set())
        )
        analytes.append({"name": name, "cas": cas, "synonyms": synonyms})
    return {
        "site": model.spec.site_id,
        "name": model.name,
        "address": model.address,
        "as_of": model.spec.as_of.isoformat(),
        "volumes": [
            {
                "file": f"volume-{v}.pdf",
                "pages": sum(1 for p in pages if p.file == f"volume-{v}.pdf"),
            }
            for v in range(1, len(volumes) + 1)
        ],
        "pages": len(pages),
        "analytes": analytes,
        "matrices": [m for m in vocab.MATRICES if m in model.matrices()],
        "condition_kinds": list(vocab.CONDITION_KINDS),
        "condition_classes": list(vocab.CONDITION_CLASSES),
        "event_kinds": list(vocab.EVENT_KINDS),
    }


def _cite(page: Page) -> dict:
    return {"file": page.file, "page": page.number}


def answer_keys(model: SiteModel, docs: list[Doc], traps: Traps, pages: list[Page]) -> dict:
    by_fact: dict[str, list[Page]] = {}
    for page in pages:
        for fact in page.facts:
            by_fact.setdefault(fact, []).append(page)
    canon = canonical_style(model, docs)
    results, excluded = [], []
    for key, truth in sorted(
        model.truth.items(), key=lambda kv: (kv[0][2], kv[0][0], kv[0][1], kv[0][3], kv[0][4])
    ):
        location, depth, day, analyte, matrix = key
        named = {
            "location": loc_name(canon, location),
            "depth": None if depth == "-" else depth,
            "sample_date": day,
            "analyte": analyte,
            "cas": CAS.get(analyte),
            "matrix": matrix,
        }
        if key in traps.rejected:
            # No record: every page that prints the key prints a value a later report rejects.
            excluded.append(
                {
                    **named,
                    "printings": [
                        {**_cite(page), "status": "rejected", **_printed(docs, page, result_fact(key), truth)}
                        for page in by_fact.get(result_fact(key), [])
                    ],
                }
            )
            continue
        fact = result_fact(key)
        printings = by_fact.get(fact, [])
        if not printings:
            raise ValueError(f"{model.spec.site_id}: no page prints {fact}")
        governing = _governing(key, printings, docs, traps)
        fixed = traps.fixed_by(key)
        out = []
        for page in printings:
            doc, part = docs[page.doc], docs[page.doc].parts[page.part]
            value = part.values.get(fact, truth.value) if part.values else truth.value
            if page is governing:
                status = "governing"
            elif doc.draft:
                status = "draft"
            elif part.role == "lab" and doc.campaign in traps.revised:
                status = "superseded"
            elif value != truth.value:
                status = (
                    "superseded"
                    if fixed is not None and (part.issued or doc.issued) < fixed
                    else "transcription-error"
                )
            else:
                status = "reprint"
            out.append({**_cite(page), "status": status, **_printed(docs, page, fact, truth)})
        results.append(
            {
                **named,
                "value": truth.value,
                "detected": truth.value is not None,
                "unit": truth.unit,
                "reporting_limit": truth.rl,
                "qualifier": ""
                if truth.qualifier == "U" and truth.value is None
                else truth.qualifier,
                "source": _cite(governing),
                "printings": out,
            }
        )
    return {
        "site-results": {"results": results, "excluded": excluded},
        "exceedance-summary": {"exceedances": exceedances(model, results)},
        "recognized-conditions": {"conditions": conditions(model, by_fact)},
        "site-timeline": {"events": timeline(model, docs, by_fact)},
    }


def _printed(docs: list[Doc], page: Page, fact: str, truth) -> dict:
    """The value a page prints for a result (null: a non-detect), in the record's unit for it:
    what a reader who takes this printing gets (superseded, draft, misprinted or rejected values
    included), so the scorer can tell which printing a predicted value came from."""
    part = docs[page.doc].parts[page.part]
    value = part.values.get(fact, truth.value) if part.values else truth.value
    return {"value": value, "unit": truth.unit}


def _governing(key, printings: list[Page], docs: list[Doc], traps: Traps) -> Page:
    def role(page: Page) -> str:
        return docs[page.doc].parts[page.part].role

    if key in traps.corrected:
        chosen = [p for p in printings if role(p) == "correction"]
    else:
        chosen = [p for p in printings if role(p) == "lab-revised"] or [
            p for p in printings if role(p) == "lab" and not docs[p.doc].draft
        ]
    if not chosen:
        chosen = [p for p in printings if not docs[p.doc].draft]
    chosen.sort(key=lambda p: (docs[p.doc].issued, p.doc, p.part))
    return chosen[0]


_PER = {
    ("µg/L", "mg/L"): 0.001,
    ("mg/L", "µg/L"): 1000.0,
    ("µg/L", "µg/L"): 1.0,
    ("mg/L", "mg/L"): 1.0,
    ("mg/kg", "mg/kg"): 1.0,
}


def exceedances(model: SiteModel, results: list[dict]) -> list[dict]:
    """Governing detections above the governing table's value in force on the sampling date.
    The table is the one the agency's letters name for the matrix; a row on a dissolved basis
    does not apply to the total results of these records; vapor and air have no pinned table."""
    out = []
    for r in results:
        table = model.standards.get(r["matrix"])
        if table is None or r["value"] is None:
            continue
        day = dt.date.fromisoformat(r["sample_date"])
        try:
            row = standards_mod.value_in_force(table, r["analyte"], day)
        except ValueError:
            row = standards_mod.value_in_force(table, r["analyte"], day, basis="total")
        if row is None or row.basis == "dissolved":
            continue
        factor = _PER.get((r["unit"], row.unit))
        if factor is None:
            raise ValueError(f"no conversion from {r['unit']} to {row.unit}")
        if r["value"] * factor > row.value:
            out.append(
                {
                    key: r[key]
                    for key in (
                        "location",
                        "depth",
                        "sample_date",
                        "analyte",
                        "cas",
                        "matrix",
                        "value",
                        "unit",
                    )
                }
                | {
                    "standard": {"table": table, "value": row.value, "unit": row.unit},
                    "source": r["source"],
                }
            )
    return out


def conditions(model: SiteModel, by_fact: dict[str, list[Page]]) -> list[dict]:
    out = []
    for c in model.conditions:
        evidence = by_fact.get(f"condition|{c.kind}", [])
        if not evidence:
            raise ValueError(f"{model.spec.site_id}: no page supports the condition {c.kind}")
        cites = sorted(
            {(p.file, p.number) for p in evidence},
            key=lambda fp: (int(fp[0].split("-")[1][:-4]), fp[1]),
        )
        out.append(
            {"kind": c.kind, "class": c.cls, "evidence": [{"file": f, "page": n} for f, n in cites]}
        )
    return out


def timeline(model: SiteModel, docs: list[Doc], by_fact: dict[str, list[Page]]) -> list[dict]:
    out = []
    for h in model.happenings:
        stated = by_fact.get(h.fact, [])
        if not stated:
            raise ValueError(f"{model.spec.site_id}: no page states {h.fact}")
        first = min(stated, key=lambda p: (docs[p.doc].issued, p.doc, p.number))
        out.append({"kind": h.kind, "date": h.text, "subject": h.subject, "source": _cite(first)})
    out.sort(key=lambda e: (e["date"], e["kind"], e["subject"] or ""))
    return out
