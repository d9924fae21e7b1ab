"""The Site answer keys' `scan_pages` (envirobench_site.scans.ScannedPage): what each scanned page
of a record went through, typed strictly in every Site answer, never scored."""

from __future__ import annotations

import json

import pytest

from envirobench import EnviroBenchError, structure
from envirobench_site import exceedance_summary, recognized_conditions, site_results, site_timeline

PAGE = {"file": "volume-2.pdf", "page": 14, "generation": "fax", "dpi": 120, "skew_degrees": -0.48, "blur": 0.9,
        "noise": 8.0, "artefacts": ["fax-header", "fax-lines"], "marks": ["initials"], "severity": "heavy"}
ANSWERS = {
    site_results: {"results": [], "excluded": []},
    exceedance_summary: {"exceedances": []},
    recognized_conditions: {"conditions": []},
    site_timeline: {"events": []},
}


@pytest.mark.parametrize("module", list(ANSWERS), ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_every_site_answer_keeps_its_records_scanned_pages(module):
    answer = structure({**ANSWERS[module], "scan_pages": [PAGE]}, module.Answer, path="$.answer")
    (page,) = answer.scan_pages
    assert (page.file, page.page, page.generation, page.severity, page.artefacts) == (
        "volume-2.pdf", 14, "fax", "heavy", ("fax-header", "fax-lines"))
    assert structure(ANSWERS[module], module.Answer, path="$.answer").scan_pages == ()  # older keys still read


@pytest.mark.parametrize(
    "bad, where",
    [
        ({"artefacts": ["coffee-stain"]}, "artefacts"),
        ({"marks": ["doodle"]}, "marks"),
        ({"generation": "carbon"}, "generation"),
        ({"severity": "dire"}, "severity"),
        ({"file": "../answers.jsonl"}, "file"),
        ({"page": 0}, "page"),
        ({"dpi": 0}, "dpi"),
    ],
)
def test_a_scanned_page_record_is_refused_where_it_is_wrong(bad, where):
    with pytest.raises(EnviroBenchError) as caught:
        structure({"events": [], "scan_pages": [{**PAGE, **bad}]}, site_timeline.Answer, path="$.answer")
    message = str(caught.value)
    assert message.startswith("$.answer.scan_pages[0]") and where in message, message


def test_every_shipped_site_answer_lists_its_records_scanned_pages():
    # the same pages in all four types' keys of a site, and every site has some
    from envirobench_site.generate.ship import PACKAGE

    for folder in ("synthetic-dev-v1", "synthetic-test-v1", "synthetic-test-sites20-v1"):
        by_site: dict[str, list] = {}
        for module in ANSWERS:
            layout = PACKAGE.layout(module.Answer.__module__.rsplit(".", 1)[-1].replace("_", "-"))
            with (layout.dataset_dir(folder) / "answers.jsonl").open(encoding="utf-8") as lines:
                for line in lines:
                    record = json.loads(line)
                    pages = record["answer"].get("scan_pages")
                    assert pages, (folder, layout, record["id"])
                    by_site.setdefault(record["id"], []).append(pages)
        for site, lists in by_site.items():
            assert len(lists) == 4 and all(pages == lists[0] for pages in lists), (folder, site)
