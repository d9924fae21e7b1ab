"""A slow, correct count-words adapter for the progress tests: it answers one case every
`step` seconds (option, default 0.3), appending {"done", "total"} to progress.jsonl after each.
With `pages=N`, each case is N pages read one per `step`, each page a line with the optional
"part": {"done": page, "total": N, "unit": "pages"} (as a site-tier adapter reports a record)."""

import json
import os
import sys
import time


def main(argv):
    with open(argv[2]) as fh:
        request = json.load(fh)
    out = argv[4]
    step = float(request["options"].get("step", "0.3"))
    pages = int(request["options"].get("pages", "0"))
    cases = request["cases"]
    with open(os.path.join(out, "progress.jsonl"), "a") as progress:
        for done in range(len(cases) + 1):
            progress.write(json.dumps({"done": done, "total": len(cases)}) + "\n")
            progress.flush()
            if done == len(cases):
                break
            for page in range(1, pages + 1):
                time.sleep(step)
                part = {"done": page, "total": pages, "unit": "pages"}
                progress.write(json.dumps({"done": done, "total": len(cases), "part": part}) + "\n")
                progress.flush()
            if not pages:
                time.sleep(step)
    with open(os.path.join(out, "predictions.json"), "w") as fh:
        json.dump({c["id"]: {"count": len(c["input"]["text"].split())} for c in cases}, fh)
    result = {
        "id": request["benchmark"]["id"], "status": "completed", "format": request["benchmark"]["format"], "data": "predictions.json",
        "adapter": {"name": "slow-adapter", "version": "1.0"},
        "systems": [{"role": "candidate", "model": request["model"], "cost_usd": 0.0, "execution_failures": 0, "unpriced_attempts": 0}],
    }
    with open(os.path.join(out, "adapter-result.json"), "w") as fh:
        json.dump(result, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
