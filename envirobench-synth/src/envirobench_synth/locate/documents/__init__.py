"""The kinds of document a site file holds, each rendered as a short PDF whose kind is the truth.

    rng = make_random(SEED, "test", "dt-test-0007")
    document = sample_document(rng, "invoice", "test", family("quarry-fenn"))
    pdf = render_document(document, scanned=False, seed=SEED, labels=("test", "dt-test-0007"))

`KINDS` are the kinds a reader of a site file tells apart: laboratory reports, Phase I and
Phase II reports, monitoring reports, letters, invoices, permits, certificates, deeds, leases,
contracts, boring logs, photo pages, chain-of-custody forms, transmittals, remedial action plans,
closure reports and data-validation reports. Each is drawn as blocks (a title, key-value fields,
paragraphs, tables, photographs, signature lines) laid out on one to three pages in the style of
a document *family* (`Family`: font, title placement, letterhead, date form, page numbering).
Families and title wordings are split: the test split's (`FAMILIES_BY_SPLIT["test"]`, its titles
in `TITLES`, `MISLEADING_TITLES`, `GENERIC_TITLES` and the variants' own) never occur in dev.

The five site reports (`SITE_REPORTS`: Phase I, Phase II, monitoring report, remedial action plan,
closure report) come from one pool of sentences (wells, benzene, borings, "we recommend"): what
tells them apart is purpose, scope and sections, and each later one retells the earlier stages
(`history`), as real ones do. Variants within a kind: a limited site investigation (phase-ii), a
no-further-action letter and a notice of violation (letter), an easement and an environmental
covenant (deed), a lease amendment (lease), an agency's tank registration certificate (permit), a
tank tightness-test certificate (certificate), a laboratory's invoice (invoice).

The truth rules (`sample_document`'s docstring): the kind is what the document *is*, never what
its first page, title or body names.

The traps a reader meets, recorded per document (`Document.traps`):

    cover-letter      a report, permit, certificate or log sent behind its issuer's cover letter:
                      page 1 is a letter, the document itself starts on page 2
    fax-cover         page 1 is a fax cover sheet; the document starts on page 2
    contents          a report's first page holds its table of contents (whose appendices name
                      other kinds: laboratory reports, boring logs, permits ...)
    excerpt           a report's middle pages only: no letterhead, title, first section or
                      signature; the kind of the report they come from
    cross-reference   the body names another kind (a letter about a laboratory report, an invoice
                      for a Phase I assessment, a transmittal of boring logs, a lease that refers
                      to a permit)
    certificate-title a laboratory report titled as a certificate ("Certificate of Analysis")
    misleading-title  a report titled as another kind or as no kind ("Site investigation status
                      report" for a monitoring report, "Technical memorandum")
    untitled          the document's title is missing (a page torn from its cover, a form
                      without its heading): the kind shows only in its layout and wording
    scanned           set by the caller: the PDF is a black-and-white scan without a text layer
    heavy-scan        set by the caller: a scan at HEAVY_DPI with more skew, blur and noise

Grow the tables by appending: samplers pick by position.

The package in parts: `kinds` (kinds, families, titles, names), the content of `short_kinds`,
`reports` and `site_file` papers, `sampling` (`sample_document`) and `pdf` (`render_document`).
"""

from .kinds import FAMILIES_BY_SPLIT, KINDS, TITLES, Document, family
from .pdf import render_document
from .sampling import sample_document

__all__ = [
    "Document",
    "FAMILIES_BY_SPLIT",
    "KINDS",
    "TITLES",
    "family",
    "render_document",
    "sample_document",
]
