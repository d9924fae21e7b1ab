"""`python -m {{ cookiecutter.package_name }}.generate [--output DIR] [--fixtures DIR]`.

Without --output it regenerates the shipped dataset and fixtures in place (the new files are
written beside them and swapped in, so an interrupted run leaves the old dataset whole). Any other
output directory must be absent or empty; --fixtures also writes correct.json and wrong.json there.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from ..well_ids import DATASET_DIR, FIXTURES_DIR
from .well_ids import generate, write_fixtures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m {{ cookiecutter.package_name }}.generate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, help="where to write the dataset [default: the shipped dataset directory]")
    parser.add_argument("--fixtures", type=Path, help="also write the prediction fixtures here [default with no --output: the shipped fixtures]")
    args = parser.parse_args(argv)
    if args.output is None or args.output.resolve() == DATASET_DIR.resolve():
        fresh = DATASET_DIR.with_name(f".{DATASET_DIR.name}.new")
        stale = DATASET_DIR.with_name(f".{DATASET_DIR.name}.old")
        for leftover in (fresh, stale):
            shutil.rmtree(leftover, ignore_errors=True)
        try:
            generate(fresh)
            if DATASET_DIR.exists():
                DATASET_DIR.rename(stale)
            fresh.rename(DATASET_DIR)
        finally:
            shutil.rmtree(fresh, ignore_errors=True)
            shutil.rmtree(stale, ignore_errors=True)
        print(f"regenerated {DATASET_DIR}", file=sys.stderr)
        fixtures = args.fixtures or FIXTURES_DIR
    else:
        if args.output.exists() and any(args.output.iterdir()):
            parser.error(f"{args.output} is not empty; generate into a new or empty directory")
        manifest = generate(args.output)
        print(f"wrote {len(manifest.files)} files to {args.output}", file=sys.stderr)
        fixtures = args.fixtures
    if fixtures is not None:
        write_fixtures(fixtures)
        print(f"wrote correct.json and wrong.json to {fixtures}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
