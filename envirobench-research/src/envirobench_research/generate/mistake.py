"""The deliberate mistake a Research generator plants in wrong.json (FixturePlan.first_fitting)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mistake:
    """A deliberate mistake in wrong.json, on the first case (or question) of `takes` no other
    mistake took: its layout, question status or trap, as the generator's `fits` reads it ("" for
    any). `change` names the mistake for the generator's wrong_prediction, `why` says it."""

    takes: str
    change: str
    why: str
