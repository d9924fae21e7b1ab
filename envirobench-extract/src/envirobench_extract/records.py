"""Measurement records: the format `table-records` and `document-extraction` share, and how they are scored.

A record is one reported result of one sample:

    {"sample_id": "MW-01", "analyte": "Benzene", "cas": "71-43-2", "result": 1250.0,
     "nondetect": false, "unit": "µg/L", "qualifier": "J", "reporting_limit": 5.0}

What a record holds (the answer keys follow these rules; predictions are compared by them):

- `sample_id`, `analyte`: as the report prints them (an abbreviation such as PCE stays PCE).
- `cas`: the CAS Registry Number printed beside the result, or null where none is printed (`--`
  for petroleum fractions).
- `result`: the number printed, in the unit printed, as a JSON number (thousands separators
  removed: `1,250` is 1250); null for a non-detect. Predictions give numbers, never strings.
- `nondetect`: true for every non-detect notation. `<0.50` is result null, nondetect true,
  qualifier null, reporting_limit 0.5; `0.50 U` the same with qualifier "U"; `ND` the same with
  the reporting limit from the RL column.
- `unit`: the unit printed for that result. Reports switch units (µg/L for volatile organics,
  mg/L for metals, or one sample re-reported in mg/L): a record keeps its printed unit, and a
  result converted to another unit is wrong in profile `exact`.
- `qualifier`: the laboratory qualifier code (`U`, `J`, `B`, `E`, `D`, ...) printed beside the
  result or resolved from a footnote marker; null when there is none.
- `reporting_limit`: the reporting limit printed for the result (dilution already applied, as
  printed), or null where the report prints none. The dilution factor and the method detection
  limit are not part of a record.
- Only the results of the report's samples are records; quality-control results (method
  blanks, laboratory control samples) are not.

Normalisation before comparing (both sides alike):

- `sample_id`, `analyte`: Unicode NFKC, typographic quotes and primes as ASCII quotes,
  whitespace runs as one space, trimmed, case-folded (`mw-01 ` = `MW-01`).
- `cas`: whitespace removed; "" is null.
- `unit`: NFKC (which makes the micro sign µ the Greek μ and ³ a 3), whitespace removed,
  case-folded, and `u` or `mc` as the micro prefix before `g` read as μ: `ug/L` = `µg/L` =
  `μg/l`, `ug/m3` = `µg/m³`.
- `qualifier`: whitespace and commas removed, upper-cased; "" is null.
- `result`, `reporting_limit`: numbers compared exactly (a JSON 0.5 and 0.50 are the same
  number); null equals only null. `nondetect`: true or false.

Matching. Records are keyed by (sample_id, analyte), normalised. Within one key the answer's and
the prediction's records are paired one to one by an optimal assignment (the Hungarian
algorithm, exact, O(n²m) for n ≤ m records of one key; keys repeat only for re-analyses and
duplicates, so groups hold a few records) that maximises first the pairs with every field right,
then the number of fields right; the prediction's records of a key are put in a canonical order
first, so the outcome never depends on the order a system lists them in. Then, per pair:

- every field right: a true positive;
- any field wrong: one false positive and one false negative, with ("wrong-field", sample,
  analyte, field) for each wrong field (`cas`, `result`, `nondetect`, `unit`, `qualifier`,
  `reporting_limit`);
- an answer record left unpaired: a false negative, ("missing-record", sample, analyte);
- a predicted record left unpaired: a false positive, ("extra-record", sample, analyte).

Errors name the sample and analyte as the answer prints them when the key is in the answer,
else in normalised form, so the same mistake gives the same error in every run. An error two
records of one key share (both re-analyses missing) is listed once; the counts count both.
Errors come in answer order, then the extra records in key order.

Profiles (scoring version v2; the first is the default gate and gives the category score):

- `semantic` (primary): a record scored for what it means, so that a system is not marked
  down for writing the same result another way. Records are keyed by sample and *compound*:
  an analyte name is resolved through the synonym table of `analytes.py` (PCE =
  Tetrachloroethene = Perchloroethylene, TPH-GRO = TPH-Gasoline Range Organics (C6-C10)); a
  name the table does not know stands for itself (and "Lead, Dissolved" is not Lead). Then:
  - a non-detect is a non-detect however written: `nondetect` true, or a qualifier holding
    `U` (`U`, `UJ`), or `ND`, `BRL`, `BDL`, or starting with `<` (`<RL`); the result of a
    non-detect is not read (its number, when written as the result with no reporting limit,
    `0.50 U`, is taken as its reporting limit);
  - the qualifier is the set of flags other than that non-detect mark: a gold non-detect with
    qualifier null matches a predicted one with `U`, and `UJ` matches `J` on a non-detect;
    `JB` = `BJ`;
  - `cas` is optional: null is right (the key already names the compound), a number given
    must be the gold one, or the compound's own where the report printed none;
  - units convert within a kind, as in `value` (µg/L = 0.001 mg/L, mg/kg = 1000 µg/kg, every
    spelling of micro alike), with the basis part of the kind (`mg/kg dry` = `mg/kg-dry` =
    1000 µg/kg dry, but not mg/kg), and `ppm` and `ppb` read only where they are unambiguous:
    as mg/kg and µg/kg against a mass-per-mass unit (exact by definition) and as mg/L and µg/L
    against a mass-per-volume one (the dilute-water convention of laboratory reports), never
    against air units (`ppmv`, `ppbv` need the molar mass) and `ppt` never (thousand or
    trillion); the result and reporting limit compare after conversion at a relative tolerance
    of 1e-6 (`SEMANTIC_TOLERANCE`: float noise of a conversion, not rounding);
  - errors are those of `exact` (an extra record is named by the prediction's normalised
    sample and analyte name, the least one where several names of one compound are extra).
- `exact`: every field as printed, as described above (unchanged from v1).
- `value`: the same except that the result and the reporting limit are compared after
  converting each to the canonical unit of its kind (mass per volume to µg/L, mass per mass to
  mg/kg, mass per cubic metre to µg/m³; relative tolerance 1e-9), and the unit is right when its
  kind is: a system that reports 0.0012 mg/L for a printed 1.2 µg/L is right in `value` and
  wrong in `exact`. A unit of another kind (mg/kg for µg/L) is a wrong unit, and then the
  numbers compare as printed; units of no known kind compare as in `exact` (unchanged from v1).

Why `semantic` is primary: the category score should say whether a system's records can be
relied on, not whether it follows this benchmark's transcription conventions. Under `exact`,
the v1 answer key itself, rewritten with an explicit "U" on each non-detect, scores record F1
0.756, and with the CAS numbers left out 0.076, although nothing a user needs is lost; under
`semantic` both score 1.0. A wrong value, a lost J flag, a non-detect read as a detection, a
wrong sample or a wrong reporting limit remain errors there. `exact` stays for anyone who
needs the report's own notation (and is what v1 gated on), and `value` isolates unit handling.

Per-field F1 (every profile; in the headline after the record measures): for each of `value`
(result and non-detect together), `unit`, `qualifier`, `reporting_limit` and `sample`, the
located pairs with that field right, `right_<field>` per case, pooled as
2·right / (gold records + predicted records). `sample` counts every located pair: records are
keyed by sample and analyte, so a record under the wrong sample is a miss and an extra, and
`sample_f1` is the F1 of records found under the right sample (and compound) whatever their
fields. Precision is undefined (left out of the headline, as core leaves out an undefined
metric) when nothing was predicted, and recall when there was nothing to find; v1 reported
precision 1.0 for an empty prediction.

Length: one record format scored in three profiles; the profiles share the normalising, the
pairing of records (a maximum-weight assignment), the per-field counts and the pooled measures,
and differ only in how two prepared records compare; split, the rules above would be read in
several places.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import attrs

from envirobench import CaseScore, ErrorKey, f1, precision_recall

from .analytes import cas_of, compound_of_normalised
from .names import normalise_name

PROFILES = ("semantic", "exact", "value")
FIELDS = ("cas", "result", "nondetect", "unit", "qualifier", "reporting_limit")
_N_FIELDS = len(FIELDS)


@attrs.frozen
class Record:
    """One measurement record of one sample (see envirobench_extract.records for every rule)."""

    sample_id: str
    analyte: str
    cas: str | None
    result: float | None
    nondetect: bool
    unit: str
    qualifier: str | None
    reporting_limit: float | None


_CAS = re.compile(r"^[0-9]{2,7}-[0-9]{2}-[0-9]$")


def check_answer_records(records: Sequence[Record]) -> None:
    """Refuse an answer key that breaks the record rules (raised as ValueError, per record)."""
    for i, record in enumerate(records):
        where = f"records[{i}]"
        for name in ("sample_id", "analyte", "unit"):
            if not getattr(record, name).strip():
                raise ValueError(f"{where}.{name} is empty")
        if record.cas is not None and not _CAS.match(record.cas):
            raise ValueError(
                f"{where}.cas {record.cas!r} is not a CAS Registry Number (digits-digits-digit)"
            )
        if record.qualifier is not None and not record.qualifier.strip():
            raise ValueError(f"{where}.qualifier is empty: write null for no qualifier")
        if record.nondetect and record.result is not None:
            raise ValueError(
                f"{where}: a non-detect has result null (its limit goes in reporting_limit)"
            )
        if not record.nondetect and record.result is None:
            raise ValueError(f"{where}: a detected result needs a number")
        if record.nondetect and record.reporting_limit is None:
            raise ValueError(f"{where}: a non-detect needs its reporting limit")
        for name in ("result", "reporting_limit"):
            value = getattr(record, name)
            if value is not None and not (math.isfinite(value) and value >= 0):
                raise ValueError(f"{where}.{name} must be a finite number >= 0, got {value}")


@attrs.frozen
class RecordsAnswer:
    """An answer of measurement records (document-extraction's, table-records'), each checked
    against the record rules; a type's Answer subclasses it to say whose records they are."""

    records: tuple[Record, ...]

    def __attrs_post_init__(self) -> None:
        check_answer_records(self.records)


@attrs.frozen
class RecordsPrediction:
    """The records a system found; order is free (a type's Prediction subclasses it)."""

    records: tuple[Record, ...]


# -- normalisation ------------------------------------------------------------------------------

_SPACE = re.compile(r"\s+")
_MICRO = re.compile(r"(?:^|(?<=/))(?:u|mc)(?=g)")


@lru_cache(maxsize=4096)
def normalise_unit(text: str) -> str:
    """`ug/L`, `µg/L`, `μg/l` and `UG/L` all become `μg/l`."""
    compact = _SPACE.sub("", unicodedata.normalize("NFKC", text)).casefold()
    return _MICRO.sub("μ", compact)


@lru_cache(maxsize=4096)
def normalise_qualifier(text: str | None) -> str | None:
    if text is None:
        return None
    code = text.replace(",", "").upper()
    code = _SPACE.sub("", code)
    return code or None


@lru_cache(maxsize=65536)
def normalise_cas(text: str | None) -> str | None:
    if text is None:
        return None
    return "".join(text.split()) or None


# Canonical unit of each kind, and the factor from each unit (normalised) to it.
UNIT_KINDS: dict[str, tuple[str, float]] = {
    "ng/l": ("mass/volume", 0.001),
    "μg/l": ("mass/volume", 1.0),
    "mg/l": ("mass/volume", 1000.0),
    "g/l": ("mass/volume", 1_000_000.0),
    "μg/kg": ("mass/mass", 0.001),
    "ng/g": ("mass/mass", 0.001),
    "mg/kg": ("mass/mass", 1.0),
    "μg/g": ("mass/mass", 1.0),
    "ng/m3": ("mass/air", 0.001),
    "μg/m3": ("mass/air", 1.0),
    "mg/m3": ("mass/air", 1000.0),
}


@dataclass(frozen=True, slots=True)
class Prepared:
    """A record normalised for comparison: `key` groups the records that may pair, `label` names
    the record in errors, `fields` are compared position by position (FIELDS' order)."""

    key: tuple[str, str]
    fields: tuple  # (cas, result, nondetect, unit, qualifier, reporting_limit), normalised
    kind: str
    factor: float
    label: tuple[str, str]


def prepare(record: Record) -> Prepared:
    """A record as profiles `exact` and `value` compare it (keyed by sample and name)."""
    unit = normalise_unit(record.unit)
    kind, factor = UNIT_KINDS.get(unit, (unit, 1.0))
    key = (normalise_name(record.sample_id), normalise_name(record.analyte))
    return Prepared(
        key,
        (
            normalise_cas(record.cas),
            record.result,
            record.nondetect,
            unit,
            normalise_qualifier(record.qualifier),
            record.reporting_limit,
        ),
        kind,
        factor,
        key,
    )


# -- the semantic profile's reading of a record ---------------------------------------------------

SEMANTIC_TOLERANCE = 1e-6  # relative, for amounts compared after converting units
NONDETECT_WORDS = frozenset({"ND", "BRL", "BDL", "BQL", "BLQ", "NOTDETECTED"})
# Parts per million or billion by mass: mg/kg and µg/kg exactly, mg/L and µg/L in dilute water.
# Factor to the canonical unit of each kind they may stand for.
PARTS = {
    "ppm": {"mass/mass": 1.0, "mass/volume": 1000.0},
    "ppb": {"mass/mass": 0.001, "mass/volume": 1.0},
}
_BASIS = re.compile(r"^(?P<unit>.+?)[-(]?(?P<basis>dry|wet)\)?$")


def semantic_unit(text: str) -> tuple[str, str, float]:
    """(unit as compared, kind, factor to the kind's canonical unit) of a printed unit: `value`'s
    kinds, a basis suffix (`mg/kg dry`, `mg/kg-dry`, `mg/kg (dry)`) kept apart as part of the
    kind, `ppm` and `ppb` as kinds of their own that `_unit_terms` resolves against the other
    record's unit."""
    return _semantic_unit(normalise_unit(text))


@lru_cache(maxsize=4096)
def _semantic_unit(unit: str) -> tuple[str, str, float]:
    basis = ""
    match = _BASIS.match(unit)
    if match is not None and (match.group("unit") in UNIT_KINDS or match.group("unit") in PARTS):
        unit, basis = match.group("unit"), " " + match.group("basis")
    if unit in PARTS:
        return unit + basis, unit + basis, 1.0
    kind, factor = UNIT_KINDS.get(unit, (unit, 1.0))
    return unit + basis, kind + basis, factor


@lru_cache(maxsize=4096)
def semantic_qualifier(code: str | None) -> tuple[bool, str | None]:
    """(marks a non-detect, the other flags as sorted characters or None) of a normalised
    qualifier: `U` in a code (`U`, `UJ`), `ND`, `BRL`, `BDL` or a code starting with `<` mark a
    non-detect; `JB` and `BJ` are the same flags."""
    if code is None:
        return False, None
    if code in NONDETECT_WORDS or code.startswith("<"):
        return True, None
    if "U" in code:
        return True, "".join(sorted(code.replace("U", ""))) or None
    return False, "".join(sorted(code))


def prepare_semantic(record: Record) -> Prepared:
    """A record as profile `semantic` reads it: keyed by sample and compound (the synonym table
    of `analytes`, else the name), a non-detect however written, the limit of a non-detect
    written as its result taken as its reporting limit (`0.50 U`), the flags without the
    non-detect mark, the unit by kind and basis."""
    return semantic_of(prepare(record))


def semantic_of(prepared: Prepared) -> Prepared:
    """`prepare_semantic` from the record as `prepare` made it (whose normalised parts it reuses)."""
    sample, name = prepared.key
    cas, result, nondetect, unit, qualifier, limit = prepared.fields
    compound = compound_of_normalised(name)
    marked, flags = semantic_qualifier(qualifier)
    if marked or nondetect:
        nondetect = True
        if limit is None:
            limit = result
        result = None
    unit, kind, factor = _semantic_unit(unit)
    return Prepared(
        (sample, compound or name),
        (cas, result, bool(nondetect), unit, flags, limit),
        kind,
        factor,
        prepared.key,
    )


def _unit_terms(gold: Prepared, predicted: Prepared) -> tuple[bool, float, float]:
    """(same kind, gold factor, predicted factor): ppm and ppb take the kind of the other side
    where that is mass per mass or mass per volume (same basis); across kinds amounts compare as
    printed."""
    gk, pk = gold.kind, predicted.kind
    if gk == pk:
        return True, gold.factor, predicted.factor
    g_base, _, g_basis = gk.partition(" ")
    p_base, _, p_basis = pk.partition(" ")
    if g_basis == p_basis:
        if p_base in PARTS and g_base in PARTS[p_base]:
            return True, gold.factor, PARTS[p_base][g_base]
        if g_base in PARTS and p_base in PARTS[g_base]:
            return True, PARTS[g_base][p_base], predicted.factor
    return False, 1.0, 1.0


def semantic_wrong_fields(gold: Prepared, predicted: Prepared) -> tuple[int, ...]:
    """Indices into FIELDS of the fields `predicted` has wrong in profile `semantic`."""
    a, b = gold.fields, predicted.fields
    if a == b:
        return ()
    same_kind, fa, fb = _unit_terms(gold, predicted)
    out = []
    # CAS: optional (the key already names the compound); a CAS given must be the compound's.
    if b[0] is not None and b[0] != a[0] and b[0] != cas_of(gold.key[1]):
        out.append(0)
    if not _close(a[1], fa, b[1], fb):
        out.append(1)
    if a[2] != b[2]:
        out.append(2)
    if not same_kind and a[3] != b[3]:
        out.append(3)
    if a[4] != b[4]:
        out.append(4)
    if not _close(a[5], fa, b[5], fb):
        out.append(5)
    return tuple(out)


def _close(x: float | None, fx: float, y: float | None, fy: float) -> bool:
    if x is None or y is None:
        return x is y
    return math.isclose(x * fx, y * fy, rel_tol=SEMANTIC_TOLERANCE, abs_tol=0.0)


# -- comparing two records ----------------------------------------------------------------------


def wrong_fields(profile: str, gold: Prepared, predicted: Prepared) -> tuple[int, ...]:
    """Indices into FIELDS of the fields the prediction has wrong (both prepared for `profile`:
    `prepare_semantic` for `semantic`, `prepare` for the others)."""
    if profile == "semantic":
        return semantic_wrong_fields(gold, predicted)
    a, b = gold.fields, predicted.fields
    if a == b:
        return ()
    if profile == "exact":
        return tuple(i for i in range(_N_FIELDS) if a[i] != b[i])
    same_kind = gold.kind == predicted.kind
    # Amounts of one kind compare in its canonical unit; across kinds, as printed.
    fa, fb = (gold.factor, predicted.factor) if same_kind else (1.0, 1.0)
    out = []
    for i in range(_N_FIELDS):
        if i == 3:  # unit: right when its kind is
            if not same_kind:
                out.append(i)
        elif i in (1, 5):  # result, reporting limit
            if not _same_amount(a[i], fa, b[i], fb):
                out.append(i)
        elif a[i] != b[i]:
            out.append(i)
    return tuple(out)


def _same_amount(x: float | None, fx: float, y: float | None, fy: float) -> bool:
    if x is None or y is None:
        return x is y
    return math.isclose(x * fx, y * fy, rel_tol=1e-9, abs_tol=0.0)


# -- the optimal assignment within one key ------------------------------------------------------


def max_weight_assignment(weights: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """Pairs (row, column) of a maximum-weight matching that pairs every row or every column.

    The Hungarian algorithm with potentials (Kuhn–Munkres, as in Jonker and Volgenant), exact,
    O(n²m) for n rows and m >= n columns; a wider-than-tall matrix is transposed first. Among
    equally good matchings the one found is fixed by the input order.
    """
    n = len(weights)
    m = len(weights[0]) if n else 0
    if n == 0 or m == 0:
        return []
    if n > m:
        transposed = [[weights[i][j] for i in range(n)] for j in range(m)]
        return sorted((i, j) for j, i in max_weight_assignment(transposed))
    top = max(max(row) for row in weights)
    cost = [[top - w for w in row] for row in weights]  # minimise cost = maximise weight
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    match = [0] * (m + 1)  # match[j] = row (1-based) assigned to column j, 0 = none
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        match[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = match[j0]
            delta = inf
            j1 = 0
            for j in range(1, m + 1):
                if not used[j]:
                    current = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if current < minv[j]:
                        minv[j] = current
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if match[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1
    return sorted((match[j] - 1, j - 1) for j in range(1, m + 1) if match[j])


# -- scoring a set of records -------------------------------------------------------------------

# The fields each per-field F1 counts: `value` is the result and the non-detect together;
# `sample` counts a record found under its sample (and compound), whatever its fields.
FIELD_SCORES: dict[str, tuple[int, ...]] = {
    "value": (1, 2),
    "unit": (3,),
    "qualifier": (4,),
    "reporting_limit": (5,),
    "sample": (),
}


@dataclass
class Tally:
    """One profile's outcome for one case."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    errors: list[ErrorKey] = field(default_factory=list)
    wrong: Counter = field(default_factory=Counter)  # field name -> wrong pairs
    pairs: int = 0  # answer records paired with a predicted one (right or not)
    # FIELD_SCORES name -> pairs with one of its fields wrong (counted on wrong pairs only, so
    # that the common right pair costs one increment)
    wrong_scored: Counter = field(default_factory=Counter)

    def metrics(self) -> dict[str, float]:
        out = {"tp": float(self.tp), "fp": float(self.fp), "fn": float(self.fn)}
        out["exact"] = 0.0 if self.errors else 1.0
        for name in FIELDS:
            out[f"wrong_{name}"] = float(self.wrong[name])
        for name in FIELD_SCORES:
            out[f"right_{name}"] = float(self.pairs - self.wrong_scored[name])
        return out


def _pair_weight(profile: str, gold: Prepared, predicted: Prepared) -> int:
    wrong = len(wrong_fields(profile, gold, predicted))
    return (_N_FIELDS + 1 if wrong == 0 else 0) + (_N_FIELDS - wrong)


def score_records(
    gold: Sequence[Record], predicted: Sequence[Record], profiles: Sequence[str] = PROFILES
) -> dict[str, Tally]:
    """Match `predicted` against `gold` and tally every profile (see the module docstring)."""
    tallies = {profile: Tally() for profile in profiles}
    gold_p, pred_p = [prepare(r) for r in gold], [prepare(r) for r in predicted]
    by_name = [profile for profile in profiles if profile != "semantic"]
    if by_name:
        _score(gold, gold_p, pred_p, by_name, tallies)
    if "semantic" in profiles:
        gold_s, pred_s = [semantic_of(p) for p in gold_p], [semantic_of(p) for p in pred_p]
        _score(gold, gold_s, pred_s, ["semantic"], tallies)
    return tallies


def _score(
    gold: Sequence[Record],
    gold_p: Sequence[Prepared],
    pred_p: Sequence[Prepared],
    profiles: Sequence[str],
    tallies: dict[str, Tally],
) -> None:
    """Tally `profiles`, which share one preparation (and so one grouping by key)."""
    gold_groups: dict[tuple[str, str], list[int]] = {}
    for i, p in enumerate(gold_p):
        gold_groups.setdefault(p.key, []).append(i)
    pred_groups: dict[tuple[str, str], list[int]] = {}
    for j, p in enumerate(pred_p):
        pred_groups.setdefault(p.key, []).append(j)
    names = {}  # key -> (sample, analyte) as the answer prints them (its first record of the key)
    for key, indices in gold_groups.items():
        first = gold[indices[0]]
        names[key] = (first.sample_id, first.analyte)

    # Error rank: the position of the answer record it concerns; extras after every answer record.
    ranked: dict[str, list[tuple[tuple, ErrorKey]]] = {profile: [] for profile in profiles}
    for key, g_indices in gold_groups.items():
        p_indices = pred_groups.get(key)
        sample, analyte = names[key]
        if p_indices is None:  # every record of the key missed
            for profile in profiles:
                tallies[profile].fn += len(g_indices)
                ranked[profile].append(((g_indices[0], 0, 0), ("missing-record", sample, analyte)))
            continue
        if len(g_indices) == 1 and len(p_indices) == 1:  # the common case: one record each
            i = g_indices[0]
            g, p = gold_p[i], pred_p[p_indices[0]]
            if g.fields == p.fields:
                for profile in profiles:
                    tally = tallies[profile]
                    tally.tp += 1
                    tally.pairs += 1
                continue
            for profile in profiles:
                _tally_pair(
                    tallies[profile],
                    ranked[profile],
                    i,
                    wrong_fields(profile, g, p),
                    sample,
                    analyte,
                )
            continue
        if len(p_indices) > 1:
            p_indices = sorted(p_indices, key=lambda j: _canonical(pred_p[j]))
        for profile in profiles:
            tally, out = tallies[profile], ranked[profile]
            weights = [
                [_pair_weight(profile, gold_p[i], pred_p[j]) for j in p_indices] for i in g_indices
            ]
            pairs = max_weight_assignment(weights)
            paired_gold = {gi for gi, _ in pairs}
            for gi, pj in pairs:
                i = g_indices[gi]
                _tally_pair(
                    tally,
                    out,
                    i,
                    wrong_fields(profile, gold_p[i], pred_p[p_indices[pj]]),
                    sample,
                    analyte,
                )
            for gi, i in enumerate(g_indices):
                if gi not in paired_gold:
                    tally.fn += 1
                    out.append(((i, 0, 0), ("missing-record", sample, analyte)))
            extra = len(p_indices) - len(pairs)
            if extra:
                tally.fp += extra
                out.append(((g_indices[-1], 2, 0), ("extra-record", sample, analyte)))
    end = len(gold)
    for key in sorted(k for k in pred_groups if k not in gold_groups):
        count = len(pred_groups[key])
        # Named by the least of the names its records give (the key itself for exact and value).
        label = min(pred_p[j].label for j in pred_groups[key])
        for profile in profiles:
            tallies[profile].fp += count
            ranked[profile].append(((end, 3, key), ("extra-record", label[0], label[1])))
    for profile in profiles:
        ranked[profile].sort(key=lambda item: item[0])
        tallies[profile].errors = list(dict.fromkeys(error for _, error in ranked[profile]))


def _tally_pair(
    tally: Tally, out: list, i: int, wrong: tuple[int, ...], sample: str, analyte: str
) -> None:
    tally.pairs += 1
    if not wrong:
        tally.tp += 1
        return
    tally.fp += 1
    tally.fn += 1
    for name, indices in FIELD_SCORES.items():
        if any(f in wrong for f in indices):
            tally.wrong_scored[name] += 1
    for f in wrong:
        tally.wrong[FIELDS[f]] += 1
        out.append(((i, 1, f), ("wrong-field", sample, analyte, FIELDS[f])))


def _canonical(p: Prepared) -> tuple:
    # None sorts before any value of its field; fields are compared position by position.
    return tuple((value is not None, value if value is not None else 0) for value in p.fields)


# -- summaries ----------------------------------------------------------------------------------


def case_scores(
    gold: Sequence[Record], predicted: Sequence[Record], *, category: str | None = None
) -> dict[str, CaseScore]:
    """One case's score in every profile, from `score_records`. With `category`, the tp, fp and
    fn counts again as `tp@<category>`, `fp@<category>` and `fn@<category>`."""
    out = {}
    for profile, tally in score_records(gold, predicted).items():
        metrics = tally.metrics()
        if category is not None:
            for name in ("tp", "fp", "fn"):
                metrics[f"{name}@{category}"] = metrics[name]
        out[profile] = CaseScore(errors=tuple(tally.errors), metrics=metrics)
    return out


# Headline measures after the type's own first four (record F1, the exact share, precision,
# recall): the F1 of each field (FIELD_SCORES).
FIELD_HEADLINE = tuple(f"{name}_f1" for name in FIELD_SCORES)


def pooled(
    totals: Mapping[str, float], cases: int, *, prefix: str = "record", exact_name: str = "exact"
) -> dict[str, float]:
    """Pooled record F1, precision and recall, the share of cases without an error, and the F1
    of each field, from the sums of the per-case metrics over `cases` cases
    (`BenchmarkType.summarize_totals`). Precision is left out (undefined) when nothing was
    predicted, recall when there was nothing to find."""
    tp, fp, fn = totals["tp"], totals["fp"], totals["fn"]
    out = {
        f"{prefix}_f1": f1(tp, fp, fn),
        exact_name: totals["exact"] / cases,
        **precision_recall(prefix, tp, fp, fn),
    }
    for name in FIELD_SCORES:
        # A field right on `right` records of tp + fp predicted and tp + fn gold ones.
        right = totals.get(f"right_{name}", 0.0)
        out[f"{name}_f1"] = 1.0 if not 2 * tp + fp + fn else 2 * right / (2 * tp + fp + fn)
    return out
