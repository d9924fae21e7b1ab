"""API keys: `ebh_<key id>_<secret>`, shown once when made and stored only as a salted scrypt hash.

The key ID is public (it names the key in the ledger and the logs); the secret is 32 random bytes,
so the hash needs no slow work factor to resist guessing, but scrypt's is kept at a modest cost
(SCRYPT_N) as a defence in depth. A verified key is remembered by the process as a SHA-256 of the
secret, so a team's every request does not pay for scrypt again.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading

import attrs

PREFIX = "ebh"
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
KEY_PATTERN = re.compile(r"^ebh_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$")


@attrs.frozen
class MadeKey:
    key_id: str
    secret_key: str  # the whole key, shown once
    salt: bytes
    hashed: bytes


def scrypt(secret: str, salt: bytes) -> bytes:
    return hashlib.scrypt(secret.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, maxmem=64 << 20, dklen=32)


def make_key() -> MadeKey:
    key_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
    salt = secrets.token_bytes(16)
    return MadeKey(key_id, f"{PREFIX}_{key_id}_{secret}", salt, scrypt(secret, salt))


def parse_key(presented: str) -> tuple[str, str] | None:
    """(key ID, secret) of a well-formed key, else None."""
    match = KEY_PATTERN.match(presented)
    return (match.group(1), match.group(2)) if match else None


class KeyCheck:
    """Checks a presented secret against a stored salt and hash; remembers keys already verified."""

    def __init__(self) -> None:
        self._verified: dict[str, bytes] = {}
        self._lock = threading.Lock()

    def matches(self, key_id: str, secret: str, salt: bytes, hashed: bytes) -> bool:
        quick = hashlib.sha256(salt + secret.encode()).digest()
        with self._lock:
            known = self._verified.get(key_id)
        if known is not None:
            return hmac.compare_digest(known, quick)
        if not hmac.compare_digest(scrypt(secret, salt), hashed):
            return False
        with self._lock:
            self._verified[key_id] = quick
        return True
