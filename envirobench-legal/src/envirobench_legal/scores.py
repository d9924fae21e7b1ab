"""The headline score the five Legal types share (instrument-execution, indemnity-terms, party-roles,
chain-of-title and, from its scoring v2, use-limitations): right answers less a penalty for each harmful mistake, on a scale of 100. Each
type names its mistake and its penalty (envirobench.categories says why for each task)."""

from __future__ import annotations


def penalised_score(name: str, right: float, harmful: float, count: float, penalty: float) -> dict[str, float]:
    """`<name>_score_unclipped` = 100 × (right − penalty × harmful) ÷ count (0 when there is
    nothing to count) and `<name>_score`, the same clipped at 0."""
    unclipped = 100.0 * (right - penalty * harmful) / count if count else 0.0
    return {f"{name}_score": max(0.0, unclipped), f"{name}_score_unclipped": unclipped}
