"""The summary table at the top of docs/reference-scores.md: per task, the reference adapter
against the best shortcut on the test split (read by reference_scores.py).

Each type's section (written by `reference_scores.py --<category> TYPE`) carries one hidden line,
`<!-- summary-row {...} -->`, with what the table needs of it: the primary measure (the
section's first column), the reference's test score and interval, its dev score, the best
shortcut on test with its interval, and the paired bootstrap interval of reference − shortcut.
Whenever any section is written, the table is rebuilt from every section's line, so a spec whose
baselines change elsewhere (another category's engineer reruns its section) reaches the table
without anything else to do; a section made before these lines existed shows a row asking for it
to be rerun.

A *shortcut* is a baseline that reads no answer key: the spec's `KEY_COPIES` (names of baselines
that copy part of the key, shown to say what the key's rows alone are worth) are left out; a spec
that does not declare them has every baseline whose name says it copies the key ("from the key",
"copies the key", "oracle", "from the generator's") left out. The best shortcut is the one with
the highest test score on the primary measure (every primary measure is higher-is-better).

The rule: the reference beats the best shortcut on test with a paired 95 %
interval that excludes zero. A spec may state why its task cannot pass (`SHORTCUT_NOTE`), shown
on its row. A row also says when the reference's test interval is wider than 0.15 of the scale
(issue 32's size rule).
"""

from __future__ import annotations

import json
import re

BEGIN = "<!-- summary:begin (benchmarks/reference_scores.py rebuilds this table from each section's summary-row line) -->"
END = "<!-- summary:end -->"
ROW = re.compile(r"^<!-- summary-row (\{.*\}) -->$", re.MULTILINE)
SECTION = re.compile(r"^<!-- (\w+)-([\w-]+):begin \(benchmarks/reference_scores\.py", re.MULTILINE)
WIDEST = 0.15  # the widest test interval of a primary measure the size rule accepts (score scale 0-1)
KEY_COPY_WORDS = ("from the key", "copies the key", "copy the key", "oracle", "from the generator")


def key_copies(spec) -> set[str]:
    """The spec's baselines that copy (part of) the answer key: reference points, not shortcuts."""
    declared = getattr(spec, "KEY_COPIES", None)
    if declared is not None:
        return set(declared)
    return {name for name in spec.BASELINES if any(word in name.lower() for word in KEY_COPY_WORDS)}


def _interval(interval) -> list[float] | None:
    if not interval:
        return None
    return [interval["low"], interval["high"]] if isinstance(interval, dict) else list(interval)


def summary_row(spec, rows: list[dict], column: tuple[str, str, str]) -> dict:
    """The summary of one type's section (`rows` as split_rows made them; `column` the primary
    measure): what its summary-row line holds."""
    metric, title, fmt = column
    by_split = {r["split"]: r for r in rows}
    test, dev = by_split.get("test"), by_split.get("dev")
    row: dict = {
        "category": spec.CATEGORY,
        "task": spec.BENCHMARK,
        "measure": title,
        "format": fmt,
        "unit": spec.UNIT.split(" (")[0],
        "note": getattr(spec, "SHORTCUT_NOTE", None),
    }
    if test is None:
        return row | {"missing": "no test split in this section"}
    if getattr(spec, "unit_intervals", None) is not None:
        # A Site split is three or four cases (sites): its spec resamples units, one system at a time.
        row["no_paired"] = "a split is a few sites, whose intervals resample units one system at a time"
    row["units"] = test["cases"]
    row["sample"] = test["cases"] < (test.get("split_cases") or test["cases"])
    reference = test["reference"]
    if reference is not None and reference["headline"].get(metric) is not None:
        row["reference"] = reference["headline"][metric]
        row["reference_interval"] = _interval(reference["intervals"].get(metric))
    if dev is not None and dev["reference"] is not None:
        row["dev"] = dev["reference"]["headline"].get(metric)
    copies = key_copies(spec)
    shortcuts = [
        (name, system) for name, system in test["baselines"].items()
        if name not in copies and system["headline"].get(metric) is not None
    ]
    if shortcuts:
        name, best = max(shortcuts, key=lambda item: item[1]["headline"][metric])
        row["shortcut"] = name
        row["shortcut_value"] = best["headline"][metric]
        row["shortcut_interval"] = _interval(best["intervals"].get(metric))
        if "reference" in row:
            row["difference"] = row["reference"] - row["shortcut_value"]
            row["paired"] = _interval((best.get("paired") or {}).get(metric))
    return row


def row_line(row: dict) -> str:
    """The hidden line a section carries (JSON never holds "--" here, which would end the comment)."""
    return "<!-- summary-row " + json.dumps(row, ensure_ascii=False).replace("--", "-\\u002d") + " -->"


def _value(value, interval, fmt: str, signed: bool = False) -> str:
    if value is None:
        return "—"
    spec = ("+" if signed else "") + fmt
    text = format(value, spec)
    if interval:
        text += f" [{format(interval[0], spec)}, {format(interval[1], spec)}]"
    return text


def verdict(row: dict) -> str:
    paired = row.get("paired")
    if "reference" not in row:
        return "no reference run"
    if "shortcut_value" not in row:
        return "no shortcut"
    if paired is None:
        return "no paired interval" + (f" ({row['no_paired']})" if row.get("no_paired") else "")
    return "passes" if paired[0] > 0 else "fails: the interval reaches 0" if paired[1] >= 0 else "fails: the shortcut is better"


def _too_wide(row: dict) -> str:
    """Issue 32's size rule: a test interval of a primary measure wider than 0.15 of its scale
    (15 points of a 0-100 score) is said on the row."""
    interval = row.get("reference_interval")
    limit = WIDEST * (100 if row["format"] == ".1f" else 1)
    if not interval or interval[1] - interval[0] <= limit:
        return ""
    return f"; the reference's interval is {format(interval[1] - interval[0], row['format'])} wide (over {format(limit, row['format'])})"


def render(rows: list[dict]) -> str:
    out = [
        BEGIN,
        "## Summary: the reference adapter against the best shortcut (test split)",
        "",
        "One row per task, rebuilt by `benchmarks/reference_scores.py` from the sections below whenever one is",
        "written: the primary measure (each section's first column) of the reference adapter on the test split, of",
        "the best shortcut there (the strongest baseline of `benchmarks/<category>_specs/` that reads no answer key:",
        "blind, or near-blind from sizes, positions, lengths, metadata, file names or confidences, fitted on dev),",
        "and their difference with the paired bootstrap 95 % interval (core's `statistics.paired_comparison`: both",
        "systems summarised on the same 1,000 resamples of the test split's units, clusters where the type has them).",
        "The rule: the reference beats the best shortcut with a paired interval that excludes zero.",
        "Baselines that copy part of the key are reference points, not shortcuts, and are left out here.",
        "",
        "| task | units | measure | reference [95 %] | best shortcut [95 %] | reference − shortcut [paired 95 %] | dev → test | rule |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        fmt = row["format"]
        task = f"{row['category']}: {row['task']}"
        if "missing" in row:
            out.append(f"| {task} | — | {row['measure']} | — | — | — | — | {row['missing']} |")
            continue
        units = f"{row['units']} {row['unit']}" + (" (a sample)" if row.get("sample") else "")
        shortcut = _value(row.get("shortcut_value"), row.get("shortcut_interval"), fmt)
        if row.get("shortcut"):
            shortcut += f" ({row['shortcut']})"
        difference = _value(row.get("difference"), row.get("paired"), fmt, signed=True)
        dev = row.get("dev")
        dev_test = f"{format(dev, fmt)} → {format(row['reference'], fmt)}" if dev is not None and "reference" in row else "—"
        rule = verdict(row) + (f": {row['note']}" if row.get("note") else "") + _too_wide(row)
        if row.get("stale"):
            rule = f"no paired interval yet (an older section): rerun `--{row['category']} {row['task']}`" + _too_wide(row)
        reference = _value(row.get("reference"), row.get("reference_interval"), fmt)
        out.append(f"| {task} | {units} | {row['measure']} | {reference} | {shortcut} | {difference} | {dev_test} | {rule} |")
    out += ["", END]
    return "\n".join(out) + "\n"


def _number(cell: str) -> tuple[float, list[float] | None, str] | None:
    """A table cell "0.429 [0.254, 0.567]" as (value, interval, format); None for "—"."""
    match = re.fullmatch(r"(-?[\d.]+)(?: \[(-?[\d.]+), (-?[\d.]+)\])?", cell.strip())
    if match is None:
        return None
    decimals = len(match.group(1).partition(".")[2])
    interval = [float(match.group(2)), float(match.group(3))] if match.group(2) else None
    return float(match.group(1)), interval, f".{decimals}f"


def row_from_table(section: str, category: str, task: str) -> dict:
    """The summary of a section made before it carried a summary-row line, read from its table
    (the primary measure is its first column): everything but the paired interval, which needs
    the reference's per-case scores, i.e. a rerun of the section."""
    lines = []  # the section's first table (a Site section has a per-site table after it)
    for line in section.splitlines():
        if line.startswith("| "):
            lines.append(line)
        elif lines:
            break
    if not lines or not lines[0].startswith("| split | system |"):
        return {"category": category, "task": task, "measure": "—", "format": ".3f", "missing": "no table in its section"}
    measure = lines[0].split(" | ")[2]
    row: dict = {"category": category, "task": task, "measure": measure, "format": ".3f", "unit": "cases", "note": None,
                 "stale": True}
    shortcuts = []
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) < 3 or cells[0] not in ("dev", "test"):
            continue
        number = _number(cells[2])
        if number is None:
            continue
        value, interval, fmt = number
        row["format"] = fmt
        if cells[1] == "reference adapter":
            if cells[0] == "test":
                row["reference"], row["reference_interval"] = value, interval
            else:
                row["dev"] = value
        elif cells[0] == "test" and not any(word in cells[1].lower() for word in KEY_COPY_WORDS):
            shortcuts.append((value, interval, cells[1]))
    if shortcuts:
        value, interval, name = max(shortcuts, key=lambda s: s[0])
        row |= {"shortcut": name, "shortcut_value": value, "shortcut_interval": interval}
        if "reference" in row:
            row["difference"] = row["reference"] - value
    timed = re.search(r"test \d+ s \((\d+) ([^)]+)\)", section)
    if timed:
        row["units"], row["unit"] = int(timed.group(1)), timed.group(2)
    else:
        row["units"] = "?"
    return row


def place(text: str, categories: tuple[str, ...]) -> str:
    """`text` with its summary table rebuilt from every section's summary-row line (rows in the
    order of `categories`, then by task), right after the page's title."""
    if BEGIN in text and END in text:
        before, _, rest = text.partition(BEGIN)
        _, _, after = rest.partition(END + "\n")
        text = before.rstrip("\n") + "\n\n" + after.lstrip("\n")
    rows = []
    for match in SECTION.finditer(text):
        category, task = match.groups()
        if category not in categories:
            continue
        section = text[match.start() : text.find(f"<!-- {category}-{task}:end -->", match.start())]
        found = ROW.search(section)
        rows.append(json.loads(found.group(1)) if found else row_from_table(section, category, task))
    if not rows:
        return text
    rows.sort(key=lambda r: (categories.index(r["category"]), r["task"]))
    table = render(rows)
    lines = text.split("\n")
    title = next((i for i, line in enumerate(lines) if line.startswith("# ")), None)
    if title is None:
        return table + "\n" + text
    head, tail = "\n".join(lines[: title + 1]), "\n".join(lines[title + 1 :]).lstrip("\n")
    return f"{head}\n\n{table}\n{tail}"
