"""What the adapter sends besides the prompt: the structured-output schema (strict where the
type's prediction schema allows, with optional properties made nullable and their nulls
dropped again) and a case's source files as images (PDF pages rendered, at most max_pages)."""

from __future__ import annotations

import base64
import io

import pypdfium2
import pytest
from PIL import Image

from envirobench import schema_for, structure
from envirobench_adapters_openai.prompts import parse_prompt, prompts, served_types
from envirobench_adapters_openai.schema import response_schema
from envirobench_adapters_openai.sources import Image as SentImage
from envirobench_adapters_openai.sources import Sizes, Text, UnsupportedSource, parts, sizes
from envirobench_research.cited_answers import Prediction as CitedAnswers
from envirobench_site.site_results import Prediction as SiteResults


def test_a_schema_with_optional_properties_is_made_strict_and_its_nulls_dropped_again():
    schema = response_schema("site-results", SiteResults, "auto")
    assert schema.strict and schema.name == "site_results"
    result = schema.sent["$defs"]["PredictedResult"]
    assert set(result["required"]) == set(result["properties"])  # strict mode: every property required
    assert result["properties"]["printings"] == {"anyOf": [schema_for(SiteResults)["$defs"]["PredictedResult"]["properties"]["printings"], {"type": "null"}]}
    answer = {"results": [{"location": "MW-1", "sample_date": "2020-01-02", "analyte": "benzene", "matrix": "groundwater", "value": None,
                           "detected": False, "unit": "ug/L", "printings": None, "qualifier": None, "depth": None, "reporting_limit": None,
                           "source": None}]}
    cleaned = schema.clean(answer)
    # printings and qualifier do not take null (dropped: their defaults apply); value, depth... do (kept).
    assert "printings" not in cleaned["results"][0] and "qualifier" not in cleaned["results"][0] and cleaned["results"][0]["value"] is None
    structure(cleaned, SiteResults)


def test_a_schema_with_a_map_is_sent_not_strict_or_refused_under_strict_true():
    schema = response_schema("cited-answers", CitedAnswers, "auto")
    assert not schema.strict and schema.sent == {k: v for k, v in schema_for(CitedAnswers).items() if k not in ("$schema", "$id")}
    assert schema.response_format()["json_schema"]["strict"] is False
    with pytest.raises(ValueError, match="strict mode cannot take"):
        response_schema("cited-answers", CitedAnswers, "true")


def write_pdf(path, pages: int):
    document = pypdfium2.PdfDocument.new()
    for _ in range(pages):
        document.new_page(144, 72)  # 2 x 1 inches
    document.save(str(path))
    document.close()
    return path


def test_pdf_pages_are_rendered_at_most_max_pages_images_sent_as_they_are_and_text_as_text(tmp_path):
    pdf = write_pdf(tmp_path / "report.pdf", 3)
    Image.new("RGB", (7, 5), "white").save(tmp_path / "table.png")
    (tmp_path / "standards.json").write_text('{"mcl": 5}', encoding="utf-8")
    sources = {"docs/report.pdf": pdf, "assets/table.png": tmp_path / "table.png", "assets/standards.json": tmp_path / "standards.json"}
    assert sizes(sources, max_pages=2) == Sizes(images=3, text_bytes=10)
    sent = list(parts(sources, max_pages=2, dpi=72))
    assert [s.label for s in sent] == ["docs/report.pdf, page 1 of 3",
                                      "docs/report.pdf, page 2 of 3 (pages 3 to 3 are not shown: at most 2 pages are sent)",
                                      "assets/table.png", "assets/standards.json"]
    assert [type(s) for s in sent] == [SentImage, SentImage, SentImage, Text] and sent[3].text == '{"mcl": 5}'
    page = Image.open(io.BytesIO(base64.b64decode(sent[0].data_url.split(",", 1)[1])))
    assert page.size == (144, 72)  # rendered at dpi/72 of the page's points
    assert base64.b64decode(sent[2].data_url.split(",", 1)[1]) == (tmp_path / "table.png").read_bytes()
    with pytest.raises(UnsupportedSource, match="a .docx file cannot be sent"):
        sizes({"notes.docx": tmp_path / "notes.docx"}, max_pages=2)


def test_every_prompt_file_is_versioned_and_names_an_installed_type():
    from envirobench_adapter_kit.benchmarks import find_type

    assert served_types() and all(find_type(t) is not None for t in served_types())
    assert all(p.version >= 1 and len(p.sha256) == 64 for p in prompts().values())
    with pytest.raises(ValueError, match="must start with 'version: N'"):
        parse_prompt("table-cells", b"no header\n")
