"""The project: where a user's promotions, results and project-local stores live.

A profile an installed package ships (`site-packages/<package>/benchmarks/NAME/bench.json`) is
read-only: promoting a run for it writes to the project state instead, and relative paths in the
profile (`results`, a `file:` store) resolve against the project root, so every directory of the
project finds the same promotions, results and store (docs/profiles.md, The project).

The project root is the nearest directory, from the current directory up, that holds
`.envirobench/` (the state directory) or `envirobench.toml` (a project's store names,
docs/stores.md); ENVIROBENCH_STATE names the state directory instead, and the directory holding it
is the root. Without either, the current directory is the root, and the first promotion of an
installed profile creates `.envirobench/` there.
"""

from __future__ import annotations

import os
from pathlib import Path

import attrs

from .errors import EnviroBenchError

STATE_ENV = "ENVIROBENCH_STATE"
STATE_DIR = ".envirobench"
PROJECT_CONFIG = "envirobench.toml"
PROFILES_DIR = "profiles"


@attrs.frozen
class Project:
    """The project root (absolute), its state directory, and how they were found."""

    root: Path
    state: Path
    origin: str  # "ENVIROBENCH_STATE", "found", or "current directory" (no project found)

    @property
    def config(self) -> Path:
        """The project's store configuration (`envirobench.toml` in the root)."""
        return self.root / PROJECT_CONFIG

    def resolve(self, value: str | Path) -> Path:
        """A path a profile or the state names: absolute as it is, else relative to the root.
        Relative paths stay relative while the root is the current directory (for messages and
        the printed `envirobench run` command)."""
        path = Path(value)
        if path.is_absolute():
            return path
        if self.root == Path.cwd():
            return path
        return self.root / path

    def relative(self, path: Path) -> str:
        """`path` (relative to the current directory, or absolute) as the root sees it: what to
        write into a file whose relative paths resolve against the root."""
        full = Path(os.path.abspath(path))
        return os.path.relpath(full, self.root)

    def ensure_state(self) -> bool:
        """Create the state directory when it is missing; True when it was created."""
        if self.state.is_dir():
            return False
        if self.state.exists() or self.state.is_symlink():
            raise EnviroBenchError("the project state must be a directory", file=self.state)
        self.state.mkdir(parents=True)
        return True


def find_project(start: Path | None = None) -> Project:
    """The project of `start` (default: the current directory); see the module's docstring."""
    named = os.environ.get(STATE_ENV)
    if named:
        state = Path(os.path.abspath(named))
        if state.exists() and not state.is_dir():
            raise EnviroBenchError(f"{STATE_ENV} names something that is not a directory", file=state)
        return Project(state.parent, state, STATE_ENV)
    here = Path(os.path.abspath(start or Path.cwd()))
    for directory in (here, *here.parents):
        if (directory / STATE_DIR).is_dir() or (directory / PROJECT_CONFIG).is_file():
            return Project(directory, directory / STATE_DIR, "found")
    return Project(here, here / STATE_DIR, "current directory")


def overlay_path(project: Project, plugin: str, name: str) -> Path:
    """Where the project keeps its promotions of profile NAME of installed plugin PLUGIN."""
    return project.state / PROFILES_DIR / plugin / f"{name}.json"
