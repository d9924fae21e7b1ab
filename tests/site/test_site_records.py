"""The site records of envirobench_synth.site: invariants a user of the answer keys relies on.

The smallest dev site is built once for the module; the three public (test) sites take long and
are slow-marked.
"""

from __future__ import annotations

import datetime as dt
import json
import re

import pypdfium2 as pdfium
import pytest

from envirobench_synth import standards
from envirobench_synth.site import (
    CONDITION_CLASSES,
    CONDITION_KINDS,
    EVENT_KINDS,
    MATRICES,
    SITES,
    SPECS,
    build_site,
)

SMALLEST = min(SITES["dev"], key=lambda site: SPECS[site].pages)
TO = {("µg/L", "mg/L"): 0.001, ("mg/L", "µg/L"): 1000.0}


@pytest.fixture(scope="module")
def build():
    return build_site(SMALLEST)


def _facts(build, citation) -> frozenset[str]:
    names = [name for name, _ in build.volumes]
    return build.page_facts[names.index(citation["file"])][citation["page"] - 1]


def _norm(location: str) -> str:
    text = re.sub(r"[\s_-]", "", location.upper())
    return re.sub(r"0+(\d)", r"\1", text)


def _forms(value: float) -> set[str]:
    """How a report may print a number: plain, with thousands separators, with a decimal comma
    (laboratory families print their own way), in scientific notation."""
    plain = f"{value:g}" if value < 1e6 else f"{value:.0f}"
    forms = {plain, f"{value:,g}", plain.replace(".", ",")}
    if value == int(value):
        forms |= {str(int(value)), f"{int(value):,}", f"{int(value):,}".replace(",", ".")}
    forms |= {f"{value:.1E}", f"{value:.2E}", f"{value:.1E}".replace(".", ",")}
    return forms


def _result_fact(r) -> str:
    return "|".join(
        ("result", "{loc}", r["depth"] or "-", r["sample_date"], r["analyte"], r["matrix"])
    )


def _stated(build, citation, fact_template: str) -> bool:
    for fact in _facts(build, citation):
        parts = fact.split("|")
        want = fact_template.split("|")
        if len(parts) == len(want) and all(
            w in ("{loc}", p) for w, p in zip(want, parts, strict=False)
        ):
            loc_index = want.index("{loc}") if "{loc}" in want else None
            if loc_index is None or _norm(parts[loc_index]) == _norm(
                fact_template.split("|")[loc_index]
            ):
                return True
    return False


def test_splits_and_page_targets():
    assert set(SITES) == {"dev", "test", "test-sites20"}
    assert len(SITES["dev"]) == 4 and len(SITES["test"]) == 3
    assert [SPECS[s].pages for s in SITES["test"]] == [275, 540, 806]
    assert all(120 <= SPECS[s].pages <= 320 for s in SITES["dev"])
    # the many small test sites: test families, as long as their documents (pages 0), 8 kinds
    many = [SPECS[s] for s in SITES["test-sites20"]]
    assert len(many) == 20 and all(s.split == "test" and s.compact and s.pages == 0 for s in many)
    assert len({s.archetype for s in many}) == 8 and len({s.seed for s in many}) == 20


def test_pages_match_volumes(build):
    assert build.pages == SPECS[SMALLEST].pages == build.input["pages"]
    assert sum(v["pages"] for v in build.input["volumes"]) == build.pages
    for (name, pdf), listed, facts in zip(
        build.volumes, build.input["volumes"], build.page_facts, strict=False
    ):
        document = pdfium.PdfDocument(pdf)
        try:
            assert len(document) == listed["pages"] == len(facts)
        finally:
            document.close()
        assert listed["file"] == name
        assert 60 <= listed["pages"] <= 250 or len(build.volumes) == 1


def test_one_record_per_key(build):
    results = build.answers["site-results"]["results"]
    keys = [
        (_norm(r["location"]), r["depth"], r["sample_date"], r["analyte"], r["matrix"])
        for r in results
    ]
    assert len(keys) == len(set(keys)) > 50


def test_every_result_citation_states_its_result(build):
    for r in build.answers["site-results"]["results"]:
        fact = _result_fact(r).replace("{loc}", r["location"])
        assert _stated(build, r["source"], fact), (r["source"], fact)
        for printing in r["printings"]:
            assert _stated(build, printing, fact), (printing, fact)


def test_the_governing_printing_is_the_source_and_nothing_else_governs(build):
    statuses = {"governing", "reprint", "draft", "superseded", "rejected", "transcription-error"}
    for r in build.answers["site-results"]["results"]:
        governing = [p for p in r["printings"] if p["status"] == "governing"]
        assert len(governing) == 1
        assert {"file": governing[0]["file"], "page": governing[0]["page"]} == r["source"]
        assert {p["status"] for p in r["printings"]} <= statuses
    # the traps are present: drafts, superseded values, transcription errors in tables
    seen = {p["status"] for r in build.answers["site-results"]["results"] for p in r["printings"]}
    assert {"draft", "superseded", "reprint", "transcription-error"} <= seen
    assert build.traps["rejected-results"] > 0 and build.traps["correction-letter-values"] >= 2
    assert build.traps["revised-lab-reports"] >= 2 and build.traps["correction-letters"] >= 2


def test_reconciliation_decides_a_tenth_of_the_keys(build):
    """Contested keys (printed somewhere with a value other than the governing one, or excluded)
    are at least 8 % of the keys: the reprint rules decide them, not reading alone."""
    answer = build.answers["site-results"]
    keys = len(answer["results"]) + len(answer["excluded"])
    contested = len(answer["excluded"]) + sum(
        any(p["value"] != r["value"] for p in r["printings"]) for r in answer["results"]
    )
    assert contested == build.traps["contested-keys"]
    assert contested >= 0.08 * keys, (contested, keys)


def test_some_laboratory_reports_are_scans_that_govern(build):
    """Laboratory reports filed as scans govern their results (no text layer on the source
    page), and a cumulative table's misprint is now and then of such a result."""
    assert build.traps["scanned-lab-reports"] >= 1
    sources = {}
    for name, pdf in build.volumes:
        document = pdfium.PdfDocument(pdf)
        try:
            for index, page in enumerate(document):
                textpage = page.get_textpage()
                sources[(name, index + 1)] = bool(textpage.get_text_range().strip())
                textpage.close()
        finally:
            document.close()
    results = build.answers["site-results"]["results"]
    scanned = [r for r in results if not sources[(r["source"]["file"], r["source"]["page"])]]
    assert len(scanned) >= 10
    assert any(p["status"] in ("reprint", "transcription-error") for r in scanned for p in r["printings"])


def test_rejected_results_have_no_record(build):
    results = build.answers["site-results"]["results"]
    assert len(results) + build.traps["rejected-results"] == len(
        {
            f
            for page in (p for v in build.page_facts for p in v)
            for f in page
            if f.startswith("result|")
        }
    )


def test_every_exceedance_exceeds_its_standard_in_force(build):
    results = {
        (r["location"], r["depth"], r["sample_date"], r["analyte"], r["matrix"]): r
        for r in build.answers["site-results"]["results"]
    }
    exceedances = build.answers["exceedance-summary"]["exceedances"]
    assert exceedances
    for e in exceedances:
        record = results[(e["location"], e["depth"], e["sample_date"], e["analyte"], e["matrix"])]
        assert record["value"] == e["value"] and record["source"] == e["source"]
        row = standards.value_in_force(
            e["standard"]["table"], e["analyte"], dt.date.fromisoformat(e["sample_date"])
        )
        assert (
            row is not None
            and row.value == e["standard"]["value"]
            and row.unit == e["standard"]["unit"]
        )
        value = e["value"] * TO.get((e["unit"], row.unit), 1.0)
        assert value > row.value


def test_conditions_and_events_use_the_pinned_vocabularies(build):
    assert build.input["condition_kinds"] == list(CONDITION_KINDS)
    assert build.input["event_kinds"] == list(EVENT_KINDS)
    assert set(build.input["matrices"]) <= set(MATRICES)
    conditions = build.answers["recognized-conditions"]["conditions"]
    assert len({c["kind"] for c in conditions}) == len(conditions)
    for c in conditions:
        assert c["kind"] in CONDITION_KINDS and c["class"] in CONDITION_CLASSES
        assert c["evidence"]
        for citation in c["evidence"]:
            assert f"condition|{c['kind']}" in _facts(build, citation)
    events = build.answers["site-timeline"]["events"]
    assert [e["date"] for e in events] == sorted(e["date"] for e in events)
    assert {e["kind"] for e in events} >= {
        "ownership-transfer",
        "tank-installed",
        "release-reported",
    }
    for e in events:
        assert e["kind"] in EVENT_KINDS
        assert re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", e["date"])
        fact = f"event|{e['kind']}|{e['subject'] or '-'}|{e['date']}"
        assert fact in _facts(build, e["source"]), (fact, e["source"])


def test_the_governing_value_is_printed_on_its_page(build):
    """The text layer of a governing page (not scanned) prints the record's value."""
    texts: dict[tuple[str, int], str] = {}
    for name, pdf in build.volumes:
        document = pdfium.PdfDocument(pdf)
        try:
            for index, page in enumerate(document):
                textpage = page.get_textpage()
                texts[(name, index + 1)] = " ".join(textpage.get_text_range().split())
                textpage.close()
        finally:
            document.close()
    checked = 0
    for r in build.answers["site-results"]["results"]:
        text = texts[(r["source"]["file"], r["source"]["page"])]
        if not text or r["value"] is None:
            continue
        assert any(form in text for form in _forms(r["value"])), (r, r["value"])
        checked += 1
    assert checked > 20


def test_input_names_the_site_analytes_with_cas(build):
    names = {a["name"] for a in build.input["analytes"]}
    assert {r["analyte"] for r in build.answers["site-results"]["results"]} <= names
    assert build.standards.startswith(b"{")


def test_public_sites_have_their_page_counts():
    from envirobench_site.shipping import PACKAGE_DIR, RECORDS_DIR

    for site in SITES["test"]:
        counts = []
        for volume in sorted((PACKAGE_DIR / RECORDS_DIR / "test" / site).glob("*.pdf")):
            document = pdfium.PdfDocument(str(volume))
            counts.append(len(document))
            document.close()
        assert sum(counts) == SPECS[site].pages, site
        assert all(60 <= count <= 250 for count in counts), (site, counts)


def test_the_many_small_test_sites_ship_as_their_cases_say():
    # Issue 33's Site test with power: >= 20 sites, >= 60 recognized conditions, >= 300 timeline
    # events, each record whole in the shipped records (the cases' page counts are the PDFs').
    from envirobench_site.package import PACKAGE
    from envirobench_site.shipping import PACKAGE_DIR, RECORDS_DIR

    def lines(type_id: str, name: str) -> list[dict]:
        folder = PACKAGE.layout(type_id).dataset_dir("synthetic-test-sites20-v1")
        return [json.loads(line) for line in (folder / name).read_text(encoding="utf-8").splitlines()]

    cases = lines("site-timeline", "cases.jsonl")
    assert [c["id"] for c in cases] == list(SITES["test-sites20"])
    events = sum(len(a["answer"]["events"]) for a in lines("site-timeline", "answers.jsonl"))
    conditions = sum(
        len(a["answer"]["conditions"]) for a in lines("recognized-conditions", "answers.jsonl")
    )
    assert len(cases) >= 20 and conditions >= 60 and events >= 300
    for case in cases:
        counts = []
        for volume in case["input"]["volumes"]:
            path = PACKAGE_DIR / RECORDS_DIR / "test-sites20" / volume["file"].removeprefix("assets/")
            document = pdfium.PdfDocument(str(path))
            counts.append(len(document))
            document.close()
            assert counts[-1] == volume["pages"], volume["file"]
        assert sum(counts) == case["input"]["pages"]


# Builds a site in the probe's fresh interpreter: its volumes and their names, in order.
BUILD = """
import json, sys
from pathlib import Path
from envirobench_synth.site import build_site
site, out = sys.argv[1], Path(sys.argv[2])
built = build_site(site)
out.mkdir(parents=True)
for name, data in built.volumes:
    (out / name).write_bytes(data)
(out.parent / "built.json").write_text(json.dumps({"pages": built.pages, "volumes": [n for n, _ in built.volumes]}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("site", SITES["test"])
def test_public_sites_regenerate_byte_for_byte(site, tmp_path):
    # The shipped record of the public site is these very bytes (envirobench-site ships it once).
    from regeneration_kit import Stamp, digests

    from envirobench_site.shipping import PACKAGE_DIR, RECORDS_DIR

    shipped = PACKAGE_DIR / RECORDS_DIR / "test" / site
    stamp = Stamp(f"envirobench_synth.site {site}", [shipped])
    stamp.skip_if_verified()
    stamp.run(tmp_path, "-c", BUILD, site, str(tmp_path / "volumes"))
    built = json.loads((tmp_path / "built.json").read_text(encoding="utf-8"))
    assert built["pages"] == SPECS[site].pages
    assert sorted(built["volumes"]) == sorted(p.name for p in shipped.iterdir())
    assert digests(tmp_path / "volumes") == digests(shipped)
    stamp.record()


def test_an_unknown_site_is_a_clear_error():
    with pytest.raises(KeyError, match="unknown site 'st-999'"):
        build_site("st-999")
