"""The parts every split-table spec (benchmarks/<category>_specs/<type>.py, read by
reference_scores.py's split_spec) is built from, so that a spec states only what is its own.

- Columns: (metric, title, format) as the section's table shows them. A share prints with three
  decimals, a count as a whole number and a category formula's score (0 to 100) with one; an F1
  stands with its precision and recall, a formula's score with its unclipped value.
- Baselines: `always(prediction)`, the blind baseline that gives every case the same answer.
- Groups (`groups(case_id, category, answer)` -> the group names of a case): by the case's
  category alone, or by its category and a yes/no property of its answer; `trap_groups` names the
  traps a case carries.
"""

from __future__ import annotations

import copy


def share(metric: str, title: str) -> tuple[str, str, str]:
    """A column of a share or rate (0 to 1)."""
    return (metric, title, ".3f")


def count(metric: str, title: str | None = None) -> tuple[str, str, str]:
    """A column of a count (titled by the metric's name unless given)."""
    return (metric, metric if title is None else title, ".0f")


def f1_precision_recall(prefix: str, title: str) -> tuple[tuple[str, str, str], ...]:
    """The columns `<prefix>_f1` (titled `title`), `<prefix>_precision` and `<prefix>_recall`."""
    return (
        share(f"{prefix}_f1", title),
        share(f"{prefix}_precision", "precision"),
        share(f"{prefix}_recall", "recall"),
    )


def formula_score(prefix: str) -> tuple[tuple[str, str, str], ...]:
    """The columns of a category formula's score, 100 × max(0, ·), and the same without the max:
    `<prefix>_score` and `<prefix>_score_unclipped`."""
    return ((f"{prefix}_score", "score", ".1f"), (f"{prefix}_score_unclipped", "unclipped", ".1f"))


def always(prediction):
    """A blind baseline: every case gets `prediction` (a fresh copy each time, as a literal in a
    baseline function would be), whatever its input."""
    return lambda case_input, answer: copy.deepcopy(prediction)


def by_category(case_id, category, answer) -> list[str]:
    """One group per case category ("-" for a case without one)."""
    return [category or "-"]


def by_category_and(attribute: str, yes: str, no: str):
    """Groups by the case category and by a yes/no property of the answer (`attribute`, e.g. a
    scanned copy): `yes` where it holds, `no` where it does not."""

    def groups(case_id, category, answer) -> list[str]:
        return [category or "-", yes if getattr(answer, attribute) else no]

    return groups


def trap_groups(traps) -> list[str]:
    """A group per trap a case carries: "trap: <trap>"."""
    return [f"trap: {trap}" for trap in traps]
