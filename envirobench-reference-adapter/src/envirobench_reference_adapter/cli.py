"""The `envirobench-reference-adapter` command line (adapter protocol `envirobench.adapter.v1`): the
adapter kit's, `run --request FILE --output DIR [--max-concurrency N]` and `describe [--json]`.

Exit status (the kit's): 0 whenever a result was written, `completed` or `failed` (a refused
request is a failed result naming the field, which core reports as a technical failure); 1 when
none could be (an unreadable request, an output directory that is not empty); 2 on a usage error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from .protocol import ADAPTER


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """The model-free reference system under test for EnviroBench: it answers every case by
    classical analysis of the case's own input (no model, no network, no cost, and never a
    dataset's answers)."""
    ADAPTER.main(argv)
