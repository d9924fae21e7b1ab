"""The seeded generator of the `custody-reconciliation` datasets (dev and test), and their fixtures.

Each case is one pair (envirobench_synth.verify.custody): a laboratory report of an Extract v2
family, printed as a text-layer PDF (sample summary, analysis summary with dates and times
analysed, results), and the chain-of-custody form for it as a page image, typed or hand-filled
and scanned, with zero to three kinds of discrepancy planted; the answer is derived from the two
documents by the rules of the type. The dev split holds the dev families, form wordings and date
styles, the test split the test ones. The case category is the family.

Pair p of family f draws from make_random(SEED, split, f, p); regenerating reproduces every file
byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from envirobench import FixturePlan, GeneratedCase, Manifest, dataset_writer, split_of
from envirobench_synth.labreport.families import families_of
from envirobench_synth.rng import make_random
from envirobench_synth.verify.custody import render_form, render_report, sample_pair

from ..custody_reconciliation import Answer, CustodyReconciliation, Discrepancy, Input

SEED = 20261217
VERSION = 1
PAIRS_PER_FAMILY = {"dev": 10, "test": 66}


def generate(
    output_dir: Path, dataset: str = "synthetic-dev-v1", limit: int | None = None
) -> Manifest:
    """Write dataset `dataset` (a key of DATASETS) into `output_dir` and return its manifest."""
    write = dataset_writer(CustodyReconciliation, dataset, seed=SEED, version=VERSION)
    split = split_of(dataset)

    def rendered(root: Path) -> Iterator[GeneratedCase]:
        number = 0
        (root / "assets").mkdir(parents=True, exist_ok=True)
        for family in families_of(split):  # type: ignore[arg-type]
            for p in range(PAIRS_PER_FAMILY[split]):
                if limit is not None and number >= limit:
                    return
                number += 1
                case_id = f"cr-{split}-{number:04d}"
                pair = sample_pair(make_random(SEED, split, family.name, p), family, split)
                form = render_form(pair, SEED, split, family.name, p)
                (root / f"assets/{case_id}-form.{form.extension}").write_bytes(form.data)
                (root / f"assets/{case_id}-report.pdf").write_bytes(render_report(pair))
                answer = Answer(
                    discrepancies=tuple(
                        Discrepancy(d.kind, d.sample, d.analysis) for d in pair.discrepancies()
                    ),  # type: ignore[arg-type]
                    family=family.name,
                    hand=pair.hand,
                    planted=pair.planted,
                )
                case_input = Input(
                    form=f"assets/{case_id}-form.{form.extension}",
                    report=f"assets/{case_id}-report.pdf",
                )
                yield case_id, family.name, case_input, answer

    families = ", ".join(f.name for f in families_of(split))  # type: ignore[arg-type]
    return write(
        output_dir,
        rendered,
        title=f"Custody reconciliation, synthetic {split} v1",
        description=(
            f"Chain-of-custody forms (page images, typed or hand-filled and scanned) paired with their laboratory "
            f"reports (text-layer PDFs) of the {split} report families ({families}), zero to three kinds of "
            "discrepancy planted per pair. The answer lists every discrepancy by kind, sample and analysis: samples "
            "missing, extra or spelled otherwise, collection date/time mismatches, receipt temperature outside "
            "(0, 6] degrees C, holding times exceeded (a pinned table per analysis), analyses requested but not "
            "reported or reported but not requested."
        ),
    )


# -- fixtures -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CustodyMistake:
    """A deliberate mistake in wrong.json, on the first pair no other mistake took that fits."""

    change: str  # "drop-first", "add-temperature", "missing-and-extra", "empty"
    why: str


MISTAKES = (
    CustodyMistake("drop-first", "the first discrepancy left out"),
    CustodyMistake(
        "add-temperature", "a temperature discrepancy claimed where the temperature is acceptable"
    ),
    CustodyMistake(
        "missing-and-extra", "a misspelled ID reported as a missing and an extra sample"
    ),
    CustodyMistake("empty", "no discrepancy reported"),
)


def _listed(discrepancies: tuple[Discrepancy, ...]) -> list[dict]:
    return [{"kind": d.kind, "sample": d.sample, "analysis": d.analysis} for d in discrepancies]


def wrong_prediction(answer: Answer, mistake: CustodyMistake) -> dict:
    found = list(answer.discrepancies)
    if mistake.change == "drop-first":
        found = found[1:]
    elif mistake.change == "add-temperature":
        found.append(Discrepancy("temperature"))
    elif mistake.change == "missing-and-extra":
        spelled = next(d for d in found if d.kind == "id-mismatch")
        found.remove(spelled)
        found += [
            Discrepancy("sample-missing", spelled.sample),
            Discrepancy("sample-extra", spelled.sample.replace("-", "")),
        ]
    else:
        found = []
    return {"discrepancies": _listed(tuple(found))}


def fits(mistake: CustodyMistake, answer: Answer) -> bool:
    kinds = [d.kind for d in answer.discrepancies]
    if mistake.change == "add-temperature":
        return "temperature" not in kinds
    if mistake.change == "missing-and-extra":
        return "id-mismatch" in kinds
    return bool(kinds)


# Each mistake on the first pair (in the dataset's order) that fits it.
planted = FixturePlan.first_fitting(MISTAKES, fits, answer=Answer, unit="pair")


FIXTURES = FixturePlan(
    Answer,
    correct=lambda answer: {"discrepancies": _listed(answer.discrepancies)},
    planted=planted,
    wrong=lambda mistake, answer, prediction: wrong_prediction(answer, mistake),
)
