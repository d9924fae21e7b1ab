"""The seeded generator of the `instrument-execution` datasets (dev and test), and their fixtures.

Each split holds instruments of every execution scenario (envirobench_synth.legal.instruments:
recorded, recorded conformed copies, unrecorded, drafts, unsigned execution versions, bracketed
blanks, blank notary blocks, covenants missing a signature, conformed copies without recording
data, copies missing their signature pages) in the proportions of SCENARIO_SHARES, in document
families of its own: the dev split uses the dev law-firm templates and county recorder styles,
the test split only the others (envirobench_synth.legal.families.SPLITS). Every fourth
instrument is a scanned copy. The case category is the scenario.

Each instrument draws from its own stream, make_random(SEED, split, case_id); regenerating
reproduces every file byte for byte.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from envirobench import (
    EnviroBenchError,
    Generator,
    Manifest,
    atomic_write_text,
    dumps_line,
    iter_jsonl,
    structure,
    unstructure,
    write_manifest,
)
from envirobench_synth.legal import SPLITS, recorder, render_instrument, sample_instrument, template
from envirobench_synth.rng import make_random

from ..instrument_execution import DATASETS, Answer, Input, InstrumentExecution

SEED = 20261130
VERSION = 1
DATA_LICENSE = "CC-BY-4.0"  # the public synthetic datasets; the code that makes them is Apache-2.0
# Instruments per scenario in every 100: executed ones (recorded or not) are a little over half,
# so that "everything executed and recorded" scores 0 by the published formula.
SCENARIO_SHARES = {
    "recorded": 28,
    "recorded-conformed": 6,
    "unrecorded": 20,
    "draft-marker": 8,
    "execution-version-unsigned": 7,
    "bracketed-blanks": 7,
    "blank-notary": 7,
    "covenant-missing-signature": 5,
    "conformed-unrecorded": 7,
    "missing-signature-pages": 5,
}
SPLIT_OF = {"synthetic-dev-v1": "dev", "synthetic-test-v1": "test"}
SIZES = {"dev": 100, "test": 200}
SCANNED_EVERY = 4  # every fourth instrument is a scanned copy


@dataclass(frozen=True)
class PlannedCase:
    case_id: str
    scenario: str
    template: str
    recorder: str
    scanned: bool


def plan(folder: str) -> list[PlannedCase]:
    """The cases of dataset `folder`, in order: scenarios shuffled, families and scans in turn."""
    split = SPLIT_OF[folder]
    size = SIZES[split]
    scenarios = [name for name, share in SCENARIO_SHARES.items() for _ in range(share * size // 100)]
    make_random(SEED, split, "order").shuffle(scenarios)
    templates, recorders = SPLITS[split]
    out = []
    for index, scenario in enumerate(scenarios):
        out.append(
            PlannedCase(
                case_id=f"ie-{split}-{index + 1:04d}",
                scenario=scenario,
                template=templates[index % len(templates)],
                recorder=recorders[(index // len(templates)) % len(recorders)],
                scanned=index % SCANNED_EVERY == SCANNED_EVERY - 1,
            )
        )
    return out


def render_case(folder: str, planned: PlannedCase):
    split = SPLIT_OF[folder]
    rng = make_random(SEED, split, planned.case_id)
    instrument = sample_instrument(rng, planned.scenario, template(planned.template), recorder(planned.recorder))
    rendered = render_instrument(instrument, SEED, split, planned.case_id, scanned=planned.scanned)
    answer = Answer(
        status=rendered.status, evidence_pages=rendered.evidence_pages, kind=instrument.kind, scanned=planned.scanned
    )
    return rendered, answer


def describe(folder: str, cases: list[PlannedCase]) -> str:
    split = SPLIT_OF[folder]
    templates, recorders = SPLITS[split]
    counts = Counter(case.scenario for case in cases)
    scanned = sum(case.scanned for case in cases)
    traps = ", ".join(f"{name} {counts[name]}" for name in SCENARIO_SHARES)
    return (
        f"{len(cases)} synthetic recorded instruments (deeds, releases, easements, environmental covenants), the "
        f"{split} split: law-firm templates {', '.join(templates)}; recorder styles {', '.join(recorders)}. "
        f"Scenarios (traps): {traps}. Scanned copies: {scanned}. The answer is the execution status and the "
        "pages that show it."
    )


def generate(output_dir: Path, dataset: str = "synthetic-dev-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and return its manifest."""
    if dataset not in DATASETS:
        raise EnviroBenchError(f"no dataset folder {dataset!r} to generate (there are: {', '.join(DATASETS)})")
    output_dir = Path(output_dir)
    if output_dir.exists() and any(output_dir.iterdir()):
        raise EnviroBenchError("refusing to generate into a non-empty directory", file=output_dir)
    (output_dir / "assets").mkdir(parents=True, exist_ok=True)
    cases = plan(dataset)
    with (
        (output_dir / "cases.jsonl").open("w", encoding="utf-8", newline="\n") as cases_file,
        (output_dir / "answers.jsonl").open("w", encoding="utf-8", newline="\n") as answers_file,
    ):
        for planned, rendered, answer in _rendered(dataset, cases):
            path = f"assets/{planned.case_id}.pdf"
            (output_dir / path).write_bytes(rendered.pdf)
            case = {"id": planned.case_id, "category": planned.scenario, "input": unstructure(Input(document=path))}
            cases_file.write(dumps_line(case))
            answers_file.write(dumps_line({"id": planned.case_id, "answer": unstructure(answer)}))
    split = SPLIT_OF[dataset]
    return write_manifest(
        output_dir,
        dataset_id=DATASETS[dataset],
        version=VERSION,
        benchmark=InstrumentExecution.ID,
        title=f"Instrument execution, synthetic {split} v1",
        description=describe(dataset, cases),
        generator=Generator(name=__name__, seed=SEED),
        license=DATA_LICENSE,
    )


def _rendered(folder: str, cases: list[PlannedCase]) -> Iterator:
    for planned in cases:
        rendered, answer = render_case(folder, planned)
        yield planned, rendered, answer


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExecutionMistake:
    """A deliberate mistake in wrong.json, on the first case of `scenario` no other mistake took."""

    scenario: str
    status: str | None  # the status predicted instead (None: keep the right one)
    evidence_page: str  # "right", "none" or "past-end" (a page after the last)
    why: str


MISTAKES: tuple[ExecutionMistake, ...] = (
    ExecutionMistake("draft-marker", "executed-unrecorded", "right", "a draft called executed (a false executed)"),
    ExecutionMistake("blank-notary", "executed-recorded", "right", "a blank notary block missed (a false executed)"),
    ExecutionMistake("conformed-unrecorded", "executed-unrecorded", "right", "a conformed copy taken for a signed one"),
    ExecutionMistake("recorded", "executed-unrecorded", "right", "the recording stamp missed"),
    ExecutionMistake("unrecorded", "cannot-tell", "none", "an abstention on a signed copy, without evidence"),
    ExecutionMistake("missing-signature-pages", None, "past-end", "the right status on a page the copy lacks"),
)


def read_answers(dataset_dir: Path) -> dict[str, Answer]:
    path = Path(dataset_dir) / "answers.jsonl"
    return {
        record["id"]: structure(record["answer"], Answer, file=str(path), line=lineno, path="$.answer")
        for lineno, record in iter_jsonl(path)
    }


def read_categories(dataset_dir: Path) -> dict[str, str]:
    return {record["id"]: record["category"] for _, record in iter_jsonl(Path(dataset_dir) / "cases.jsonl")}


def planted(dataset_dir: Path) -> dict[str, ExecutionMistake]:
    """Case ID -> the mistake wrong.json makes there."""
    categories = read_categories(dataset_dir)
    taken: dict[str, ExecutionMistake] = {}
    for mistake in MISTAKES:
        case_id = next((c for c, s in categories.items() if s == mistake.scenario and c not in taken), None)
        if case_id is None:
            raise EnviroBenchError(f"no case fits the deliberate mistake: {mistake.why}")
        taken[case_id] = mistake
    return taken


def write_fixtures(dataset_dir: Path, fixtures_dir: Path) -> dict[str, ExecutionMistake]:
    answers = read_answers(dataset_dir)
    correct = {case_id: {"status": a.status, "evidence_page": a.evidence_pages[0]} for case_id, a in answers.items()}
    mistakes = planted(dataset_dir)
    wrong = {}
    for case_id, prediction in correct.items():
        mistake = mistakes.get(case_id)
        if mistake is not None:
            prediction = dict(prediction)
            if mistake.status is not None:
                prediction["status"] = mistake.status
            if mistake.evidence_page == "none":
                prediction["evidence_page"] = None
            elif mistake.evidence_page == "past-end":
                prediction["evidence_page"] = max(answers[case_id].evidence_pages) + 1
        wrong[case_id] = prediction
    fixtures_dir = Path(fixtures_dir)
    fixtures_dir.mkdir(parents=True, exist_ok=True)
    _write_by_case(fixtures_dir / "correct.json", correct)
    _write_by_case(fixtures_dir / "wrong.json", wrong)
    return mistakes


def _write_by_case(path: Path, predictions: dict) -> None:
    """One JSON object, one case per line (canonical JSON: sorted keys, no spaces)."""
    lines = [dumps_line({case: predictions[case]})[1:-2] for case in sorted(predictions)]
    atomic_write_text(path, "{\n" + ",\n".join(lines) + "\n}\n")
