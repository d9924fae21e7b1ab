"""Reference solver for `missing-information`: typed answers to questions about a property's
record, or "not in the record" when its rules find nothing. The reading, retrieval, extraction
and abstention rules are `property_records`' (beside this package: cited-answers reads with
them too).

Variants: `v1` (the default; `default` is its alias); `always-answer` never says "not in the
record" (its last resort is the best candidate's first value of any kind), the contrast that
shows what abstaining is worth under a five-to-one penalty.
"""

from __future__ import annotations

from typing import Any

from .. import property_records as engine
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("missing-information", variants=("always-answer", "v1"))


# case_input: the type's Input record (documents, questions)
def solve(case_input: Any, sources: Sources, variant: str, jitter: Jitter = None) -> Prediction:
    record = engine.read_record(case_input, sources, jitter)
    return {"answers": {q.id: engine.answer(q, record, variant) for q in case_input.questions}}
