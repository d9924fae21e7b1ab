"""An example system under test: reads monitoring well IDs with regular expressions.

It speaks the EnviroBench adapter protocol (`envirobench.adapter.v1`): core starts

    python -m {{ cookiecutter.package_name }}.adapter run --request FILE --output DIR

and this writes DIR/predictions.json and, last, DIR/adapter-result.json. Replace the body of
`predict` with a call to your own product or model; keep the protocol around it.

Option `variant` (`--adapter-option variant=...`, or `options` in bench.json):
- `baseline`: only hyphenated IDs ("MW-7", "MW-07");
- `improved` (the default): also "MW 7", "MW7" and "monitoring well 7".
Neither reads shorthand lists ("MW-3, -5 and -9"), so some errors remain for you to fix.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from envirobench import hookimpl

from . import __version__
from .well_ids import canonical, well_sort_key

ADAPTER_NAME = "{{ cookiecutter.adapter_name }}"
VARIANTS = {
    "baseline": re.compile(r"\bMW-0*([1-9][0-9]*)([RDS]?)\b"),
    "improved": re.compile(r"\b(?:MW|monitoring well)[ -]?0*([1-9][0-9]*)([RDS]?)\b", re.IGNORECASE),
}
DEFAULT_VARIANT = "improved"


def predict(text: str, variant: str) -> list[str]:
    """The wells named in `text`, canonical and sorted."""
    found = {canonical(int(m[1]), m[2]) for m in VARIANTS[variant].finditer(text)}
    return sorted(found, key=well_sort_key)


def run(request_path: Path, output: Path) -> int:
    request = json.loads(request_path.read_text(encoding="utf-8"))
    options = request.get("options", {})
    unknown = sorted(set(options) - {"variant"})
    variant = options.get("variant", DEFAULT_VARIANT)
    if unknown or variant not in VARIANTS:
        print(f"{ADAPTER_NAME}: unknown option(s) {unknown} or variant {variant!r} (variants: {', '.join(VARIANTS)})", file=sys.stderr)
        return 1
    output.mkdir(parents=True, exist_ok=True)
    cases = request["cases"]
    predictions = {}
    with (output / "progress.jsonl").open("a", encoding="utf-8") as progress:
        for done, case in enumerate(cases, start=1):
            predictions[case["id"]] = {"wells": predict(case["input"]["text"], variant)}
            progress.write(json.dumps({"done": done, "total": len(cases)}) + "\n")
    (output / "predictions.json").write_text(json.dumps(predictions, indent=1, sort_keys=True), encoding="utf-8")
    result = {
        "id": request["benchmark"]["id"],
        "status": "completed",
        "format": request["benchmark"]["format"],
        "data": "predictions.json",
        "adapter": {"name": ADAPTER_NAME, "version": __version__},
        # Report every system you call, with its real cost; a failed call you could not
        # resolve goes into execution_failures (the run is then a technical failure, not a score).
        "systems": [{"role": "candidate", "model": request["model"], "cost_usd": 0.0, "execution_failures": 0, "unpriced_attempts": 0}],
    }
    (output / "adapter-result.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(f"{ADAPTER_NAME}: {len(predictions)} case(s), variant {variant}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=ADAPTER_NAME, description="An EnviroBench adapter reading monitoring well IDs.")
    commands = parser.add_subparsers(dest="command", required=True)
    run_parser = commands.add_parser("run", help="answer every case of a request")
    run_parser.add_argument("--request", type=Path, required=True)
    run_parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args(argv)
    return run(args.request, args.output)


@hookimpl
def envirobench_adapters(register):
    """The plugin's second entry point (pyproject.toml) registers the adapter by its name: the
    interpreter that loaded this module has the adapter installed."""
    register(ADAPTER_NAME, [sys.executable, "-m", __name__])


if __name__ == "__main__":
    sys.exit(main())
