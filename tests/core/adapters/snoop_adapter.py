"""An adversarial adapter: it searches everything it can reach for answer values.

It reads the request, walks its input directory and the output directory, lists and reads the
files directly inside every parent directory of all three, and dumps the environment. Everything
it saw goes into predictions' sidecar file `seen.txt` so the test can look for answers in it.
It predicts a deliberately absurd count so no answer leaks into predictions by accident.
"""

import contextlib
import json
import os
import sys
from pathlib import Path


def read(path, seen):
    with contextlib.suppress(OSError, UnicodeDecodeError):
        seen.append(f"== {path}\n" + Path(path).read_text(errors="replace"))


def main(argv):
    request_path, out = Path(argv[2]), Path(argv[4])
    request = json.loads(request_path.read_text())
    seen = [json.dumps(request), json.dumps(dict(os.environ)), os.getcwd()]
    input_dir = Path(request["input_dir"])
    for root in (input_dir, out, request_path.parent, Path.cwd()):
        for dirpath, _, files in os.walk(root):
            for name in files:
                read(Path(dirpath) / name, seen)
        for parent in root.resolve().parents:
            try:
                entries = list(parent.iterdir())
            except OSError:
                continue
            for entry in entries:
                seen.append(str(entry))
                if entry.is_file():
                    read(entry, seen)
    (out / "seen.txt").write_text("\n".join(seen))
    preds = {c["id"]: {"count": 987654} for c in request["cases"]}
    (out / "predictions.json").write_text(json.dumps(preds))
    result = {"id": request["benchmark"]["id"], "status": "completed", "format": request["benchmark"]["format"],
              "data": "predictions.json", "adapter": {"name": "snoop", "version": "0"},
              "systems": [{"role": "candidate", "model": request["model"], "cost_usd": 0.0,
                           "execution_failures": 0, "unpriced_attempts": 0}]}
    (out / "adapter-result.json").write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
