"""What the four Site generators share: each site built once per process, its files written into
a dataset, its case input, and the deliberate mistakes' bookkeeping.

A split's datasets hold every site of the split (`envirobench_synth.site.SITES[split]`), one case
per site: case ID and category are the site ID. Each site's volumes go to
`assets/<site>/volume-N.pdf`; the screening tables to `assets/standards-v1.json` when every site
of the split uses the same bytes (else `assets/<site>/standards-v1.json`). The four types' datasets
of a split therefore pin the same asset files, which is what lets the package ship them once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from envirobench import structure

from ..records import SiteInput

VERSION = 1
STANDARDS = "standards-v1.json"
INPUT_KEYS = (
    "site",
    "name",
    "address",
    "as_of",
    "volumes",
    "pages",
    "analytes",
    "matrices",
    "standards",
    "condition_kinds",
    "event_kinds",
)


@functools.cache
def built(site_id: str) -> Any:
    """The site's build (deterministic), made once per process for all four types."""
    from envirobench_synth.site import build_site

    return build_site(site_id)


def sites(split: str) -> tuple[str, ...]:
    from envirobench_synth.site import SITES

    return tuple(SITES[split])


def standards_path(split: str, site_id: str) -> str:
    shared = len({built(s).standards for s in sites(split)}) == 1
    return f"assets/{STANDARDS}" if shared else f"assets/{site_id}/{STANDARDS}"


def write_site(root: Path, split: str, site_id: str) -> SiteInput:
    """Write the site's files under root/assets and return its case input."""
    build = built(site_id)
    given = dict(build.input)
    volumes = []
    for name, pdf in build.volumes:
        path = root / "assets" / site_id / PurePosixPath(name).name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pdf)
    for volume in given["volumes"]:
        volumes.append(
            {
                "file": f"assets/{site_id}/{PurePosixPath(volume['file']).name}",
                "pages": volume["pages"],
            }
        )
    standards = standards_path(split, site_id)
    target = root / standards
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(build.standards)
    case_input = {key: given[key] for key in INPUT_KEYS if key not in ("volumes", "standards")}
    case_input.update(volumes=volumes, standards=standards)
    return structure(case_input, SiteInput, path="$.input")


def page_count(split: str) -> tuple[int, int, int]:
    """(sites, smallest, total pages) of a split, for the descriptions."""
    pages = [built(s).pages for s in sites(split)]
    return len(pages), min(pages), sum(pages)


def describe(split: str, what: str) -> str:
    count, smallest, total = page_count(split)
    largest = max(built(s).pages for s in sites(split))
    traps: dict[str, int] = {}
    for site in sites(split):
        for name, number in dict(built(site).traps).items():
            traps[name] = traps.get(name, 0) + number
    counted = ", ".join(f"{name} {number}" for name, number in sorted(traps.items()))
    return (
        f"{count} synthetic site records of the {split} split ({', '.join(sites(split))}; "
        f"{smallest}-{largest} pages each, {total} pages in all), each one case: the record split "
        "into volumes with no document boundaries given (reports with appendices, laboratory "
        "reports, letters, forms, invoices, photographs, scans). "
        + what
        + (f" Traps counted over the split: {counted}." if counted else "")
        + " The dev split's office and laboratory families and wordings never occur in the test split."
    )


def site_cases(split: str, answer_of: Callable[[str], Any]) -> Callable[[Path], Iterator[tuple]]:
    """write_dataset's cases of a split: one per site (ID and category the site ID), its record
    written under `root` and its answer from `answer_of`."""

    def cases(root: Path) -> Iterator[tuple]:
        for site_id in sites(split):
            yield site_id, site_id, write_site(root, split, site_id), answer_of(site_id)

    return cases
