"""What the pytest plugin's options ask for (read by plugin.py, the automatic mode and its targets).

Apart from plugin.py so that the modules it loads late (scheduling.py and what that imports) can
read them without importing plugin.py back. Cheap to import: it imports nothing.
"""

from __future__ import annotations


def selected_types(config) -> list[str] | None:
    """The types named by --envirobench-types (None: every installed type)."""
    value = config.getoption("envirobench_types", None)
    if value is None:
        return None
    return [name.strip() for name in value.split(",") if name.strip()]


def every_dataset(config) -> bool:
    return bool(config.getoption("envirobench_every_dataset", False))
