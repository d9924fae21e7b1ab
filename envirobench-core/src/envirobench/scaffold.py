"""Rendering the plugin template (`plugin-template/` in the repository) with jinja2.

The template is a cookiecutter template: `cookiecutter.json` lists the variables (later defaults
may use earlier ones, `{{ cookiecutter.project_slug }}`), and the directory
`{{cookiecutter.project_slug}}/` is the project, its paths and files rendered with the same
variables. `envirobench plugins new NAME` renders it exactly as `cookiecutter plugin-template`
would with `project_slug=NAME`, so cookiecutter is optional. Files matching
`_copy_without_render` (fnmatch patterns on the template-relative path) are copied as they are.

Where the template is: inside an installed wheel at `envirobench/plugin_template/` (hatch
force-includes `../plugin-template`); in a source checkout or an editable install, the
repository's `plugin-template/`.
"""

from __future__ import annotations

import fnmatch
import json
import keyword
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2

from .errors import EnviroBenchError
from .jsonio import dir_mode

PACKAGED_TEMPLATE = "plugin_template"
REPO_TEMPLATE = "plugin-template"
PROJECT_DIR = "{{cookiecutter.project_slug}}"
CONFIG = "cookiecutter.json"
_SLUG = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
_SKIP = {"__pycache__", ".pytest_cache", ".ruff_cache", ".DS_Store"}


def template_dir() -> Path:
    """The directory holding cookiecutter.json and the project template."""
    packaged = Path(str(resources.files("envirobench"))) / PACKAGED_TEMPLATE
    if (packaged / CONFIG).is_file():
        return packaged
    checkout = Path(__file__).resolve().parents[3] / REPO_TEMPLATE
    if (checkout / CONFIG).is_file():
        return checkout
    raise EnviroBenchError(
        f"the plugin template is not installed with this envirobench-core (looked in {packaged} and {checkout}); "
        "install envirobench-core from a wheel or a repository checkout"
    )


def slug_for(name: str) -> str:
    slug = re.sub(r"[\s_]+", "-", name.strip().lower())
    if not _SLUG.match(slug):
        raise EnviroBenchError(
            f"{name!r} is not a usable plugin name: use lowercase letters, digits and single hyphens, "
            "starting with a letter (e.g. acme-bench)"
        )
    return slug


def _environment() -> Any:
    # As cookiecutter renders: trailing newlines kept, an undefined variable is an error.
    return jinja2.Environment(keep_trailing_newline=True, undefined=jinja2.StrictUndefined, autoescape=False)


def template_variables() -> dict[str, Any]:
    path = template_dir() / CONFIG
    with path.open(encoding="utf-8") as handle:
        return json.load(handle)


def make_context(name: str, overrides: Mapping[str, str] | None = None, *, core_version: str | None = None) -> dict[str, Any]:
    """The variables for NAME: project_slug = NAME, project_name from it, the rest derived in
    cookiecutter.json's order (its defaults may use earlier variables)."""
    slug = slug_for(name)
    given: dict[str, str] = {"project_name": " ".join(part.capitalize() for part in slug.split("-")), "project_slug": slug}
    if core_version and core_version[0].isdigit() and "+" not in core_version:
        given["envirobench_core_version"] = core_version
    variables = template_variables()
    unknown = sorted(set(overrides or {}) - {k for k in variables if not k.startswith("_")})
    if unknown:
        known = ", ".join(k for k in variables if not k.startswith("_"))
        raise EnviroBenchError(f"unknown template variable(s) {', '.join(unknown)}; the template has: {known}")
    given.update(overrides or {})
    env = _environment()
    context: dict[str, Any] = {}
    for key, default in variables.items():
        if key.startswith("_"):
            context[key] = default
            continue
        value = given.get(key, default)
        if isinstance(value, list):  # a cookiecutter choice: the first is the default
            value = value[0]
        if isinstance(value, str):
            value = env.from_string(value).render(cookiecutter=context)
        context[key] = value
    _check_context(context)
    return context


def _check_context(context: Mapping[str, Any]) -> None:
    package = context.get("package_name", "")
    if not isinstance(package, str) or not package.isidentifier() or keyword.iskeyword(package):
        raise EnviroBenchError(f"package_name {package!r} is not a Python package name")
    for key in ("project_slug", "type_id"):
        if key in context and not _SLUG.match(str(context[key])):
            raise EnviroBenchError(f"{key} {context[key]!r} must be lowercase letters, digits and single hyphens")


def _copy_only(relative: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatch(relative, pattern) for pattern in patterns)


def render_project(target: Path, context: Mapping[str, Any]) -> list[Path]:
    """Render the project into `target` (absent or empty); return the files written (relative).

    The project is written into a hidden directory beside `target` and renamed into place, so a
    failure leaves nothing half-written."""
    target = Path(target)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise EnviroBenchError(f"{target} already exists and is not empty; choose another --output (nothing is overwritten)")
    source = template_dir() / PROJECT_DIR
    env = _environment()
    patterns = list(context.get("_copy_without_render", []))
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=target.parent))
    staging.chmod(dir_mode())  # the new project is the user's, not private
    written: list[Path] = []
    try:
        for dirpath, dirnames, filenames in os.walk(source):
            dirnames[:] = sorted(d for d in dirnames if d not in _SKIP)
            for filename in sorted(filenames):
                if filename in _SKIP or filename.endswith(".pyc"):
                    continue
                full = Path(dirpath) / filename
                relative = full.relative_to(source).as_posix()
                out_relative = Path(*(env.from_string(part).render(cookiecutter=context) for part in relative.split("/")))
                out = staging / out_relative
                out.parent.mkdir(parents=True, exist_ok=True)
                if _copy_only(relative, patterns):
                    shutil.copyfile(full, out)
                else:
                    text = full.read_text(encoding="utf-8")
                    out.write_text(env.from_string(text).render(cookiecutter=context), encoding="utf-8")
                shutil.copymode(full, out)
                written.append(out_relative)
        if target.exists():
            target.rmdir()  # empty, checked above
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return written
