"""Helpers for tests and benchmark scripts: a tiny benchmark type and datasets made to order.

`CountWords` is a real (if trivial) type: count the words of a text. It lets core's own tests
and the performance scripts exercise every stage without any category package installed.
"""

from __future__ import annotations

import io
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from .authoring import write_manifest
from .benchmark import BenchmarkType, Case, CaseScore
from .hookspecs import hookimpl
from .jsonio import dumps_line
from .records import Retirement


@attrs.frozen
class CountInput:
    text: str


@attrs.frozen
class CountAnswer:
    count: int


@attrs.frozen
class CountPrediction:
    count: int


class CountWords(BenchmarkType):
    ID = "count-words"
    FORMAT = "envirobench.count-words.v1"
    LABEL = "Count words (test type)"
    SCORING_VERSION = "envirobench.count-words.scores.v1"
    # Counting words takes ~2 µs a case, reading a score back from metrics.json ~25 µs.
    REUSE_SCORES = False
    TIER = "component"
    PROFILES = ("exact", "near")
    HEADLINE = ("accuracy",)
    VIEWER = "json"
    Input = CountInput
    Answer = CountAnswer
    Prediction = CountPrediction

    def score_case(self, case: Case, answer: CountAnswer, prediction: CountPrediction) -> Mapping[str, CaseScore | None]:
        diff = prediction.count - answer.count
        exact = () if diff == 0 else (("wrong-count", "over" if diff > 0 else "under"),)
        near = () if abs(diff) <= 1 else (("wrong-count", "over" if diff > 0 else "under"),)
        return {
            "exact": CaseScore(exact, {"accuracy": float(not exact)}),
            "near": CaseScore(near, {"accuracy": float(not near)}),
        }


def toy_plugin(*dataset_dirs: tuple[str, Path]) -> types.SimpleNamespace:
    """A plugin object registering CountWords and the given (id, directory) datasets."""

    @hookimpl
    def envirobench_benchmark_types(register):
        register(CountWords)

    @hookimpl
    def envirobench_datasets(register):
        for dataset_id, directory in dataset_dirs:
            register(dataset_id, directory)

    return types.SimpleNamespace(
        envirobench_benchmark_types=envirobench_benchmark_types,
        envirobench_datasets=envirobench_datasets,
    )


def adapters_plugin(**commands: str) -> types.SimpleNamespace:
    """A plugin object registering each NAME=COMMAND as a named adapter."""

    @hookimpl
    def envirobench_adapters(register):
        for name, command in commands.items():
            register(name, command)

    return types.SimpleNamespace(envirobench_adapters=envirobench_adapters)


def write_count_dataset(
    root: Path,
    n: int,
    *,
    dataset_id: str = "test/count-words-v1",
    version: int = 1,
    answer_overrides: Mapping[str, int] | None = None,
    text_overrides: Mapping[str, str] | None = None,
    retired: Mapping[str, str] | None = None,
    categories: tuple[str, ...] = ("short", "long"),
) -> Path:
    """Write a count-words dataset of `n` cases (ids c000000...) and its manifest."""
    root.mkdir(parents=True, exist_ok=True)
    answer_overrides = answer_overrides or {}
    text_overrides = text_overrides or {}
    with (root / "cases.jsonl").open("w", encoding="utf-8") as cases, (root / "answers.jsonl").open("w", encoding="utf-8") as answers:
        for i in range(n):
            case_id = f"c{i:06d}"
            text = text_overrides.get(case_id, " ".join(["word"] * (1 + i % 7)))
            cases.write(dumps_line({"id": case_id, "category": categories[i % len(categories)], "input": {"text": text}}))
            count = answer_overrides.get(case_id, len(text.split()))
            answers.write(dumps_line({"id": case_id, "answer": {"count": count}}))
    write_manifest(
        root,
        dataset_id=dataset_id,
        version=version,
        benchmark=CountWords.ID,
        title="Count words (generated for tests)",
        retired=tuple(Retirement(k, v) for k, v in (retired or {}).items()),
    )
    return root


def count_predictions(case_texts: Mapping[str, str], *, off_by: Mapping[str, int] | None = None) -> dict[str, Any]:
    off_by = off_by or {}
    return {cid: {"count": len(text.split()) + off_by.get(cid, 0)} for cid, text in case_texts.items()}


class Interrupted(Exception):
    """Raised by InterruptedReader mid-upload, as a dropped connection or Ctrl-C would."""


class InterruptedReader(io.BytesIO):
    """A file object that delivers `after` bytes and then fails: for testing that an upload cut
    short leaves no visible object in a store."""

    def __init__(self, data: bytes, after: int) -> None:
        super().__init__(data)
        self.after = after
        self.delivered = 0

    def read(self, size: int | None = -1) -> bytes:
        if self.delivered >= self.after:
            raise Interrupted(f"interrupted after {self.delivered} bytes")
        want = self.after - self.delivered
        chunk = super().read(want if size is None or size < 0 else min(size, want))
        self.delivered += len(chunk)
        return chunk
