"""What the four Site generators share: each site built once per process, its files written into
a dataset, its case input, the generator's `generate` (`site_generator`: a type gives its seed,
answers and what its description says of them), correct.json's truth predicted back
(`predicted_back`) and the deliberate mistakes of wrong.json (`SiteMistake`).

A split's datasets hold every site of the split (`envirobench_synth.site.SITES[split]`, the split
being the folder's records group: dev, test, or test-sites20 for `synthetic-test-sites20-v1`, the
many small test sites), one case per site: case ID and category are the site ID. Each site's volumes go to
`assets/<site>/volume-N.pdf`; the screening tables to `assets/standards-v1.json` when every site
of the split uses the same bytes (else `assets/<site>/standards-v1.json`). The four types' datasets
of a split therefore pin the same asset files, which is what lets the package ship them once.

A generator's `sites` (a sequence of `envirobench_synth.site.SiteSpec`, default the split's
shipped sites) writes other sites instead: `sized_sites` draws sites of a chosen size (the
holdout's demo split: a few small sites from a secret seed).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from envirobench import BenchmarkType, Manifest, dataset_writer, structure

from ..records import SiteInput
from ..shipping import records_group

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
def built(site: Any) -> Any:
    """The site's build (deterministic), made once per process for all four types; `site` is a
    shipped site's ID or a SiteSpec."""
    from envirobench_synth.site import build_site

    return build_site(site)


def sites(split: str) -> tuple[str, ...]:
    from envirobench_synth.site import SITES

    return tuple(SITES[split])


def chosen(split: str, given: Sequence[Any] | None) -> tuple[Any, ...]:
    """The sites a generator writes: `given` (SiteSpecs, each of the split) or the split's own
    (`split`: a key of envirobench_synth.site.SITES: dev, test, test-sites20)."""
    if given is None:
        return sites(split)
    specs = tuple(given)
    if not specs or any(spec.shipped != split for spec in specs):
        raise ValueError(f"the sites given must be one or more SiteSpecs of the {split} split")
    if len({spec.site_id for spec in specs}) != len(specs):
        raise ValueError("the sites given must have distinct site IDs")
    return specs


def site_id(site: Any) -> str:
    return site if isinstance(site, str) else site.site_id


def sized_sites(split: str, seed: int, *, count: int = 2, pages: int | None = None) -> tuple[Any, ...]:
    """`count` sites of the split, each a record of `pages` pages (default: the smallest the
    documents fit, envirobench_synth.site.SMALL_PAGES), drawn from seeds drawn from `seed`; IDs
    `<split>-site-1`... (they say nothing of the seed)."""
    from envirobench_synth.rng import make_random
    from envirobench_synth.site import SMALL_PAGES, sized_spec

    rng = make_random(seed, "sized-sites", split)
    return tuple(sized_spec(f"{split}-site-{n}", split, rng.randrange(1, 2**62), pages or SMALL_PAGES) for n in range(1, count + 1))


def standards_path(split: str, site: Any, among: Sequence[Any] | None = None) -> str:
    shared = len({built(s).standards for s in _among(split, among)}) == 1
    return f"assets/{STANDARDS}" if shared else f"assets/{site_id(site)}/{STANDARDS}"


def write_site(root: Path, split: str, site: Any, among: Sequence[Any] | None = None) -> SiteInput:
    """Write the site's files under root/assets and return its case input (`among`: the sites
    written with it, default the split's)."""
    build = built(site)
    folder = site_id(site)
    given = dict(build.input)
    volumes = []
    for name, pdf in build.volumes:
        path = root / "assets" / folder / PurePosixPath(name).name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pdf)
    for volume in given["volumes"]:
        volumes.append(
            {
                "file": f"assets/{folder}/{PurePosixPath(volume['file']).name}",
                "pages": volume["pages"],
            }
        )
    standards = standards_path(split, site, among)
    target = root / standards
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(build.standards)
    case_input = {key: given[key] for key in INPUT_KEYS if key not in ("volumes", "standards")}
    case_input.update(volumes=volumes, standards=standards)
    return structure(case_input, SiteInput, path="$.input")


def page_count(split: str, among: Sequence[Any] | None = None) -> tuple[int, int, int]:
    """(sites, smallest, total pages) of a split (or of the sites `among`), for the descriptions."""
    pages = [built(s).pages for s in _among(split, among)]
    return len(pages), min(pages), sum(pages)


def describe(split: str, what: str, among: Sequence[Any] | None = None) -> str:
    written = _among(split, among)
    count, smallest, total = page_count(split, among)
    largest = max(built(s).pages for s in written)
    traps: dict[str, int] = {}
    for site in written:
        for name, number in dict(built(site).traps).items():
            traps[name] = traps.get(name, 0) + number
    counted = ", ".join(f"{name} {number}" for name, number in sorted(traps.items()))
    return (
        f"{count} synthetic site records of the {split} split ({', '.join(map(site_id, written))}; "
        f"{smallest}-{largest} pages each, {total} pages in all), each one case: the record split "
        "into volumes with no document boundaries given (reports with appendices, laboratory "
        "reports, letters, forms, invoices, photographs, scans). "
        + what
        + (f" Traps counted over the split: {counted}." if counted else "")
        + " The dev split's office and laboratory families and wordings never occur in the test split."
    )


def site_cases(split: str, answer_of: Callable[[Any], Any], among: Sequence[Any] | None = None) -> Callable[[Path], Iterator[tuple]]:
    """write_dataset's cases of a split (or of the sites `among`): one per site (ID and category
    the site ID), its record written under `root` and its answer from `answer_of`."""

    def cases(root: Path) -> Iterator[tuple]:
        for site in _among(split, among):
            yield site_id(site), site_id(site), write_site(root, split, site, among), answer_of(site)

    return cases


def site_generator(
    benchmark_type: type[BenchmarkType],
    *,
    seed: int,
    answer_of: Callable[[Any], Any],
    what: Callable[[list[Any]], str],
) -> Callable[..., Manifest]:
    """The `generate` of `benchmark_type`'s generator module: one case per site, its answer
    `answer_of(site)`; the dataset's title is the type's LABEL and the split, its description
    describe()'s saying `what(answers)` of the sites' answers in order."""

    def generate(output_dir: Path, dataset: str = "synthetic-dev-v1", *, sites: Sequence[Any] | None = None) -> Manifest:
        """Write dataset `dataset` (a key of DATASETS) into `output_dir` and return its manifest;
        `sites` (SiteSpecs of the split, e.g. site_records.sized_sites) instead of the split's own."""
        write = dataset_writer(benchmark_type, dataset, seed=seed, version=VERSION)
        split = records_group(dataset)  # dev, test, or test-sites20
        among = chosen(split, sites)
        answers = [answer_of(site) for site in among]
        return write(
            output_dir,
            site_cases(split, answer_of, among),
            title=f"{benchmark_type.LABEL}, synthetic {split} v1",
            description=describe(split, what(answers), among),
        )

    return generate


def predicted_back(items: str, predicted: Callable[[Any], dict[str, Any]]) -> Callable[[Any], dict[str, Any]]:
    """correct.json's prediction for one site, the truth predicted back: each of the answer's
    `items` (the answer's list and the prediction's have the same name) as `predicted` writes it."""

    def correct_prediction(answer: Any) -> dict[str, Any]:
        return {items: [predicted(item) for item in getattr(answer, items)]}

    return correct_prediction


@dataclass(frozen=True)
class SiteMistake:
    """A deliberate mistake wrong.json makes on one site: `change` names it for the type's
    wrong_prediction, `why` says it."""

    change: str
    why: str


def _among(split: str, among: Sequence[Any] | None) -> tuple[Any, ...]:
    return sites(split) if among is None else tuple(among)
