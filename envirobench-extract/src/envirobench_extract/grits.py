"""GriTS, the grid table similarity of Smock, Pesala and Abraham ("GriTS: Grid table similarity
metric for table structure recognition", 2022/2023; the measure of PubTables-1M), as pure
functions. `grits_top` is the topology variant used by the `table-structure` benchmark.

A table is a matrix with one entry per grid position (row i, column j). GriTS compares two such
matrices A (gold) and B (predicted) through their *most similar substructures*: a substructure
keeps some rows and some columns of a matrix, in order; A' and B' (of equal shape) are most
similar when the sum of f(A'ᵢⱼ, B'ᵢⱼ) over their entries is greatest. Then

    GriTS = 2 · Σ f(A'ᵢⱼ, B'ᵢⱼ) / (|A| + |B|)

where |A| is the number of entries (rows × columns). Precision is Σf / |B|, recall Σf / |A|,
and GriTS is their harmonic mean (0 when either is 0).

Finding the exact 2D-MSS is NP-hard; like the authors' reference implementation
(microsoft/table-transformer, src/grits.py, `factored_2dmss`), this one factors it:

1. Rows: align A's rows with B's rows by dynamic programming (a monotone alignment that may
   skip rows on either side), where the reward of pairing row a with row b is itself the score
   of the best 1D alignment of their entries (the sum of f over the paired entries).
2. Columns: the same on the transposed matrices.
3. The score is Σ f over the entries at (aligned row) × (aligned column) pairs.

Ties in the dynamic programmes are broken as the reference does: pair (diagonal) first, then
skip an entry of A, then skip an entry of B; the traceback starts at the end.

For GriTS_Top each entry is the *relative span* of the cell covering the position: for the
position (i, j) of a cell whose top-left position is (p, θ) with row span α and column span β,
the box [θ−j, p−i, θ−j+β, p−i+α] in grid units (x0, y0, x1, y1). A 1×1 cell is [0, 0, 1, 1]
everywhere. Two entries are compared by an overlap of their boxes, in one of two ways:

- `reference_iou` (the default, `grits_top`): the intersection divided by the area of the
  smallest box enclosing both, exactly as the reference code computes its "iou" (PyMuPDF's
  `Rect.intersect` over `Rect.include_rect`). With it `grits_top` gives table-transformer's
  `grits_top` to the last bit: the same alignments, the same sums in the same order, the same
  precision, recall and score (tests/extract/test_grits_reference.py holds the reference's
  numbers on 24 perturbed tables and on hand-made grids).
- `iou`: intersection over union, |a ∩ b| / |a ∪ b|, as the paper defines it (`grits_top(...,
  similarity=iou)`; the `topology-paper` profile of `table-structure`). The two agree whenever
  one span box contains the other, which is every comparison of two relative spans except where
  two spans cross (a cell spanning two columns against one spanning two rows: 1/3 by union, 1/4
  by the enclosing box), since every relative span holds the unit box [0, 0, 1, 1]. On 408
  perturbations of the 64 `table-structure` v1 tables (a row or column dropped or added, cells
  merged or split, a horizontal span turned vertical), the two differ on the 24 with crossing
  spans, by at most 0.0024 of GriTS_Top.

Precision of an empty predicted matrix is 1.0 and recall against an empty gold matrix is 1.0,
as in the reference (`compute_fscore`); no benchmark type passes an empty grid (a table grid has
at least one row and one column).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

E = TypeVar("E", bound=Hashable)
SpanBox = tuple[int, int, int, int]  # (x0, y0, x1, y1) in grid units, relative to the position

# A cell as (row, column, row_span, column_span): its top-left grid position and its extent.
GridCell = tuple[int, int, int, int]


@dataclass(frozen=True)
class GriTS:
    """A GriTS score with its parts; `rows` and `columns` are the aligned (gold, predicted) index
    pairs of the factored substructures."""

    score: float
    precision: float
    recall: float
    rows: tuple[tuple[int, int], ...]
    columns: tuple[tuple[int, int], ...]


def relative_span_grid(rows: int, columns: int, cells: Iterable[GridCell]) -> list[list[SpanBox]]:
    """The matrix of relative spans of a grid. Raises ValueError unless the cells cover every
    position of the `rows` × `columns` grid exactly once."""
    grid: list[list[SpanBox | None]] = [[None] * columns for _ in range(rows)]
    for row, column, row_span, column_span in cells:
        if row_span < 1 or column_span < 1:
            raise ValueError(f"the cell at ({row}, {column}) has a span below 1")
        if row < 0 or column < 0 or row + row_span > rows or column + column_span > columns:
            raise ValueError(
                f"the cell at ({row}, {column}) reaches outside the {rows} x {columns} grid"
            )
        for i in range(row, row + row_span):
            for j in range(column, column + column_span):
                if grid[i][j] is not None:
                    raise ValueError(f"two cells cover the position ({i}, {j})")
                grid[i][j] = (column - j, row - i, column - j + column_span, row - i + row_span)
    for i, line in enumerate(grid):
        for j, entry in enumerate(line):
            if entry is None:
                raise ValueError(f"no cell covers the position ({i}, {j})")
    return grid  # type: ignore[return-value]


def iou(a: SpanBox, b: SpanBox) -> float:
    """Intersection over union of two boxes (x0, y0, x1, y1); 0.0 when both are empty."""
    inter = _intersection(a, b)
    union = _area(a) + _area(b) - inter
    return inter / union if union > 0 else 0.0


def reference_iou(a: SpanBox, b: SpanBox) -> float:
    """The intersection of two boxes over the area of the smallest box enclosing both: what
    table-transformer's grits.py calls iou (0.0 when that box is empty)."""
    enclosing = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
    area = _area(enclosing)
    return _intersection(a, b) / area if area > 0 else 0.0


def _area(box: SpanBox) -> int:
    return max(0, box[2] - box[0]) * max(0, box[3] - box[1])


def _intersection(a: SpanBox, b: SpanBox) -> int:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0


def grits_top(
    gold: tuple[int, int, Iterable[GridCell]],
    predicted: tuple[int, int, Iterable[GridCell]],
    similarity: Callable[[SpanBox, SpanBox], float] = reference_iou,
) -> GriTS:
    """GriTS_Top of two grids, each given as (rows, columns, cells); by default with the
    reference's overlap (`reference_iou`), as table-transformer computes it."""
    return grits(relative_span_grid(*gold), relative_span_grid(*predicted), similarity)


def grits(
    gold: Sequence[Sequence[E]],
    predicted: Sequence[Sequence[E]],
    similarity: Callable[[E, E], float],
) -> GriTS:
    """GriTS of two matrices (lists of equally long rows) under an entry similarity in [0, 1]."""
    reward = _Rewards(similarity)
    if _same(gold, predicted) and all(reward(e, e) == 1.0 for line in gold for e in line):
        # When f(a, a) = 1 and f <= 1, the factored alignment of a matrix with itself pairs every
        # row and column with its own (any other alignment scores less): exactly what the
        # programme below returns, without running it.
        rows = tuple((i, i) for i in range(len(gold)))
        columns = tuple((j, j) for j in range(len(gold[0]) if gold else 0))
        return GriTS(1.0, 1.0, 1.0, rows, columns)
    row_pairs = _align_outer(gold, predicted, reward)
    column_pairs = _align_outer(_transpose(gold), _transpose(predicted), reward)
    total = 0.0
    for i, k in row_pairs:
        for j, m in column_pairs:
            total += reward(gold[i][j], predicted[k][m])
    size_gold = len(gold) * (len(gold[0]) if gold else 0)
    size_predicted = len(predicted) * (len(predicted[0]) if predicted else 0)
    precision = total / size_predicted if size_predicted else 1.0
    recall = total / size_gold if size_gold else 1.0
    score = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return GriTS(score, precision, recall, row_pairs, column_pairs)


class _Rewards:
    """The entry similarity, memoised: tables repeat a handful of distinct entries."""

    def __init__(self, similarity: Callable[[E, E], float]) -> None:
        self.similarity = similarity
        self.cache: dict[tuple[Hashable, Hashable], float] = {}
        self.lines: dict[tuple[tuple[Hashable, ...], tuple[Hashable, ...]], float] = {}

    def __call__(self, a: Hashable, b: Hashable) -> float:
        key = (a, b)
        value = self.cache.get(key)
        if value is None:
            value = self.cache[key] = self.similarity(a, b)
        return value

    def line(self, a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
        """The score of the best 1D alignment of two rows (or columns)."""
        key = (tuple(a), tuple(b))
        value = self.lines.get(key)
        if value is None:
            value = self.lines[key] = _align(len(a), len(b), lambda i, j: self(a[i], b[j]))[0]
        return value


def _align_outer(
    gold: Sequence[Sequence[Hashable]], predicted: Sequence[Sequence[Hashable]], reward: _Rewards
) -> tuple[tuple[int, int], ...]:
    """Rows of `gold` aligned with rows of `predicted`, a row pair rewarded by its 1D alignment."""
    return _align(len(gold), len(predicted), lambda i, j: reward.line(gold[i], predicted[j]))[1]


def _align(
    n: int, m: int, reward: Callable[[int, int], float]
) -> tuple[float, tuple[tuple[int, int], ...]]:
    """The best monotone alignment of two sequences of lengths n and m: (score, index pairs)."""
    DIAGONAL, UP, LEFT = 0, 1, 2  # pair i with j; skip i (an entry of the first); skip j
    scores = [[0.0] * (m + 1) for _ in range(n + 1)]
    moves = [[LEFT] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        moves[i][0] = UP
    for i in range(1, n + 1):
        above, here = scores[i - 1], scores[i]
        for j in range(1, m + 1):
            diagonal = above[j - 1] + reward(i - 1, j - 1)
            up = above[j]
            left = here[j - 1]
            best = max(diagonal, up, left)
            here[j] = best
            moves[i][j] = DIAGONAL if diagonal == best else UP if up == best else LEFT
    pairs = []
    i, j = n, m
    while i > 0 or j > 0:
        move = moves[i][j]
        if move == DIAGONAL:
            i, j = i - 1, j - 1
            pairs.append((i, j))
        elif move == UP:
            i -= 1
        else:
            j -= 1
    return scores[n][m], tuple(reversed(pairs))


def _transpose(matrix: Sequence[Sequence[E]]) -> list[list[E]]:
    return [list(column) for column in zip(*matrix, strict=True)] if matrix else []


def _same(a: Sequence[Sequence[Hashable]], b: Sequence[Sequence[Hashable]]) -> bool:
    return len(a) == len(b) and all(list(x) == list(y) for x, y in zip(a, b, strict=True))
