"""Public names imported on first use (PEP 562), for the packages whose import must stay cheap.

`envirobench` and `envirobench.conformance` are imported in places where nothing behind their
names is wanted yet: every `envirobench` command, and every pytest session of a project that has
envirobench-core installed (the conformance plugin). Their names resolve when first touched.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str], namespace: dict[str, Any]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """(`__getattr__`, `__dir__`) for a module whose public `name` lives in module `exports[name]`.

    A resolved name is stored in the module's namespace, so it is looked up once."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
