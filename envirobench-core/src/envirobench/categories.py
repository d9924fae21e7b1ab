"""The six categories, their tasks, weights and component-score formulas.

This module is the one definition: the leaderboard scores with it, `envirobench categories`
prints it and `docs/categories.md` is generated from it (a test fails when they differ).
Any change to a task, a weight or a formula is a new `SCORING_VERSION`.

A task is a benchmark type, named by its type ID. Its *component score* (0-100) comes from the
headline metrics of a run in the type's default profile:

- by default, 100 x the primary headline measure, which must be a share or mean in [0, 1]
  (higher is better); a run whose primary is outside [0, 1] is refused, so a type whose primary is
  not such a measure must have a published formula here;
- a published penalty formula, which names the headline counts it reads.

A category score is the weighted mean of its tasks' component scores. There is no score across
categories.

Length: most of this module is one table, the six categories with every task's label, tier,
weight, description and formula. It is data read by people as much as by code; cutting it in two
would split the one definition this module exists to be.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from .errors import EnviroBenchError

# v2: missing-information moved from Site to Research (document tier). v3: Site gained site-results
# (the reconciled results of a whole site record), its first task. v4: use-limitations publishes
# the Legal penalty formula (a listed instrument that is no current limitation costs five).
SCORING_VERSION = "envirobench.categories.v4"
REGENERATE = "envirobench categories --markdown > docs/categories.md"


class ScoreRefused(EnviroBenchError):
    """A run's headline metrics cannot give a component score (the reason says why)."""


# -- formulas ---------------------------------------------------------------------------------


@attrs.frozen
class Formula:
    """A declared component-score formula: the docs and the code come from this one object.

    `required` names the headline metrics the formula reads (empty: it reads the primary headline
    measure, whatever the type calls it). `function` receives their values in that order, already
    checked to be finite numbers >= 0, and returns a score in [0, 100].
    """

    name: str
    text: str  # in words, for readers
    metric_text: str  # in headline metric names, for implementers
    required: tuple[str, ...]
    function: Callable[..., float] = attrs.field(eq=False, repr=False)
    note: str = ""

    @property
    def is_default(self) -> bool:
        return not self.required

    def evaluate(self, headline: Mapping[str, Any], primary: str) -> float:
        """The component score from a run's headline metrics; ScoreRefused when impossible."""
        names = self.required or (primary,)
        values = []
        for name in names:
            if name not in headline:
                needed = ", ".join(names)
                raise ScoreRefused(
                    f"headline metrics lack {name!r} (the {self.name} formula reads {needed})"
                )
            value = headline[name]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ScoreRefused(f"headline metric {name!r} is {value!r}, not a finite number")
            if value < 0:
                raise ScoreRefused(f"headline metric {name!r} is {value}, below 0")
            values.append(float(value))
        score = self.function(*values)
        return float(score)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "text": self.text,
            "metric_text": self.metric_text,
            "required": list(self.required),
            "note": self.note,
        }


def _primary_share(value: float) -> float:
    if value > 1:
        raise ScoreRefused(
            f"the primary headline measure is {value}, not a share or mean in [0, 1]; "
            "a type whose primary is not must have a published formula in envirobench.categories"
        )
    return 100.0 * value


PRIMARY = Formula(
    name="primary",
    text="100 × primary headline measure",
    metric_text="100 × headline[HEADLINE[0]]",
    required=(),
    function=_primary_share,
    note="The primary measure (the type's first HEADLINE metric, in its first profile) must be a "
    "share or mean in [0, 1], higher better; otherwise the run is refused.",
)


def penalty_formula(
    name: str,
    *,
    good: tuple[str, str],
    bad: tuple[str, str],
    total: tuple[str, str],
    penalty: int,
) -> Formula:
    """100 × max(0, (good − penalty × bad) ÷ total); each argument is (metric name, words)."""

    def function(g: float, b: float, t: float) -> float:
        if t <= 0:
            raise ScoreRefused(f"{total[0]!r} is 0: the run scored nothing, so it has no {name} score")
        if g > t:
            raise ScoreRefused(f"{good[0]!r} ({g:g}) exceeds {total[0]!r} ({t:g}): inconsistent counts")
        return 100.0 * max(0.0, (g - penalty * b) / t)

    return Formula(
        name=name,
        text=f"100 × max(0, ({good[1]} − {penalty} × {bad[1]}) ÷ {total[1]})",
        metric_text=f"100 × max(0, ({good[0]} − {penalty} × {bad[0]}) ÷ {total[0]})",
        required=(good[0], bad[0], total[0]),
        function=function,
        note=f"Each one of the {bad[1]} cancels {penalty} of the {good[1]}; the score never goes below 0.",
    )


OCR_AUTO_ACCEPT = penalty_formula(
    "OCR auto-accept",
    good=("correct_accepts", "correct accepts"),
    bad=("wrong_accepts", "wrong accepts"),
    total=("readable_cells", "readable cells"),
    penalty=10,
)
INSTRUMENT_EXECUTION = penalty_formula(
    "instrument execution",
    good=("correct_statuses", "correct statuses"),
    bad=("false_executed", "instruments called executed when not"),
    total=("instruments", "instruments"),
    penalty=5,
)
PARTY_ROLES = penalty_formula(
    "party roles",
    good=("parties_all_roles_right", "parties with every role right"),
    bad=("non_owners_called_owners", "non-owners called owners"),
    total=("parties", "parties"),
    penalty=5,
)
INDEMNITY_TERMS = penalty_formula(
    "indemnity terms",
    good=("contracts_exact", "contracts read exactly right"),
    bad=("contracts_overstating", "contracts overstating environmental protection"),
    total=("contracts", "contracts"),
    penalty=5,
)
CHAIN_OF_TITLE = penalty_formula(
    "chain of title",
    good=("periods_exact", "periods exactly right"),
    bad=("periods_foreign_or_invented", "periods from another parcel or invented"),
    total=("periods", "periods"),
    penalty=5,
)
USE_LIMITATIONS = penalty_formula(
    "use limitations",
    good=("exact_items", "limitations listed exactly right"),
    bad=("items_not_current", "listed instruments that are no current limitation of the parcel"),
    total=("answer_items", "current limitations"),
    penalty=5,
)
MISSING_INFORMATION = penalty_formula(
    "missing information",
    good=("questions_right", "questions right"),
    bad=("invented_answers", "invented answers"),
    total=("questions", "questions"),
    penalty=5,
)

PUBLISHED_FORMULAS = (
    OCR_AUTO_ACCEPT,
    INSTRUMENT_EXECUTION,
    PARTY_ROLES,
    INDEMNITY_TERMS,
    CHAIN_OF_TITLE,
    USE_LIMITATIONS,
    MISSING_INFORMATION,
)


# -- tasks and categories ---------------------------------------------------------------------


@attrs.frozen
class Task:
    """One task of a category: a benchmark type ID with its weight and formula."""

    id: str
    label: str
    tier: str  # component | document | site, as the type declares it
    description: str
    weight: int = 1
    formula: Formula = PRIMARY

    def component_score(self, headline: Mapping[str, Any], primary: str) -> float:
        return self.formula.evaluate(headline, primary)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "tier": self.tier,
            "description": self.description,
            "weight": self.weight,
            "formula": self.formula.to_json(),
        }


@attrs.frozen
class Category:
    id: str
    name: str
    package: str
    description: str
    tasks: tuple[Task, ...]
    per_site: bool = False  # boards show cost and wall time per site beside every score

    @property
    def total_weight(self) -> int:
        return sum(task.weight for task in self.tasks)

    def task(self, task_id: str) -> Task:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise KeyError(task_id)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "package": self.package,
            "description": self.description,
            "per_site": self.per_site,
            "total_weight": self.total_weight,
            "tasks": [task.to_json() for task in self.tasks],
        }


CATEGORIES: tuple[Category, ...] = (
    Category(
        "extract",
        "Extract",
        "envirobench-extract",
        "Reading laboratory reports and other documents into structured records: the tables of a "
        "page, their cells and the records they hold, and the facts about the report itself.",
        (
            Task(
                "document-extraction",
                "Document extraction",
                "document",
                "Every reportable result of a laboratory report (sample, analyte, value, unit, "
                "qualifier, reporting limit) as records, end to end from the document.",
                weight=4,
            ),
            Task(
                "table-separators",
                "Table separators",
                "component",
                "The row and column separators of each table on a page image.",
            ),
            Task(
                "table-structure",
                "Table structure",
                "component",
                "The logical grid of each table: header rows, spanning cells, continued tables.",
            ),
            Task(
                "table-cells",
                "Table cells",
                "component",
                "The text of every table cell, read from the page image.",
            ),
            Task(
                "table-records",
                "Table records",
                "component",
                "Table rows turned into result records with their header context applied "
                "(analyte, value, unit, qualifier, sample).",
            ),
            Task(
                "report-metadata",
                "Report metadata",
                "document",
                "Report-level facts: laboratory, work order, client, project, report date, "
                "sampling dates and report status (draft, final, revised).",
            ),
        ),
    ),
    Category(
        "verify",
        "Verify",
        "envirobench-verify",
        "Checking values before anyone relies on them: what may be accepted without review, and "
        "what a value's flags, units and limits mean.",
        (
            Task(
                "ocr-auto-accept",
                "OCR auto-accept",
                "component",
                "Which OCR-read cells may be accepted without human review. A wrong accept "
                "costs ten correct ones.",
                formula=OCR_AUTO_ACCEPT,
            ),
            Task(
                "qualifier-flags",
                "Qualifier flags",
                "component",
                "Laboratory qualifiers (U, J, B, E, ...) interpreted per result: detected or not, "
                "estimated, blank contamination, over range.",
            ),
            Task(
                "unit-normalisation",
                "Unit normalisation",
                "component",
                "Result values converted to a target unit and basis (mg/kg and µg/kg, wet and dry "
                "weight, mg/L and µg/L).",
            ),
            Task(
                "screening-exceedances",
                "Screening exceedances",
                "document",
                "Results compared with the applicable screening levels: which exceed and by how "
                "much, and non-detects whose reporting limit is above the level.",
            ),
            Task(
                "custody-reconciliation",
                "Custody reconciliation",
                "document",
                "A chain-of-custody form reconciled with its report: sample IDs, collection "
                "times, holding times and requested analyses.",
            ),
        ),
    ),
    Category(
        "locate",
        "Locate",
        "envirobench-locate",
        "Finding the evidence in a large site file: the right document, page and passage.",
        (
            Task(
                "document-type",
                "Document type",
                "document",
                "Each document of a site file classified (laboratory report, letter, invoice, "
                "permit, certificate, deed, contract, ...).",
            ),
            Task(
                "document-split",
                "Document split",
                "document",
                "A scanned bundle split into its documents: the first page of each.",
            ),
            Task(
                "page-locate",
                "Page locate",
                "document",
                "The page of a document that states a requested fact.",
            ),
            Task(
                "passage-rerank",
                "Passage rerank",
                "component",
                "Candidate passages reranked for a question; primary measure nDCG@10, essential "
                "passages tracked.",
            ),
        ),
    ),
    Category(
        "research",
        "Research",
        "envirobench-research",
        "Answering questions about a property from records, with the evidence cited.",
        (
            Task(
                "missing-information",
                "Missing information",
                "document",
                "Questions about a property answered from its records, and those the records "
                "cannot answer answered as missing. An invented answer costs five questions.",
                formula=MISSING_INFORMATION,
            ),
            Task(
                "cited-answers",
                "Cited answers",
                "document",
                "Questions answered from a set of documents, each claim cited to its passage; an "
                "uncited or wrongly cited claim is wrong.",
            ),
            Task(
                "database-listings",
                "Database listings",
                "document",
                "Regulatory database listings (tanks, spills, permits, enforcement) matched to "
                "the subject property and its neighbours by address and name.",
            ),
            Task(
                "historical-use",
                "Historical use",
                "document",
                "Past uses of a property from city directories, fire-insurance maps and aerial "
                "photograph descriptions, with their dates.",
            ),
            Task(
                "regulatory-standards",
                "Regulatory standards",
                "component",
                "The standard that applies to a result: jurisdiction, medium, land use and the "
                "value in force on the sampling date.",
            ),
        ),
    ),
    Category(
        "legal",
        "Legal",
        "envirobench-legal",
        "Reading deeds, easements and contracts for what they mean for environmental liability.",
        (
            Task(
                "instrument-execution",
                "Instrument execution",
                "document",
                "Whether each recorded instrument was executed (signed, acknowledged, recorded). "
                "Calling an unexecuted instrument executed costs five correct statuses.",
                formula=INSTRUMENT_EXECUTION,
            ),
            Task(
                "party-roles",
                "Party roles",
                "document",
                "Every party of an instrument with its roles (grantor, grantee, owner, lender, "
                "tenant, operator). Calling a non-owner an owner costs five parties.",
                formula=PARTY_ROLES,
            ),
            Task(
                "indemnity-terms",
                "Indemnity terms",
                "document",
                "Environmental indemnities, releases, caps and survival periods in contracts. "
                "Overstating the protection costs five contracts.",
                formula=INDEMNITY_TERMS,
            ),
            Task(
                "chain-of-title",
                "Chain of title",
                "document",
                "The ownership periods of a parcel from its instruments. A period from another "
                "parcel, or invented, costs five periods.",
                formula=CHAIN_OF_TITLE,
            ),
            Task(
                "use-limitations",
                "Use limitations",
                "document",
                "Activity and use limitations, environmental covenants and liens recorded against "
                "a parcel. Listing one of another parcel, released, or no limitation at all costs "
                "five limitations.",
                formula=USE_LIMITATIONS,
            ),
        ),
    ),
    Category(
        "site",
        "Site",
        "envirobench-site",
        "Whole-site judgement from a complete site file. Boards show cost and wall time per site "
        "beside every score.",
        (
            Task(
                "site-results",
                "Site results",
                "site",
                "Every reportable result of a site, reconciled across drafts, finals, revised "
                "laboratory reports, correction letters and cumulative tables: one record per "
                "location, date, analyte and matrix, with the governing value and its source page.",
            ),
            Task(
                "recognized-conditions",
                "Recognized conditions",
                "site",
                "The recognized environmental conditions of a site, each with its supporting "
                "evidence.",
            ),
            Task(
                "site-timeline",
                "Site timeline",
                "site",
                "The dated events of a site (uses, releases, investigations, remediation, "
                "closure) in order.",
            ),
            Task(
                "exceedance-summary",
                "Exceedance summary",
                "site",
                "Every exceedance across all reports of a site, by location, medium and analyte, "
                "with the governing standard.",
            ),
        ),
        per_site=True,
    ),
)

RULES = (
    "**Component score** (0–100) of a run: 100 × the task's primary headline measure (the type's "
    "first `HEADLINE` metric in its first profile), which must be a share or mean in [0, 1], "
    "higher better — unless the task publishes its own formula below. A run whose primary is "
    "outside [0, 1], or that lacks a formula's counts, is refused with the reason.",
    "**Category score** = Σ wᵢsᵢ ÷ Σ wᵢ over the category's tasks, with the weights below.",
    "**Complete or nothing**: a system without results for every task of a category, on the "
    "dataset versions the leaderboard pins, shows `Incomplete (n of m tasks)`. A missing task is "
    "never counted as zero and never dropped.",
    "**Repeats**: several runs of one system on one task give the task's mean; the category score "
    "is the weighted mean of the task means, with a range from the weighted mean of each task's "
    "lowest and of each task's highest repeat.",
    "**No overall score**: categories are never combined into one number.",
    "**System** = adapter name + model + adapter options.",
    "**Pinned datasets**: the leaderboard pins one dataset identity (ID, version, digest) per "
    "task: `--pin TASK=DIGEST|DATASET` if given, else the dataset the installed plugins register "
    "for the task (verified; of a dev and a test split, the test split), else the one its runs "
    "agree on (for revisions of one dataset ID, the "
    "highest). Runs that failed, cannot be scored, or used another identity are refused and "
    "listed with the reason.",
    "**Rescored, never taken on trust**: the leaderboard reads no score from a run directory. It "
    "rescores each run from its saved predictions (checked against the SHA-256s run.json records) "
    "against the pinned dataset's answers with the installed type, in the type's first profile "
    "and primary measure. A run whose type is not installed, or whose pinned dataset is not on "
    "this machine, is refused with the reason. Cost, wall time and sites are the run's own report.",
    "**Site board**: cost per site and wall time per site beside every score (per task: the mean "
    "over repeats of cost ÷ sites; per category: the sum over its tasks); sorted by score "
    "descending, then cost ascending; systems on the cost–score Pareto front are marked.",
    "Formula counts are read from the rescored run's headline metrics by name. Headline metrics are "
    "usually per-case means; a ratio of means equals the ratio of totals, so either works. A run "
    "whose total count is 0 is refused (it measured nothing).",
)

_ID_PATTERN = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def check_definitions(categories: tuple[Category, ...] = CATEGORIES) -> list[str]:
    """Problems with the definitions (empty when fine); the tests assert there are none."""
    problems = []
    seen: dict[str, str] = {}
    for category in categories:
        if not category.tasks:
            problems.append(f"category {category.name} has no tasks")
        for task in category.tasks:
            if not _ID_PATTERN.match(task.id):
                problems.append(f"task ID {task.id!r} is not kebab-case")
            if task.id in seen:
                problems.append(f"task {task.id!r} is in both {seen[task.id]} and {category.name}")
            seen[task.id] = category.name
            if not isinstance(task.weight, int) or task.weight <= 0:
                problems.append(f"task {task.id!r} has weight {task.weight!r}; weights are positive integers")
            if task.tier not in ("component", "document", "site"):
                problems.append(f"task {task.id!r} has unknown tier {task.tier!r}")
    return problems


def all_tasks() -> dict[str, tuple[Category, Task]]:
    """Every task by ID, with its category."""
    return {task.id: (category, task) for category in CATEGORIES for task in category.tasks}


def category_of(task_id: str) -> Category | None:
    found = all_tasks().get(task_id)
    return found[0] if found else None


def categories_of(task_id: str) -> tuple[str, ...]:
    """The IDs of the categories a benchmark type is a task of (none for a private type)."""
    return tuple(c.id for c in CATEGORIES if any(t.id == task_id for t in c.tasks))


def disagreements(type_id: str, label: str, tier: str) -> list[str]:
    """How a benchmark type's LABEL and TIER differ from its task here (empty: they agree, or the
    type is no task of any category, as a private plugin's types are not)."""
    found = task(type_id)
    if found is None:
        return []
    problems = []
    if label != found.label:
        problems.append(f"LABEL {label!r} differs from the label of task {type_id!r} in {SCORING_VERSION}: {found.label!r}")
    if tier != found.tier:
        problems.append(f"TIER {tier!r} differs from the tier of task {type_id!r} in {SCORING_VERSION}: {found.tier!r}")
    return problems


def task(task_id: str) -> Task | None:
    found = all_tasks().get(task_id)
    return found[1] if found else None


def category_score(scores: Mapping[str, float], category: Category) -> float | None:
    """Σ wᵢsᵢ ÷ Σ wᵢ when every task has a score; None (Incomplete) otherwise. Never a zero fill."""
    if any(t.id not in scores for t in category.tasks):
        return None
    return sum(t.weight * scores[t.id] for t in category.tasks) / category.total_weight


def definition_json() -> dict[str, Any]:
    return {
        "scoring_version": SCORING_VERSION,
        "rules": [_plain(rule) for rule in RULES],
        "categories": [category.to_json() for category in CATEGORIES],
        "formulas": [formula.to_json() for formula in (PRIMARY, *PUBLISHED_FORMULAS)],
    }


def _plain(text: str) -> str:
    return text.replace("**", "").replace("`", "")


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown() -> str:
    """docs/categories.md; regenerate with `envirobench categories --markdown > docs/categories.md`."""
    lines = [
        "# EnviroBench categories",
        "",
        f"<!-- Generated from envirobench/categories.py by `{REGENERATE}`. Do not edit by hand: "
        "tests/core/test_categories.py fails when this file differs. -->",
        "",
        f"Scoring version: `{SCORING_VERSION}`. Any change to a task, weight or formula is a new "
        "scoring version.",
        "",
        "Six categories, each a set of tasks; each task is a benchmark type, named by its type "
        "ID. Tasks of categories whose packages are not installed yet are listed all the same: a "
        "system cannot complete such a category until they are.",
        "",
        "## Rules",
        "",
    ]
    lines += [f"- {rule}" for rule in RULES]
    lines += ["", "## Categories", ""]
    lines += ["| Category | Package | Tasks | Total weight |", "| --- | --- | --- | --- |"]
    for category in CATEGORIES:
        lines.append(
            f"| [{category.name}](#{category.id}) | `{category.package}` | {len(category.tasks)} | {category.total_weight} |"
        )
    for category in CATEGORIES:
        lines += ["", f"## {category.name}", "", category.description, ""]
        lines += [
            "| Task (type ID) | Label | Tier | Weight | Component score | What it measures |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for t in category.tasks:
            formula = t.formula.text if t.formula.is_default else f"[{t.formula.name}](#formula-{_anchor(t.formula.name)}): {t.formula.text}"
            lines.append(
                f"| `{t.id}` | {_md_cell(t.label)} | {t.tier} | {t.weight} of {category.total_weight} | "
                f"{_md_cell(formula)} | {_md_cell(t.description)} |"
            )
    lines += ["", "## Formulas", ""]
    for formula in (PRIMARY, *PUBLISHED_FORMULAS):
        lines += [
            f"### Formula: {formula.name}",
            "",
            f"- In words: {formula.text}",
            f"- In headline metrics: `{formula.metric_text}`",
            f"- Reads: {', '.join(f'`{name}`' for name in formula.required) or 'the primary headline measure'}",
        ]
        users = [t.id for c in CATEGORIES for t in c.tasks if t.formula is formula]
        lines.append(f"- Tasks: {', '.join(f'`{u}`' for u in users) or '—'}")
        if formula.note:
            lines.append(f"- {formula.note}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _anchor(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def render_text(installed: set[str] | None = None) -> str:
    """A terminal listing; `installed` marks the task IDs whose types are registered here."""
    lines = [f"scoring version: {SCORING_VERSION}"]
    for category in CATEGORIES:
        lines += ["", f"{category.name}  ({category.package}; total weight {category.total_weight})"]
        for t in category.tasks:
            mark = ""
            if installed is not None:
                mark = "  [installed]" if t.id in installed else "  [not installed]"
            lines.append(f"  {t.id}  weight {t.weight}  {t.formula.text}{mark}")
    lines += ["", "No overall score: categories are never combined."]
    return "\n".join(lines) + "\n"
