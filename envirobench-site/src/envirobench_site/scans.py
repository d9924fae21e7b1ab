"""What the answer keys record of each scanned page of a site record: `ScannedPage`.

Every scanned page of a record (field forms, old letters, the paper copies of laboratory
reports, recorded instruments) is an archive's copy (`envirobench_synth.site.scanning`): scanned,
photocopied or faxed, written on in the margins, some with the reverse showing through. Each of
the four Site answers lists them, by volume and page, with a severity, so a breakdown can tell a
reader that fails on faxes from one that fails on everything. It describes the record and is
never scored; like every answer field it never reaches a system.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from .records import file_name, page_number

Generation = Literal["scan", "photocopy", "fax"]
Severity = Literal["light", "moderate", "heavy"]
ARTEFACTS = frozenset({"bleed-through", "copier-edge", "specks", "punch-holes", "fax-header", "fax-lines", "turned"})
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
    """One scanned page of the record: its volume (`file`) and 1-based `page` there, the copy's
    generation, the scan's resolution, skew, blur and noise, what covers the print (`artefacts`),
    the handwriting on it (`marks`) and the `severity` drawn from them."""

    file: str = attrs.field(validator=file_name)
    page: int = attrs.field(validator=page_number)
    generation: Generation
    dpi: int = attrs.field(validator=_positive)
    skew_degrees: float
    blur: float
    noise: float
    artefacts: tuple[str, ...] = attrs.field(validator=_known(ARTEFACTS))
    marks: tuple[str, ...] = attrs.field(validator=_known(MARKS))
    severity: Severity
