"""A test adapter that answers from a fixture: option predictions=PATH names a JSON file mapping
case IDs to predictions; it writes the requested cases' predictions (those present) and a
completed result. Used by the report, review and browser tests with their own benchmark types.
Options `cost` (the candidate's total cost) and `usage=PATH` (a JSON list written as the result's
per-case `cases`) serve the site-tier tests.
"""

import json
import os
import sys


def main(argv):
    assert argv[0] == "run" and argv[1] == "--request" and argv[3] == "--output", argv
    with open(argv[2]) as fh:
        request = json.load(fh)
    out = argv[4]
    with open(request["options"]["predictions"]) as fh:
        fixture = json.load(fh)
    preds = {c["id"]: fixture[c["id"]] for c in request["cases"] if c["id"] in fixture}
    with open(os.path.join(out, "predictions.json"), "w") as fh:
        json.dump(preds, fh)
    result = {
        "id": request["benchmark"]["id"],
        "status": "completed",
        "format": request["benchmark"]["format"],
        "data": "predictions.json",
        "adapter": {"name": "fixture-adapter", "version": "1.0"},
        "systems": [{"role": "candidate", "model": request["model"], "cost_usd": float(request["options"].get("cost", 0.0)), "execution_failures": 0, "unpriced_attempts": 0}],
    }
    if "usage" in request["options"]:
        with open(request["options"]["usage"]) as fh:
            result["cases"] = json.load(fh)
    with open(os.path.join(out, "adapter-result.json"), "w") as fh:
        json.dump(result, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
