"""Laboratory reports of given samples, in Extract v2's lab-report families, with the facts each
page prints.

A site's record holds the laboratory reports of its sampling events: the site model decides
which samples were taken and what the laboratory found; this module prints them as one of the
families of `envirobench_synth.labreport.families` prints a report (its skeleton, column titles,
analyte synonyms, non-detect notation, date format, decimal comma, headers and footers, QC
pages), and says on which page every result is printed.

    job = LabJob(family="dev-sample-pages", split="dev", job_number="L40211", ...,
                 samples=(LabSample("MW-3-051419", "MW-3", None, "groundwater",
                                    dt.date(2019, 5, 14), (LabResult("Benzene", 12.5, "µg/L", 1.0),)),))
    paper = render_lab_report(job, SEED, "st-275", "lab", 4)
    paper.pdf               # the PDF (reportlab invariant=1: the same bytes every run)
    paper.page_facts[k]     # the result facts page k + 1 prints
    paper.printed[fact]     # the result cell as printed: "12.5", "<1.0", "ND", "0.50" (U style)

What is drawn from the seed: the laboratory (unless the job names it), the family's conventions
and words, the analyte names (catalogue names or their synonyms of the split), the lab sample
IDs' times, the QC runs. What is given is printed as given: sample IDs, dates, values, reporting
limits, qualifiers, dilutions.

Printing rules (what S1's answer keys rely on):

- One report per matrix of the job, stapled in the order the matrices first appear among the
  samples (a laboratory issues a report per matrix under one job number); each has its cover,
  case narrative and sample summary, results pages and, with `qc`, laboratory QC (method blank,
  LCS, MS/MSD, laboratory duplicate, surrogate recoveries, inline or on QC pages as the family's
  conventions draw it). QC rows and surrogate rows carry no result facts.
- A result is printed once, in the results pages of its matrix's report; its fact is
  `result|<location>|<depth or ->|<YYYY-MM-DD>|<analyte catalogue name>|<matrix>` (CONTRACT.md).
  Two samples with the same key (a blind duplicate labelled with its true location) put the same
  fact on their pages; `printed` keeps the text of the first sample of the job that has it.
- A non-detect (value None) is printed in the family's notation at its reporting limit (`<1.0`,
  `ND`, or `1.0` with a `U` qualifier); its given qualifier is printed with it (`UJ` replaces the
  `U` of the U notation). A detection is printed as its value in the report's number style
  (decimal comma, thousands separators, scientific notation only where it prints the same
  number); its qualifier as given (an `R` result is printed flagged R: the record decides).
- An analyte another sample of the same method section has but this one lacks is printed as the
  family's not-result cell (`NA`, `--`): never a fact.
- A revision (`revision` > 0) is marked as the family marks revisions ("Revised Report -
  Revision N" on the cover or in the footer) and `revision_note` is printed in the case
  narrative; the original is a separate `render_lab_report` of the same job with `revision=0`
  (the superseded pages Extract appends are not repeated here: the record holds the original).
- `site_address` is printed in the case narrative.

Analytes are the catalogue's (`envirobench_synth.catalogue.ANALYTES`) and, for compounds a site
needs that the catalogue lacks, `EXTRA_ANALYTES` below (the catalogue cannot grow without
changing the pinned Extract datasets, whose samplers pick analytes by position).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from .. import catalogue
from ..catalogue import MATRICES, Analyte
from ..labreport import names
from ..labreport.families import (
    FAMILY_BY_NAME,
    LABEL_ROLES,
    SECTION_TITLES,
    Block,
    Cell,
    Conventions,
    Family,
    FamilyReport,
    ReportFacts,
    ResultGrid,
    Section,
    _analyte_name,
    _conventions,
    _nondetect_cell,
    _plant_lab_qc,
    _record,
    read_number,
)
from ..labreport.skeletons import ScanPlan, render_family_reports
from ..rng import make_random
from ..scans import ScanSettings
from ..vocabulary import LABEL_TERMS, Split, choose

# Site media, each analysed as the catalogue medium whose methods and units it shares.
MEDIUM_OF: dict[str, str] = {
    "groundwater": "groundwater",
    "surface-water": "groundwater",
    "soil": "soil",
    "sediment": "soil",
    "soil-vapor": "soil-gas",
    "sub-slab-vapor": "soil-gas",
    "indoor-air": "soil-gas",
}

# Compounds of site work the catalogue lacks (append only: a site's papers draw names from here).
EXTRA_ANALYTES: tuple[Analyte, ...] = (
    Analyte("tert-Butyl alcohol", "75-65-0", "voc", "TBA"),
    Analyte("1,2-Dibromoethane", "106-93-4", "voc", "EDB"),
    Analyte("1,1,1-Trichloroethane", "71-55-6", "voc", "1,1,1-TCA"),
    Analyte("Aroclor 1248", "12672-29-6", "pcb", "PCB-1248"),
)

GROUP_ORDER = ("voc", "tph", "metal", "mercury", "pah", "svoc", "pcb")


@dataclass(frozen=True)
class LabResult:
    analyte: str  # catalogue name
    value: float | None  # None: not detected
    unit: str
    reporting_limit: float
    qualifier: str = ""  # "", "J", "E", "D", "B", "R", "UJ", ...
    dilution: float = 1.0


@dataclass(frozen=True)
class LabSample:
    sample_id: str  # as the field team labelled it, e.g. "MW-3-051419", "DUP-1"
    location: str  # canonical location (a blind duplicate's true location too)
    depth: str | None
    matrix: str
    sampled: dt.date
    results: tuple[LabResult, ...]


@dataclass(frozen=True)
class LabJob:
    family: str  # a lab family name of envirobench_synth.labreport.families (of the split)
    split: str  # "dev" | "test"
    job_number: str
    client: str
    project: str
    site_address: str
    received: dt.date
    issued: dt.date
    samples: tuple[LabSample, ...]
    revision: int = 0  # 0: original; 1, 2...: a revised report, marked as the family marks it
    revision_note: str | None = None  # what the revision changed, printed in the case narrative
    qc: bool = True  # method blank, LCS, MS/MSD, surrogate rows (facts: none)
    laboratory: str | None = None  # None: drawn from the catalogue's laboratories


@dataclass(frozen=True)
class LabPaper:
    pdf: bytes  # reportlab invariant=1: the same bytes every run
    page_facts: tuple[frozenset[str], ...]  # per page, the result facts it prints
    printed: dict[str, str]  # result fact -> the result cell as printed ("12.5", "<1.0", "ND")
    qualifiers: dict[str, str]  # result fact -> the qualifier printed with it ("" if none)
    page_kinds: tuple[str, ...]  # per page: cover, narrative, results, qc
    scanned: tuple[bool, ...]  # per page: an image-only scan (no text layer)


def result_fact(sample: LabSample, analyte: str) -> str:
    """The fact string of a printed result (CONTRACT.md, "Facts on pages")."""
    return "|".join(
        (
            "result",
            sample.location,
            sample.depth or "-",
            sample.sampled.isoformat(),
            analyte,
            sample.matrix,
        )
    )


def analyte_entry(name: str) -> Analyte:
    """The catalogue entry of `name` (or of EXTRA_ANALYTES); a clear error for any other."""
    for analyte in (*catalogue.ANALYTES, *EXTRA_ANALYTES):
        if analyte.name == name:
            return analyte
    raise ValueError(f"LabResult.analyte: {name!r} is not a catalogue analyte name")


def render_lab_report(
    job: LabJob,
    seed: int,
    *labels: str | int,
    scan: ScanPlan = "none",
    scan_settings: Callable[[random.Random], ScanSettings] | None = None,
) -> LabPaper:
    """The laboratory report of `job` (see the module docstring); `scan` and `scan_settings`
    as `render_family_reports` takes them (which pages are image-only scans, and how)."""
    _check(job)
    rng = make_random(seed, *labels, "labpaper")
    family = FAMILY_BY_NAME[job.family]
    laboratory = job.laboratory or rng.choice(catalogue.LABORATORIES)
    lab_address = (
        f"{rng.randint(10, 9899)} {rng.choice(names.STREETS)}",
        "{}, {} {}".format(*rng.choice(names.CITIES)),
    )
    approver = f"{rng.choice(names.FIRST_NAMES)} {rng.choice(names.LAST_NAMES)}"
    contact = f"{rng.choice(names.FIRST_NAMES)} {rng.choice(names.LAST_NAMES)}"
    project_number = f"{job.received.year}-{rng.randint(10, 999):03d}"
    matrices = list(dict.fromkeys(s.matrix for s in job.samples))
    split: Split = "dev" if job.split == "dev" else "test"
    # One laboratory, one style and one set of words for every report of the job; no screening
    # column (a laboratory does not know the site's standards; the record states them elsewhere).
    conventions = dataclasses.replace(_conventions(rng, family, split), screening=False)
    labels = {role: choose(rng, LABEL_TERMS[role], split) for role in LABEL_ROLES}
    reports: list[FamilyReport] = []
    facts_of: dict[int, str] = {}  # id(truth record) -> its fact
    printed: dict[str, str] = {}
    qualifiers: dict[str, str] = {}
    for matrix in matrices:
        samples = [s for s in job.samples if s.matrix == matrix]
        report = _report(
            job,
            rng,
            family,
            matrix,
            samples,
            ReportFacts(
                laboratory=laboratory,
                lab_address=lab_address,
                work_order=job.job_number,
                client=job.client,
                contact=contact,
                project=job.project,
                project_number=project_number,
                received=job.received,
                reported=job.issued,
                status="revised" if job.revision else "final",
                revision=job.revision,
                approver=approver,
                matrix=matrix,
            ),
            conventions,
            labels,
            facts_of,
            printed,
            qualifiers,
        )
        reports.append(report)
    rendered = render_family_reports(
        reports, seed, *labels, "labpaper", scan=scan, scan_settings=scan_settings
    )
    pages: list[set[str]] = [set() for _ in rendered.pages]
    for truth, page in zip(rendered.records, rendered.record_pages, strict=True):
        pages[page - 1].add(facts_of[id(truth)])
    missing = set(printed) - set().union(*pages)
    if missing:
        raise ValueError(f"results drafted on no page: {sorted(missing)[:3]}")
    return LabPaper(
        rendered.pdf,
        tuple(frozenset(p) for p in pages),
        printed,
        qualifiers,
        tuple(p.kind for p in rendered.pages),
        tuple(p.scanned for p in rendered.pages),
    )


def _check(job: LabJob) -> None:
    family = FAMILY_BY_NAME.get(job.family)
    if family is None:
        raise ValueError(f"LabJob.family: {job.family!r} is not a lab-report family")
    if family.split != job.split:
        raise ValueError(f"LabJob.family: {job.family} is not a family of the {job.split} split")
    if not job.samples:
        raise ValueError("LabJob.samples: a report needs at least one sample")
    if job.revision < 0 or (job.revision and not job.revision_note):
        raise ValueError("LabJob.revision: a revision needs a positive number and a revision_note")
    seen: set[str] = set()
    for sample in job.samples:
        if sample.matrix not in MEDIUM_OF:
            raise ValueError(f"LabSample.matrix: {sample.matrix!r} is not a site matrix")
        if sample.sample_id in seen:
            raise ValueError(f"LabSample.sample_id: {sample.sample_id!r} twice in one job")
        seen.add(sample.sample_id)
        if not sample.results:
            raise ValueError(f"LabSample.results: sample {sample.sample_id!r} has none")
        analytes = [r.analyte for r in sample.results]
        if len(set(analytes)) != len(analytes):
            raise ValueError(f"LabSample.results: an analyte twice in {sample.sample_id!r}")
        for result in sample.results:
            analyte_entry(result.analyte)
            if not (math.isfinite(result.reporting_limit) and result.reporting_limit > 0):
                raise ValueError(f"LabResult.reporting_limit: {result.reporting_limit!r}")
            if result.value is not None and not (math.isfinite(result.value) and result.value >= 0):
                raise ValueError(f"LabResult.value: {result.value!r}")
            if not (math.isfinite(result.dilution) and result.dilution >= 1):
                raise ValueError(f"LabResult.dilution: {result.dilution!r}")


def _style_for(conventions: Conventions, value: Decimal) -> Conventions:
    """The report's number style for `value`, without scientific notation where that would
    change the number (it keeps two significant digits)."""
    if read_number(conventions.number(value), conventions.decimal_comma) != float(value):
        return dataclasses.replace(conventions, scientific=False)
    return conventions


def _number(conventions: Conventions, value: Decimal) -> str:
    return _style_for(conventions, value).number(value)


def _decimal(value: float) -> Decimal:
    """A given number with the digits a laboratory prints: `repr` keeps the float's shortest
    digits ("12.5", "0.0123", "1.0"); a whole number of 10 or more prints no ".0" ("1250")."""
    if value >= 10 and value == int(value):
        return Decimal(int(value))
    return Decimal(repr(value))


def _report(
    job: LabJob,
    rng: random.Random,
    family: Family,
    matrix: str,
    samples: list[LabSample],
    facts: ReportFacts,
    conventions: Conventions,
    labels: dict[str, str],
    facts_of: dict[int, str],
    printed: dict[str, str],
    qualifiers: dict[str, str],
) -> FamilyReport:
    split: Split = "dev" if job.split == "dev" else "test"
    medium = MATRICES[MEDIUM_OF[matrix]]
    # The laboratory's words; no screening column (a laboratory does not know the site's
    # standards, and the record states them elsewhere).
    # Method sections: one per (group, unit), in method order, analytes in catalogue order.
    members: dict[tuple[str, str], list[Analyte]] = {}
    for sample in samples:
        for result in sample.results:
            analyte = analyte_entry(result.analyte)
            group = members.setdefault((analyte.group, result.unit), [])
            if analyte not in group:
                group.append(analyte)
    order = [*catalogue.ANALYTES, *EXTRA_ANALYTES]
    style = rng.choice(catalogue.METHOD_STYLES)
    sections: list[Section] = []
    where: dict[tuple[str, str], tuple[int, int]] = {}  # (analyte, unit) -> (section, row)
    for s, (group, unit) in enumerate(
        sorted(members, key=lambda k: (GROUP_ORDER.index(k[0]), k[1]))
    ):
        analytes = sorted(members[(group, unit)], key=order.index)
        methods = medium.methods.get(group) or MATRICES["soil"].methods[group]  # type: ignore[index]
        shown = []
        for a, analyte in enumerate(analytes):
            shown.append((_analyte_name(rng, analyte, split), analyte.cas))
            where[(analyte.name, unit)] = (s, a)
        sections.append(
            Section(
                SECTION_TITLES[group],
                catalogue.format_method(rng.choice(methods), style),
                group,
                unit.replace("µ", conventions.micro),
                tuple(shown),
            )
        )
    blocks: list[Block] = []
    cells: dict[tuple[int, int, int], Cell] = {}
    base_rl: dict[int, Decimal] = {}
    for k, sample in enumerate(samples):
        b = len(blocks)
        given = {where[(r.analyte, r.unit)]: r for r in sample.results}
        present = tuple(sorted({s for s, _ in given}))
        blocks.append(
            Block(
                sample.sample_id,
                sample.sample_id,
                "field",
                f"{job.job_number}-{k + 1:02d}",
                sample.sampled,
                f"{rng.randint(8, 16):02d}:{rng.choice((0, 15, 30, 45)):02d}",
                present,
                summary_id=sample.sample_id,
            )
        )
        for s in present:
            section = sections[s]
            for a, (name, cas) in enumerate(section.analytes):
                result = given.get((s, a))
                if result is None:
                    cells[(b, s, a)] = Cell(conventions.not_result, "", "", "", "1", None)
                    continue
                rl = _decimal(result.reporting_limit)
                if result.dilution == 1 or s not in base_rl:
                    base_rl[s] = min(base_rl.get(s, rl), rl)
                rl_text = _number(conventions, rl)
                if result.value is None:
                    text, qualifier = _nondetect_cell(_style_for(conventions, rl), rl)
                    if result.qualifier:
                        # A validator's UJ replaces the U of the U notation; other flags add.
                        qualifier = (
                            result.qualifier
                            if "U" in result.qualifier or qualifier != "U"
                            else qualifier + result.qualifier
                        )
                else:
                    text = _number(conventions, _decimal(result.value))
                    qualifier = result.qualifier
                truth = _record(
                    conventions, sample.sample_id, section, name, cas, text, qualifier, rl_text,
                    family,
                )  # fmt: skip
                fact = result_fact(sample, result.analyte)
                facts_of[id(truth)] = fact
                printed.setdefault(fact, text)
                qualifiers.setdefault(fact, qualifier)
                dilution = result.dilution
                cells[(b, s, a)] = Cell(
                    text,
                    qualifier,
                    rl_text,
                    conventions.number(Decimal(catalogue.significant(rl * Decimal("0.4"), 2))),
                    str(int(dilution)) if dilution == int(dilution) else repr(dilution),
                    truth,
                )
    narrative = [f"The samples were collected at {job.site_address}."]
    if job.revision:
        narrative.append(f"Revision {job.revision}: {job.revision_note}")
    if job.qc:
        # The laboratory's QC runs: method blank, LCS, MS/MSD and a duplicate of the first sample.
        _plant_lab_qc(rng, ResultGrid(family, conventions, sections, blocks, cells, base_rl))
    return FamilyReport(
        family,
        split,
        facts,
        conventions,
        tuple(sections),
        tuple(blocks),
        cells,
        tuple(narrative),
        labels,
    )
