"""The case cache: one JSON file per finished case, so a run that was interrupted or is made
again does not call `predict` (nor pay) again for the cases it has.

Where: `$ENVIROBENCH_ADAPTER_CACHE` (`envirobench run --adapter-cache DIR` mounts DIR read-write
for the adapter and sets it), under `<adapter name>/<2 hex digits>/<key>.json`. Without the
variable there is no cache: in the sandbox an adapter's home and /tmp are new every run.

The key is the SHA-256 of the canonical JSON of everything the prediction depends on as far as
the kit can see: the adapter's name and version, the model, the options (but `max_concurrency`),
the benchmark type and format, the case ID, the SHA-256 of the case's input (canonical JSON) and
the SHA-256 of every source file it uses. Change any (a new adapter version, another model, a
corrected input file) and the case is predicted again. The entry holds the key's material too,
and is used only when that matches exactly and its prediction still validates against the type;
anything else (a half-written file, another format, a changed type) is ignored and replaced.

One file per entry, written to a temporary name, fsynced and renamed (core's atomic write): an
interrupted write leaves the old entry or none, never half of one; any number of processes (the
repeats or shards of one run on one machine) can share the directory without a lock: two
writers of one key each write a whole, valid entry, and the last rename wins; a file system
shared between machines (NFS) is safe for this, where SQLite's locking is not; and one case is
dropped by deleting its file. The price is a file per case (100,000 cases: 100,000 small files,
spread over 256 directories).

A case whose cost is unknown (a model without a price) is never cached: reusing it would turn an
unpriced call into a free one.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from envirobench import EnviroBenchError, atomic_write_text, dumps, dumps_line, read_json

CACHE_ENV = "ENVIROBENCH_ADAPTER_CACHE"
ENTRY_FORMAT = "envirobench-adapter-kit.cache.v1"
SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def sha256_json(value: Any) -> str:
    return hashlib.sha256(dumps_line(value).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Entry:
    prediction: Any
    cost_usd: float
    wall_s: float | None
    made_at: str


class Cache:
    """A directory of entries, one adapter's."""

    def __init__(self, root: Path, adapter_name: str) -> None:
        if not SAFE_NAME.fullmatch(adapter_name):
            raise ValueError(f"an adapter name must be letters, digits, '.', '_' or '-', not {adapter_name!r}")
        self.dir = Path(root) / adapter_name
        self.ignored = 0  # entries found but not used (unreadable, another key, no longer valid)
        self._lock = threading.Lock()  # entries are read in the kit's threads

    @classmethod
    def from_environment(cls, adapter_name: str, environ: Mapping[str, str] = os.environ) -> Cache | None:
        value = environ.get(CACHE_ENV)
        if not value:
            return None
        root = Path(value)
        if not root.is_absolute():
            raise EnviroBenchError(f"{CACHE_ENV} must be an absolute path, not {value!r}")
        return cls(root, adapter_name)

    def path(self, key: str) -> Path:
        return self.dir / key[:2] / f"{key}.json"

    def get(self, material: Mapping[str, Any], validate: Callable[[Any], Any]) -> Entry | None:
        """The entry of this material, if there is one that is whole, of this key and valid."""
        path = self.path(sha256_json(material))
        if not path.is_file():
            return None
        try:
            data = read_json(path)
            if not (isinstance(data, dict) and data.get("format") == ENTRY_FORMAT and data.get("key") == dict(material)):
                raise ValueError("not an entry of this key")
            cost, wall = data["cost_usd"], data.get("wall_s")
            if isinstance(cost, bool) or not isinstance(cost, int | float) or cost < 0:
                raise ValueError("no cost")
            if wall is not None and (isinstance(wall, bool) or not isinstance(wall, int | float)):
                raise ValueError("a wall time that is not a number")
            prediction = validate(data["prediction"])
        except (EnviroBenchError, ValueError, KeyError, TypeError):
            with self._lock:
                self.ignored += 1
            return None
        return Entry(prediction, float(cost), None if wall is None else float(wall), str(data.get("made_at", "")))

    def put(self, material: Mapping[str, Any], prediction: Any, cost_usd: float, wall_s: float) -> None:
        entry = {
            "format": ENTRY_FORMAT,
            "key": dict(material),
            "prediction": prediction,
            "cost_usd": cost_usd,
            "wall_s": round(wall_s, 3),
            "made_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        }
        atomic_write_text(self.path(sha256_json(material)), dumps(entry))
