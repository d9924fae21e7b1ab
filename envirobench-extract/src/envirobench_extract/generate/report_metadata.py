"""The seeded generator of `envirobench/report-metadata-synthetic-v1`, and its fixtures.

Thirty-two short laboratory reports (one to three samples), eight per category: `final`,
`draft` (a DRAFT watermark and a preliminary-results notice), `revised` (a revision number,
the date of the report it replaces and the reason), and `scanned` (any status, the cover and
the case-narrative page image-only). Their results pages cycle through the seven text layouts. The
answer is the laboratory, work order, client, project, report date, sampling dates and status.

Each report draws from its own stream, make_random(SEED, "metadata", case_id, attempt);
regenerating reproduces every file byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from envirobench import (
    EnviroBenchError,
    GeneratedCase,
    Generator,
    Manifest,
    dataset_id_of,
    read_answers,
    unstructure,
    write_dataset,
    write_json,
)
from envirobench_synth.labreport import LAYOUTS, RenderedReport

from ..report_metadata import DATASETS, FIELDS, Answer, Input, ReportMetadata
from .labreports import draw_report

SEED = 20240809
VERSION = 1
STREAM = "metadata"
REPORTS_PER_CATEGORY = 8
CATEGORIES = ("final", "draft", "revised", "scanned")
SIZES = ((1, 3), (4, 10))  # samples, analytes per sample: short reports keep the dataset small
# Scanned results pages say nothing about the metadata and cost bytes: the scanned category
# scans the pages that do (the cover and the narrative) instead.
RESULTS_LAYOUTS = tuple(layout for layout in LAYOUTS if layout != "scanned")

TITLE = "Report metadata, synthetic v1"
DESCRIPTION = (
    f"{REPORTS_PER_CATEGORY * len(CATEGORIES)} short synthetic laboratory-report PDFs, "
    f"{REPORTS_PER_CATEGORY} per category ({', '.join(CATEGORIES)}; scanned: the cover and narrative "
    "pages are image-only). The answer is the laboratory, work order, client, project, report date, "
    "sampling dates and report status."
)


def case_ids() -> list[tuple[str, str]]:
    out = []
    for category_index, category in enumerate(CATEGORIES):
        for i in range(REPORTS_PER_CATEGORY):
            out.append((f"rm-{category_index * REPORTS_PER_CATEGORY + i + 1:04d}", category))
    return out


def render_case(case_id: str, category: str) -> RenderedReport:
    number = int(case_id.rsplit("-", 1)[1])
    layout = RESULTS_LAYOUTS[number % len(RESULTS_LAYOUTS)]
    scanned = category == "scanned"
    options = {"sizes": SIZES, "status": None if scanned else category}
    return draw_report(
        SEED,
        STREAM,
        case_id,
        layout,
        sample_options=options,
        scan_kinds=("cover", "narrative") if scanned else (),
        check_layout=False,
    )


def answer_of(rendered: RenderedReport) -> Answer:
    info = rendered.report.info
    return Answer(
        laboratory=info.laboratory,
        work_order=info.work_order,
        client=info.client,
        project=info.project,
        report_date=info.report_date.isoformat(),
        sampling_dates=tuple(d.isoformat() for d in rendered.report.sampling_dates()),
        status=info.status,
    )


def generate(output_dir: Path, dataset: str = "synthetic-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""

    def _cases(output_dir: Path) -> Iterator[GeneratedCase]:
        for case_id, category in case_ids():
            rendered = render_case(case_id, category)
            path = f"assets/{case_id}.pdf"
            (output_dir / path).write_bytes(rendered.pdf)
            yield case_id, category, Input(document=path), answer_of(rendered)

    return write_dataset(
        output_dir,
        _cases,
        dataset_id=dataset_id_of(DATASETS, dataset),
        version=VERSION,
        benchmark=ReportMetadata.ID,
        title=TITLE,
        description=DESCRIPTION,
        generator=Generator(name=__name__, seed=SEED),
    )


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MetadataMistake:
    """A deliberate mistake in wrong.json, on the first case of `category` no other mistake took."""

    category: str
    change: dict  # field -> how to change it (see `apply`)
    errors: tuple[str, ...]  # the fields that must then be wrong
    why: str


MISTAKES: tuple[MetadataMistake, ...] = (
    MetadataMistake(
        "revised", {"status": "final"}, ("status",), "a revision read as a final report"
    ),
    MetadataMistake(
        "revised",
        {"report_date": "first-sampling-date"},
        ("report_date",),
        "a sampling date taken for the report date",
    ),
    MetadataMistake(
        "draft",
        {"status": "final", "laboratory": "shout"},
        ("status",),
        "a draft read as final; the laboratory in capitals with extra spaces is still right",
    ),
    MetadataMistake(
        "final",
        {"sampling_dates": "add-report-date"},
        ("sampling_dates",),
        "the report date counted as a sampling date",
    ),
    MetadataMistake(
        "final", {"client": "laboratory"}, ("client",), "the laboratory given as the client"
    ),
    MetadataMistake(
        "scanned",
        {"work_order": None, "sampling_dates": "reversed"},
        ("work_order",),
        "the work order not found; sampling dates listed in reverse are still right",
    ),
)


def apply(mistake: MetadataMistake, prediction: dict) -> dict:
    out = dict(prediction)
    for name, how in mistake.change.items():
        if how is None:
            out[name] = None
        elif how == "first-sampling-date":
            out[name] = prediction["sampling_dates"][0]
        elif how == "shout":
            out[name] = "  " + prediction[name].upper().replace(" ", "   ")
        elif how == "add-report-date":
            out[name] = sorted({*prediction[name], prediction["report_date"]})
        elif how == "laboratory":
            out[name] = prediction["laboratory"]
        elif how == "reversed":
            out[name] = list(reversed(prediction[name]))
        else:
            out[name] = how
    return out


def planted(dataset_dir: Path) -> dict[str, MetadataMistake]:
    """Case ID -> the mistake wrong.json makes there."""
    categories = dict(case_ids())
    answers = read_answers(dataset_dir, Answer)
    taken: dict[str, MetadataMistake] = {}
    for mistake in MISTAKES:
        for case_id in answers:
            if case_id in taken or categories.get(case_id) != mistake.category:
                continue
            answer = answers[case_id]
            if (
                mistake.change.get("sampling_dates") == "add-report-date"
                and answer.report_date in answer.sampling_dates
            ):
                continue
            if (
                mistake.change.get("report_date") == "first-sampling-date"
                and answer.sampling_dates[0] == answer.report_date
            ):
                continue
            taken[case_id] = mistake
            break
        else:
            raise EnviroBenchError(f"no case fits the deliberate mistake: {mistake.why}")
    return taken


def write_fixtures(dataset_dir: Path, fixtures_dir: Path) -> dict[str, MetadataMistake]:
    answers = read_answers(dataset_dir, Answer)
    correct = {
        case_id: {name: unstructure(getattr(a, name)) for name in FIELDS}
        for case_id, a in answers.items()
    }
    mistakes = planted(dataset_dir)
    wrong = {
        case_id: apply(mistakes[case_id], p) if case_id in mistakes else p
        for case_id, p in correct.items()
    }
    write_json(Path(fixtures_dir) / "correct.json", correct)
    write_json(Path(fixtures_dir) / "wrong.json", wrong)
    return mistakes
