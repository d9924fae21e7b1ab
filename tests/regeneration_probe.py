"""Run a generator in a fresh interpreter and list every file of the repository it read.

    python tests/regeneration_probe.py READ_JSON -m MODULE ARGS...   (as `python -m MODULE ARGS`)
    python tests/regeneration_probe.py READ_JSON -c CODE             (as `python -c CODE`)

An audit hook sees every file the process opens (sources and bytecode as they are imported,
catalogues, fonts, templates) and every directory it lists; when the generator has finished,
they are written to READ_JSON as {"files": [...], "directories": [...], "distributions": {...}}:
paths relative to the repository for its own files, absolute for others (a system font, say),
leaving out the interpreter's and the virtual environment's, bytecode caches, the temporary
directory the output goes to, and /proc, /dev and /sys. What the virtual environment gave the
generator is pinned instead by "distributions": each third-party distribution whose modules it
imported, with its installed version (bin/test installs exactly what uv.lock locks), so a
generator's stamp does not depend on the lock file's other entries (a workspace member or a
dependency only another package uses). A fresh process,
because a module imported before the hook was installed would go unseen.
regeneration_kit's stamps pin what this lists (tests/regeneration-verified.json).
"""

from __future__ import annotations

import json
import os
import runpy
import sys
import sysconfig
import tempfile
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    out, how, what, *rest = sys.argv[1:]
    opened: set[str] = set()
    listed: set[str] = set()

    def hook(event: str, args: tuple) -> None:
        if event == "open" and isinstance(args[0], str | bytes | os.PathLike):
            opened.add(os.path.abspath(os.fsdecode(args[0])))
        elif (event in ("os.listdir", "os.scandir") and args and isinstance(args[0], str | bytes | os.PathLike)
              and not by_a_dependency(sys._getframe(1)) and not by_the_importer(sys._getframe(1))):
            listed.add(os.path.abspath(os.fsdecode(args[0])))

    # As `python -m`/`-c` would run it: the script's own directory (tests/) is not on the path.
    if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
        del sys.path[0]
    sys.addaudithook(hook)
    code = 0
    try:
        if how == "-m":
            sys.argv = [what, *rest]
            runpy.run_module(what, run_name="__main__", alter_sys=True)
        elif how == "-c":
            sys.argv = ["-c", *rest]
            exec(compile(what, "<regeneration probe>", "exec"), {"__name__": "__main__"})  # noqa: S102 - the test's own code
        else:
            raise SystemExit(f"regeneration_probe: -m MODULE or -c CODE, not {how!r}")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, int | None):
            print(exc.code, file=sys.stderr)
    # Every module's source, also those whose bytecode was read instead.
    opened.update(os.path.abspath(m.__file__) for m in list(sys.modules.values()) if isinstance(getattr(m, "__file__", None), str))
    read = {"files": inside(opened, files=True), "directories": inside(listed, files=False), "distributions": distributions()}
    Path(out).write_text(json.dumps(read), encoding="utf-8")
    return code


def distributions() -> dict[str, str]:
    """{name: installed version} of each distribution in the virtual environment whose modules
    were imported (the repository's own packages are pinned by their files instead)."""
    by_top_level = metadata.packages_distributions()
    found: dict[str, str] = {}
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if not isinstance(file, str) or not any(Path(file).is_relative_to(p) for p in DEPENDENCIES):
            continue
        for dist in by_top_level.get(name.partition(".")[0], ()):
            found[dist] = metadata.version(dist)
    return dict(sorted(found.items()))


def by_a_dependency(frame) -> bool:
    """Whether the first caller outside the standard library is a locked dependency's code (in
    the virtual environment). Their listings are not pinned: reportlab walks the system's font
    directories when it is imported, for a search path our generators never use (they name every
    font by its path, inside reportlab's own package), and which fonts a machine has installed
    must not decide whether a check runs. A file anyone opens is pinned, whoever opens it."""
    while frame is not None:
        name = frame.f_code.co_filename
        if not name.startswith("<"):
            if any(Path(name).is_relative_to(p) for p in DEPENDENCIES):
                return True
            if not Path(name).is_relative_to(Path(sys.base_prefix)):  # not the standard library's
                return False
        frame = frame.f_back
    return False


def by_the_importer(frame) -> bool:
    """Whether the import system lists the directory (to find modules in it, each of which is
    pinned by its file when imported): its caller is frozen importlib."""
    return frame.f_code.co_filename.startswith("<frozen importlib")


DEPENDENCIES = [Path(p) for p in {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}]
INTERPRETER = [Path(p).resolve() for p in {sys.prefix, sys.base_prefix, sys.exec_prefix}]
ELSEWHERE = [Path(p).resolve() for p in (tempfile.gettempdir(), "/proc", "/dev", "/sys")]  # outside the repository


def inside(paths: set[str], *, files: bool) -> list[str]:
    """The paths a stamp pins: the repository's relative, others absolute (see the docstring)."""
    kept = set()
    for path in paths:
        resolved = Path(path).resolve()
        ours = resolved.is_relative_to(REPO)
        if "__pycache__" in resolved.parts or any(resolved.is_relative_to(p) for p in INTERPRETER + ([] if ours else ELSEWHERE)):
            continue
        if not (resolved.is_file() if files else resolved.is_dir()):
            continue
        kept.add(resolved.relative_to(REPO).as_posix() if ours else str(resolved))
    return sorted(kept)


if __name__ == "__main__":
    sys.exit(main())
