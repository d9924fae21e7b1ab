"""A configurable adapter for core's tests (count-words type). Behaviour comes from options.

Options: mode=<ok|crash|sleep|no-result|bad-json|wrong-format|missing|duplicate|extra|
invalid-prediction|failures|unpriced|overspend|failed-status|data-escape>,
off=ID:DELTA[,ID:DELTA] (count errors on chosen cases), cost=USD.
"""

import json
import os
import sys
import time


def main(argv):
    assert argv[0] == "run" and argv[1] == "--request" and argv[3] == "--output", argv
    with open(argv[2]) as fh:
        request = json.load(fh)
    out = argv[4]
    opts = request["options"]
    mode = opts.get("mode", "ok")
    offsets = {}
    for item in filter(None, opts.get("off", "").split(",")):
        cid, delta = item.split(":")
        offsets[cid] = int(delta)
    cost = float(opts.get("cost", "0"))
    if mode == "crash":
        print("something broke inside the adapter", file=sys.stderr)
        return 7
    if mode == "sleep":
        time.sleep(30)
    cases = request["cases"]
    preds = {c["id"]: {"count": len(c["input"]["text"].split()) + offsets.get(c["id"], 0)} for c in cases}
    with open(os.path.join(out, "progress.jsonl"), "a") as progress:
        for i in range(0, len(cases) + 1, max(1, len(cases) // 4)):
            progress.write(json.dumps({"done": i, "total": len(cases)}) + "\n")
    body = json.dumps(preds)
    if mode == "missing":
        preds.pop(cases[0]["id"])
        body = json.dumps(preds)
    elif mode == "extra":
        preds["not-a-case"] = {"count": 1}
        body = json.dumps(preds)
    elif mode == "duplicate":
        first = cases[0]["id"]
        body = body[:-1] + f', "{first}": {{"count": 1}}}}'
    elif mode == "invalid-prediction":
        preds[cases[1]["id"]] = {"count": "three"}
        body = json.dumps(preds)
    if mode != "no-result":
        with open(os.path.join(out, "predictions.json"), "w") as fh:
            fh.write(body)
    result = {
        "id": request["benchmark"]["id"],
        "status": "failed" if mode == "failed-status" else "completed",
        "format": "envirobench.wrong.v9" if mode == "wrong-format" else request["benchmark"]["format"],
        "data": "../escape.json" if mode == "data-escape" else "predictions.json",
        "adapter": {"name": "fake-adapter", "version": "1.0"},
        "systems": [{
            "role": "candidate", "model": request["model"],
            "cost_usd": 5.0 if mode == "overspend" else cost,
            "execution_failures": 2 if mode == "failures" else 0,
            "unpriced_attempts": 1 if mode == "unpriced" else 0,
        }],
    }
    if mode == "failed-status":
        result["error"] = "model endpoint unavailable"
    if mode == "no-result":
        return 0
    with open(os.path.join(out, "adapter-result.json"), "w") as fh:
        fh.write("{ not json" if mode == "bad-json" else json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
