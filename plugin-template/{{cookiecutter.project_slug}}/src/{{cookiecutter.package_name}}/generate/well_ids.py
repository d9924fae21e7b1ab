"""The seeded generator of this type's datasets (DATASETS in well_ids.py: `{{ cookiecutter.dataset_id }}`,
folder `synthetic-v1`, and any you add) and their prediction fixtures.

Each case is a short text of a groundwater monitoring programme that names one to four
monitoring wells, written the ways field staff write them, among things that are not monitoring
wells (soil borings, piezometers, recovery wells, sample IDs, methods). The answer is the set of
wells in canonical form. Categories: `field-note`, `sampling-summary`, `email`.

Every case draws from its own stream, random.Random(f"{SEED}:{folder}:{case_id}"), seeded by the
dataset's folder too: a second dataset (a held-out test split beside the dev set, say) holds other
texts under the same case IDs, never a copy of the first. Cases are independent of each other and
regenerating writes every file byte for byte again (tests/test_generator.py).

To add a dataset: add its folder and ID to DATASETS in well_ids.py, run
`python -m {{ cookiecutter.package_name }}.generate {{ cookiecutter.type_id }} --dataset FOLDER` once the
folder exists (an empty `benchmarks/{{ cookiecutter.type_id }}/datasets/FOLDER/`), and the tests,
parametrised over DATASETS, cover it.

The fixtures, written from the dataset's answers: `correct.json` predicts every answer;
`wrong.json` is the same except for DELIBERATE_ERRORS, each giving known errors (the conformance
suite needs errors in every profile).

What core's generator command uses (see package.py): `generate(output_dir, dataset)` and
FIXTURES, the FixturePlan that writes the fixtures.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from envirobench import FixturePlan, GeneratedCase, Manifest, dataset_writer, plant_mistakes

from ..well_ids import Answer, WellIds, canonical, well_sort_key

SEED = 20250301
VERSION = 1
CASES_PER_CATEGORY = 8
CATEGORIES = ("field-note", "sampling-summary", "email")
GENERATOR_NAME = "{{ cookiecutter.package_name }}.generate"

TITLE = "Monitoring well IDs"  # the manifest's title is "Monitoring well IDs, FOLDER"
DESCRIPTION = (
    f"{CASES_PER_CATEGORY * len(CATEGORIES)} short texts of a groundwater monitoring programme "
    f"({CASES_PER_CATEGORY} per category: {', '.join(CATEGORIES)}). The answer is the set of monitoring "
    "wells each text names, in canonical form."
)

SITES = ("Former Riverside Dry Cleaner", "Harbor Road Fuel Terminal", "Eastgate Landfill", "Millbrook Plating Works")
LABS = ("Pace Analytical", "Eurofins Lancaster", "ALS Environmental", "SGS North America")
METHODS = ("EPA Method 8260D", "EPA Method 8270E", "SW-846 6020B", "EPA 524.2")
PEOPLE = ("Dana", "Luis", "Priya", "Tomasz", "Grace", "Ahmed")
WEATHER = ("overcast", "light rain", "clear", "windy")
SUFFIXES = ("", "", "", "", "R", "D", "S")
# Surface forms of a well and whether the template's `improved` rules read them (documentation).
FORMS = ("MW-{n}{s}", "MW-{n:02d}{s}", "MW {n}{s}", "MW{n}{s}", "monitoring well {n}{s}")
FORM_WEIGHTS = (5, 2, 2, 1, 2)


def _mention(rng: random.Random, number: int, suffix: str) -> str:
    form = rng.choices(FORMS, weights=FORM_WEIGHTS)[0]
    return form.format(n=number, s=suffix)


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _distractor(rng: random.Random, date: tuple[int, int]) -> str:
    k = rng.randint(1, 9)
    month, day = date
    return rng.choice((
        f"Soil boring SB-{k} was backfilled with bentonite chips.",
        f"Piezometer PZ-{k} was dry.",
        f"Recovery well RW-{k} was pumping at {rng.randint(2, 9)} gpm.",
        f"Sample IDs GW-{month:02d}{day:02d}-01 through GW-{month:02d}{day:02d}-0{rng.randint(2, 6)} were used.",
        f"Duplicate DUP-{k} was collected for QA.",
    ))


def make_case(case_id: str, category: str, dataset: str = "synthetic-v1") -> tuple[str, list[str]]:
    """(text, canonical wells) of one case of dataset folder `dataset`."""
    rng = random.Random(f"{SEED}:{dataset}:{case_id}")
    count = rng.randint(1, 4)
    numbers = sorted(rng.sample(range(1, 41), count))
    wells = [(n, rng.choice(SUFFIXES)) for n in numbers]
    date = (rng.randint(1, 12), rng.randint(1, 28))
    month, day = date
    if category == "sampling-summary" and count >= 3 and rng.random() < 0.5:
        # Shorthand: "MW-3, -5 and -9" names three wells; only the first carries "MW".
        first, *rest = wells
        mentions = [f"MW-{first[0]}{first[1]}"] + [f"-{n}{s}" for n, s in rest]
    else:
        order = wells[:]
        rng.shuffle(order)
        mentions = [_mention(rng, n, s) for n, s in order]
    listed = _join(mentions)
    distractor = _distractor(rng, date)
    if category == "field-note":
        text = (
            f"2024-{month:02d}-{day:02d}. Gauged {listed} before purging. {distractor} "
            f"Weather {rng.choice(WEATHER)}, {rng.randint(38, 86)} F."
        )
    elif category == "sampling-summary":
        text = (
            f"Sampling summary, {rng.choice(SITES)}, 2024-{month:02d}-{day:02d}: groundwater samples were "
            f"collected from {listed}. {distractor} Samples were shipped to {rng.choice(LABS)} "
            f"for {rng.choice(METHODS)}."
        )
    else:
        sender, recipient = rng.sample(PEOPLE, 2)
        text = (
            f"Hi {recipient},\nThe driller will redevelop {listed} next week. {distractor} "
            f"Let me know if access through the north gate is a problem.\nThanks,\n{sender}"
        )
    return text, sorted({canonical(n, s) for n, s in wells}, key=well_sort_key)


def case_ids() -> list[tuple[str, str]]:
    out = []
    for c, category in enumerate(CATEGORIES):
        for i in range(CASES_PER_CATEGORY):
            out.append((f"wi-{c * CASES_PER_CATEGORY + i + 1:04d}", category))
    return out


def generate(output_dir: Path, dataset: str = "synthetic-v1") -> Manifest:
    """Write dataset `dataset` (its folder, a key of DATASETS) into `output_dir` (absent or
    empty) and pin it (core's write_dataset: cases.jsonl, answers.jsonl, manifest.json)."""
    # The dataset ID (DATASETS in well_ids.py), the type's ID and the generator, filled in.
    write = dataset_writer(WellIds, dataset, seed=SEED, version=VERSION, generator=GENERATOR_NAME)

    def cases(root: Path) -> Iterator[GeneratedCase]:
        for case_id, category in case_ids():
            text, wells = make_case(case_id, category, dataset)
            yield case_id, category, {"text": text}, {"wells": wells}

    return write(
        output_dir,
        cases,
        title=f"{TITLE}, {dataset}",
        description=DESCRIPTION,
        visibility="private",
        license="",  # an organisation's own data: state its licence here if it has one
    )


# -- fixtures -----------------------------------------------------------------------------------

class Mistake(NamedTuple):
    case: str  # the case it is made on
    change: str  # what it does to the right answer
    why: str  # what it is, for the message when the case is gone from a regenerated dataset


# "drop" leaves out the last well (missed in every profile), "add-boring" adds a soil boring
# (spurious in every profile), "spaced" writes the first well as "MW 7" instead of "MW-7" (an
# error in `exact` only): the conformance suite needs errors in every profile.
DELIBERATE_ERRORS = (
    Mistake("wi-0001", "drop", "the last well left out"),
    Mistake("wi-0010", "add-boring", "a soil boring called a monitoring well"),
    Mistake("wi-0019", "spaced", "the first well written with a space"),
)


def planted(dataset_dir: Path, answers: dict[str, Answer]) -> dict[str, Mistake]:
    return plant_mistakes(DELIBERATE_ERRORS, answers, lambda mistake, case_id: case_id == mistake.case)


def wrong_prediction(mistake: Mistake, answer: Answer, prediction: dict) -> dict:
    wells = list(answer.wells)
    if mistake.change == "drop":
        wells = wells[:-1]
    elif mistake.change == "add-boring":
        wells = wells + ["SB-4"]
    else:
        wells = [wells[0].replace("MW-", "MW ", 1)] + wells[1:]
    return {"wells": wells}


# correct.json predicts every answer; wrong.json makes the deliberate errors.
FIXTURES = FixturePlan(Answer, correct=lambda answer: {"wells": list(answer.wells)}, planted=planted, wrong=wrong_prediction)
