"""What the Site tests share: a tiny hand-made site (two small volumes, a handful of results,
conditions and events) in the shape `envirobench_synth.site.build_site` returns, the four types
scored on it, and the tiny dev and test datasets the generators write from it."""

from __future__ import annotations

import copy
import io
from dataclasses import dataclass, field
from typing import Any

from envirobench import Case, hookimpl, structure
from envirobench_site.exceedance_summary import ExceedanceSummary
from envirobench_site.recognized_conditions import RecognizedConditions
from envirobench_site.records import SiteInput
from envirobench_site.site_results import SiteResults
from envirobench_site.site_timeline import SiteTimeline

TYPES = (SiteResults, ExceedanceSummary, RecognizedConditions, SiteTimeline)


def tiny_pdf(pages: int, label: str) -> bytes:
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, invariant=1)
    for page in range(1, pages + 1):
        pdf.drawString(72, 720, f"{label}, page {page}")
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def site_input(site: str = "tiny-1") -> dict[str, Any]:
    return {
        "site": site,
        "name": "Former Corner Garage",
        "address": "1 Main Street",
        "as_of": "2024-06-30",
        "volumes": [{"file": "volume-1.pdf", "pages": 3}, {"file": "volume-2.pdf", "pages": 2}],
        "pages": 5,
        "analytes": [
            {"name": "benzene", "cas": "71-43-2", "synonyms": ["Benzene", "benzol"]},
            {"name": "toluene", "cas": "108-88-3", "synonyms": ["Toluene"]},
            {"name": "lead", "cas": "7439-92-1", "synonyms": ["Pb"]},
        ],
        "matrices": ["groundwater", "soil"],
        "standards": "standards-v1.json",
        "condition_kinds": ["ust-release", "fill-material", "heating-oil-tank"],
        "event_kinds": [
            "ownership-transfer",
            "tank-install",
            "tank-removal",
            "release",
            "nfa-letter",
        ],
    }


def printing(file: str, page: int, status: str, value=None, unit=None) -> dict[str, Any]:
    out: dict[str, Any] = {"file": file, "page": page, "status": status}
    if unit is not None:
        out.update(value=value, unit=unit)
    return out


def results_answer() -> dict[str, Any]:
    return {
        "results": [
            {
                "location": "MW-3", "depth": None, "sample_date": "2019-05-14", "analyte": "benzene",
                "cas": "71-43-2", "matrix": "groundwater", "value": 12.0, "detected": True,
                "unit": "µg/L", "reporting_limit": 1.0, "qualifier": "",
                "source": {"file": "volume-1.pdf", "page": 2},
                "printings": [
                    printing("volume-1.pdf", 1, "superseded", 21.0, "µg/L"),
                    printing("volume-1.pdf", 2, "governing", 12.0, "µg/L"),
                    printing("volume-2.pdf", 1, "reprint", 12.0, "µg/L"),
                    printing("volume-2.pdf", 2, "transcription-error", 1.2, "µg/L"),
                ],
            },
            {
                "location": "MW-3", "depth": None, "sample_date": "2019-05-14", "analyte": "toluene",
                "cas": "108-88-3", "matrix": "groundwater", "value": None, "detected": False,
                "unit": "µg/L", "reporting_limit": 1.0, "qualifier": "U",
                "source": {"file": "volume-1.pdf", "page": 2},
                "printings": [printing("volume-1.pdf", 2, "governing", None, "µg/L")],
            },
            {
                "location": "SB-1", "depth": "4-6", "sample_date": "2018-03-02", "analyte": "lead",
                "cas": "7439-92-1", "matrix": "soil", "value": 450.0, "detected": True,
                "unit": "mg/kg", "reporting_limit": 5.0, "qualifier": "",
                "source": {"file": "volume-1.pdf", "page": 3},
                "printings": [printing("volume-1.pdf", 3, "governing", 450.0, "mg/kg")],
            },
        ],
        "excluded": [
            {
                "location": "MW-4", "depth": None, "sample_date": "2019-05-14", "analyte": "benzene",
                "cas": "71-43-2", "matrix": "groundwater",
                "printings": [printing("volume-1.pdf", 2, "rejected", 3.0, "µg/L")],
            }
        ],
    }  # fmt: skip


def exceedances_answer() -> dict[str, Any]:
    return {
        "exceedances": [
            {
                "location": "MW-3", "depth": None, "sample_date": "2019-05-14", "analyte": "benzene",
                "cas": "71-43-2", "matrix": "groundwater", "value": 12.0, "unit": "µg/L",
                "standard": {"table": "epa-mcl", "value": 0.005, "unit": "mg/L"},
                "source": {"file": "volume-1.pdf", "page": 2},
            },
            {
                "location": "SB-1", "depth": "4-6", "sample_date": "2018-03-02", "analyte": "lead",
                "cas": "7439-92-1", "matrix": "soil", "value": 450.0, "unit": "mg/kg",
                "standard": {"table": "epa-soil-lead-residential", "value": 400.0, "unit": "mg/kg"},
                "source": {"file": "volume-1.pdf", "page": 3},
            },
        ]
    }  # fmt: skip


def conditions_answer() -> dict[str, Any]:
    return {
        "conditions": [
            {
                "kind": "ust-release",
                "class": "CREC",
                "evidence": [
                    {"file": "volume-1.pdf", "page": 1},
                    {"file": "volume-2.pdf", "page": 2},
                ],
            },
            {
                "kind": "heating-oil-tank",
                "class": "HREC",
                "evidence": [{"file": "volume-2.pdf", "page": 1}],
            },
        ]
    }


def timeline_answer() -> dict[str, Any]:
    return {
        "events": [
            {"kind": "tank-install", "date": "1972", "subject": "T-1", "source": {"file": "volume-1.pdf", "page": 1}},
            {"kind": "ownership-transfer", "date": "1985-07-02", "subject": None, "source": {"file": "volume-1.pdf", "page": 1}},
            {"kind": "tank-removal", "date": "1998-10", "subject": "T-1", "source": {"file": "volume-1.pdf", "page": 3}},
            {"kind": "release", "date": "1998-10-12", "subject": None, "source": {"file": "volume-1.pdf", "page": 3}},
            {"kind": "nfa-letter", "date": "2021-02-01", "subject": None, "source": {"file": "volume-2.pdf", "page": 2}},
        ]
    }  # fmt: skip


@dataclass
class FakeBuild:
    """A tiny site in the shape of envirobench_synth.site.build_site's result."""

    site: str
    volumes: tuple[tuple[str, bytes], ...]
    standards: bytes
    input: dict[str, Any]
    answers: dict[str, Any]
    traps: dict[str, int] = field(default_factory=dict)

    @property
    def pages(self) -> int:
        return self.input["pages"]


def fake_build(site: str) -> FakeBuild:
    given = site_input(site)
    given["volumes"] = [{"file": v["file"], "pages": v["pages"]} for v in given["volumes"]]
    del given["standards"]
    return FakeBuild(
        site=site,
        volumes=(
            ("volume-1.pdf", tiny_pdf(3, site + " vol 1")),
            ("volume-2.pdf", tiny_pdf(2, site + " vol 2")),
        ),
        standards=b'{"tables": []}\n',
        input=given,
        answers={
            "site-results": results_answer(),
            "exceedance-summary": exceedances_answer(),
            "recognized-conditions": conditions_answer(),
            "site-timeline": timeline_answer(),
        },
    )


FAKE_SITES = {
    "dev": ("tiny-dev-1", "tiny-dev-2", "tiny-dev-3"),
    "test": ("tiny-test-1", "tiny-test-2", "tiny-test-3"),
}


def use_fake_sites(monkeypatch) -> None:
    """Make the generators build the tiny sites instead of envirobench_synth's."""
    from envirobench_site.generate import site_records

    builds = {s: fake_build(s) for split in FAKE_SITES.values() for s in split}
    monkeypatch.setattr(site_records, "built", lambda site_id: builds[site_id])
    monkeypatch.setattr(site_records, "sites", lambda split: FAKE_SITES[split])


def case(site: str = "tiny-1") -> Case:
    raw = site_input(site)
    raw["volumes"] = [
        {"file": f"assets/{site}/{v['file']}", "pages": v["pages"]} for v in raw["volumes"]
    ]
    raw["standards"] = "assets/standards-v1.json"
    return Case(site, site, structure(raw, SiteInput))


def answer(btype, raw: dict[str, Any]):
    """The type's Answer from an answer in envirobench_synth's names (CONTRACT.md), converted as
    the generators convert them."""
    from envirobench_site.generate import exceedance_summary, recognized_conditions, site_results

    raw = copy.deepcopy(raw)
    analytes = site_input()["analytes"]
    if btype is SiteResults:
        raw = site_results.answer_from(raw, analytes)
    elif btype is ExceedanceSummary:
        raw = exceedance_summary.answer_from(raw, analytes)
    elif btype is RecognizedConditions:
        raw = recognized_conditions.answer_from(raw)
    return structure(raw, btype.Answer)


def score(btype, raw_answer: dict[str, Any], raw_prediction: dict[str, Any]):
    """The one profile's CaseScore of a prediction (JSON) against an answer (JSON)."""
    instance = btype()
    scores = instance.score_case(
        case(), answer(btype, raw_answer), structure(raw_prediction, btype.Prediction)
    )
    return scores[btype.PROFILES[0]]


def headline(btype, raw_answer, raw_prediction) -> dict[str, float]:
    instance = btype()
    return instance.summarize(btype.PROFILES[0], [score(btype, raw_answer, raw_prediction)])


class TypesPlugin:
    """A plugin registering the four Site types (registered or not yet in package.py)."""

    @hookimpl
    def envirobench_benchmark_types(self, register):
        for cls in TYPES:
            register(cls)
