"""The prompts: one file per benchmark type (`prompts/<type-id>.md`) and the system prompt
(`prompts/system.md`), each versioned by its header and identified by its SHA-256.

A prompt file is a header, `version: N`, a line `---`, then the text. The adapter serves exactly
the types that have a prompt file. The SHA-256 of every prompt file goes into the adapter's
version (`0.2.0+prompts.<12 hex digits>`), which run.json records and every cache key holds, so a
changed prompt is a different system: its runs are told apart and no cached answer of the old
prompt is reused. Each run also writes the served type's prompt version and SHA-256 to its log.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

SYSTEM = "system"
_HEADER = re.compile(r"\Aversion: ([1-9][0-9]*)\n---\n", re.M)
_TYPE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class Prompt:
    name: str  # the type ID, or "system"
    version: int
    sha256: str  # of the file's bytes
    text: str

    def identity(self) -> str:
        return f"prompt {self.name} v{self.version} sha256:{self.sha256}"


def parse_prompt(name: str, data: bytes) -> Prompt:
    text = data.decode("utf-8")
    header = _HEADER.match(text)
    if header is None:
        raise ValueError(f"prompts/{name}.md: must start with 'version: N' and a line '---'")
    body = text[header.end():].strip()
    if not body:
        raise ValueError(f"prompts/{name}.md: the prompt is empty")
    return Prompt(name, int(header.group(1)), hashlib.sha256(data).hexdigest(), body)


@cache
def prompts() -> dict[str, Prompt]:
    """Every prompt shipped with the adapter, by name (type IDs and "system")."""
    found: dict[str, Prompt] = {}
    for entry in sorted(resources.files(__package__).joinpath("prompts").iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".md"):
            name = entry.name[: -len(".md")]
            if name != SYSTEM and not _TYPE_ID.match(name):
                raise ValueError(f"prompts/{entry.name}: not a benchmark type ID")
            found[name] = parse_prompt(name, entry.read_bytes())
    if SYSTEM not in found:
        raise ValueError("prompts/system.md is missing")
    return found


def served_types() -> list[str]:
    return sorted(name for name in prompts() if name != SYSTEM)


def prompts_digest() -> str:
    """One SHA-256 over every prompt file (name and content), for the adapter's version."""
    digest = hashlib.sha256()
    for name, prompt in sorted(prompts().items()):
        digest.update(f"{name}\0{prompt.sha256}\n".encode())
    return digest.hexdigest()
