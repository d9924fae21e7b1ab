"""Report families of Extract v2: six laboratory-report families with their conventions and traps.

A family is how one kind of laboratory prints a report: a skeleton (how results are laid out on
the pages, see `skeletons.py`), its vocabulary (column titles, labels and analyte names drawn from
`envirobench_synth.vocabulary` by split) and its conventions (non-detect notation, date format,
decimal comma, scientific notation, where quality control is printed, headers and footers). Dev
families and test families are disjoint: a test split shows skeleton variants, conventions and
words its dev split never shows.

`sample_family_report(rng, family)` draws a `FamilyReport`: samples as the laboratory lists them
("blocks": field samples, field QC, re-analyses and laboratory QC runs), method sections, and
every printed cell with its truth. Rendering (`skeletons.render_family_report`) lays the cells
out; the ground truth is the truth of every cell printed, in print order.

Truth rules (the record format of EnviroBench's Extract types, `envirobench_extract.records`,
extended for the traps of real reports; the v1 rules of `model.py` hold where these say nothing):

- Only results of the client's samples are records. Field QC samples ARE client samples: blind
  field duplicates (DUP-1, FD-01), trip blanks, equipment and rinsate blanks are records.
  Laboratory QC is NOT: surrogate %REC rows under a sample, matrix spikes and their duplicates
  (IDs such as "MW-01 MS", "MW-01 MSD"), laboratory duplicates ("MW-01 DUP"), laboratory control
  samples (LCS, LCSD) and method blanks, wherever they are printed (inline or on QC pages).
- `sample_id` is the field sample ID as printed with the results, without a laboratory
  re-analysis suffix: a result printed under "MW-03 DL" or "MW-03RE" is a result of MW-03. Where
  the sample summary or narrative spells an ID otherwise (MW-3 vs MW-03), the results pages'
  spelling is the truth. Dates and depths inside an ID are part of it.
- Reportable result of a re-analysis: for an analyte over the calibration range at dilution 1
  (printed with an E flag) the reportable result is the diluted run's (DL, flagged D); the E
  result is not a record. Every other analyte of a DL run is not a record (its undiluted result
  is the reportable one). When the narrative says a re-analysis (RE) is reported, the RE run's
  results are the records and the original run of that method for that sample is not.
- E flags: a detection above the calibration range at dilution 1 is always flagged E (and has
  its diluted re-analysis in the report).
- `reporting_limit` is the value printed in the reporting-limit column (RL, PQL, LOQ, ...) of
  the result's row, even when a non-detect is printed at the method detection limit
  (`0.20 U` or `<0.20` with MDL 0.20 and RL 1.0: reporting_limit 1.0). Where no reporting-limit
  column is printed, it is the number of a non-detect cell (`<0,50`, `0.50 U`) and null for a
  detection.
- `cas` is the CAS Registry Number printed on the result's own row, and null where that row
  prints none: the `--` of a percent solids or moisture row, and every result of the long-table
  skeleton (`dev-long-table`, `test-method-sections`), whose tables (one long table, or one per
  method) have no CAS column. The sample-pages skeleton prints a CAS column in every sample
  table, the sample-columns skeleton one on every analyte row beside the samples' results (and
  again in each table of a method split over several). A CAS number printed anywhere else (on
  another page, in another table, in a sample summary or the narrative) does not count unless it
  is printed beside that result; `cas_column(family)` says which families print it.
- Numbers are read as printed: decimal commas (`1,25` is 1.25), scientific notation
  (`1.2E+03` is 1200), thousands separators removed.
- `qualifier` is every flag printed with the result, separators removed (`J,B` and `J B` are
  "JB"; validator flags `UJ`, `J+`, `J-`, `JN` stay as printed). A result flagged `R`
  (rejected) is not a record.
- Superseded data is not a record: the original pages appended behind a revised report, and a
  result the narrative declares invalid. The revised value printed in the report is the record.
- Cells that are not results (`NA`, `--`, `NR`, `not analyzed`) are not records; screening-level
  columns and exceedance shading are not part of any record.
- Fractions: an analyte in a dissolved, TCLP or SPLP section is named with the fraction in
  parentheses after the name printed: "Lead (dissolved)", "Lead (TCLP)", "Lead (SPLP)" (total
  metals keep the printed name). TCLP/SPLP leachate results are in the leachate unit printed
  (mg/L) although the sample is a soil.
- Percent solids and percent moisture rows are records (analyte as printed, unit "%", CAS null).
  Soil results are on the basis the report states (dry weight); the unit is as printed.
- A PDF holding several reports stapled together: the records of every report in it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from .. import catalogue
from ..catalogue import MATRICES, Analyte
from ..vocabulary import (
    ANALYTE_SYNONYMS,
    COLUMN_TERMS,
    LABEL_TERMS,
    NOT_RESULT_TERMS,
    Split,
    choose,
)
from . import names
from .model import TruthRecord

Skeleton = Literal["sample-pages", "long-table", "sample-columns"]

# Every trap a report can carry, counted per dataset (rows or reports that show it).
TRAPS: tuple[str, ...] = (
    "qc-surrogate",  # surrogate %REC rows under each sample (inline)
    "qc-matrix-spike",  # MS/MSD runs with IDs such as "MW-01 MS"
    "qc-lab-duplicate",  # laboratory duplicate "MW-01 DUP"
    "qc-lcs",  # LCS/LCSD
    "qc-method-blank",  # method blank
    "qc-inline",  # laboratory QC printed inside the results pages
    "field-duplicate",  # blind field duplicate DUP-1: records
    "field-blank",  # trip, equipment, rinsate blanks: records
    "reanalysis-dl",  # a DL run; the E/D pair's reportable result
    "reanalysis-re",  # an RE run reported in place of the original
    "e-flag",  # over the calibration range at dilution 1
    "nondetect-at-mdl",  # a non-detect printed at the MDL, the RL printed beside it
    "nondetect-at-rl",  # a non-detect printed at the RL, the MDL printed beside it
    "percent-solids",  # % solids / % moisture rows
    "dry-weight",  # soil results on a dry-weight basis
    "leachate",  # TCLP/SPLP leachate results in mg/L
    "dissolved-metals",  # total and dissolved metals of one sample
    "revised-value",  # a value changed by a revision
    "original-pages-appended",  # superseded pages behind a revised report
    "rejected-r",  # a result flagged R
    "narrative-invalidated",  # a result the narrative declares invalid
    "not-result-cell",  # NA, --, NR cells
    "screening-level",  # a screening-level column, exceedances shaded
    "id-with-date",  # a date inside a sample ID
    "id-padding",  # MW-3 in the summary, MW-03 on the results pages
    "scientific-notation",
    "decimal-comma",
    "combined-flag",  # J,B / JB
    "validator-flag",  # UJ, J+, J-, JN
    "draft-no-watermark",  # a draft that says so only in words
    "status-footer-only",  # the report status printed only in the footer
    "stapled",  # several reports in one PDF
)

# The cover and header labels a report prints, drawn in this order (a fixed list: roles appended
# to the vocabulary later must not shift these draws).
LABEL_ROLES: tuple[str, ...] = (
    "work_order",
    "report_date",
    "received_date",
    "client",
    "project",
    "project_number",
    "collected",
    "matrix",
    "approver",
)

CAL_FACTOR = 100  # the calibration range tops out at this many reporting limits (dilution 1)


@dataclass(frozen=True)
class Family:
    name: str
    split: Split
    skeleton: Skeleton
    modelled_on: str
    matrices: tuple[str, ...]  # drawn from, repeats weight
    samples: tuple[int, int]  # field samples per report
    analytes: tuple[int, int]  # analytes per method section
    sections: tuple[int, int]  # method sections per report
    qc_inline: float  # share of reports printing laboratory QC inside the results pages
    mdl_column: bool
    nondetect: tuple[str, ...]  # "U", "<", "ND"
    date_formats: tuple[str, ...]
    decimal_comma: float
    scientific: float
    validator_flags: bool
    screening: float  # share of reports with a screening-level column (sample-columns only)
    header: str  # "rule", "box", "none"
    footer: str  # "pages", "lab-pages", "status"
    units_in_header: bool  # the unit printed in the section heading, not on every row
    look: tuple[str, ...]


FAMILIES: tuple[Family, ...] = (
    Family(
        "dev-sample-pages",
        "dev",
        "sample-pages",
        "the per-sample 'Client Sample Results' pages of large US commercial laboratories: one "
        "page per sample and method, MDL and RL beside every result, surrogate recoveries under "
        "each method's results, QC summaries on their own pages",
        ("groundwater", "groundwater", "soil"),
        (2, 3),
        (4, 6),
        (2, 2),
        0.5,
        True,
        ("U", "<"),
        ("%m/%d/%Y", "%m/%d/%y"),
        0.15,
        0.15,
        False,
        0.0,
        "rule",
        "pages",
        False,
        ("grid", "rows"),
    ),
    Family(
        "dev-long-table",
        "dev",
        "long-table",
        "regional laboratories' one long results table: a sample column, the rows grouped by "
        "method under section headings, QC (blank, LCS, MS/MSD, duplicate) listed after each "
        "method's samples",
        ("soil", "groundwater"),
        (2, 4),
        (4, 6),
        (2, 2),
        0.7,
        False,
        ("<", "ND"),
        ("%d-%b-%Y", "%Y-%m-%d"),
        0.25,
        0.1,
        True,
        0.0,
        "box",
        "lab-pages",
        False,
        ("header-rule", "zebra"),
    ),
    Family(
        "dev-summary-columns",
        "dev",
        "sample-columns",
        "summary tables of consultants' data packages and state-program reports: samples as "
        "columns under a multi-row header (sample, lab ID, date), analytes as rows grouped by "
        "method, a screening-level column with exceedances shaded",
        ("groundwater", "soil"),
        (3, 5),
        (4, 7),
        (2, 2),
        0.3,
        False,
        ("<", "U"),
        ("%m/%d/%Y", "%d-%b-%Y"),
        0.15,
        0.2,
        True,
        0.6,
        "rule",
        "status",
        True,
        ("grid", "header-rule"),
    ),
    Family(
        "test-form-one",
        "test",
        "sample-pages",
        "CLP-style Form I data packages after data validation: one page per sample run under a "
        "boxed page header, validator flags (UJ, J+, J-, JN, R), MS/MSD runs printed as sample "
        "pages of their own",
        ("groundwater", "soil", "soil"),
        (2, 3),
        (4, 6),
        (2, 2),
        0.4,
        True,
        ("U",),
        ("%Y-%m-%d", "%B %d, %Y"),
        0.1,
        0.35,
        True,
        0.0,
        "box",
        "status",
        False,
        ("grid", "zebra"),
    ),
    Family(
        "test-method-sections",
        "test",
        "long-table",
        "European accredited-laboratory test reports: decimal commas, day-first dates, "
        "determinands grouped by method with the unit only in the section heading",
        ("soil", "groundwater"),
        (2, 4),
        (4, 6),
        (2, 2),
        0.5,
        True,
        ("<",),
        ("%d.%m.%Y", "%d/%m/%Y"),
        0.7,
        0.15,
        False,
        0.0,
        "none",
        "lab-pages",
        True,
        ("rows", "header-rule"),
    ),
    Family(
        "test-wide-summary",
        "test",
        "sample-columns",
        "data summary reports of public-sector laboratories: samples as columns with the "
        "sampling date in the header, the unit on every row, 'not analyzed' cells, laboratory "
        "QC (duplicates, spikes, blanks) as extra columns",
        ("groundwater", "soil"),
        (3, 5),
        (4, 7),
        (2, 2),
        0.6,
        False,
        ("U", "<"),
        ("%d-%b-%y", "%m/%d/%Y"),
        0.3,
        0.3,
        True,
        0.5,
        "none",
        "pages",
        False,
        ("rows", "zebra"),
    ),
)

FAMILY_BY_NAME = {f.name: f for f in FAMILIES}


def families_of(split: Split) -> tuple[Family, ...]:
    return tuple(f for f in FAMILIES if f.split == split)


# -- the printed report -------------------------------------------------------------------------

BlockKind = Literal[
    "field",
    "field-duplicate",
    "field-blank",
    "dl",
    "re",
    "ms",
    "msd",
    "lab-dup",
    "mb",
    "lcs",
    "lcsd",
]
LAB_QC: frozenset[str] = frozenset(("ms", "msd", "lab-dup", "mb", "lcs", "lcsd"))


@dataclass(frozen=True)
class Block:
    """One column of results as the laboratory lists it: a sample, a re-analysis or a QC run."""

    label: str  # as printed on the results pages: "MW-03", "MW-03 DL", "MW-03 MS", "LCS"
    truth_id: str  # the field sample ID of its records ("" for laboratory QC)
    kind: BlockKind
    lab_id: str
    collected: dt.date | None
    time: str
    sections: tuple[int, ...]  # the method sections it has results for
    summary_id: str = ""  # the ID as the sample summary spells it (differs: id-padding)


@dataclass(frozen=True)
class Section:
    title: str  # "Volatile Organic Compounds"
    method: str  # as printed
    group: str
    unit: str  # as printed
    analytes: tuple[tuple[str, str | None], ...]  # (name as printed, CAS)
    fraction: str = ""  # "", "dissolved", "TCLP", "SPLP"
    percent: bool = False  # the % solids / moisture section


@dataclass(frozen=True)
class Cell:
    """One printed result with its truth (None: not a record)."""

    result: str
    qualifier: str
    rl: str
    mdl: str
    dilution: str
    truth: TruthRecord | None
    traps: tuple[str, ...] = ()
    shaded: bool = False


@dataclass(frozen=True)
class Conventions:
    nondetect: str
    date_format: str
    decimal_comma: bool
    scientific: bool
    micro: str
    thousands: bool
    qc_inline: bool
    look: str
    font_size: float
    titles: dict[str, str]  # column role -> title (vocabulary)
    not_result: str  # the cell text of an analyte not analysed
    screening: bool
    draft_watermark: bool
    status_footer_only: bool

    def date(self, value: dt.date) -> str:
        return value.strftime(self.date_format)

    def number(self, value: Decimal) -> str:
        if self.scientific and (value >= 1000 or value < Decimal("0.01")):
            mantissa, exponent = _scientific(value)
            text = f"{mantissa}E{exponent:+03d}"
        elif self.thousands and value >= 1000 and not self.decimal_comma:
            text = format(value, ",f")
        else:
            text = format(value, "f")
        return text.replace(".", ",") if self.decimal_comma else text


def _scientific(value: Decimal) -> tuple[str, int]:
    exponent = value.adjusted()
    mantissa = catalogue.significant(value.scaleb(-exponent), 2)
    if Decimal(mantissa) >= 10:
        mantissa, exponent = catalogue.significant(value.scaleb(-exponent - 1), 2), exponent + 1
    return mantissa, exponent


def read_number(text: str, decimal_comma: bool) -> float:
    """A printed number as a careful reader records it (the inverse of Conventions.number)."""
    text = text.replace(",", ".") if decimal_comma else text.replace(",", "")
    return float(Decimal(text))


@dataclass(frozen=True)
class ReportFacts:
    laboratory: str
    lab_address: tuple[str, ...]
    work_order: str
    client: str
    contact: str
    project: str
    project_number: str
    received: dt.date
    reported: dt.date
    status: str  # final, draft, revised
    revision: int
    approver: str
    matrix: str


@dataclass(frozen=True)
class FamilyReport:
    family: Family
    split: Split
    facts: ReportFacts
    conventions: Conventions
    sections: tuple[Section, ...]
    blocks: tuple[Block, ...]
    cells: dict[tuple[int, int, int], Cell]  # (block, section, analyte) -> cell
    narrative: tuple[str, ...]
    labels: dict[str, str]  # cover label role -> text
    superseded: dict[tuple[int, int, int], Cell] = field(default_factory=dict)  # original cells
    report_traps: tuple[str, ...] = ()
    screening: dict[tuple[int, int], str] = field(default_factory=dict)  # (section, analyte)

    def cell(self, block: int, section: int, analyte: int) -> Cell | None:
        return self.cells.get((block, section, analyte))


# -- sampling -----------------------------------------------------------------------------------

SECTION_TITLES = {
    "voc": "Volatile Organic Compounds",
    "tph": "Total Petroleum Hydrocarbons",
    "metal": "Metals",
    "mercury": "Mercury",
    "pah": "Polynuclear Aromatic Hydrocarbons",
    "svoc": "Semivolatile Organic Compounds",
    "pcb": "Polychlorinated Biphenyls",
}
SURROGATES = {
    "voc": ("Toluene-d8", "4-Bromofluorobenzene", "Dibromofluoromethane"),
    "pah": ("2-Fluorobiphenyl", "Terphenyl-d14", "Nitrobenzene-d5"),
    "svoc": ("2-Fluorophenol", "Phenol-d6"),
    "tph": ("o-Terphenyl",),
    "pcb": ("Decachlorobiphenyl", "Tetrachloro-m-xylene"),
}
FIELD_BLANKS = ("Trip Blank", "Equipment Blank", "Rinsate Blank", "Field Blank")
FIELD_BLANK_IDS = ("TB-01", "EB-1", "RB-01", "FB-1")
VALIDATOR_FLAGS = ("J+", "J-", "JN")


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
    _plant_reanalyses(rng, family, conventions, sections, blocks_list, cells, base_rl, narrative)
    _plant_validation(rng, family, conventions, blocks_list, cells, narrative, flagged_r)
    _plant_lab_qc(rng, family, conventions, sections, blocks_list, cells, base_rl)
    _plant_not_results(rng, conventions, blocks_list, cells)
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
        contact=f"{rng.choice(names.FIRST_NAMES)} {rng.choice(names.LAST_NAMES)}",
        project=site,
        project_number=f"{received.year}-{rng.randint(10, 999):03d}",
        received=received,
        reported=received + dt.timedelta(days=rng.randint(7, 20)),
        status=status,
        revision=revision,
        approver=f"{rng.choice(names.FIRST_NAMES)} {rng.choice(names.LAST_NAMES)}",
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


def _plant_not_results(
    rng: random.Random,
    conventions: Conventions,
    blocks: list[Block],
    cells: dict[tuple[int, int, int], Cell],
) -> None:
    """One to three results the laboratory did not report: NA, --, NR cells, not records."""
    keys = [
        k
        for k, c in cells.items()
        if c.truth is not None and blocks[k[0]].kind == "field" and len(c.traps) == 0
    ]
    if not keys or rng.random() < 0.3:
        return
    for k in rng.sample(keys, min(len(keys), rng.randint(1, 3))):
        cell = cells[k]
        cells[k] = Cell(
            conventions.not_result, "", cell.rl, cell.mdl, cell.dilution, None, ("not-result-cell",)
        )


def _conventions(rng: random.Random, family: Family, split: Split) -> Conventions:
    roles = (
        "sample_id",
        "lab_id",
        "analyte",
        "cas",
        "result",
        "reporting_limit",
        "mdl",
        "unit",
        "qualifier",
        "dilution",
        "method",
        "analysed",
        "screening",
        "recovery",
        "limits",
    )
    titles = {role: choose(rng, COLUMN_TERMS[role], split) for role in roles}
    decimal_comma = rng.random() < family.decimal_comma
    return Conventions(
        nondetect=rng.choice(family.nondetect),
        date_format=rng.choice(family.date_formats),
        decimal_comma=decimal_comma,
        scientific=rng.random() < family.scientific,
        micro=rng.choice(("µ", "u")),
        thousands=rng.random() < 0.6,
        qc_inline=rng.random() < family.qc_inline,
        look=rng.choice(family.look),
        font_size=rng.choice((7.5, 8.0, 8.5)),
        titles=titles,
        not_result=choose(rng, NOT_RESULT_TERMS, split),
        screening=family.skeleton == "sample-columns" and rng.random() < family.screening,
        draft_watermark=rng.random() < 0.5,
        status_footer_only=family.footer == "status" and rng.random() < 0.6,
    )


def _analyte_name(rng: random.Random, analyte: Analyte, split: Split) -> str:
    synonyms = ANALYTE_SYNONYMS.get(analyte.cas or "")
    if synonyms and rng.random() < 0.6:
        return choose(rng, synonyms, split)
    return analyte.name


def _sections(
    rng: random.Random, family: Family, matrix: str, split: Split, conventions: Conventions
) -> list[Section]:
    m = MATRICES[matrix]
    groups = [g for g in m.groups if g != "mercury"]
    rng.shuffle(groups)
    count = rng.randint(*family.sections)
    style = rng.choice(catalogue.METHOD_STYLES)
    out: list[Section] = []
    for group in groups[:count]:
        members = catalogue.analytes_for(matrix, [group])
        take = min(len(members), rng.randint(*family.analytes))
        picked = [members[i] for i in sorted(rng.sample(range(len(members)), take))]
        unit = m.units[group].replace("µ", conventions.micro)
        method = catalogue.format_method(rng.choice(m.methods[group]), style)
        analytes = tuple((_analyte_name(rng, a, split), a.cas) for a in picked)
        out.append(Section(SECTION_TITLES[group], method, group, unit, analytes))
        if group == "metal" and matrix == "groundwater" and rng.random() < 0.5:
            out.append(
                Section("Dissolved Metals", method, group, unit, analytes, fraction="dissolved")
            )
        if group == "metal" and matrix == "soil" and rng.random() < 0.45:
            kind = rng.choice(("TCLP", "SPLP"))
            method = catalogue.format_method("1311" if kind == "TCLP" else "1312", style)
            out.append(
                Section(
                    f"{kind} Metals (leachate)",
                    f"{method}/{catalogue.format_method('6010D', style)}",
                    group,
                    "mg/L",
                    analytes[:4],
                    fraction=kind,
                )
            )
    if matrix == "soil":
        name = rng.choice(("Percent Moisture", "% Moisture", "Percent Solids", "% Solids"))
        out.append(
            Section(
                "General Chemistry",
                rng.choice(("SM 2540G", "ASTM D2216")),
                "percent",
                "%",
                ((name, None),),
                percent=True,
            )
        )
    return out


def _field_blocks(
    rng: random.Random,
    family: Family,
    matrix: str,
    collected: dt.date,
    work_order: str,
    sections: list[Section],
    traps: list[str],
) -> list[Block]:
    count = rng.randint(*family.samples)
    numbers = sorted(rng.sample(range(1, 24), count))
    date_ids = rng.random() < 0.3
    date_style = rng.choice(("%Y%m%d", "%m%d%y"))  # one report writes its dates one way
    padding = matrix == "groundwater" and rng.random() < 0.3
    all_sections = tuple(range(len(sections)))
    blocks: list[Block] = []
    for k, n in enumerate(numbers):
        day = collected + dt.timedelta(days=rng.choice((0, 0, 1)))
        if matrix == "groundwater":
            label = f"MW-{n:02d}"
            summary = f"MW-{n}" if padding and n < 10 else label
        else:
            top = rng.choice((0, 2, 4, 6, 8))
            label = rng.choice((f"SB-{n:02d} ({top}-{top + 2}')", f"SS-{n}", f"B{n}-{top}"))
            summary = label
        if date_ids:
            label = f"{label}-{day.strftime(date_style)}"
            summary = label if summary == label.rsplit("-", 1)[0] else summary
        blocks.append(
            Block(
                label,
                label,
                "field",
                f"{work_order}-{k + 1:02d}",
                day,
                f"{rng.randint(8, 16):02d}:{rng.choice((0, 15, 30, 45)):02d}",
                all_sections,
                summary_id=summary or label,
            )
        )
    if date_ids:
        traps.append("id-with-date")
    if padding and any(b.summary_id != b.label for b in blocks):
        traps.append("id-padding")
    if rng.random() < 0.7:
        dup = rng.choice(("DUP-1", "DUP-01", "FD-1", "Duplicate-1"))
        blocks.append(
            Block(
                dup,
                dup,
                "field-duplicate",
                f"{work_order}-{len(blocks) + 1:02d}",
                collected,
                "00:00",
                all_sections,
            )
        )
    if rng.random() < 0.7:
        k = rng.randrange(len(FIELD_BLANK_IDS))
        blank_id = rng.choice((FIELD_BLANKS[k], FIELD_BLANK_IDS[k]))
        voc = tuple(i for i, s in enumerate(sections) if s.group == "voc" and not s.fraction)
        if k == 0 and not voc:  # a trip blank travels with VOC vials only
            k = 1
            blank_id = rng.choice((FIELD_BLANKS[k], FIELD_BLANK_IDS[k]))
        kept = voc if k == 0 else tuple(i for i, s in enumerate(sections) if not s.percent)
        blocks.append(
            Block(
                blank_id,
                blank_id,
                "field-blank",
                f"{work_order}-{len(blocks) + 1:02d}",
                collected,
                "07:00",
                kept,
            )
        )
    return blocks


def _quantize(value: Decimal) -> Decimal:
    return Decimal(catalogue.significant(value, 3 if value >= 1 else 2))


def _record(
    conventions: Conventions,
    truth_id: str,
    section: Section,
    name: str,
    cas: str | None,
    result: str,
    qualifier: str,
    rl: str,
    family: Family,
) -> TruthRecord:
    comma = conventions.decimal_comma
    rl_printed = rl_column(family)
    nondetect = result in ("ND",) or result.startswith("<") or "U" in qualifier
    if nondetect:
        value = None
        limit = (
            read_number(rl, comma)
            if rl_printed
            else (read_number(result.lstrip("<"), comma) if result != "ND" else None)
        )
    else:
        value = read_number(result, comma)
        limit = read_number(rl, comma) if rl_printed else None
    analyte = f"{name} ({section.fraction})" if section.fraction else name
    return TruthRecord(
        sample_id=truth_id,
        analyte=analyte,
        # Only a CAS number printed on the result's row is part of the record (see the module
        # docstring): the long-table skeleton prints none, so its records have none.
        cas=cas if cas_column(family) else None,
        result=value,
        nondetect=nondetect,
        unit=section.unit,
        qualifier=qualifier.replace(",", "").replace(" ", "") or None,
        reporting_limit=limit,
    )


def rl_column(family: Family) -> bool:
    """Whether the family prints a reporting-limit column (sample-columns families do not)."""
    return family.skeleton != "sample-columns"


def cas_column(family: Family) -> bool:
    """Whether the family prints a CAS number on each result's row: the sample-pages and
    sample-columns skeletons have a CAS column; the long-table skeleton (one long table or one
    table per method) has none, and a CAS number is printed nowhere else beside a result."""
    return family.skeleton != "long-table"


def _nondetect_cell(conventions: Conventions, shown: Decimal) -> tuple[str, str]:
    text = conventions.number(shown)
    if conventions.nondetect == "U":
        return text, "U"
    if conventions.nondetect == "ND":
        return "ND", ""
    return f"<{text}", ""


def _field_cell(
    rng: random.Random,
    family: Family,
    conventions: Conventions,
    block: Block,
    section: Section,
    base_rl: Decimal,
    dilution: int,
    hot: bool,
    name: str,
    cas: str | None,
) -> Cell:
    if section.percent:
        value = Decimal(rng.randint(50, 950)) / 10
        text = conventions.number(value)
        truth = _record(
            conventions,
            block.truth_id,
            section,
            name,
            None,
            text,
            "",
            "0,1" if conventions.decimal_comma else "0.1",
            family,
        )
        return Cell(
            text,
            "",
            "0,1" if conventions.decimal_comma else "0.1",
            "",
            "1",
            truth,
            ("percent-solids",),
        )
    if section.fraction in ("TCLP", "SPLP"):
        base_rl = Decimal("0.050")
    rl = Decimal(catalogue.significant(base_rl * dilution, 2))
    mdl = Decimal(catalogue.significant(rl * Decimal(rng.randint(25, 50)) / 100, 2))
    traps: list[str] = []
    if section.fraction == "dissolved":
        traps.append("dissolved-metals")
    if section.fraction in ("TCLP", "SPLP"):
        traps.append("leachate")
    if block.kind == "field-duplicate":
        traps.append("field-duplicate")
    if block.kind == "field-blank":
        traps.append("field-blank")
    roll = rng.random()
    blank = block.kind == "field-blank"
    qualifier = ""
    if blank or roll < 0.4:
        at_mdl = family.mdl_column and rng.random() < 0.4
        result, qualifier = _nondetect_cell(conventions, mdl if at_mdl else rl)
        if family.mdl_column:
            traps.append("nondetect-at-mdl" if at_mdl else "nondetect-at-rl")
        if family.validator_flags and qualifier == "U" and rng.random() < 0.25:
            qualifier = "UJ"
            traps.append("validator-flag")
    elif roll < 0.55:
        value = _quantize(rl * Decimal(rng.randint(30, 95)) / 100)
        result, qualifier = conventions.number(value), "J"
        if rng.random() < 0.15:
            qualifier = rng.choice(("J,B", "JB", "J B"))
            traps.append("combined-flag")
        elif family.validator_flags and rng.random() < 0.3:
            qualifier = rng.choice(VALIDATOR_FLAGS)
            traps.append("validator-flag")
    else:
        scale = Decimal(10) ** rng.choice((0, 0, 1, 1, 2))
        value = _quantize(rl * Decimal(rng.randint(101, 900)) / 100 * scale * (10 if hot else 1))
        if (
            value > rl * CAL_FACTOR * 2
            and dilution == 1
            and section.group not in ("voc", "pah", "tph")
        ):
            value = _quantize(rl * CAL_FACTOR * Decimal(rng.randint(20, 90)) / 100)
        if value > rl * CAL_FACTOR and dilution == 1 and section.group in ("voc", "pah", "tph"):
            qualifier = "E"  # over the calibration range: a DL run follows (_plant_reanalyses)
        elif value > rl * CAL_FACTOR:
            value = _quantize(rl * CAL_FACTOR * Decimal(rng.randint(20, 90)) / 100)
        result = conventions.number(value)
        if rng.random() < 0.06 and not qualifier:
            qualifier = "B"
    if conventions.scientific and "E" in result:
        traps.append("scientific-notation")
    rl_text = conventions.number(rl)
    truth = None
    if qualifier != "E":
        truth = _record(
            conventions,
            block.truth_id,
            section,
            name,
            cas,
            result,
            qualifier,
            rl_text,
            family,
        )
    else:
        traps.append("e-flag")
    return Cell(
        result, qualifier, rl_text, conventions.number(mdl), str(dilution), truth, tuple(traps)
    )


def _plant_reanalyses(
    rng: random.Random,
    family: Family,
    conventions: Conventions,
    sections: tuple[Section, ...] | list[Section],
    blocks: list[Block],
    cells: dict[tuple[int, int, int], Cell],
    base_rl: dict[int, Decimal],
    narrative: list[str],
) -> None:
    """DL runs for every sample with an E result; sometimes an RE run replacing an original."""
    field_blocks = [
        b for b, block in enumerate(blocks) if block.kind in ("field", "field-duplicate")
    ]
    organic = [s for s, sec in enumerate(sections) if sec.group in ("voc", "pah", "tph")]
    # Make sure some reports show the E/D pair even without a hot sample.
    undiluted = [
        (b, s)
        for b in field_blocks
        for s in organic
        if all(cells[(b, s, a)].dilution == "1" for a in range(len(sections[s].analytes)))
    ]
    if undiluted and not any(c.qualifier == "E" for c in cells.values()) and rng.random() < 0.5:
        b, s = rng.choice(undiluted)
        a = rng.randrange(len(sections[s].analytes))
        value = _quantize(base_rl[s] * CAL_FACTOR * Decimal(rng.randint(130, 400)) / 100)
        cells[(b, s, a)] = dataclasses.replace(
            cells[(b, s, a)],
            result=conventions.number(value),
            qualifier="E",
            truth=None,
            traps=("e-flag",),
            dilution="1",
            rl=conventions.number(base_rl[s]),
        )
    for b in list(field_blocks):
        block = blocks[b]
        for s in block.sections:
            over = [
                a for a in range(len(sections[s].analytes)) if cells[(b, s, a)].qualifier == "E"
            ]
            if not over:
                continue
            factor = rng.choice((10, 20, 50, 100))
            suffix = rng.choice((" DL", "DL", "-DL"))
            dl_index = len(blocks)
            blocks.append(
                Block(
                    f"{block.label}{suffix}",
                    block.truth_id,
                    "dl",
                    block.lab_id + "DL",
                    block.collected,
                    block.time,
                    (s,),
                )
            )
            section = sections[s]
            rl = Decimal(catalogue.significant(base_rl[s] * factor, 2))
            names = [n for n, _ in section.analytes]
            for a, (name, cas) in enumerate(section.analytes):
                original = cells[(b, s, a)]
                if a in over:
                    value = _quantize(
                        read_dec(original.result, conventions) * Decimal(rng.randint(95, 140)) / 100
                    )
                    result, qualifier = conventions.number(value), "D"
                    truth = _record(
                        conventions,
                        block.truth_id,
                        section,
                        name,
                        cas,
                        result,
                        qualifier,
                        conventions.number(rl),
                        family,
                    )
                    traps: tuple[str, ...] = ("reanalysis-dl",)
                else:
                    result, qualifier = _nondetect_cell(conventions, rl)
                    if (
                        original.truth is not None
                        and not original.truth.nondetect
                        and rng.random() < 0.5
                    ):
                        result, qualifier = (
                            conventions.number(_quantize(read_dec(original.result, conventions))),
                            "D",
                        )
                        if read_dec(original.result, conventions) < rl:
                            result, qualifier = _nondetect_cell(conventions, rl)
                    truth = None
                    traps = ("reanalysis-dl",)
                cells[(dl_index, s, a)] = Cell(
                    result,
                    qualifier,
                    conventions.number(rl),
                    conventions.number(rl * Decimal("0.4")),
                    str(factor),
                    truth,
                    traps,
                )
            narrative.append(
                f"Sample {block.label} was re-analysed at a {factor}x dilution ({blocks[dl_index].label}) "
                f"because {', '.join(names[a] for a in over)} exceeded the calibration range (E); the "
                "diluted result is reportable for those analytes, the undiluted run for all others."
            )
    if organic and rng.random() < 0.3:
        b = rng.choice(field_blocks)
        block = blocks[b]
        s = (
            rng.choice([s for s in organic if s in block.sections] or [None])
            if any(s in block.sections for s in organic)
            else None
        )
        if s is None or any(
            blocks[x].kind == "dl"
            and blocks[x].truth_id == block.truth_id
            and s in blocks[x].sections
            for x in range(len(blocks))
        ):
            return
        re_index = len(blocks)
        suffix = rng.choice(("RE", " RE", "-RE"))
        blocks.append(
            Block(
                f"{block.label}{suffix}",
                block.truth_id,
                "re",
                block.lab_id + "RE",
                block.collected,
                block.time,
                (s,),
            )
        )
        section = sections[s]
        for a, (name, cas) in enumerate(section.analytes):
            original = cells[(b, s, a)]
            cells[(b, s, a)] = dataclasses.replace(
                original, truth=None, traps=original.traps + ("reanalysis-re",)
            )
            while True:  # the re-analysis stays within the calibration range
                rerun = _field_cell(
                    rng, family, conventions, block, section, base_rl[s], 1, False, name, cas
                )
                if rerun.qualifier != "E":
                    break
            cells[(re_index, s, a)] = dataclasses.replace(
                rerun, traps=rerun.traps + ("reanalysis-re",)
            )
        narrative.append(
            f"The {section.title.lower()} analysis of sample {block.label} was repeated "
            f"({blocks[re_index].label}) because of low surrogate recovery in the first run; the "
            "re-analysis is reported and the original run is shown for information only."
        )


def read_dec(text: str, conventions: Conventions) -> Decimal:
    return Decimal(str(read_number(text.lstrip("<"), conventions.decimal_comma)))


def _plant_validation(
    rng: random.Random,
    family: Family,
    conventions: Conventions,
    blocks: list[Block],
    cells: dict[tuple[int, int, int], Cell],
    narrative: list[str],
    flagged_r: bool,
) -> None:
    """An R-rejected result (validated families), a result invalidated in the narrative."""
    keys = [
        k
        for k, c in cells.items()
        if c.truth is not None
        and blocks[k[0]].kind == "field"
        and not c.truth.nondetect
        and "percent-solids" not in c.traps
    ]
    if not keys:
        return
    if family.validator_flags and flagged_r:
        k = rng.choice(keys)
        keys.remove(k)
        cells[k] = dataclasses.replace(
            cells[k], qualifier="R", truth=None, traps=cells[k].traps + ("rejected-r",)
        )
    if keys and rng.random() < 0.35:
        k = rng.choice(keys)
        truth = cells[k].truth
        assert truth is not None
        cells[k] = dataclasses.replace(
            cells[k], truth=None, traps=cells[k].traps + ("narrative-invalidated",)
        )
        reason = rng.choice(
            (
                "the sample container was received broken and the aliquot analysed was compromised",
                "a laboratory contamination event affected the analysis",
                "the analysis was performed after the holding time had expired",
            )
        )
        narrative.append(
            f"The {truth.analyte} result for sample {blocks[k[0]].label} is not valid because {reason}; "
            "it is printed for completeness only and must not be used."
        )


def _plant_lab_qc(
    rng: random.Random,
    family: Family,
    conventions: Conventions,
    sections: tuple[Section, ...] | list[Section],
    blocks: list[Block],
    cells: dict[tuple[int, int, int], Cell],
    base_rl: dict[int, Decimal],
) -> None:
    """Laboratory QC runs: a method blank, LCS/LCSD, MS/MSD on one sample, a lab duplicate."""
    parent = next(b for b in blocks if b.kind == "field")
    measured = tuple(s for s, sec in enumerate(sections) if not sec.percent and not sec.fraction)
    runs: list[tuple[str, BlockKind]] = [("Method Blank", "mb"), ("LCS", "lcs")]
    if rng.random() < 0.6:
        runs.append(("LCSD", "lcsd"))
    if rng.random() < 0.8:
        sep = rng.choice((" ", "-", ""))
        runs += [(f"{parent.label}{sep}MS", "ms"), (f"{parent.label}{sep}MSD", "msd")]
    if rng.random() < 0.6:
        runs.append((f"{parent.label} {rng.choice(('DUP', 'LD', 'Dup'))}", "lab-dup"))
    trap_of = {
        "mb": "qc-method-blank",
        "lcs": "qc-lcs",
        "lcsd": "qc-lcs",
        "ms": "qc-matrix-spike",
        "msd": "qc-matrix-spike",
        "lab-dup": "qc-lab-duplicate",
    }
    for label, kind in runs:
        index = len(blocks)
        blocks.append(
            Block(label, "", kind, f"QC{rng.randint(100000, 999999)}", None, "", measured)
        )
        for s in measured:
            rl = base_rl[s]
            for a in range(len(sections[s].analytes)):
                if kind == "mb":
                    result, qualifier = _nondetect_cell(conventions, rl)
                elif kind == "lab-dup":
                    source = cells.get((blocks.index(parent), s, a))
                    if source is None:  # given samples (site.labpapers): parent not analysed
                        result, qualifier = _nondetect_cell(conventions, rl)
                    else:
                        result, qualifier = source.result, source.qualifier.replace("E", "")
                else:
                    spike = rl * 10
                    result, qualifier = (
                        conventions.number(_quantize(spike * Decimal(rng.randint(75, 125)) / 100)),
                        "",
                    )
                extra = ("qc-inline",) if conventions.qc_inline else ()
                cells[(index, s, a)] = Cell(
                    result,
                    qualifier,
                    conventions.number(rl),
                    conventions.number(rl * Decimal("0.4")),
                    "1",
                    None,
                    (trap_of[kind], *extra),
                )


def _plant_revision(
    rng: random.Random,
    conventions: Conventions,
    cells: dict[tuple[int, int, int], Cell],
    narrative: list[str],
) -> dict[tuple[int, int, int], Cell]:
    """Revise one or two detected values; the originals go on appended superseded pages."""
    keys = [
        k
        for k, c in cells.items()
        if c.truth is not None
        and not c.truth.nondetect
        and c.truth.result is not None
        and "percent-solids" not in c.traps
    ]
    if not keys:
        return {}
    originals: dict[tuple[int, int, int], Cell] = {}
    for k in rng.sample(keys, min(len(keys), rng.randint(1, 2))):
        cell = cells[k]
        truth = cell.truth
        assert truth is not None
        old = read_dec(cell.result, conventions)
        new = _quantize(old * Decimal(rng.randint(120, 300)) / 100)
        text = conventions.number(new)
        originals[k] = dataclasses.replace(cell, truth=None, traps=("original-pages-appended",))
        cells[k] = dataclasses.replace(
            cell,
            result=text,
            truth=dataclasses.replace(truth, result=read_number(text, conventions.decimal_comma)),
            traps=cell.traps + ("revised-value",),
        )
        narrative.append(
            f"Revision: the {truth.analyte} result for {truth.sample_id} was corrected from "
            f"{cell.result} to {text} {truth.unit} after a transcription error was found; the "
            "original results pages are appended, marked superseded."
        )
    return originals
