"""Seeded generators of the Legal category's synthetic datasets.

`generate/<type module>.py` is the generator of each type listed in `envirobench_legal.package`:
`generate(output_dir, dataset)` writes the dataset in folder `dataset` (a key of the type
module's DATASETS) and FIXTURES, its FixturePlan, its correct.json and wrong.json. Run

    python -m envirobench_legal.generate TYPE [--dataset FOLDER] [--output DIR] [--fixtures DIR]

without --output to regenerate the shipped datasets and their fixtures in place.
"""
