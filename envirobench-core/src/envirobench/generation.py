"""The generator command of a package's synthetic datasets, built from its list of types.

A package's `generate/__main__.py` is two lines:

    from envirobench import generator_command
    from ..package import PACKAGE

    generator_command(PACKAGE)(prog_name=...)

and `python -m PACKAGE.generate TYPE [--dataset FOLDER] [--output DIR] [--fixtures DIR]` then
(re)generates any dataset of any of its types with the generator module the package layout names
(`generate/<type module>.py`: `generate(output_dir, folder)` and `write_fixtures(dataset_dir,
fixtures_dir)`; see envirobench.package).

Without --output the shipped dataset is regenerated in place, with its fixtures: the new files are
written beside it and swapped in, so an interrupted run leaves the old dataset whole. Any other
output directory must be absent or empty.

Below the command, what every category's generators write alike: the dataset files
(`write_dataset`: assets, cases.jsonl, answers.jsonl, manifest.json), the answer key their fixture
writers read (`read_answers`) and the fixtures' layout (`write_by_case`).
"""

from __future__ import annotations

import importlib
import shutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, TypeVar

import click

from .converter import structure, unstructure
from .datasets import write_manifest
from .errors import EnviroBenchError
from .jsonio import atomic_write_text, dumps_line, iter_jsonl
from .package import FIXTURE_FILES, BenchmarkPackage, TypeLayout
from .records import Generator, Manifest


def generator_module(layout: TypeLayout) -> ModuleType:
    """The type's generator module, checked to provide generate and write_fixtures."""
    try:
        module = importlib.import_module(layout.generator_module)
    except ModuleNotFoundError as exc:
        top = layout.module.partition(".")[0]
        if exc.name and not exc.name.startswith(top):
            # A category installed without its generators' dependencies (they are an extra).
            dist = (metadata.packages_distributions().get(top) or [top])[0]
            raise EnviroBenchError(
                f"{layout.generator_module} needs {exc.name!r}, which is not installed: generating datasets needs "
                f"the `generate` extra: pip install '{dist}[generate]'"
            ) from None
        raise
    for name in ("generate", "write_fixtures"):
        if not callable(getattr(module, name, None)):
            raise EnviroBenchError(f"{layout.generator_module} has no function {name}(); see envirobench.package for the convention")
    return module


def generate_dataset(layout: TypeLayout, folder: str, output: Path, fixtures: Path | None = None) -> None:
    """Write dataset `folder` of the type into `output` (absent or empty), and its fixtures."""
    module = generator_module(layout)
    if output.exists() and any(output.iterdir()):
        raise EnviroBenchError(f"{output} is not empty; generate into a new or empty directory")
    module.generate(output, folder)
    if fixtures is not None:
        module.write_fixtures(output, fixtures)


def regenerate_in_place(layout: TypeLayout, folder: str) -> Path:
    """Regenerate a shipped dataset and its fixtures where they are; returns the dataset directory."""
    module = generator_module(layout)
    directory = layout.dataset_dir(folder)
    _swap_in(directory, lambda fresh: module.generate(fresh, folder))
    module.write_fixtures(directory, layout.fixtures_dir(folder))
    return directory


def _swap_in(directory: Path, write: Callable[[Path], object]) -> None:
    fresh = directory.with_name(f".{directory.name}.new")
    stale = directory.with_name(f".{directory.name}.old")
    for leftover in (fresh, stale):  # from an earlier interrupted run
        shutil.rmtree(leftover, ignore_errors=True)
    try:
        write(fresh)
        if directory.exists():
            directory.rename(stale)
        fresh.rename(directory)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
        shutil.rmtree(stale, ignore_errors=True)


def generator_command(package: BenchmarkPackage) -> click.Command:
    """`python -m PACKAGE.generate TYPE ...` for every type of `package`."""

    @click.command(context_settings={"help_option_names": ["-h", "--help"]}, help=f"Generate the synthetic datasets of {package.name}.")
    @click.argument("type_id", metavar="TYPE", type=click.Choice(sorted(package.layouts)))
    @click.option("--dataset", "folder", metavar="FOLDER", help="One dataset of the type (its folder under datasets/) [default: every one].")
    @click.option("--output", type=click.Path(file_okay=False, path_type=Path), help="Write the dataset here instead of regenerating the shipped one (needs --dataset when the type has several).")
    @click.option("--fixtures", type=click.Path(file_okay=False, path_type=Path), help=f"With --output: also write {' and '.join(FIXTURE_FILES)} here.")
    def main(type_id: str, folder: str | None, output: Path | None, fixtures: Path | None) -> None:
        layout = package.layout(type_id)
        try:
            if output is None:
                if fixtures is not None:
                    raise click.UsageError("--fixtures goes with --output; in place, the shipped fixtures are regenerated")
                for name in [layout.folder(folder)] if folder else list(layout.datasets):
                    directory = regenerate_in_place(layout, name)
                    click.echo(f"regenerated {directory} and {layout.fixtures_dir(name)}", err=True)
                return
            name = layout.folder(folder)
            generate_dataset(layout, name, output, fixtures)
            click.echo(f"wrote {layout.dataset_id(name)} to {output}" + (f" and its fixtures to {fixtures}" if fixtures else ""), err=True)
        except EnviroBenchError as exc:
            raise click.ClickException(str(exc)) from None

    return main


# -- what generators write ---------------------------------------------------------------------

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
    visibility: str = "public",
    license: str = DATA_LICENSE,
) -> Manifest:
    """Write a whole dataset into `output_dir` (absent or empty) and return its manifest.

    `cases(output_dir)` writes each case's assets under output_dir/assets as it yields the case
    (the folder is removed again when none are written); each case's input (as `input_json` gives
    it) goes to cases.jsonl, its answer to answers.jsonl. A private plugin's datasets are
    `visibility="private"`, with its own licence (or "" for none)."""
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
    if not any((output_dir / "assets").iterdir()):
        (output_dir / "assets").rmdir()
    return write_manifest(
        output_dir,
        dataset_id=dataset_id,
        version=version,
        benchmark=benchmark,
        title=title,
        description=description,
        generator=generator,
        license=license,
        visibility=visibility,
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


# -- the deliberate mistakes of wrong.json ------------------------------------------------------


class Mistake(Protocol):
    why: str  # what the deliberate mistake is, for the message when no case fits it


M = TypeVar("M", bound=Mistake)


def read_categories(dataset_dir: Path) -> dict[str, str]:
    """Case ID -> its category, in the dataset's order."""
    return {record["id"]: record["category"] for _, record in iter_jsonl(Path(dataset_dir) / "cases.jsonl")}


def plant_mistakes(mistakes: Sequence[M], case_ids: Iterable[str], fits: Callable[[M, str], bool], unit: str = "case") -> dict[str, M]:
    """Case ID -> the deliberate mistake a wrong.json fixture makes there: each mistake on the first
    case (in `case_ids` order) that `fits` it and no other mistake took. EnviroBenchError when none
    fits, so a regenerated dataset that lost the case a mistake needs fails loudly."""
    ids = list(case_ids)
    taken: dict[str, M] = {}
    for mistake in mistakes:
        case_id = next((c for c in ids if c not in taken and fits(mistake, c)), None)
        if case_id is None:
            raise EnviroBenchError(f"no {unit} fits the deliberate mistake: {mistake.why}")
        taken[case_id] = mistake
    return taken
