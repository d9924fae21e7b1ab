"""Naming a store: a URL, or a name configured in a TOML file (docs/stores.md).

    --store file:///srv/bench-store              a URL: private unless it says otherwise
    --store 's3://acme-bench/envirobench?visibility=public'
    --store team                                 a name from the configuration

Configuration files, the first that defines a name wins:

1. the file named by ENVIROBENCH_STORES (when set, it is the only one read);
2. `envirobench.toml` in the project root (a project's shared names: the nearest directory, from
   the current directory up, holding `.envirobench/` or `envirobench.toml`; envirobench.state);
3. `$XDG_CONFIG_HOME/envirobench/stores.toml` (default `~/.config/envirobench/stores.toml`).

    [stores.team]
    url = "s3://acme-bench/envirobench"
    visibility = "private"          # the default
    endpoint = "https://minio.acme.internal:9000"   # other keys are the scheme's options

A relative `file:` path is relative to the current directory on the command line, to the project
root in a profile (a bench.json, or the project's overlay of an installed one), and to the
configuration file's directory in a configuration file. `rebase_store` rewrites one given on the
command line for a profile, when `bench promote --store` saves it.
Visibility defaults to private: the safe mistake is refusing to publish, not publishing.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit

import attrs

from ..errors import EnviroBenchError
from ..jsonio import read_text
from ..plugins import Registry
from ..state import Project, find_project
from . import PRIVATE, Store, StoreError, check_visibility

STORES_ENV = "ENVIROBENCH_STORES"
#: A store configuration names a few stores; a larger file is refused before it is read.
MAX_CONFIG_BYTES = 1 << 20
_SCHEME_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789+.-")


@attrs.frozen
class StoreSpec:
    """A resolved store: its URL (visibility taken out), visibility, and where it was named."""

    url: str
    visibility: str
    name: str | None
    origin: str  # "--store", a config file path, a bench.json path

    @property
    def scheme(self) -> str:
        return self.url.split(":", 1)[0]


def config_files() -> list[Path]:
    explicit = os.environ.get(STORES_ENV)
    if explicit:
        return [Path(explicit)]
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return [find_project().config, base / "envirobench" / "stores.toml"]


def is_url(value: str) -> bool:
    scheme, sep, _ = value.partition(":")
    return bool(sep) and len(scheme) > 1 and scheme[0].isalpha() and set(scheme.lower()) <= _SCHEME_CHARS


def configured_stores() -> dict[str, StoreSpec]:
    """Every configured name, the first definition of each winning."""
    out: dict[str, StoreSpec] = {}
    explicit = os.environ.get(STORES_ENV)
    for path in config_files():
        if not path.exists():
            if explicit:
                raise StoreError(f"{STORES_ENV} names a configuration file that does not exist", file=path)
            continue
        for name, spec in _read_config(path).items():
            out.setdefault(name, spec)
    return out


def _read_config(path: Path) -> dict[str, StoreSpec]:
    try:
        text = read_text(path, max_bytes=MAX_CONFIG_BYTES)  # a directory or a FIFO is refused, never read
    except EnviroBenchError as exc:
        raise StoreError(exc.message, file=exc.file, line=exc.line) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StoreError(f"not valid TOML: {exc}", file=path) from None
    except RecursionError:
        raise StoreError("not valid TOML: arrays or tables nested too deeply to read", file=path) from None
    stores = data.get("stores", {})
    if not isinstance(stores, dict):
        raise StoreError("[stores] must be a table of named stores", file=path, field="stores")
    out = {}
    for name, entry in stores.items():
        field = f"stores.{name}"
        if is_url(name) or not name or "/" in name:
            raise StoreError(f"store name {name!r} must not look like a URL or a path", file=path, field=field)
        if not isinstance(entry, dict):
            raise StoreError("a store must be a table with at least `url`", file=path, field=field)
        url = entry.get("url")
        if not isinstance(url, str) or not is_url(url):
            raise StoreError("`url` must be a store URL such as file:///srv/store or s3://bucket/prefix", file=path, field=field + ".url")
        options: dict[str, str] = {}
        visibility: str | None = None
        for key, value in entry.items():
            if key == "url":
                continue
            if not isinstance(value, str):
                raise StoreError(f"`{key}` must be a string", file=path, field=f"{field}.{key}")
            if key == "visibility":
                visibility = check_visibility(value, where=f"{path} {field}.visibility")
            else:
                options[key] = value
        try:
            out[name] = _resolve_url(url, origin=str(path), name=name, base=path.parent, visibility=visibility, options=options)
        except StoreError as exc:
            raise StoreError(exc.message, file=path, field=field) from None
    return out


def resolve(value: str, *, origin: str = "--store", base: Path | None = None) -> StoreSpec:
    """A store URL or a configured name -> StoreSpec. `base` anchors a relative file: path."""
    if not isinstance(value, str) or not value.strip():
        raise StoreError(f"{origin}: a store is a URL (file:///dir, s3://bucket/prefix) or a configured name")
    if is_url(value):
        return _resolve_url(value, origin=origin, name=None, base=base or Path.cwd())
    known = configured_stores()
    if value in known:
        return known[value]
    files = ", ".join(str(p) for p in config_files())
    names = ", ".join(sorted(known)) or "none"
    raise StoreError(
        f"{origin}: unknown store {value!r}: not a URL (file:///dir, s3://bucket/prefix) and not configured "
        f"(configured: {names}; configuration files: {files})"
    )


def _resolve_url(url: str, *, origin: str, name: str | None, base: Path, visibility: str | None = None, options: dict[str, str] | None = None) -> StoreSpec:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if "@" in parts.netloc:
        raise StoreError(f"{origin}: credentials do not belong in a store URL ({scheme}://…@…); use the environment or the tool's own configuration")
    if parts.fragment:
        raise StoreError(f"{origin}: a store URL has no #fragment")
    query: dict[str, str] = {}
    for key, val in parse_qsl(parts.query, keep_blank_values=True):
        if key in query:
            raise StoreError(f"{origin}: {key!r} is given twice in {url!r}")
        query[key] = val
    for key, val in (options or {}).items():
        if key in query and query[key] != val:
            raise StoreError(f"{origin}: {key!r} is {query[key]!r} in the URL and {val!r} beside it")
        query[key] = val
    if "visibility" in query:
        in_url = check_visibility(query.pop("visibility"), where=origin)
        if visibility is not None and visibility != in_url:
            raise StoreError(f"{origin}: the URL says visibility={in_url} but the configuration says {visibility}")
        visibility = in_url
    if scheme == "file":
        if parts.netloc not in ("", "localhost"):
            raise StoreError(f"{origin}: file URLs name a local directory (file:///abs/dir or file:relative/dir), not host {parts.netloc!r}")
        raw = unquote(parts.path)
        if not raw:
            raise StoreError(f"{origin}: {url!r} names no directory")
        path = Path(raw)
        if not path.is_absolute():
            path = base / path
        path = Path(os.path.normpath(path))
        location = "file://" + quote(str(path))
    else:
        location = f"{scheme}://{parts.netloc}{parts.path}"
    if query:
        location += "?" + urlencode(sorted(query.items()))
    return StoreSpec(location, visibility or PRIVATE, name, origin)


def rebase_store(value: str, project: Project) -> str:
    """A store as given on the command line, rewritten for a profile: a relative `file:` path
    (relative to the current directory) becomes relative to the project root; a configured name,
    another URL or an absolute path stays as it is."""
    if not is_url(value):
        return value
    parts = urlsplit(value)
    raw = unquote(parts.path)
    if parts.scheme.lower() != "file" or parts.netloc or not raw or Path(raw).is_absolute():
        return value
    rebased = quote(project.relative(Path(raw)), safe="/")
    return f"{parts.scheme}:{rebased}" + (f"?{parts.query}" if parts.query else "")


def open_spec(spec: StoreSpec, registry: Registry) -> Store:
    scheme = registry.stores.get(spec.scheme)
    if scheme is None:
        known = ", ".join(sorted(registry.stores)) or "none"
        raise StoreError(f"{spec.origin}: no plugin registers the store scheme {spec.scheme!r} (registered: {known})")
    store = scheme.factory(spec.url, spec.visibility)
    missing = [attr for attr in ("put", "get", "exists", "list", "url", "visibility") if not hasattr(store, attr)]
    if missing:
        raise StoreError(f"the {spec.scheme!r} store of plugin {scheme.plugin!r} lacks {', '.join(missing)}")
    return store


def open_store(value: str, registry: Registry, *, origin: str = "--store", base: Path | None = None) -> Store:
    return open_spec(resolve(value, origin=origin, base=base), registry)


def describe_spec(spec: StoreSpec) -> dict[str, Any]:
    return {"name": spec.name, "url": spec.url, "visibility": spec.visibility, "origin": spec.origin}
