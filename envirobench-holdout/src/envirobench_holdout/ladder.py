"""The Ladder (Blum & Hardt, 2015): what a submission's public score releases.

A team's released score moves only when a submission beats the team's best released score by at
least the step, and then it is the new score rounded to the step; otherwise the previous best is
shown again. Each release therefore tells the team no more than "better by at least a step, and
by about how much", so repeated submissions learn little about the answers: over k submissions
the number of different answers the service can have given is bounded by the number of upward
steps (at most 100/step on a 0-100 score), not by k. The step is the service's `--ladder-step`
(score points); docs/holdout.md states the guarantee.
"""

from __future__ import annotations

import math


def rounded(score: float, step: float) -> float:
    """The score rounded to the nearest multiple of the step (halves rounded down: never above
    what was measured by more than half a step), kept to 6 decimals."""
    return round(math.ceil(score / step - 0.5) * step, 6)


def release(score: float, best: float | None, step: float) -> float:
    """The score shown after a submission scoring `score`, given the team's best released score."""
    if best is None or score >= best + step:
        return max(rounded(score, step), best) if best is not None else rounded(score, step)
    return best
