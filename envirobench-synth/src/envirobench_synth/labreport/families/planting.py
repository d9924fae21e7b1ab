"""The traps planted into a family report: not-result rows, reanalyses and dilutions, validation
qualifiers, laboratory QC blocks and a revision.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from ... import catalogue
from .cells import _field_cell, _nondetect_cell, _quantize, _record
from .family import CAL_FACTOR, Family
from .printed import Block, BlockKind, Cell, Conventions, Section, read_number


@dataclass(frozen=True)
class ResultGrid:
    """A family report's results while the traps are planted into them: the planting functions
    append blocks (a DL or RE run, a QC run) and replace cells, keyed (block, section, analyte), in
    place; `base_rl` is each section's reporting limit before dilution."""

    family: Family
    conventions: Conventions
    sections: Sequence[Section]
    blocks: list[Block]
    cells: dict[tuple[int, int, int], Cell]
    base_rl: dict[int, Decimal]


def _plant_not_results(rng: random.Random, grid: ResultGrid) -> None:
    """One to three results the laboratory did not report: NA, --, NR cells, not records."""
    conventions, blocks, cells = grid.conventions, grid.blocks, grid.cells
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


def _plant_reanalyses(rng: random.Random, grid: ResultGrid, narrative: list[str]) -> None:
    """DL runs for every sample with an E result; sometimes an RE run replacing an original."""
    family, conventions, sections = grid.family, grid.conventions, grid.sections
    blocks, cells, base_rl = grid.blocks, grid.cells, grid.base_rl
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
    rng: random.Random, grid: ResultGrid, narrative: list[str], flagged_r: bool
) -> None:
    """An R-rejected result (validated families), a result invalidated in the narrative."""
    blocks, cells = grid.blocks, grid.cells
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
    if grid.family.validator_flags and flagged_r:
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


def _plant_lab_qc(rng: random.Random, grid: ResultGrid) -> None:
    """Laboratory QC runs: a method blank, LCS/LCSD, MS/MSD on one sample, a lab duplicate."""
    conventions, sections = grid.conventions, grid.sections
    blocks, cells, base_rl = grid.blocks, grid.cells, grid.base_rl
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
