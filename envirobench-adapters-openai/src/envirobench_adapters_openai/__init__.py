"""An EnviroBench adapter for any OpenAI-compatible chat-completions server, on the adapter kit.

    envirobench run --adapter openai-compatible --model openai/gpt-4o-mini \
        --adapter-option base_url=https://api.openai.com/v1 --adapter-option model=gpt-4o-mini \
        --adapter-option 'prices={"openai/gpt-4o-mini": {"input_per_mtok": 0.15, "output_per_mtok": 0.6}}' \
        --adapter-env OPENAI_API_KEY --benchmark table-separators --budget 1 ...

See docs/adapters/openai.md. It has not been run against a live model in this repository.
"""

from __future__ import annotations

from importlib import metadata

try:
    __version__ = metadata.version("envirobench-adapters-openai")
except metadata.PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0+unknown"

__all__ = ["__version__"]
