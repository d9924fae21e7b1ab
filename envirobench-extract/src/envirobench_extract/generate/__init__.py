"""Seeded generators of the Extract category's synthetic datasets.

Run `python -m envirobench_extract.generate NAME [--output DIR]`; NAME is one of GENERATORS.
"""

GENERATORS = ("table-separators",)
