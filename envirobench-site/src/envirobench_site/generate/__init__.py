"""Seeded generators of the Site category's datasets.

`generate/<type module>.py` is the generator of each type listed in `envirobench_site.package`:
`generate(output_dir, dataset)` writes the whole dataset in folder `dataset` (a key of the type
module's DATASETS), the site records' volumes included, and `FIXTURES` (a FixturePlan) its
correct.json and wrong.json. The site records themselves come from
`envirobench_synth.site.build_site` (site_records.py builds each site once per process). Run

    python -m envirobench_site.generate TYPE|all [--dataset FOLDER] [--output DIR] [--fixtures DIR]

without --output to regenerate the shipped layout in place (the records once under
`records/<split>/`, each dataset's manifest, cases and answers, the fixtures: see
envirobench_site.shipping).
"""
