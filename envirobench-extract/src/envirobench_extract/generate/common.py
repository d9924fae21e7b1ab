"""What the generators and fixture writers of `generate/` share: the dataset files they write
(assets, cases.jsonl, answers.jsonl, manifest.json) and the answer key their fixtures read."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

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

# A case as a generator yields it: (case ID, category, input, answer).
GeneratedCase = tuple[str, str, Any, Any]


def dataset_id_of(datasets: Mapping[str, str], folder: str) -> str:
    """The ID of a type's dataset `folder` (a key of its module's DATASETS), for the manifest."""
    try:
        return datasets[folder]
    except KeyError:
        raise EnviroBenchError(
            f"no dataset folder {folder!r} to generate (there are: {', '.join(datasets)})"
        ) from None


# The public synthetic datasets are CC BY 4.0 (the code that makes them is Apache-2.0).
DATA_LICENSE = "CC-BY-4.0"


def write_dataset(
    output_dir: Path,
    cases: Callable[[Path], Iterable[GeneratedCase]],
    *,
    dataset_id: str,
    version: int,
    benchmark: str,
    title: str,
    description: str,
    generator: Generator,
    input_json: Callable[[Any], Any] = unstructure,
) -> Manifest:
    """Write a whole dataset into `output_dir` (absent or empty) and return its manifest.

    `cases(output_dir)` writes each case's assets under output_dir/assets as it yields the case;
    each case's input (as `input_json` gives it) goes to cases.jsonl, its answer to answers.jsonl.
    """
    output_dir = Path(output_dir)
    if output_dir.exists() and any(output_dir.iterdir()):
        raise EnviroBenchError("refusing to generate into a non-empty directory", file=output_dir)
    (output_dir / "assets").mkdir(parents=True, exist_ok=True)
    with (
        (output_dir / "cases.jsonl").open("w", encoding="utf-8", newline="\n") as cases_file,
        (output_dir / "answers.jsonl").open("w", encoding="utf-8", newline="\n") as answers_file,
    ):
        for case_id, category, case_input, answer in cases(output_dir):
            cases_file.write(
                dumps_line({"id": case_id, "category": category, "input": input_json(case_input)})
            )
            answers_file.write(dumps_line({"id": case_id, "answer": unstructure(answer)}))
    return write_manifest(
        output_dir,
        dataset_id=dataset_id,
        version=version,
        benchmark=benchmark,
        title=title,
        description=description,
        generator=generator,
        license=DATA_LICENSE,
    )


def read_answers(dataset_dir: Path, answer_cls: type) -> dict[str, Any]:
    """A dataset's answer key: {case ID: answer}, structured as `answer_cls`."""
    path = Path(dataset_dir) / "answers.jsonl"
    return {
        record["id"]: structure(
            record["answer"], answer_cls, file=str(path), line=lineno, path="$.answer"
        )
        for lineno, record in iter_jsonl(path)
    }


def write_by_case(path: Path, predictions: dict[str, Any]) -> None:
    """One JSON object, one case per line (canonical JSON: sorted keys, no spaces)."""
    lines = [dumps_line({case: predictions[case]})[1:-2] for case in sorted(predictions)]
    atomic_write_text(path, "{\n" + ",\n".join(lines) + "\n}\n")
