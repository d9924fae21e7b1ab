"""Synthetic recorded instruments (deeds, releases, easements, environmental covenants) as PDFs.

    rng = make_random(SEED, "instrument", "ie-0007")
    instrument = sample_instrument(rng, "blank-notary", template("hollis-drummond"), recorder("marlow-or"))
    rendered = render_instrument(instrument, SEED, "ie-0007", scanned=False)   # PDF bytes and truth

Modules: `families` (law-firm templates and county recorder styles, split between dev and test),
`instruments` (the model, execution scenarios and their status, seeded sampling) and `render`
(layout, signatures, acknowledgments, recording stamps, scans). Reusable by any category that
needs instruments: chain of title, party roles, use limitations.
"""

from .families import RECORDERS, SPLITS, TEMPLATES, RecorderStyle, Template, recorder, template
from .instruments import KINDS, SCENARIOS, STATUS_OF, STATUSES, Instrument, sample_instrument
from .render import NEUTRAL_TITLE, RenderedInstrument, render_instrument

__all__ = [
    "KINDS",
    "RECORDERS",
    "SCENARIOS",
    "SPLITS",
    "STATUSES",
    "STATUS_OF",
    "TEMPLATES",
    "Instrument",
    "RecorderStyle",
    "RenderedInstrument",
    "Template",
    "recorder",
    "render_instrument",
    "NEUTRAL_TITLE",
    "sample_instrument",
    "template",
]
