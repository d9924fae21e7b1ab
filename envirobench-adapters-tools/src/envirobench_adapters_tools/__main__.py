"""`python -m envirobench_adapters_tools NAME run --request FILE --output DIR` (or `describe`)."""

from __future__ import annotations

import importlib
import sys

from . import ADAPTERS


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in ADAPTERS:
        names = ", ".join(ADAPTERS)
        print(
            f"usage: python -m envirobench_adapters_tools NAME run|describe ... (NAME one of {names})",
            file=sys.stderr,
        )
        raise SystemExit(2)
    module = importlib.import_module(f"{__package__}.{ADAPTERS[args[0]][0]}")
    module.kit.main(args[1:])


if __name__ == "__main__":
    main()
