"""What the answer keys record of each scanned page: `ScannedPage`.

Every Legal dataset's scanned copies are archival copies (`envirobench_synth.legal.archive`):
scanned, photocopied or faxed, written on in the margins, some with the reverse showing through.
Each answer records what was done to each scanned page of its case, with a severity, so a
breakdown can tell a reader that fails on faxes from one that fails on everything. It describes
the copy and is never scored; like every answer field it never reaches a system.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

Generation = Literal["scan", "photocopy", "fax"]
Severity = Literal["light", "moderate", "heavy"]
ARTEFACTS = frozenset({"bleed-through", "copier-edge", "specks", "punch-holes", "fax-header", "fax-lines"})
MARKS = frozenset({"initials", "check", "note"})


def _positive(instance: Any, attribute: attrs.Attribute, value: int) -> None:
    if value < 1:
        raise ValueError(f"{attribute.name} must be at least 1, got {value}")


def _known(names: frozenset[str]) -> Any:
    def check(instance: Any, attribute: attrs.Attribute, value: tuple[str, ...]) -> None:
        unknown = sorted(set(value) - names)
        if unknown:
            raise ValueError(f"{attribute.name}: unknown {', '.join(unknown)}; known: {', '.join(sorted(names))}")

    return check


@attrs.frozen
class ScannedPage:
    """One scanned page: its PDF (`document_number`, 1-based among the case's PDFs: 1 when the
    case has one; a number, not the input's path, which an answer must not repeat) and 1-based
    `page` in it, the copy's generation, the scan's resolution, skew, blur and noise, what covers
    the print (`artefacts`), the handwriting on it (`marks`) and the `severity` drawn from them."""

    document_number: int = attrs.field(validator=_positive)
    page: int = attrs.field(validator=_positive)
    generation: Generation
    dpi: int = attrs.field(validator=_positive)
    skew_degrees: float
    blur: float
    noise: float
    artefacts: tuple[str, ...] = attrs.field(validator=_known(ARTEFACTS))
    marks: tuple[str, ...] = attrs.field(validator=_known(MARKS))
    severity: Severity


def scanned_pages(document_number: int, pages: Any) -> tuple[ScannedPage, ...]:
    """The records of `pages` (the generator's `PageScan`s) of the case's PDF `document_number`."""
    return tuple(ScannedPage(document_number, p.page, p.generation, p.dpi, p.skew_degrees, p.blur, p.noise, p.artefacts, p.marks,
                             p.severity) for p in pages)
