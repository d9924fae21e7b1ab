"""Laboratory reports of given samples (envirobench_synth.site.labpapers): every given result is
printed where page_facts says, in every family; same bytes twice; revisions marked; QC carries
no facts; bad jobs refused with the field named."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import re

import pytest
from pdf_pages import page_texts

from envirobench_synth.labreport.families import FAMILIES
from envirobench_synth.site.labpapers import (
    LabJob,
    LabPaper,
    LabResult,
    LabSample,
    analyte_entry,
    render_lab_report,
    result_fact,
)
from envirobench_synth.vocabulary import ANALYTE_SYNONYMS

SEED = 20260


def _unit(matrix: str, group: str) -> str:
    if matrix in ("soil", "sediment"):
        return "mg/kg"
    if matrix in ("soil-vapor", "sub-slab-vapor", "indoor-air"):
        return "µg/m³"
    return "mg/L" if group == "metal" else "µg/L"


def _samples() -> tuple[LabSample, ...]:
    """Samples of several media and dates, detections, non-detects, flags, a blind duplicate,
    an analyte one sample lacks, a value scientific notation could not print exactly."""
    plan = [
        ("MW-3-051419", "MW-3", None, "groundwater", 14),
        ("MW-05-051419", "MW-5", None, "groundwater", 14),
        ("DUP-1", "MW-5", None, "groundwater", 14),
        ("SB-2 (4-6')", "SB-2", "4-6", "soil", 15),
        ("SV-1", "SV-1", None, "soil-vapor", 16),
    ]
    values = [12.5, None, 1250.0, 0.0123, None, 3.7, 12345.0, None, 0.47, 88.0]
    flags = ["", "", "J", "B", "UJ", "", "E", "", "J", "D"]
    out = []
    k = 0
    for n, (sample_id, location, depth, matrix, day) in enumerate(plan):
        analytes = ["Benzene", "Toluene", "Tetrachloroethene"]
        if matrix == "groundwater":
            analytes += ["Lead", "tert-Butyl alcohol"][: 1 + n % 2]
        if matrix == "soil":
            analytes += ["Arsenic", "Naphthalene"]
        results = []
        for name in analytes:
            value, flag = values[k % len(values)], flags[k % len(flags)]
            if value is None and flag not in ("", "UJ"):
                flag = ""
            k += 1
            group = analyte_entry(name).group
            rl = 0.005 if group == "metal" else 1.0
            results.append(LabResult(name, value, _unit(matrix, group), rl, flag, 1.0))
        out.append(
            LabSample(sample_id, location, depth, matrix, dt.date(2019, 5, day), tuple(results))
        )
    return tuple(out)


def _job(family: str, **changes: object) -> LabJob:
    job = LabJob(
        family=family,
        split=family.split("-", 1)[0],  # a family's name begins with its split
        job_number="L40211",
        client="Harrow Field Services",
        project="Former Corner Garage",
        site_address="12 Mill Road, Easton",
        received=dt.date(2019, 5, 17),
        issued=dt.date(2019, 5, 31),
        samples=_samples(),
    )
    return dataclasses.replace(job, **changes)  # type: ignore[arg-type]


def _names(analyte: str) -> set[str]:
    entry = analyte_entry(analyte)
    return {entry.name, *(t.text for t in ANALYTE_SYNONYMS.get(entry.cas or "", ()))}


def _printed_on(text: str, analyte: str, sample: LabSample, value: str) -> bool:
    """Whether `text` (one page) prints `value` on a row of `analyte` and names the sample."""
    if sample.sample_id not in text:
        return False
    for line in text.splitlines():
        tokens = line.split()
        # the row begins with the analyte's name (after the sample ID in a long table)
        head = line.replace(sample.sample_id, "", 1).strip() if line.startswith(sample.sample_id) else line  # fmt: skip
        if any(head.startswith(name + " ") for name in _names(analyte)) and value in tokens:
            return True
    return False


@pytest.mark.parametrize("family", [f.name for f in FAMILIES])
def test_every_result_is_printed_where_page_facts_say(family: str) -> None:
    job = _job(family)
    paper = render_lab_report(job, SEED, "test", family)
    texts = page_texts(paper.pdf)
    assert len(texts) == len(paper.page_facts) == len(paper.page_kinds) == len(paper.scanned)
    expected = {result_fact(s, r.analyte) for s in job.samples for r in s.results}
    assert set(paper.printed) == expected
    assert set().union(*paper.page_facts) == expected
    for sample in job.samples:
        for result in sample.results:
            fact = result_fact(sample, result.analyte)
            pages = [k for k, facts in enumerate(paper.page_facts) if fact in facts]
            assert pages, fact
            if sample.sample_id == "DUP-1" or sample.location == "MW-5":
                continue  # the duplicate shares its key with MW-5: checked by value below
            value = paper.printed[fact]
            assert any(_printed_on(texts[k], result.analyte, sample, value) for k in pages), (
                family,
                fact,
                value,
            )
    # the duplicate and MW-5 share a key: both printings are on the pages of that fact
    for sample in job.samples:
        if sample.location != "MW-5":
            continue
        for result in sample.results:
            fact = result_fact(sample, result.analyte)
            pages = [k for k, facts in enumerate(paper.page_facts) if fact in facts]
            assert any(sample.sample_id in texts[k] for k in pages), (family, sample.sample_id)


def _readings(text: str) -> set[float]:
    """A printed number read with a decimal comma and with a thousands separator."""
    out = set()
    for candidate in (text.replace(",", "."), text.replace(",", "")):
        with contextlib.suppress(ValueError):
            out.add(float(candidate))
    return out


@pytest.mark.parametrize("family", [f.name for f in FAMILIES])
def test_printed_values_read_back_as_given(family: str) -> None:
    job = _job(family)
    paper = render_lab_report(job, SEED, "values", family)
    for sample in job.samples:
        if sample.sample_id == "DUP-1":
            continue
        for result in sample.results:
            fact = result_fact(sample, result.analyte)
            text, qualifier = paper.printed[fact], paper.qualifiers[fact]
            if result.value is None:  # <RL, ND, or the RL with a U flag
                assert text == "ND" or text.startswith("<") or "U" in qualifier, (text, qualifier)
                if text != "ND":
                    assert result.reporting_limit in _readings(text.lstrip("<"))
                continue
            assert result.value in _readings(text), (text, result)
            assert qualifier == result.qualifier


def test_same_bytes_twice_and_labels_matter() -> None:
    job = _job("dev-long-table")
    first = render_lab_report(job, SEED, "site", 3)
    second = render_lab_report(job, SEED, "site", 3)
    assert first.pdf == second.pdf
    assert first.page_facts == second.page_facts and first.printed == second.printed
    assert render_lab_report(job, SEED, "site", 4).pdf != first.pdf


@pytest.mark.parametrize("family", [f.name for f in FAMILIES])
def test_a_revised_report_is_marked_and_says_why(family: str) -> None:
    note = "the benzene result of MW-3-051419 was corrected after a transcription error"
    original = render_lab_report(_job(family), SEED, "rev", family)
    revised = render_lab_report(
        _job(family, revision=1, revision_note=note), SEED, "rev", family
    )
    text = " ".join(" ".join(page_texts(revised.pdf)).split())
    assert "Revision 1" in text
    assert note in text
    assert "Revision" not in " ".join(page_texts(original.pdf))


def test_qc_rows_carry_no_facts() -> None:
    """With QC the pages print more rows (blank, LCS, MS/MSD, surrogates) but no more facts."""
    for family in FAMILIES:
        with_qc = render_lab_report(_job(family.name), SEED, "qc", family.name)
        without = render_lab_report(
            _job(family.name, qc=False), SEED, "qc", family.name
        )
        assert set(with_qc.printed) == set(without.printed)
        assert set().union(*with_qc.page_facts) == set(without.printed)
        texts = page_texts(with_qc.pdf)
        qc_text = " ".join(texts)
        assert "LCS" in qc_text and "LCS" not in " ".join(page_texts(without.pdf))
        for k, kind in enumerate(with_qc.page_kinds):
            if kind in ("qc", "cover", "narrative"):
                assert not with_qc.page_facts[k], (family.name, k, kind)


def test_media_each_get_their_report() -> None:
    paper = render_lab_report(_job("dev-sample-pages"), SEED, "media")
    assert paper.page_kinds.count("cover") == 3  # groundwater, soil, soil vapor
    text = " ".join(page_texts(paper.pdf))
    assert "Soil Vapor" in text and "12 Mill Road, Easton" in text


def test_scanned_pages_have_no_text_layer() -> None:
    paper = render_lab_report(_job("dev-summary-columns"), SEED, "scan", scan="results")
    texts = page_texts(paper.pdf)
    assert any(paper.scanned)
    for k, scanned in enumerate(paper.scanned):
        assert scanned == (paper.page_kinds[k] == "results")
        if scanned:
            assert not texts[k].strip()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"family": "no-such-family"}, "LabJob.family"),
        ({"split": "test"}, "LabJob.family"),
        ({"samples": ()}, "LabJob.samples"),
        ({"revision": 1}, "LabJob.revision"),
        ({"revision": -1, "revision_note": "x"}, "LabJob.revision"),
    ],
)
def test_bad_jobs_are_refused(changes: dict, field: str) -> None:
    with pytest.raises(ValueError, match=re.escape(field)):
        job = dataclasses.replace(_job("dev-long-table"), **changes)
        render_lab_report(job, SEED)


@pytest.mark.parametrize(
    ("result", "field"),
    [
        (LabResult("Unobtainium", 1.0, "µg/L", 1.0), "LabResult.analyte"),
        (LabResult("Benzene", float("nan"), "µg/L", 1.0), "LabResult.value"),
        (LabResult("Benzene", -1.0, "µg/L", 1.0), "LabResult.value"),
        (LabResult("Benzene", float("inf"), "µg/L", 1.0), "LabResult.value"),
        (LabResult("Benzene", 1.0, "µg/L", 0.0), "LabResult.reporting_limit"),
        (LabResult("Benzene", 1.0, "µg/L", float("nan")), "LabResult.reporting_limit"),
    ],
)
def test_bad_results_are_refused(result: LabResult, field: str) -> None:
    sample = LabSample("MW-1", "MW-1", None, "groundwater", dt.date(2020, 1, 2), (result,))
    with pytest.raises(ValueError, match=re.escape(field)):
        render_lab_report(_job("dev-long-table", samples=(sample,)), SEED)


def test_bad_samples_are_refused() -> None:
    result = LabResult("Benzene", 1.0, "µg/L", 1.0)
    sample = LabSample("MW-1", "MW-1", None, "groundwater", dt.date(2020, 1, 2), (result,))
    with pytest.raises(ValueError, match="LabSample.sample_id"):
        render_lab_report(_job("dev-long-table", samples=(sample, sample)), SEED)
    with pytest.raises(ValueError, match="LabSample.matrix"):
        render_lab_report(
            _job("dev-long-table", samples=(dataclasses.replace(sample, matrix="lava"),)),
            SEED,
        )
    with pytest.raises(ValueError, match="LabSample.results"):
        render_lab_report(
            _job("dev-long-table", samples=(dataclasses.replace(sample, results=()),)),
            SEED,
        )
    assert isinstance(
        render_lab_report(_job("dev-long-table", samples=(sample,)), SEED), LabPaper
    )
