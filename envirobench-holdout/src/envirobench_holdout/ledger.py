"""The audit ledger: one append-only row per event, each hash chaining the one before.

A row is (seq, at, kind, body): `body` a JSON object (who, what, the scores, what was released).
Its hash is SHA-256 over the previous row's hash and the row's canonical JSON (keys sorted, no
whitespace, UTF-8), so changing, removing or reordering any row breaks every hash after it. The
first row chains GENESIS. An export is JSON Lines, one row a line with its `prev` and `hash`;
`verify_export` checks it from the file alone (`envirobench holdout verify`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs

GENESIS = "sha256:" + "0" * 64
EXPORT_FORMAT = "envirobench.holdout.ledger.v1"
KINDS = ("team", "key", "dataset", "submission", "round-closed")


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def row_hash(prev: str, seq: int, at: str, kind: str, body: Mapping[str, Any]) -> str:
    digest = hashlib.sha256(prev.encode("ascii") + b"\n" + canonical({"seq": seq, "at": at, "kind": kind, "body": body}))
    return "sha256:" + digest.hexdigest()


@attrs.frozen
class Row:
    seq: int
    at: str
    kind: str
    body: dict[str, Any]
    prev: str
    hash: str

    def line(self) -> str:
        return json.dumps({"format": EXPORT_FORMAT, **attrs.asdict(self)}, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


class LedgerBroken(Exception):
    """The chain does not verify: the message names the line and what is wrong."""


def verify_rows(rows: Iterable[Row]) -> int:
    """Check the chain; the number of rows. Raises LedgerBroken at the first bad row."""
    prev, count = GENESIS, 0
    for expected_seq, row in enumerate(rows, start=1):
        if row.seq != expected_seq:
            raise LedgerBroken(f"row {expected_seq}: seq is {row.seq}, expected {expected_seq} (a row is missing or out of order)")
        if row.prev != prev:
            raise LedgerBroken(f"row {row.seq}: prev is {row.prev}, but the row before hashes to {prev}")
        if row.kind not in KINDS:
            raise LedgerBroken(f"row {row.seq}: unknown kind {row.kind!r}")
        actual = row_hash(prev, row.seq, row.at, row.kind, row.body)
        if actual != row.hash:
            raise LedgerBroken(f"row {row.seq}: hash is {row.hash}, its content hashes to {actual} (the row was altered)")
        prev, count = row.hash, count + 1
    return count


def read_export(path: Path) -> Iterator[Row]:
    with path.open(encoding="utf-8") as fh:
        for lineno, text in enumerate(fh, start=1):
            try:
                value = json.loads(text)
                if value.pop("format") != EXPORT_FORMAT:
                    raise ValueError(f"format is not {EXPORT_FORMAT}")
                yield Row(**value)
            except (ValueError, TypeError, KeyError) as exc:
                raise LedgerBroken(f"{path}:{lineno}: not a ledger row ({exc})") from None


def verify_export(path: Path) -> tuple[int, str]:
    """(rows, the last hash) of a verified export."""
    rows = list(read_export(path))
    count = verify_rows(rows)
    return count, rows[-1].hash if rows else GENESIS
