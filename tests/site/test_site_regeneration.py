"""The Site records regenerate byte for byte. Regenerating a whole split takes long (the three
test sites are 1,621 pages), so this regenerates the smallest dev site, as every type's generator
writes it, and compares it with what the package ships: each volume and the standards (the
shipped records), the site's line of each type's cases.jsonl and answers.jsonl, its files'
manifest entries, and its prediction in correct.json."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from envirobench import read_answers, read_json, read_manifest
from envirobench_site.generate import site_records
from envirobench_site.generate.ship import PACKAGE, generator
from envirobench_site.shipping import PACKAGE_DIR, RECORDS_DIR

FOLDER = "synthetic-dev-v1"


def _lines(path: Path) -> dict[str, dict]:
    lines = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines())
    return {record["id"]: record for record in lines}


def _smallest_dev_site() -> str:
    cases = _lines(PACKAGE.layout("site-results").dataset_dir(FOLDER) / "cases.jsonl")
    return min(cases, key=lambda site: (cases[site]["input"]["pages"], site))


@pytest.mark.slow
def test_the_smallest_dev_site_regenerates_byte_for_byte(tmp_path, monkeypatch):
    site = _smallest_dev_site()
    monkeypatch.setattr(site_records, "sites", lambda split: (site,))
    records = PACKAGE_DIR / RECORDS_DIR / "dev"
    for type_id, layout in PACKAGE.layouts.items():
        made = tmp_path / type_id
        module = generator(type_id)
        module.generate(made, FOLDER)
        shipped = layout.dataset_dir(FOLDER)
        for name in ("cases.jsonl", "answers.jsonl"):
            assert _lines(made / name)[site] == _lines(shipped / name)[site], (type_id, name)
        pinned = {entry.path: entry for entry in read_manifest(shipped).files}
        for entry in read_manifest(made).files:
            if not entry.path.startswith("assets/"):
                continue
            assert pinned[entry.path] == entry, (type_id, entry.path)
            path = records / entry.path.removeprefix("assets/")
            assert hashlib.sha256(path.read_bytes()).hexdigest() == entry.sha256, entry.path
        # The fixtures: correct.json's prediction for the site (wrong.json's mistakes depend on
        # which sites the split holds).
        answer = read_answers(made, layout.type.Answer)[site]
        correct = json.loads(json.dumps(module.correct_prediction(answer)))
        assert correct == read_json(layout.fixtures_dir(FOLDER) / "correct.json")[site]
