"""Seeded generators of the Extract category's synthetic datasets.

`generate/<type module>.py` is the generator of each type listed in `envirobench_extract.package`:
`generate(output_dir, dataset)` writes the dataset in folder `dataset` (a key of the type
module's DATASETS) and FIXTURES, its FixturePlan, its correct.json and wrong.json. The other
modules here are what they share. Run

    python -m envirobench_extract.generate TYPE [--dataset FOLDER] [--output DIR] [--fixtures DIR]

with TYPE a type ID (`table-separators`, ...); without --output it regenerates the shipped dataset
and its fixtures in place.
"""
