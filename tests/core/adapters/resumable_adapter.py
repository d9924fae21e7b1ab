"""A count-words adapter that does one case at a time and appends each finished case to
cases.jsonl (the protocol's optional per-case output), for the salvage and resume tests.

Options: calls=PATH (each case it starts appends its ID: the tests count the calls); step=SECONDS
a case takes; off="ID:DELTA,..." (wrong counts, so that scores differ between cases). A resumed
run must have the options of the run it continues, so what the tests vary between attempts is
read from the JSON file PATH + ".control", when there is one: fail_after=N (after N cases, a
technical failure: exit status 1, no result) and bad=MODE (then a last line that is `malformed`,
`oversized` (4,000 bytes), names an `unknown` case, repeats (`duplicate`) the first, or whose
prediction is `invalid`; `unfinished`: a line cut short, no newline); trace=PATH (each case's log
lines written to traces/ID.log and named in the result's `cases`; PATH itself, when it is not
a file of the output, names no file core copied)."""

import json
import os
import sys
import time

BAD = {
    "malformed": '{"id": "c000001", "prediction": ',
    "oversized": json.dumps({"id": "c000002", "prediction": {"count": 1}, "padding": "x" * 4000}),
    "unknown": json.dumps({"id": "no-such-case", "prediction": {"count": 1}}),
    "invalid": json.dumps({"id": "c000004", "prediction": {"count": "many"}}),
}


def main(argv):
    with open(argv[argv.index("--request") + 1]) as fh:
        request = json.load(fh)
    out, options, cases = argv[argv.index("--output") + 1], request["options"], request["cases"]
    step = float(options.get("step", "0"))
    control = {}
    if os.path.exists(options["calls"] + ".control"):
        with open(options["calls"] + ".control") as fh:
            control = json.load(fh)
    fail_after = int(control.get("fail_after", -1))
    off = {k: int(v) for k, v in (item.split(":") for item in options.get("off", "").split(",") if item)}
    predictions = {}
    with open(os.path.join(out, "cases.jsonl"), "a") as lines, open(options["calls"], "a") as calls:
        for n, case in enumerate(cases):
            if n == fail_after:
                bad = control.get("bad")
                if bad == "duplicate":
                    lines.write(json.dumps({"id": cases[0]["id"], "prediction": {"count": 0}}) + "\n")
                elif bad == "unfinished":
                    lines.write('{"id": "' + case["id"] + '", "predic')
                elif bad:
                    lines.write(BAD[bad] + "\n")
                lines.flush()
                print(f"giving up after {n} cases", file=sys.stderr)
                sys.exit(1)
            calls.write(case["id"] + "\n")
            calls.flush()
            time.sleep(step)
            prediction = {"count": len(case["input"]["text"].split()) + off.get(case["id"], 0)}
            predictions[case["id"]] = prediction
            lines.write(json.dumps({"id": case["id"], "prediction": prediction, "cost_usd": 0.001, "wall_s": step}) + "\n")
            lines.flush()
            if control.get("trace"):
                os.makedirs(os.path.join(out, "traces"), exist_ok=True)
                with open(os.path.join(out, "traces", case["id"] + ".log"), "w") as fh:
                    fh.write(f"counted the words of {case['id']}\n")
    if fail_after == len(cases):  # every case finished, then a failure before the result
        sys.exit(1)
    with open(os.path.join(out, "predictions.json"), "w") as fh:
        json.dump(predictions, fh)
    result = {
        "id": request["benchmark"]["id"], "status": "completed", "format": request["benchmark"]["format"], "data": "predictions.json",
        "adapter": {"name": "resumable-adapter", "version": "1.0"},
        "systems": [{"role": "candidate", "model": request["model"], "cost_usd": 0.001 * len(cases), "execution_failures": 0, "unpriced_attempts": 0}],
    }
    if control.get("trace"):
        trace = control["trace"]
        result["cases"] = [{"id": c["id"], "cost_usd": 0.001, "trace": trace.replace("ID", c["id"])} for c in cases]
    with open(os.path.join(out, "adapter-result.json"), "w") as fh:
        json.dump(result, fh)


if __name__ == "__main__":
    main(sys.argv)
