"""Reference solver for `recognized-conditions`: the site's recognized environmental conditions
(ASTM E1527-21 classes) with the pages that support each.

Every page of the record is read (`site_record.read_site`) and cut into sentences. A condition
kind of the input is recognised by its cue: general vocabulary of site assessments for the
kinds commonly listed (petroleum tanks and their releases, waste oil, heating oil, bulk-plant
tanks and loading racks, ties and herbicides on rail lands, PCB equipment, chlorinated solvents,
vapor intrusion, hydraulic lifts, floor drains and dry wells, plating, drums and staining,
off-site sources, fill), and for any other kind the words of the kind's own name. A sentence
states a finding about the kind when the cue and a finding word (release, contamination,
impact, spill, staining, exceed, detected, recognized environmental condition, de minimis,
closure, no further action) meet in it or in the sentence that follows.

The class comes from the finding sentences that name one (controlled or historical recognized
environmental condition, CREC, HREC, de minimis, REC): the last such statement of the record,
in filing order, governs (a later assessment reclassifies an earlier one). A kind with findings
and no class named is a REC. Evidence: every page with a finding sentence about the kind.

Variants: `v1` (default) as above; `first-statement` takes the first class the record states (a
reader who stops at the oldest assessment).

Weaknesses: a finding worded without any cue of its kind is missed; a page that mentions the
kind's cue beside a finding word about something else is cited; classes stated only in a table
are not read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .. import site_record
from ..serves import Jitter, Prediction, Serves, Sources

SERVES = Serves("recognized-conditions", variants=("first-statement", "v1"))

# Cues of condition kinds, general vocabulary of site assessments.
CUES: dict[str, str] = {
    "petroleum-ust-release": r"\b(gasoline|diesel|petroleum|fuel)\b.{0,80}\b(UST|USTs|underground\s+storage\s+tanks?|tank\s+system|dispenser)|"
    r"\b(UST|USTs|underground\s+storage\s+tanks?)\b.{0,80}\b(gasoline|diesel|petroleum|fuel)\b|\bLUST\b",
    "waste-oil-ust": r"\b(waste|used)[\s-]oil\b",
    "heating-oil-tank": r"\bheating[\s-]oil\b|\bfuel[\s-]oil\s+tank\b",
    "ast-loading-rack-release": r"\b(AST|ASTs|above[\s-]?ground\s+(storage\s+)?tanks?|loading\s+rack|tank\s+farm|product\s+pip\w+)\b",
    "railroad-ties-herbicides": r"\b(rail(road|way)?\s+ties|cross[\s-]?ties|ballast|herbicides?|creosote)\b",
    "pcb-equipment": r"\b(PCBs?|polychlorinated\s+biphenyls?|transformers?)\b",
    "chlorinated-solvent-release": r"\b(PCE|TCE|tetrachloroethene|trichloroethene|chlorinated\s+solvents?|dry[\s-]?clean\w*|degreas\w*)\b",
    "vapor-intrusion": r"\bvapou?r\s+intrusion\b|\b(sub[\s-]?slab|indoor\s+air)\b",
    "hydraulic-lifts": r"\bhydraulic\s+(lifts?|hoists?)\b|\bin[\s-]ground\s+lifts?\b",
    "floor-drains-dry-well": r"\bfloor\s+drains?\b|\bdry\s+wells?\b|\bseptic\b",
    "plating-solutions": r"\bplating\b|\brinse\s+waters?\b|\b(chrom\w+|cyanide)\s+(bath|solution)s?\b",
    "drum-storage-staining": r"\bdrums?\b.{0,60}\b(stain\w*|spill\w*|leak\w*|storage)\b|\b(stain\w*|spill\w*|leak\w*)\b.{0,60}\bdrums?\b|"
    r"\bstain(ed|ing)\s+(pavement|concrete|floor)\b",
    "offsite-source": r"\b(off[\s-]?site|adjoining|adjacent|neighbou?ring|up[\s-]?gradient)\s+(propert\w+|source|release|facilit\w+|site)\b",
    "fill-material": r"\bfill(\s+material)?\s+of\s+unknown\b|\b(undocumented|imported|cinder|slag|ash|demolition|debris|urban)\s+fill\b|"
    r"\bfill\s+(material|soils?)\b",
}
FINDING = re.compile(r"\brelease[sd]?\b|\bcontaminat\w+|\bimpact\w*|\bspill\w*|\bstain\w*|\bexceed\w*|\bdetected\b|"
                     r"\brecogni[sz]ed\s+environmental\s+condition|(?<![^\s(\"'])[CH]?REC\b|\bde\s+minimis\b|\bclos(ed|ure)\b|"
                     r"\bno\s+further\s+action\b|\bplume\b|\bleak\w*", re.I)  # fmt: skip
CLASSES = (
    (
        "CREC",
        re.compile(r"\bcontrolled\s+recogni[sz]ed\s+environmental\s+condition|\bCREC\b", re.I),
    ),
    (
        "HREC",
        re.compile(r"\bhistorical\s+recogni[sz]ed\s+environmental\s+condition|\bHREC\b", re.I),
    ),
    ("de-minimis", re.compile(r"\bde[\s-]minimis\b", re.I)),
    # a class stands as a word: "%REC" (a surrogate's recovery), read by OCR as "&REC" or "6REC", is none
    ("REC", re.compile(r"\brecogni[sz]ed\s+environmental\s+condition|(?<![^\s(\"'])REC\b")),
)
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
MAX_SENTENCE_WORDS = 80


def cue_of(kind: str) -> re.Pattern[str]:
    """The kind's cue: the vocabulary above, or the words of its name all in one sentence."""
    if kind in CUES:
        return re.compile(CUES[kind], re.I)
    words = [w for w in kind.split("-") if len(w) > 2]
    return re.compile("".join(rf"(?=.*\b{re.escape(w)})" for w in words) or r"(?!)", re.I)


def class_of(text: str) -> str | None:
    for name, pattern in CLASSES:
        if pattern.search(text):
            return name
    return None


def solve(
    case_input: site_record.SiteCase, sources: Sources, variant: str, jitter: Jitter = None
) -> Prediction:
    pages = site_record.read_site(case_input, sources, jitter)
    cues = {kind: cue_of(kind) for kind in case_input.condition_kinds}
    evidence: dict[str, list[tuple[str, int]]] = {}
    classes: dict[str, list[str]] = {}
    for page in pages:
        sentences = SENTENCE.split(" ".join(page.lines))
        for k, sentence in enumerate(sentences):
            if len(sentence.split()) > MAX_SENTENCE_WORDS:
                continue  # a table read as one run of words states no finding
            following = sentences[k + 1] if k + 1 < len(sentences) else ""
            # a finding is about the kind its sentence names first (a dry well that received
            # solvents is a dry-well finding, not a solvent release)
            hits = [
                (m.start(), kind) for kind, cue in cues.items() for m in [cue.search(sentence)] if m
            ]
            for _, kind in sorted(hits)[:1]:
                # the finding, or the opinion that classifies it, may be the next sentence
                if not FINDING.search(sentence) and not class_of(following):
                    continue
                cited = evidence.setdefault(kind, [])
                if (page.file, page.number) not in cited:
                    cited.append((page.file, page.number))
                named = class_of(sentence) or (
                    class_of(following) if not cue_of_any(following, cues) else None
                )
                if named:
                    classes.setdefault(kind, []).append(named)
    conditions = []
    for kind in case_input.condition_kinds:
        if kind not in evidence:
            continue
        stated = classes.get(kind, [])
        if not stated:
            continue  # a kind mentioned beside a finding word but never assessed is no condition
        chosen = stated[0] if variant == "first-statement" else stated[-1]
        conditions.append({
            "kind": kind,
            "classification": chosen,
            "evidence": [{"file": f, "page": n} for f, n in evidence[kind]],
        })  # fmt: skip
    return {"conditions": conditions}


def cue_of_any(sentence: str, cues: Mapping[str, re.Pattern[str]]) -> bool:
    return any(cue.search(sentence) for cue in cues.values())
