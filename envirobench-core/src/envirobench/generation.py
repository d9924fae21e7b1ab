"""The generation kit's earlier import path: the generator command and what generators write now
live in envirobench.authoring, and are re-exported here for code that imports them from here."""

from .authoring import (
    DATA_LICENSE,
    FixturePlan,
    GeneratedCase,
    dataset_id_of,
    generate_dataset,
    generator_command,
    generator_module,
    plant_mistakes,
    read_answers,
    read_categories,
    regenerate_in_place,
    write_by_case,
    write_dataset,
)

__all__ = [
    "DATA_LICENSE",
    "FixturePlan",
    "GeneratedCase",
    "dataset_id_of",
    "generate_dataset",
    "generator_command",
    "generator_module",
    "plant_mistakes",
    "read_answers",
    "read_categories",
    "regenerate_in_place",
    "write_by_case",
    "write_dataset",
]
