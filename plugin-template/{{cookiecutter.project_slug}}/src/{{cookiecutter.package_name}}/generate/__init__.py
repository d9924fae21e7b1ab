"""Seeded generators of this plugin's synthetic datasets, one module per type (`generate/well_ids.py`).

Run `python -m {{ cookiecutter.package_name }}.generate {{ cookiecutter.type_id }}` to regenerate
the shipped dataset and its fixtures.
"""
