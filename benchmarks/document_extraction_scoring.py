"""Scoring speed of `document-extraction`: many documents of many records, in memory, no PDFs.

    .venv/bin/python benchmarks/document_extraction_scoring.py [--documents 10000] [--records 200]
        [--repeat 3] [--seed 1] [--json out.json]

Each document's answer holds `--records` measurement records (10 samples x 20 analytes at the
default size, re-analyses included: some sample and analyte pairs appear twice), drawn from the
synthetic-report catalogue with a seeded stream. Each prediction starts from the answer,
shuffled, then takes the mistakes real systems make: a wrong result (3 % of records), a unit
converted (1 %), a non-detect read as a detection (1 %), a lost qualifier (1 %), a record
missed (2 %), an invented record (2 %) and duplicates listed in reverse order. Records,
answers and predictions are built as the type's attrs classes before timing starts.

Timed: `DocumentExtraction().score_case` on every document (both profiles, exact and value),
then `summarize` for each profile, exactly as a run scores. Reported: the best and median wall
time over the repeats, documents and records per second, peak RSS (getrusage, the whole
process). Results are measured, never asserted: see docs/performance.md for the recorded numbers.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import resource
import statistics
import sys
import time

import attrs

from envirobench import Case
from envirobench_extract.document_extraction import Answer, DocumentExtraction, Prediction
from envirobench_extract.records import Record
from envirobench_synth import catalogue
from envirobench_synth.labreport import LAYOUTS

SAMPLES = 10


def make_answer(rng: random.Random, count: int) -> Answer:
    per_sample = max(1, count // SAMPLES)
    analytes = catalogue.analytes_for("groundwater")
    records: list[Record] = []
    sample = 0
    while len(records) < count:
        sample_id = f"MW-{sample + 1:02d}"
        for analyte in rng.sample(analytes, min(per_sample, len(analytes))):
            if len(records) >= count:
                break
            unit = "µg/L" if analyte.group in ("voc", "pah", "svoc") else "mg/L"
            rl = rng.choice((0.5, 1.0, 2.0, 0.01, 0.005))
            if rng.random() < 0.4:
                record = Record(
                    sample_id,
                    analyte.name,
                    analyte.cas,
                    None,
                    True,
                    unit,
                    rng.choice((None, "U")),
                    rl,
                )
            else:
                value = round(rl * rng.uniform(0.3, 900.0), 4)
                record = Record(
                    sample_id,
                    analyte.name,
                    analyte.cas,
                    value,
                    False,
                    unit,
                    rng.choice((None, None, "J", "B")),
                    rl,
                )
            records.append(record)
            if (
                len(records) < count and not record.nondetect and rng.random() < 0.02
            ):  # a re-analysis
                records.append(
                    attrs.evolve(
                        record, result=round(record.result * 1.2, 4), qualifier="D", reporting_limit=rl * 10
                    )
                )
        sample += 1
    return Answer(records=tuple(records))


def make_prediction(rng: random.Random, answer: Answer) -> Prediction:
    out: list[Record] = []
    for r in answer.records:
        roll = rng.random()
        if roll < 0.02:
            continue  # missed
        # Each mistake is the key's record with one or two fields changed (attrs.evolve keeps the rest).
        if roll < 0.05 and r.result is not None:
            r = attrs.evolve(r, result=r.result * 1.1)
        elif roll < 0.06 and r.result is not None and r.unit == "µg/L":
            r = attrs.evolve(
                r, result=r.result / 1000, nondetect=False, unit="mg/L", reporting_limit=(r.reporting_limit or 0) / 1000
            )
        elif roll < 0.07 and r.nondetect:
            r = attrs.evolve(r, result=r.reporting_limit, nondetect=False, qualifier=None)
        elif roll < 0.08 and r.qualifier:
            r = attrs.evolve(r, qualifier=None)
        out.append(r)
        if rng.random() < 0.02:  # invented
            out.append(Record(r.sample_id, "Dieldrin", "60-57-1", 0.42, False, "µg/L", None, 0.1))
    rng.shuffle(out)
    return Prediction(records=tuple(out))


def build(documents: int, records: int, seed: int) -> list[tuple[Case, Answer, Prediction]]:
    rng = random.Random(seed)
    out = []
    for i in range(documents):
        answer = make_answer(rng, records)
        case = Case(f"de-{i:05d}", LAYOUTS[i % len(LAYOUTS)], None)
        out.append((case, answer, make_prediction(rng, answer)))
    return out


def score_all(btype: DocumentExtraction, items) -> dict[str, dict[str, float]]:
    by_profile: dict[str, list] = {profile: [] for profile in btype.PROFILES}
    for case, answer, prediction in items:
        for profile, score in btype.score_case(case, answer, prediction).items():
            by_profile[profile].append(score)
    return {profile: btype.summarize(profile, scores) for profile, scores in by_profile.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--records", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    items = build(args.documents, args.records, args.seed)
    build_s = time.perf_counter() - started
    total_records = sum(len(a.records) for _, a, _ in items)
    btype = DocumentExtraction()
    times = []
    headline = {}
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        headline = score_all(btype, items)
        times.append(time.perf_counter() - t0)
    best, median = min(times), statistics.median(times)
    result = {
        "documents": args.documents,
        "records": total_records,
        "build_s": round(build_s, 2),
        "score_best_s": round(best, 2),
        "score_median_s": round(median, 2),
        "documents_per_s": round(args.documents / best),
        "records_per_s": round(total_records / best),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "record_f1": {p: round(h["record_f1"], 4) for p, h in headline.items()},
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    print(json.dumps(result, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(result, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
