"""Synthetic environmental documents for EnviroBench dataset generators.

Everything here is deterministic: the same seed gives the same bytes on every machine (with the
versions pinned by uv.lock). Modules: `rng` (seeded streams), `fonts` (bundled fonts), `tables`
(tables with exact geometry), `degrade` (scan degradation that keeps geometry right), `catalogue`
(analytes, methods, units, qualifiers, laboratories, samples), `png` (deterministic PNGs) and
`labreport` (whole laboratory-report PDFs with their ground truth).
"""
