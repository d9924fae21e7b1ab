"""The case input of every site type, as the site record reads it.

The input is the type's own record (envirobench_site's `SiteInput`, the same for the four site
types), structured from the request by core's converter in the adapter kit, which also refuses a
malformed one. The adapter imports no category package (it is the system under test), so the
fields it reads are described here as protocols: the site, its volumes (PDF files with page
counts, no document boundaries given), the site's analytes (name, CAS number where it has one,
the synonyms the record prints), the standards JSON asset and the condition and event kinds a
prediction may name.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Protocol


class Volume(Protocol):
    file: str  # dataset-relative path of the PDF
    pages: int


class AnalyteRow(Protocol):
    name: str
    cas: str | None  # None: the analyte has no CAS number
    synonyms: tuple[str, ...]


class SiteCase(Protocol):
    site: str
    name: str
    address: str
    as_of: str
    volumes: tuple[Volume, ...]
    pages: int
    analytes: tuple[AnalyteRow, ...]
    matrices: tuple[str, ...]
    standards: str
    condition_kinds: tuple[str, ...]
    event_kinds: tuple[str, ...]


def volume_name(path: str) -> str:
    return PurePosixPath(path).name
