"""Seeded generators of the Verify category's synthetic datasets.

`generate/<type module>.py` is the generator of each type listed in `envirobench_verify.package`:
`generate(output_dir, dataset)` writes the dataset in folder `dataset` (a key of the type
module's DATASETS) and FIXTURES, its FixturePlan, its correct.json and wrong.json (deliberate
mistakes placed with FixturePlan.first_fitting). The documents themselves
come from `envirobench_synth.verify`; `report_rows` draws the reports of the two result-row types
(qualifier-flags, unit-normalisation), one stream a report. Run

    python -m envirobench_verify.generate TYPE [--dataset FOLDER] [--output DIR] [--fixtures DIR]

without --output to regenerate the shipped datasets and their fixtures in place.
"""
