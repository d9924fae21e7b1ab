"""Synthetic site-file documents for the Locate category: what a large site file holds, seeded,
with dev and test families (templates and wordings the dev split never shows).

Modules (each documents its own public functions): `documents` (the kinds of document a site
file holds, each rendered as a text-layer or scanned PDF with its kind as the truth) and
`passages` (questions about a site with candidate passages from its records, graded 0-3, with
the essential ones marked). Other modules of this package serve the document-split and
page-locate generators. Nothing here imports a category package: the category generators import
this package.
"""
