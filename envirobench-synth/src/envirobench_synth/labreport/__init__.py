"""Synthetic laboratory reports: a document model, seeded sampling, and PDFs with their ground truth.

    rng = make_random(SEED, "report", "de-0007")
    report = sample_report(rng, "continued")          # model: facts, samples, results
    rendered = render_pdf(report, SEED, "de-0007")     # PDF bytes, records, table boxes

Modules: `model` (the document model, print styles, the truth rules), `sample` (seeded
sampling with the traps real reports have), `draft` (display lists, table layout, page flow),
`compose` (cover, narrative, results in eight layouts, quality control), `pdf` (reportlab
emission and pypdfium2 rasterising) and `render` (the whole document with its ground truth).
"""

from .model import LAYOUTS, LabReport, PrintStyle, ReportInfo, Sample, TruthRecord
from .render import CROP_DPI, SCAN_DPI, PageInfo, RenderedReport, TableRegion, render_pdf
from .sample import sample_report

__all__ = [
    "CROP_DPI",
    "LAYOUTS",
    "SCAN_DPI",
    "LabReport",
    "PageInfo",
    "PrintStyle",
    "RenderedReport",
    "ReportInfo",
    "Sample",
    "TableRegion",
    "TruthRecord",
    "render_pdf",
    "sample_report",
]
