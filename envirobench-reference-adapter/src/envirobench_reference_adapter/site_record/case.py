"""The case input of every site type (`parse_input`): the site, its volumes (PDF files with page
counts, no document boundaries given), the site's analytes (name, CAS number, the synonyms the
record prints), matrices, the standards JSON asset and the condition and event kinds a prediction
may name.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from .. import inputs


@dataclass(frozen=True)
class AnalyteRow:
    name: str
    cas: str
    synonyms: tuple[str, ...]


@dataclass(frozen=True)
class SiteCase:
    site: str
    name: str
    address: str
    as_of: str
    volumes: tuple[tuple[str, int], ...]  # (dataset-relative path, pages)
    pages: int
    analytes: tuple[AnalyteRow, ...]
    matrices: tuple[str, ...]
    standards: str
    condition_kinds: tuple[str, ...]
    event_kinds: tuple[str, ...]


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: must be a list")
    return tuple(inputs.string(v, f"{where}[{k}]") for k, v in enumerate(value))


def parse_input(raw: Any, where: str) -> SiteCase:
    keys = ("site", "name", "address", "as_of", "volumes", "pages", "analytes", "matrices",
            "standards", "condition_kinds", "event_kinds")  # fmt: skip
    data = inputs.fields(raw, where, keys, ("condition_classes",))
    volumes = data["volumes"]
    if not isinstance(volumes, list) or not volumes:
        raise ValueError(f"{where}.volumes: must be a non-empty list")
    parsed_volumes = []
    for k, volume in enumerate(volumes):
        item = inputs.fields(volume, f"{where}.volumes[{k}]", ("file", "pages"))
        path = inputs.string(item["file"], f"{where}.volumes[{k}].file", suffix=".pdf")
        if ".." in PurePosixPath(path).parts or path.startswith("/"):
            raise ValueError(f"{where}.volumes[{k}].file: must be a dataset-relative path")
        parsed_volumes.append(
            (path, inputs.positive_int(item["pages"], f"{where}.volumes[{k}].pages"))
        )
    analytes = data["analytes"]
    if not isinstance(analytes, list):
        raise ValueError(f"{where}.analytes: must be a list")
    rows = []
    for k, entry in enumerate(analytes):
        item = inputs.fields(entry, f"{where}.analytes[{k}]", ("name",), ("cas", "synonyms"))
        rows.append(
            AnalyteRow(
                inputs.string(item["name"], f"{where}.analytes[{k}].name"),
                ""
                if item.get("cas") is None
                else inputs.string(item["cas"], f"{where}.analytes[{k}].cas"),
                _strings(item.get("synonyms", []), f"{where}.analytes[{k}].synonyms"),
            )
        )
    as_of = inputs.string(data["as_of"], f"{where}.as_of")
    try:
        dt.date.fromisoformat(as_of)
    except ValueError:
        raise ValueError(f"{where}.as_of: must be an ISO date") from None
    if not isinstance(data["address"], str):
        raise ValueError(f"{where}.address: must be a string")
    return SiteCase(
        site=inputs.string(data["site"], f"{where}.site"),
        name=inputs.string(data["name"], f"{where}.name"),
        address=data["address"],
        as_of=as_of,
        volumes=tuple(parsed_volumes),
        pages=inputs.positive_int(data["pages"], f"{where}.pages"),
        analytes=tuple(rows),
        matrices=_strings(data["matrices"], f"{where}.matrices"),
        standards=inputs.string(data["standards"], f"{where}.standards", suffix=".json"),
        condition_kinds=_strings(data["condition_kinds"], f"{where}.condition_kinds"),
        event_kinds=_strings(data["event_kinds"], f"{where}.event_kinds"),
    )


def source_files(case: SiteCase) -> list[str]:
    return [path for path, _ in case.volumes] + [case.standards]


def volume_name(path: str) -> str:
    return PurePosixPath(path).name
