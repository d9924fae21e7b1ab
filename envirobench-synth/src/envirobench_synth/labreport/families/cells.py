"""The cells of a family report: section titles, field-sample blocks and results cells with the
truth record of each, in the family's conventions.
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from ... import catalogue
from ...catalogue import MATRICES, Analyte
from ...vocabulary import (
    ANALYTE_SYNONYMS,
    COLUMN_TERMS,
    NOT_RESULT_TERMS,
    Split,
    choose,
)
from ..model import TruthRecord
from .family import CAL_FACTOR, Family
from .printed import Block, Cell, Conventions, Section, read_number

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
