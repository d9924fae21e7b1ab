"""Seeded randomness: independent, reproducible streams derived from one seed and string labels.

A generator draws each part of a dataset from its own stream, e.g. `make_random(SEED, "table",
"ts-0007")`, so adding a case or drawing one more number for case 7 never changes case 8.
Streams are derived by SHA-256 over a canonical encoding of the seed and labels: stable across
machines, processes and Python versions (Python's built-in `hash()` of a string is salted per
process and must never be used for this).

Which stream for what:
- `make_random` (`random.Random`) for choices, shuffles and parameters. Its algorithms (MT19937,
  `random()`, `getrandbits()`, `choice`, `shuffle`, `randint`, `uniform`) have been unchanged
  across Python versions, so byte-reproducible datasets draw from it.
- `make_bits` (numpy's PCG64 bit generator) for bulk integers such as a noise field: numpy
  guarantees the raw bit streams of its bit generators, so use `random_raw` and integer arithmetic.
- `make_rng` (`numpy.random.Generator`) for convenience where bytes need not be reproduced:
  numpy may change how its distributions (normal, integers, ...) turn bits into values between
  versions, and uv.lock resolves different numpy versions for different Python versions.
"""

from __future__ import annotations

import hashlib
import json
import random

import numpy as np

Label = str | int


def derive_seed(seed: int, *labels: Label) -> int:
    """A 128-bit integer that depends only on `seed` and the ordered `labels`."""
    for label in labels:
        # bool is an int subclass; True and 1 must not silently name the same stream.
        if isinstance(label, bool) or not isinstance(label, (str, int)):
            raise TypeError(f"stream labels must be str or int, got {label!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"the seed must be an int, got {seed!r}")
    # JSON gives an unambiguous encoding: ("ab", "c") and ("a", "bc") differ, as do 1 and "1".
    text = json.dumps([seed, *labels], ensure_ascii=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:16], "big")


def make_random(seed: int, *labels: Label) -> random.Random:
    """A `random.Random` stream for (seed, *labels)."""
    return random.Random(derive_seed(seed, *labels))


def make_bits(seed: int, *labels: Label) -> np.random.PCG64:
    """A PCG64 bit generator for (seed, *labels); read it with `random_raw` for stable bytes."""
    return np.random.PCG64(derive_seed(seed, *labels))


def make_rng(seed: int, *labels: Label) -> np.random.Generator:
    """A numpy Generator for (seed, *labels); see the module docstring before relying on its bytes."""
    return np.random.Generator(make_bits(seed, *labels))
