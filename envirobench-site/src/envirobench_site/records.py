"""What the four Site types share: the site record as a case input, citations, the declared
normalisation of locations, depths, analytes, dates and units, and scoring by units.

**The case input** (`SiteInput`, the same object for site-results, exceedance-summary,
recognized-conditions and site-timeline): one site's whole document record, split into a few
volumes (`volumes`: dataset-relative PDF paths with their page counts, as an agency file review
or a data room delivers them; no document boundaries are given and a volume ends between
documents), the site's analytes (`analytes`: catalogue name, CAS number and the synonyms the
record prints), its matrices, the pinned screening tables (`standards`, a JSON file of
envirobench_synth.standards rows with their dates in force), the condition kinds and the event
kinds a system may name. `as_of` is the date the record ends.

**A citation** is `{"file": "volume-2.pdf", "page": 37}`: a volume's file name (its base name,
as the input's path ends) and a 1-based page within that volume.

**The declared normalisation** (applied to the truth and to predictions alike before comparing):
- location: uppercased; spaces, underscores and hyphens (and the Unicode dashes U+2010-U+2015)
  removed; leading zeros of each run of digits removed (`MW-03` == `mw 3` == `MW3`; `SB-10` stays
  `SB10`). A sample ID (`MW-3-051419`) is not a location: the location is the well or boring.
- depth (soil): null or blank is no depth; otherwise whitespace removed, Unicode dashes read as
  hyphens, a trailing `ft`, `feet`, `'` or `bgs` dropped, each bound read as a decimal number
  (`4.0-6` == `4-6`); a depth that is not numbers is compared as that cleaned text.
- analyte: a string shaped like a CAS Registry Number (`71-43-2`, leading zeros ignored) is
  matched by CAS; anything else by the catalogue name or a synonym in the case input's `analytes`
  table, compared case-insensitively with runs of whitespace as one space (an analyte without a
  CAS number, such as a TPH range, by name or synonym only). A name the table does not hold
  matches nothing.
- sample date: ISO `YYYY-MM-DD` exactly (a prediction with another form is refused).
- units (values are compared in the truth's unit): µg/L, mg/L, ng/L, g/L; mg/kg, µg/kg, ng/kg,
  g/kg; µg/m³, mg/m³, ng/m³; ppmv and ppbv (1 ppmv = 1,000 ppbv; never converted to µg/m³, which
  needs a molar mass); ppm and ppb as mg/L and µg/L in water (groundwater, surface water) and as
  mg/kg and µg/kg in soil and sediment. Spelling: case-insensitive, spaces ignored, `u`, `µ`
  (U+00B5) and `μ` (U+03BC) alike, `m3`, `m^3` and `m³` alike. A unit outside the table is
  compared as its normalised spelling only (no conversion).
- numbers: a value agrees when |predicted − truth| ≤ RELATIVE_TOLERANCE × |truth| after the
  conversion (0.5 %: it absorbs a rounded conversion factor, never a factor of ten or a digit
  misread).

**Scoring by units.** Every type scores a case (a site) as a sum over its *scored units* (a
record key, an exceedance key, a condition kind, an event), each with its own counts; the case's
metrics are the unit sums and the headline is a function of the run's sums. With only three test
sites the bootstrap intervals of docs/reference-scores.md resample these units within a split
(benchmarks/site_specs), not the sites.

Predictions are data: strict attrs classes read them (unknown keys, wrong types, NaN and infinite
numbers, more than MAX_ITEMS items in a list, strings over MAX_TEXT characters are refused with
the field named); nothing in them is evaluated.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from pathlib import PurePosixPath
from typing import Any, Literal, get_args

import attrs

import envirobench
from envirobench import Case, CaseScore, iso_date, not_blank, pooled_f1

RELATIVE_TOLERANCE = 0.005
MAX_ITEMS = 50_000  # items in one list of a prediction: a site's record holds a few thousand
MAX_TEXT = 1_000  # characters in one string of a prediction
MAX_PAGE = 100_000

Matrix = Literal[
    "groundwater",
    "soil",
    "soil-vapor",
    "sub-slab-vapor",
    "indoor-air",
    "surface-water",
    "sediment",
]
MATRICES = get_args(Matrix)
WATER = frozenset({"groundwater", "surface-water"})
SOLID = frozenset({"soil", "sediment"})

# -- validators -------------------------------------------------------------------------------


def bounded_text(instance: Any, attribute: attrs.Attribute, value: str | None) -> None:
    if value is not None and len(value) > MAX_TEXT:
        raise ValueError(f"{attribute.name} has {len(value)} characters (at most {MAX_TEXT})")


def bounded_items(instance: Any, attribute: attrs.Attribute, value: Sequence[Any]) -> None:
    if len(value) > MAX_ITEMS:
        raise ValueError(f"{attribute.name} has {len(value)} items (at most {MAX_ITEMS})")


def finite_or_none(instance: Any, attribute: attrs.Attribute, value: float | None) -> None:
    if value is not None and not math.isfinite(value):
        raise ValueError(f"{attribute.name} must be a finite number, got {value!r}")


def finite_positive(instance: Any, attribute: attrs.Attribute, value: float) -> None:
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{attribute.name} must be a finite number above 0, got {value!r}")


DATE_PATTERN = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?")


def partial_date(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    """YYYY, YYYY-MM or YYYY-MM-DD, a real month and day."""
    if not DATE_PATTERN.fullmatch(value):
        raise ValueError(
            f"{attribute.name} must be YYYY, YYYY-MM or YYYY-MM-DD, got {value[:40]!r}"
        )
    parts = [int(p) for p in value.split("-")]
    try:
        dt.date(parts[0], parts[1] if len(parts) > 1 else 1, parts[2] if len(parts) > 2 else 1)
    except ValueError:
        raise ValueError(f"{attribute.name} is not a calendar date: {value!r}") from None


def _safe_relative(path: str) -> bool:
    pure = PurePosixPath(path)
    return (
        bool(path)
        and "\\" not in path
        and not pure.is_absolute()
        and ".." not in pure.parts
        and "\x00" not in path
    )


def dataset_path(suffix: str):
    def check(instance: Any, attribute: attrs.Attribute, value: str) -> None:
        if not _safe_relative(value) or not value.lower().endswith(suffix):
            raise ValueError(
                f"{attribute.name} must be a dataset-relative {suffix} path, got {value!r}"
            )

    return check


def file_name(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    if not value.strip() or "/" in value or "\\" in value or len(value) > 200:
        raise ValueError(
            f"{attribute.name} must be a volume's file name (e.g. volume-2.pdf), got {value[:60]!r}"
        )


def page_number(instance: Any, attribute: attrs.Attribute, value: int) -> None:
    if not 1 <= value <= MAX_PAGE:
        raise ValueError(f"{attribute.name} is a 1-based page number, got {value}")


# -- the case input -----------------------------------------------------------------------------

CAS_PATTERN = re.compile(r"(\d{2,7})-(\d{2})-(\d)")


def cas_number(instance: Any, attribute: attrs.Attribute, value: str) -> None:
    if not CAS_PATTERN.fullmatch(value):
        raise ValueError(f"{attribute.name} must be a CAS Registry Number, got {value!r}")


@attrs.frozen
class Citation:
    """A page of the record: a volume's file name and a 1-based page within that volume."""

    file: str = attrs.field(validator=file_name)
    page: int = attrs.field(validator=page_number)

    @property
    def key(self) -> tuple[str, int]:
        return (self.file.strip(), self.page)


@attrs.frozen
class Volume:
    file: str = attrs.field(validator=dataset_path(".pdf"))
    pages: int = attrs.field(validator=page_number)


def cas_or_none(instance: Any, attribute: attrs.Attribute, value: str | None) -> None:
    if value is not None:
        cas_number(instance, attribute, value)


@attrs.frozen
class AnalyteEntry:
    """A site analyte: catalogue name, CAS number (null for a mixture without one, such as a
    TPH range) and the synonyms the record prints."""

    name: str = attrs.field(validator=not_blank)
    cas: str | None = attrs.field(validator=cas_or_none)
    synonyms: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        """What a key holds for the analyte: its CAS number, else "=" and its catalogue name."""
        return cas_key(self.cas) if self.cas else "=" + _words(self.name)


def _non_empty(instance: Any, attribute: attrs.Attribute, value: Sequence[Any]) -> None:
    if not value:
        raise ValueError(f"{attribute.name} is empty")


def _distinct(instance: Any, attribute: attrs.Attribute, value: Sequence[Any]) -> None:
    if len(set(value)) != len(value):
        raise ValueError(f"{attribute.name} has duplicates")


@attrs.frozen
class SiteInput:
    """One site's whole document record (see the module docstring)."""

    site: str = attrs.field(validator=not_blank)
    name: str = attrs.field(validator=not_blank)
    address: str
    as_of: str = attrs.field(validator=iso_date)
    volumes: tuple[Volume, ...] = attrs.field(validator=_non_empty)
    pages: int
    analytes: tuple[AnalyteEntry, ...]
    matrices: tuple[Matrix, ...] = attrs.field(validator=_distinct)
    standards: str = attrs.field(validator=dataset_path(".json"))
    condition_kinds: tuple[str, ...] = attrs.field(validator=_distinct)
    event_kinds: tuple[str, ...] = attrs.field(validator=_distinct)

    def __attrs_post_init__(self) -> None:
        if self.pages != sum(v.pages for v in self.volumes):
            raise ValueError(
                f"pages: {self.pages} is not the sum of the volumes' pages "
                f"({sum(v.pages for v in self.volumes)})"
            )
        names = [PurePosixPath(v.file).name for v in self.volumes]
        if len(set(names)) != len(names):
            raise ValueError("volumes: two volumes have the same file name")

    @property
    def volume_names(self) -> tuple[str, ...]:
        """The file names citations use, volume 1 first."""
        return tuple(PurePosixPath(v.file).name for v in self.volumes)


# -- normalisation ------------------------------------------------------------------------------

_DASHES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015"})
_DIGIT_RUN = re.compile(r"\d+")


def location_key(text: str) -> str:
    """The declared normalisation of a location (module docstring)."""
    squeezed = re.sub(r"[\s_\-]+", "", text.translate(_DASHES).upper())
    return _DIGIT_RUN.sub(lambda m: m.group().lstrip("0") or "0", squeezed)


def depth_key(text: str | None) -> str:
    """The declared normalisation of a soil depth; "" for none."""
    if text is None:
        return ""
    cleaned = re.sub(r"\s+", "", text.translate(_DASHES).lower())
    cleaned = re.sub(r"(ftbgs|feetbgs|bgs|feet|ft|')$", "", cleaned)
    if not cleaned:
        return ""
    parts = cleaned.split("-")
    try:
        numbers = [format(Decimal(p).normalize(), "f") for p in parts]
    except (InvalidOperation, ValueError):
        return cleaned
    if any(not p for p in parts):
        return cleaned
    return "-".join(numbers)


def _words(text: str) -> str:
    return " ".join(text.casefold().split())


def cas_key(text: str) -> str | None:
    """A CAS number with the leading zeros of its first group removed, or None."""
    match = CAS_PATTERN.fullmatch(text.strip())
    if not match:
        return None
    return f"{int(match.group(1))}-{match.group(2)}-{match.group(3)}"


class AnalyteTable:
    """A site's analytes by CAS number, catalogue name and synonym."""

    def __init__(self, analytes: Iterable[AnalyteEntry]) -> None:
        self.by_name: dict[str, str] = {}
        for entry in analytes:
            for name in (entry.name, *entry.synonyms):
                self.by_name.setdefault(_words(name), entry.id)

    def resolve(self, text: str) -> str:
        """The analyte's ID (its CAS number, or "=<catalogue name>" for an analyte without one),
        or "?<name>" for a name the table does not hold (which matches no true analyte)."""
        cas = cas_key(text)
        if cas is not None:
            return cas
        words = _words(text)
        return self.by_name.get(words, "?" + words)


# -- units --------------------------------------------------------------------------------------

# Normalised spelling -> (dimension, factor to the dimension's base unit).
_UNITS: dict[str, tuple[str, float]] = {
    "g/l": ("mass/volume", 1e6),
    "mg/l": ("mass/volume", 1e3),
    "ug/l": ("mass/volume", 1.0),
    "ng/l": ("mass/volume", 1e-3),
    "g/kg": ("mass/mass", 1e6),
    "mg/kg": ("mass/mass", 1e3),
    "ug/kg": ("mass/mass", 1.0),
    "ng/kg": ("mass/mass", 1e-3),
    "mg/m3": ("air", 1e3),
    "ug/m3": ("air", 1.0),
    "ng/m3": ("air", 1e-3),
    "ppmv": ("mixing", 1e3),
    "ppbv": ("mixing", 1.0),
}


def unit_spelling(unit: str) -> str:
    text = unit.casefold().replace("\u00b5", "u").replace("\u03bc", "u")
    text = re.sub(r"\s+", "", text).replace("m^3", "m3").replace("m³", "m3")
    return text


def unit_factor(unit: str, matrix: str | None) -> tuple[str, float] | None:
    """(dimension, factor to its base) of a unit, or None outside the table."""
    spelled = unit_spelling(unit)
    if spelled in ("ppm", "ppb"):
        factor = 1e3 if spelled == "ppm" else 1.0
        if matrix in WATER:
            return ("mass/volume", factor)
        if matrix in SOLID:
            return ("mass/mass", factor)
        return None
    return _UNITS.get(spelled)


def convert(value: float, unit: str, to_unit: str, matrix: str | None) -> float | None:
    """`value` in `unit` expressed in `to_unit`, or None when they are not convertible."""
    source, target = unit_factor(unit, matrix), unit_factor(to_unit, matrix)
    if source is None or target is None:
        return value if unit_spelling(unit) == unit_spelling(to_unit) else None
    if source[0] != target[0]:
        return None
    return value * source[1] / target[1]


def values_agree(
    predicted: float, predicted_unit: str, truth: float, truth_unit: str, matrix: str | None
) -> bool:
    """Whether a predicted value agrees with the truth within RELATIVE_TOLERANCE, converted."""
    converted = convert(predicted, predicted_unit, truth_unit, matrix)
    if converted is None or not math.isfinite(converted):
        return False
    return abs(converted - truth) <= RELATIVE_TOLERANCE * abs(truth) + 1e-12


# -- result keys --------------------------------------------------------------------------------

ResultKey = tuple[str, str, str, str, str]  # location, depth, date, analyte, matrix


def result_key(
    location: str, depth: str | None, sample_date: str, analyte_id: str, matrix: str
) -> ResultKey:
    return (location_key(location), depth_key(depth), sample_date, analyte_id, matrix)


def by_result_key(items: Sequence[Any], table: AnalyteTable) -> dict[ResultKey, list[Any]]:
    """Predicted items (with location, depth, sample_date, analyte, matrix) grouped by their
    normalised key, in prediction order: the first of a key is matched, the rest are duplicates."""
    grouped: dict[ResultKey, list[Any]] = {}
    for item in items:
        key = result_key(item.location, item.depth, item.sample_date, table.resolve(item.analyte), item.matrix)
        grouped.setdefault(key, []).append(item)
    return grouped


def key_text(key: ResultKey) -> str:
    """A key as one comparable error part (truncated: a hostile name must not bloat the errors)."""
    location, depth, day, analyte, matrix = key
    return "|".join(part[:80] for part in (location, depth or "-", day, analyte, matrix))


# -- scoring by units ---------------------------------------------------------------------------


@attrs.frozen
class Unit:
    """One scored unit of a case: its errors and its counts (the case sums them)."""

    errors: tuple[envirobench.ErrorKey, ...]
    metrics: Mapping[str, float]


def case_score(units: Sequence[Unit], names: Sequence[str]) -> CaseScore:
    """The case's score: the units' errors (sorted) and the sum of each count in `names`."""
    totals = dict.fromkeys(names, 0.0)
    errors: list[envirobench.ErrorKey] = []
    for unit in units:
        errors.extend(unit.errors)
        for name, value in unit.metrics.items():
            totals[name] += value
    return CaseScore(errors=tuple(sorted(errors, key=repr)), metrics=totals)


class SiteType(envirobench.BenchmarkType):
    """What the four Site types have in common: the input, its files, scoring by units."""

    TIER = "site"
    Input = SiteInput
    PROFILE: str  # the one profile
    COUNTS: tuple[str, ...]  # the per-case (and per-unit) counts

    def source_files(self, case_input: SiteInput) -> tuple[str, ...]:
        return (*(v.file for v in case_input.volumes), case_input.standards)

    def units(self, case: Case, answer: Any, prediction: Any) -> list[Unit]:
        """The case's scored units; their counts sum to the case's metrics."""
        raise NotImplementedError

    def score_case(self, case: Case, answer: Any, prediction: Any) -> dict[str, CaseScore]:
        return {self.PROFILE: case_score(self.units(case, answer, prediction), self.COUNTS)}

    def summarize_totals(
        self, profile: str, totals: Mapping[str, float], cases: int
    ) -> dict[str, float]:
        return self.headline(dict(totals))

    def headline(self, totals: Mapping[str, float]) -> dict[str, float]:
        """The headline metrics from summed counts (cases' or resampled units')."""
        raise NotImplementedError


def match_first(
    counts: dict[str, float],
    errors: list[envirobench.ErrorKey],
    noun: str,
    shown: str,
    true: Any | None,
    items: Sequence[Any],
    agrees: Callable[[Any, Any], bool],
    *,
    wrong: str,
    extra: str = "",
) -> bool:
    """Score one key of a unit the way every keyed Site type does: the first predicted item of the
    key is matched to the true one, each later one is a duplicate. Counts `<noun>s` (the true
    key), `<noun>_tp`, `<noun>_fp` and `<noun>_fn`; errors `missing-<noun>`, `wrong` (the first
    item does not agree), `extra` (default `extra-<noun>`: a key the truth lacks) and
    `duplicate-<noun>`. True when the first item agrees (`agrees(first, true)`), so that the caller
    scores that item's details."""
    first = items[0] if items else None
    matched = False
    if true is not None:
        counts[f"{noun}s"] = 1.0
        if first is None:
            errors.append((f"missing-{noun}", shown))
            counts[f"{noun}_fn"] = 1.0
        elif agrees(first, true):
            counts[f"{noun}_tp"] = 1.0
            matched = True
        else:
            errors.append((wrong, shown))
            counts[f"{noun}_fp"] += 1.0
            counts[f"{noun}_fn"] = 1.0
    elif first is not None:
        errors.append((extra or f"extra-{noun}", shown))
        counts[f"{noun}_fp"] += 1.0
    if len(items) > 1:
        errors.append((f"duplicate-{noun}", shown))
        counts[f"{noun}_fp"] += len(items) - 1
    return matched


def matching_headline(totals: Mapping[str, float], noun: str) -> dict[str, float]:
    """`<noun>_f1`, `<noun>_precision` and `<noun>_recall` from the summed counts `match_first`
    keeps."""
    return pooled_f1(noun, totals, (f"{noun}_tp", f"{noun}_fp", f"{noun}_fn"))


def ratio(totals: Mapping[str, float], name: str, numerator: str, denominator: str) -> dict:
    """{name: numerator ÷ denominator}, left out (n/a) when the denominator is 0."""
    return {name: totals[numerator] / totals[denominator]} if totals[denominator] else {}
