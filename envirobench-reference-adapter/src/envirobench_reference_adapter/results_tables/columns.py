"""A table's columns: the x-ranges its rows cover, split at blanks wider than COLUMN_GAP_EMS ems,
plus header cells over blank columns, and each line's cells in them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..headers import (
    QC_ROLES,
    assign_roles,
    sample_title,
)
from ..layout import (
    Line,
    Phrase,
    assign_column,
    merge_intervals,
    normalize_space,
    overlap,
)
from ..quantities import (
    find_unit,
)
from .lines import phrases_of
from .vocabulary import COLUMN_GAP_EMS


@dataclass
class Columns:
    """A results table's columns: x-extents, roles (None: unknown) and titles."""

    bounds: list[tuple[float, float]]
    roles: list[str | None]
    titles: list[str]
    samples: dict[int, str]  # column index -> sample ID, for samples-as-columns tables
    units: dict[
        int, str
    ]  # column index -> a unit its title names (`Result (mg/kg)`, `µg/L` under an ID)
    qc: bool = False  # a table of QC results (a recovery or control-limit column)


def build_columns(header: list[Line], body: list[Line], em: float) -> Columns | None:
    gap = COLUMN_GAP_EMS * em
    body_bounds = merge_intervals(((w.x0, w.x1) for line in body for w in line.words), slack=gap)
    header_phrases = [(k, p) for k, line in enumerate(header) for p in phrases_of(line, em)]
    # Header cells over one body column (or over none: a column blank in every row) shape the
    # columns; a cell spanning several body columns is a group title over them.
    extents = [(w.x0, w.x1) for line in body for w in line.words]
    spanning: list[tuple[int, Phrase]] = []
    for k, phrase in header_phrases:
        over = [b for b in body_bounds if overlap(phrase.x0, phrase.x1, b[0], b[1]) > 0]
        if len(over) <= 1:
            extents.append((phrase.x0, phrase.x1))
        else:
            spanning.append((k, phrase))
    bounds = merge_intervals(extents, slack=gap)
    if len(bounds) < 2:
        return None
    lines_of: list[list[str]] = [[""] * len(header) for _ in bounds]
    for k, line in enumerate(header):
        for word in line.words:
            if any(word in phrase.words for _, phrase in spanning):
                continue
            column = assign_column(word.x0, word.x1, bounds)
            lines_of[column][k] = f"{lines_of[column][k]} {word.text}".strip()
    groups: list[list[str]] = [[] for _ in bounds]
    for _, phrase in spanning:
        for column, (start, end) in enumerate(bounds):
            if overlap(phrase.x0, phrase.x1, start, end) > 0:
                groups[column].append(normalize_space(phrase.text))
    titles = ["\n".join(part for part in parts if part) for parts in lines_of]
    columns_cells: list[list[str]] = [[] for _ in bounds]
    for line in body:
        cells: list[list[str]] = [[] for _ in bounds]
        for word in line.words:
            cells[assign_column(word.x0, word.x1, bounds)].append(word.text)
        for column, parts in enumerate(cells):
            columns_cells[column].append(normalize_space(" ".join(parts)))
    roles, sample_columns = assign_roles(titles, columns_cells)
    samples = {column: sample_title(titles[column]) for column in sample_columns}
    units: dict[int, str] = {}
    for column in range(len(bounds)):
        unit = find_unit(titles[column]) or next(
            (find_unit(g) for g in groups[column] if find_unit(g)), None
        )
        if unit is not None:
            units[column] = unit
    qc = any(role in QC_ROLES for role in roles)
    return Columns(bounds, roles, titles, samples, units, qc)


def cells_of(line: Line, columns: Columns, em: float) -> list[str]:
    """The line's text per column (words joined with spaces)."""
    cells: list[list[str]] = [[] for _ in columns.bounds]
    for word in line.words:
        cells[assign_column(word.x0, word.x1, columns.bounds)].append(word.text)
    return [normalize_space(" ".join(parts)) for parts in cells]
