"""The `s3` store: any S3-compatible service (AWS S3, MinIO, SeaweedFS, ...), through boto3.

URL: `s3://BUCKET[/PREFIX][?endpoint=URL&region=NAME&profile=NAME&addressing=path|virtual|auto]`.
The endpoint and credentials otherwise come from where boto3 always looks: AWS_ENDPOINT_URL_S3 /
AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ~/.aws/config and
~/.aws/credentials. This module is imported only when an s3 store is opened, and needs boto3
(`envirobench-core[s3]`); without it, opening an s3 store says how to install it.

An upload is one PUT (never multipart, so never a half-finished upload left behind): the service
makes the object visible only when the whole body has arrived and matches the
`x-amz-checksum-sha256` sent with it. `If-None-Match: *` makes the PUT create-only, so a
different object under the key is never replaced, even by a racing upload. Objects are read
with checksum validation on and verified against the SHA-256 the caller expects.
Single-PUT uploads limit an object to 5 GiB.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import parse_qsl, urlencode, urlsplit

try:
    import boto3
    from botocore.config import Config
    from botocore.exceptions import (
        BotoCoreError,
        ClientError,
        EndpointConnectionError,
        FlexibleChecksumError,
        NoCredentialsError,
        PartialCredentialsError,
    )
except ModuleNotFoundError:  # envirobench-core without the [s3] extra: refused when a client is made
    boto3 = None
    BotoCoreError = ClientError = EndpointConnectionError = FlexibleChecksumError = NoCredentialsError = PartialCredentialsError = type(
        "BotocoreMissing", (Exception,), {}
    )

from . import (
    CHUNK,
    ChecksumMismatch,
    ObjectConflict,
    ObjectNotFound,
    Source,
    StoreError,
    check_key,
    check_sha256,
    check_visibility,
    iter_chunks,
    open_source,
    write_verified,
)

OPTIONS = ("endpoint", "region", "profile", "addressing")
_NOT_FOUND = {"404", "NoSuchKey", "NotFound"}
_EXISTS = {"412", "PreconditionFailed", "409", "ConditionalRequestConflict"}
_BAD_DIGEST = {"BadDigest", "InvalidDigest", "XAmzContentSHA256Mismatch", "InvalidChecksum"}
_DENIED = {"403", "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "Forbidden"}


def _b64(digest: bytes) -> str:
    return base64.b64encode(digest).decode("ascii")


class S3Store:
    """Objects under `s3://bucket/prefix/`."""

    def __init__(
        self,
        bucket: str,
        prefix: str,
        visibility: str,
        *,
        endpoint: str | None = None,
        region: str | None = None,
        profile: str | None = None,
        addressing: str | None = None,
    ) -> None:
        if not bucket:
            raise StoreError("an s3 store URL names a bucket: s3://BUCKET/PREFIX")
        self.bucket = bucket
        self.prefix = prefix.strip("/")
        if self.prefix:
            check_key(self.prefix)
        if addressing not in (None, "path", "virtual", "auto"):
            raise StoreError(f"s3 addressing must be path, virtual or auto, not {addressing!r}")
        self.visibility = check_visibility(visibility, where=f"s3 store {bucket}")
        self.endpoint = endpoint or None
        self.region = region or None
        self.profile = profile or None
        self.addressing = addressing
        shown = {k: v for k, v in (("endpoint", self.endpoint), ("region", self.region), ("profile", self.profile)) if v}
        self.url = f"s3://{bucket}/{self.prefix}" + (f"?{urlencode(shown)}" if shown else "")
        self._client_obj: Any = None

    @classmethod
    def from_url(cls, url: str, visibility: str) -> S3Store:
        parts = urlsplit(url)
        if parts.scheme != "s3":
            raise StoreError(f"not an s3 URL: {url!r}")
        options = dict(parse_qsl(parts.query, keep_blank_values=True))
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise StoreError(f"unknown s3 store option(s) {', '.join(unknown)} in {url!r} (known: {', '.join(OPTIONS)}, visibility)")
        return cls(parts.netloc, parts.path, visibility, **options)

    def __repr__(self) -> str:
        return f"S3Store({self.url!r}, {self.visibility!r})"

    # -- the client ----------------------------------------------------------------------------

    @property
    def client(self) -> Any:
        if self._client_obj is None:
            self._client_obj = self._make_client()
        return self._client_obj

    def _make_client(self) -> Any:
        if boto3 is None:
            raise StoreError("s3:// stores need boto3, which is not installed: pip install 'envirobench-core[s3]'")
        try:
            session = boto3.session.Session(profile_name=self.profile) if self.profile else boto3.session.Session()
        except BotoCoreError as exc:
            raise StoreError(f"{self.url}: {exc}") from None
        custom = self.endpoint or os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
        addressing = self.addressing or ("path" if custom else "auto")
        region = self.region or session.region_name or ("us-east-1" if custom else None)
        config = Config(
            s3={"addressing_style": addressing},
            retries={"mode": "standard", "max_attempts": 3},
            connect_timeout=10,
            read_timeout=120,
        )
        return session.client("s3", endpoint_url=self.endpoint, region_name=region, config=config)

    def _full(self, key: str) -> str:
        check_key(key)
        return f"{self.prefix}/{key}" if self.prefix else key

    def _where(self) -> str:
        endpoint = self.endpoint or os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
        return f" at {endpoint}" if endpoint else ""

    def _error(self, exc: BaseException, action: str, key: str) -> StoreError:
        """A clear StoreError for what boto3 raised."""
        if isinstance(exc, ClientError):
            code = _code(exc)
            message = exc.response.get("Error", {}).get("Message") or ""
            if code == "NoSuchBucket":
                return StoreError(f"{self.url}: bucket {self.bucket!r} does not exist{self._where()}; create it first (EnviroBench never creates or deletes buckets)")
            if code in _DENIED:
                return StoreError(
                    f"{self.url}: access denied while {action} {key!r} ({code}{': ' + message if message else ''}); "
                    "check the credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE or ~/.aws/credentials)"
                )
            if code in _BAD_DIGEST:
                return ChecksumMismatch(f"{self.url}: the service refused the bytes of {key!r} as not matching their SHA-256 ({code}); nothing was stored")
            return StoreError(f"{self.url}: {action} {key!r} failed: {code}{': ' + message if message else ''}")
        if isinstance(exc, NoCredentialsError | PartialCredentialsError):
            return StoreError(
                f"{self.url}: no usable S3 credentials ({exc}); set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
                "or AWS_PROFILE, or add them to ~/.aws/credentials"
            )
        if isinstance(exc, EndpointConnectionError):
            return StoreError(f"{self.url}: cannot reach the S3 service{self._where()}: {exc}")
        if isinstance(exc, BotoCoreError):
            return StoreError(f"{self.url}: {action} {key!r} failed: {exc}")
        return StoreError(f"{self.url}: {action} {key!r} failed: {type(exc).__name__}: {exc}")

    def _head(self, full: str, key: str) -> dict[str, Any] | None:
        try:
            return self.client.head_object(Bucket=self.bucket, Key=full, ChecksumMode="ENABLED")
        except ClientError as exc:
            if _code(exc) in _NOT_FOUND:
                return None
            raise self._error(exc, "checking", key) from None
        except BotoCoreError as exc:
            raise self._error(exc, "checking", key) from None

    @staticmethod
    def _recorded_sha256(response: dict[str, Any]) -> str | None:
        """The SHA-256 the service recorded for the whole object, if it kept one."""
        value = response.get("ChecksumSHA256")
        if isinstance(value, str) and "-" not in value:  # "-N" marks a multipart composite
            try:
                raw = base64.b64decode(value, validate=True)
            except ValueError:
                raw = b""
            if len(raw) == 32:
                return raw.hex()
        meta = (response.get("Metadata") or {}).get("sha256")
        if isinstance(meta, str) and len(meta) == 64 and all(c in "0123456789abcdef" for c in meta):
            return meta
        return None

    # -- the protocol -------------------------------------------------------------------------

    def put(self, key: str, source: Source, sha256: str) -> bool:
        check_sha256(sha256, key=key)
        full = self._full(key)
        existing = self._head(full, key)
        if existing is not None:
            return self._same(full, key, existing, sha256)
        with open_source(source) as handle:
            body, size, md5 = self._prepare(source, handle, key, sha256)
            kwargs: dict[str, Any] = {
                "Bucket": self.bucket,
                "Key": full,
                "Body": body,
                "ContentLength": size,
                "ChecksumSHA256": _b64(bytes.fromhex(sha256)),
                "Metadata": {"sha256": sha256},
                "IfNoneMatch": "*",
            }
            if md5 is not None:
                kwargs["ContentMD5"] = _b64(md5)
            try:
                self.client.put_object(**kwargs)
            except ClientError as exc:
                if _code(exc) in _EXISTS:  # another upload created it meanwhile
                    current = self._head(full, key)
                    if current is not None:
                        return self._same(full, key, current, sha256)
                raise self._error(exc, "uploading", key) from None
            except BotoCoreError as exc:
                raise self._error(exc, "uploading", key) from None
        stored = self._head(full, key)
        if stored is None:
            raise StoreError(f"{self.url}: {key!r} was uploaded but is not there; the service is inconsistent")
        recorded = self._recorded_sha256(stored)
        if recorded is not None and recorded != sha256:
            raise StoreError(f"{self.url}: the service recorded SHA-256 {recorded} for {key!r}, not {sha256}; do not trust this object")
        if md5 is not None and recorded is None and stored.get("ETag", "").strip('"') not in (md5.hex(), ""):
            raise StoreError(f"{self.url}: the service's ETag for {key!r} is not the MD5 of the uploaded bytes; do not trust this object")
        return True

    def _prepare(self, source: Source, handle: BinaryIO, key: str, sha256: str) -> tuple[BinaryIO, int, bytes | None]:
        """(body, size, md5). Files and bytes are checked before anything is sent; a stream is
        sent as it is read, and the service refuses it unless it has the stated SHA-256."""
        if isinstance(source, bytes | bytearray | memoryview | str | os.PathLike):
            digest, md5, size = hashlib.sha256(), hashlib.md5(usedforsecurity=False), 0
            for chunk in iter_chunks(handle):
                digest.update(chunk)
                md5.update(chunk)
                size += len(chunk)
            if digest.hexdigest() != sha256:
                raise ChecksumMismatch(f"{self.url}: the bytes for {key!r} have SHA-256 {digest.hexdigest()}, expected {sha256}; nothing was uploaded")
            handle.seek(0)
            return handle, size, md5.digest()
        try:
            start = handle.tell()
            end = handle.seek(0, io.SEEK_END)
            handle.seek(start)
            return handle, end - start, None
        except (AttributeError, OSError, ValueError):
            spool = tempfile.SpooledTemporaryFile(max_size=16 * CHUNK)  # noqa: SIM115 - closed with the upload
            size = 0
            for chunk in iter_chunks(handle):
                spool.write(chunk)
                size += len(chunk)
            spool.seek(0)
            return spool, size, None  # type: ignore[return-value]

    def _same(self, full: str, key: str, head: dict[str, Any], sha256: str) -> bool:
        recorded = self._recorded_sha256(head)
        if recorded is None:  # the service kept no checksum: read the object to compare
            digest = hashlib.sha256()
            for chunk in self._stream(full, key)[0]:
                digest.update(chunk)
            recorded = digest.hexdigest()
        if recorded != sha256:
            raise ObjectConflict(
                f"{self.url}: {key!r} already holds different bytes (SHA-256 {recorded}, this upload {sha256}); "
                "a stored object is never replaced"
            )
        return False

    def _stream(self, full: str, key: str) -> tuple[Iterator[bytes], dict[str, Any]]:
        try:
            response = self.client.get_object(Bucket=self.bucket, Key=full, ChecksumMode="ENABLED")
        except ClientError as exc:
            if _code(exc) in _NOT_FOUND:
                raise ObjectNotFound(f"{self.url}: no object {key!r}") from None
            raise self._error(exc, "downloading", key) from None
        except BotoCoreError as exc:
            raise self._error(exc, "downloading", key) from None
        body = response["Body"]

        def chunks() -> Iterator[bytes]:
            try:
                yield from body.iter_chunks(CHUNK)
            except FlexibleChecksumError:
                raise ChecksumMismatch(f"{self.url}: {key!r} does not match the checksum the service recorded for it: the stored object is corrupted") from None
            except (BotoCoreError, OSError) as exc:
                raise StoreError(f"{self.url}: downloading {key!r} was interrupted: {exc}") from None
            finally:
                body.close()

        return chunks(), response

    def get(self, key: str, dest: Path, sha256: str | None) -> str:
        if sha256 is not None:
            check_sha256(sha256, key=key)
        chunks, response = self._stream(self._full(key), key)
        expected = sha256 or self._recorded_sha256(response)
        return write_verified(chunks, Path(dest), expected, what=f"{self.url} {key!r}")

    def exists(self, key: str) -> bool:
        return self._head(self._full(key), key) is not None

    def list(self, prefix: str = "") -> list[str]:
        base = f"{self.prefix}/" if self.prefix else ""
        keys = []
        try:
            for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=base + prefix):
                for item in page.get("Contents", ()):
                    keys.append(item["Key"][len(base):])
        except (ClientError, BotoCoreError) as exc:
            raise self._error(exc, "listing", prefix or "/") from None
        return sorted(keys)


def _code(exc: Any) -> str:
    error = exc.response.get("Error", {}) if hasattr(exc, "response") else {}
    code = str(error.get("Code") or "")
    status = str(exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", "")) if hasattr(exc, "response") else ""
    return code or status
