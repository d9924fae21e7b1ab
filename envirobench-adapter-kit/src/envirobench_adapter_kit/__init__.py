"""The EnviroBench adapter kit: write one predict function per benchmark type; the kit speaks the
adapter protocol (`envirobench.adapter.v1`) around it. See docs/writing-an-adapter.md.

    from envirobench_adapter_kit import Adapter

    kit = Adapter(name="my-adapter", version="0.1.0", prices={"my/model": {"input_per_mtok": 1.0, "output_per_mtok": 2.0}})

    @kit.predict("count-words", max_input_tokens=2_000, max_output_tokens=20)
    def count(case, ctx):
        ctx.usage(input_tokens=10, output_tokens=2)
        return {"count": len(case.input["text"].split())}

    if __name__ == "__main__":
        kit.main()
"""

from __future__ import annotations

from importlib import metadata

try:
    __version__ = metadata.version("envirobench-adapter-kit")
except metadata.PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0+unknown"

from .adapter import PREDICTIONS_FILE, REPORT_FILE, Adapter, KitError, Report  # noqa: E402
from .cache import CACHE_ENV  # noqa: E402
from .context import Context, RetryableError, Transient  # noqa: E402
from .engine import Outcome  # noqa: E402
from .request import Case  # noqa: E402

__all__ = [
    "CACHE_ENV",
    "PREDICTIONS_FILE",
    "REPORT_FILE",
    "Adapter",
    "Case",
    "Context",
    "KitError",
    "Outcome",
    "Report",
    "RetryableError",
    "Transient",
    "__version__",
]
