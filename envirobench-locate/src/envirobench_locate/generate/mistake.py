"""The deliberate mistake a Locate generator plants in wrong.json (FixturePlan.first_fitting)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mistake:
    """A deliberate mistake in wrong.json, on the first case of the category `takes` (a bundle's
    scenario, a question's kind) no other mistake took and the generator's `fits` accepts.
    `change` names it for the generator's wrong_prediction; `why` says it."""

    takes: str
    change: str
    why: str
