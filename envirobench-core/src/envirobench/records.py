"""Records of the dataset format, as frozen attrs classes.

They are the single source of truth: the strict converter reads them, and the JSON Schemas in
docs/schemas are generated from them.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

DATASET_FORMAT = "envirobench.dataset.v1"

Visibility = Literal["public", "private"]
FileRole = Literal["cases", "answers", "source"]


@attrs.frozen
class FileEntry:
    """One file of a dataset, pinned by size and SHA-256 (hex digest)."""

    path: str
    size: int
    sha256: str
    role: FileRole


@attrs.frozen
class Retirement:
    """A case withdrawn by a revision; it is neither sent to adapters nor scored."""

    case: str
    reason: str


@attrs.frozen
class Generator:
    """The seeded code that wrote a synthetic dataset, so anyone can regenerate it."""

    name: str
    seed: int


@attrs.frozen
class Manifest:
    """`manifest.json`: what a dataset is and every file it holds."""

    format: Literal["envirobench.dataset.v1"]
    id: str
    version: int
    benchmark: str
    title: str
    visibility: Visibility
    files: tuple[FileEntry, ...]
    input_digest: str
    answer_digest: str
    description: str = ""
    generator: Generator | None = None
    retired: tuple[Retirement, ...] = ()
    # The licence of the data, an SPDX identifier ("CC-BY-4.0" for EnviroBench's public
    # datasets); empty when unstated, as a private dataset's may be. Part of the identity.
    license: str = ""


@attrs.frozen
class CaseRecord:
    """One line of `cases.jsonl`. `input` is checked against the benchmark type's Input class."""

    id: str
    category: str
    input: dict[str, Any]


@attrs.frozen
class AnswerRecord:
    """One line of `answers.jsonl`. `answer` is checked against the type's Answer class."""

    id: str
    answer: dict[str, Any]


@attrs.frozen
class DatasetIdentity:
    """What every run records about its dataset: ID, revision and content digest."""

    id: str
    version: int
    digest: str
    input_digest: str
    answer_digest: str


SEALED_FORMAT = "envirobench.sealed.v1"


@attrs.frozen
class SealedNote:
    """`sealed.json`: the dataset is sealed, its answer key held by a scoring service (`service`,
    its URL when known), so a run on it is unscored until submitted there (docs/holdout.md)."""

    format: Literal["envirobench.sealed.v1"]
    service: str = ""
