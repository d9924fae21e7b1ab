"""Synthetic documents of the Verify category: results rows with qualifiers and units, laboratory
reports screened against the pinned standards, OCR-read results tables, chain-of-custody forms.

Modules: `qualifiers`, `units`, `screening`, `ocr_tables`, `custody`."""
