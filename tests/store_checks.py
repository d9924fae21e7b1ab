"""What every dataset store must do, checked alike for the file store (tests/core/test_stores.py)
and the S3 store (tests/stores/test_s3_store.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from envirobench import Registry
from envirobench.stores.transfer import push_dataset, stored_versions
from envirobench.testing import Interrupted

DATASET = "test/count-words-v1"


def push_interrupted(
    monkeypatch: pytest.MonkeyPatch,
    store: Any,
    registry: Registry,
    *,
    fails: Callable[[str, int], bool],
) -> None:
    """Push test/count-words-v1 to `store` while its class's `put` raises Interrupted at the upload
    `fails(key, n)` picks (n counts the uploads from 1), then give the class its `put` back. The
    push raises Interrupted and the store shows no version of the dataset."""
    store_class, real_put = type(store), type(store).put
    uploads = 0

    def failing_put(self, key, source, sha256):
        nonlocal uploads
        uploads += 1
        if fails(key, uploads):
            raise Interrupted(f"connection lost at upload {uploads} ({key})")
        return real_put(self, key, source, sha256)

    monkeypatch.setattr(store_class, "put", failing_put)
    with pytest.raises(Interrupted):
        push_dataset(DATASET, store, registry)
    monkeypatch.setattr(store_class, "put", real_put)
    assert stored_versions(store, DATASET) == {}
