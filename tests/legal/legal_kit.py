"""What the Legal tests share: category_kit bound to envirobench-legal (the shipped datasets, a
partial run of the reference adapter through core), and a sample of a dev split that exercises
every rule."""

from __future__ import annotations

import json

from category_kit import CategoryKit, assert_is_the_categories_task  # noqa: F401 (the Legal tests import it from here)

from envirobench_legal.package import PACKAGE

KIT = CategoryKit(PACKAGE)
reference_run, shipped_datasets, fixture_scores, sized_splits = KIT.reference_run, KIT.shipped_datasets, KIT.fixture_scores, KIT.sized_splits


def dev_sample(type_id: str, *, scanned: bool) -> list[str]:
    """One born-digital case of every category of the type's dev split, in dataset order, and
    (with `scanned`) its first scanned copy after them."""
    dev = PACKAGE.layout(type_id).dataset_dir("synthetic-dev-v1")
    cases = [json.loads(line) for line in (dev / "cases.jsonl").read_text().splitlines()]
    copies = {a["id"]: a["answer"]["scanned"] for a in map(json.loads, (dev / "answers.jsonl").read_text().splitlines())}
    ids, seen = [], set()
    for case in cases:
        if case["category"] not in seen and not copies[case["id"]]:
            seen.add(case["category"])
            ids.append(case["id"])
    if scanned:
        ids.append(next(c["id"] for c in cases if copies[c["id"]]))
    return ids
