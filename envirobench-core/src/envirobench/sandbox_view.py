"""What the adapter sees in the sandbox: an allow-list of read-only mounts, and nothing inside
them that holds an answer.

The sandbox's root is empty (a read-only tmpfs); on it bubblewrap mounts, read-only:

- the system's runtime: /usr, /bin, /sbin, /lib*, and /etc less every entry of it that is not
  world-readable (password hashes, private keys, the munge key...: what no unprivileged program
  reads, hidden even from an adapter that runs as root);
- the adapter's executable, every interpreter its `#!` lines name in turn (for a version
  manager's shim, ROOT/shims/NAME, the manager's root, since the shim runs the manager), the
  Python environment of each (a virtual environment and the installation it was made from) and
  core's own, and the import directories of their editable installs (the directories their
  `.pth` files name: never the project directory around them);
- what the user allowed with `--sandbox-allow PATH`;
- the workspace (bound by the caller).

Nothing else: no checkout, no results tree, no home, no /run (host sockets), no /var, no /sys.
Inside what is shown, hidden (an empty tmpfs over a directory, /dev/null over a file):

- every `answers.jsonl` and every prediction-fixtures directory (`benchmarks/<type>/fixtures/`)
  that a distribution in a shown site directory lists in its file list (RECORD), and that a walk
  of each non-system tree shown finds (editable imports, virtual environments, allowed paths):
  found by what they are, not from the registered datasets alone;
- every `.git`, and every socket in the trees walked (a way to a host process, around
  `--no-network`);
- every place core names as secret (sandbox.secret_paths: registered datasets, results, compared
  runs, stores, credentials) that lies inside something shown.

Large trees that are an installation rather than an adapter's own files (a Python installation,
a version manager's root) are not walked: their site directories are read through file lists,
and their top-level `.git` is hidden.
"""

from __future__ import annotations

import ast
import contextlib
import csv
import glob
import os
import re
import shutil
import stat
import struct
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from .authoring import FIXTURES_DIR
from .datasets import ANSWERS

# The system's runtime: shown read-only (a symbolic link such as /bin -> usr/bin stays a link).
SYSTEM_RUNTIME = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC = "/etc"
_SHEBANG_DEPTH = 4  # a script run by a shim run by a shell...
_RECORD = "RECORD"


def _real(path: str | os.PathLike[str]) -> str:
    return os.path.realpath(path)


def under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


# -- what the adapter needs to execute ------------------------------------------------------------


def shebang(script: str, path_env: str | None) -> str | None:
    """The interpreter a `#!` script names (for `#!/usr/bin/env [-S] NAME`, NAME found on
    `path_env`, the PATH the adapter gets), or None."""
    with contextlib.suppress(OSError), open(script, "rb") as handle:
        head = handle.read(512)
        if not head.startswith(b"#!"):
            return None
        words = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
        if not words:
            return None
        if os.path.basename(words[0]) == "env":
            names = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
            return shutil.which(names[0], path=path_env) if names else None
        return words[0]
    return None


def interpreter_chain(program: str, path_env: str | None) -> list[str]:
    """The program and each interpreter its `#!` line names in turn, as named and resolved."""
    chain: list[str] = []
    current: str | None = program
    for _ in range(_SHEBANG_DEPTH):
        if current is None or not os.path.exists(current):
            break
        chain += [current, _real(current)]
        current = shebang(_real(current), path_env)
    return list(dict.fromkeys(chain))


def manager_root(executable: str) -> str | None:
    """A version manager's shim (pyenv, rbenv, asdf, ...: ROOT/shims/NAME) runs the manager from
    ROOT: its root, else None."""
    parent = Path(executable).parent
    return str(parent.parent) if parent.name == "shims" else None


def python_prefixes(executable: str) -> list[str]:
    """The Python environment an executable belongs to: a virtual environment (pyvenv.cfg in one
    of its first parents) and the installation it was made from, or an installation (a prefix
    with lib/python3*)."""
    for parent in list(Path(executable).parents)[:3]:
        cfg = parent / "pyvenv.cfg"
        if cfg.is_file():
            out = [str(parent)]
            with contextlib.suppress(OSError, UnicodeDecodeError):
                for line in cfg.read_text(encoding="utf-8").splitlines():
                    key, _, value = line.partition("=")
                    if key.strip() == "home" and value.strip():
                        out.append(str(Path(_real(value.strip())).parent))
            return out
        if parent != Path("/") and glob.glob(str(parent / "lib" / "python3*")):
            return [str(parent)]
    return []


def site_dirs(prefix: str) -> list[str]:
    """The directories of installed distributions under a Python prefix."""
    patterns = ["lib/python3*/site-packages", "lib/python3*/dist-packages", "lib/python3/dist-packages",
                "local/lib/python3*/site-packages", "local/lib/python3*/dist-packages"]
    found = [p for pattern in patterns for p in glob.glob(os.path.join(prefix, pattern))]
    return [_real(p) for p in dict.fromkeys(found) if os.path.isdir(p)]


def editable_roots(site: str) -> list[str]:
    """The import directories an editable install adds to sys.path: the directory lines of the
    site directory's `.pth` files, and the paths of setuptools' `__editable__` finders."""
    out: list[str] = []
    try:
        names = sorted(os.listdir(site))
    except OSError:
        return out
    for name in names:
        path = os.path.join(site, name)
        if name.endswith(".pth"):
            with contextlib.suppress(OSError, UnicodeDecodeError):
                for line in Path(path).read_text(encoding="utf-8").splitlines():
                    line = line.strip()
                    if not line or line.startswith(("#", "import ", "import\t")):
                        continue
                    target = line if os.path.isabs(line) else os.path.join(site, line)
                    if os.path.isdir(target):
                        out.append(_real(target))
        elif name.startswith("__editable__") and name.endswith("_finder.py"):
            with contextlib.suppress(OSError, UnicodeDecodeError, ValueError, SyntaxError):
                match = re.search(r"^MAPPING\s*(?::[^=\n]*)?=\s*(\{.*?\})\s*$", Path(path).read_text(encoding="utf-8"), re.M | re.S)
                mapping = ast.literal_eval(match.group(1)) if match else {}
                for target in mapping.values():
                    if isinstance(target, str) and os.path.exists(target):
                        # The package directory itself: its parent would show its siblings.
                        out.append(_real(target))
    return out


# -- what is hidden inside what is shown ------------------------------------------------------------


def _fixtures_of(parts: Sequence[str]) -> int | None:
    """Index of the `fixtures` part in .../benchmarks/<type>/fixtures/..., else None."""
    for i in range(2, len(parts)):
        if parts[i] == FIXTURES_DIR and parts[i - 2] == "benchmarks":
            return i
    return None


def listed_answers(site: str) -> list[str]:
    """The answer files and prediction-fixture directories the distributions of a site directory
    list in their file lists (RECORD)."""
    out: list[str] = []
    try:
        infos = sorted(e for e in os.listdir(site) if e.endswith(".dist-info"))
    except OSError:
        return out
    for info in infos:
        record = os.path.join(site, info, _RECORD)
        with contextlib.suppress(OSError, UnicodeDecodeError, csv.Error), open(record, encoding="utf-8", newline="") as handle:
            for row in csv.reader(handle):
                if not row or row[0].startswith(("../", "/")):
                    continue
                parts = row[0].split("/")
                if parts[-1] == ANSWERS:
                    out.append(os.path.join(site, row[0]))
                    continue
                at = _fixtures_of(parts)
                if at is not None:
                    out.append(os.path.join(site, *parts[: at + 1]))
    return [p for p in dict.fromkeys(out) if os.path.lexists(p)]


def walked_hidden(root: str) -> list[str]:
    """What a walk of a non-system tree finds to hide: answer files, prediction-fixture
    directories, `.git` and sockets (never following links)."""
    out: list[str] = []
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name == ".git" or (entry.name == FIXTURES_DIR and Path(directory).parent.name == "benchmarks"):
                    out.append(entry.path)
                else:
                    stack.append(entry.path)
            elif entry.is_file(follow_symlinks=False):
                if entry.name in (ANSWERS, ".git"):  # .git as a file: a worktree's or submodule's link
                    out.append(entry.path)
            elif not entry.is_symlink():
                with contextlib.suppress(OSError):
                    if stat.S_ISSOCK(entry.stat(follow_symlinks=False).st_mode):
                        out.append(entry.path)
    return out


def etc_hidden(etc: str = ETC) -> list[str]:
    """The entries of /etc that are not world-readable (shadow, ssl/private, munge...)."""
    out: list[str] = []
    for directory, dirs, files in os.walk(etc):
        for name in [*dirs, *files]:
            path = os.path.join(directory, name)
            with contextlib.suppress(OSError):
                if not os.lstat(path).st_mode & stat.S_IROTH and not os.path.islink(path):
                    out.append(path)
        dirs[:] = [d for d in dirs if os.path.join(directory, d) not in out and not os.path.islink(os.path.join(directory, d))]
    return out


def hiding(path: str) -> list[str]:
    """bwrap's arguments that hide what is at `path`: an empty tmpfs over a directory, /dev/null
    over anything else (a file, a socket)."""
    return ["--tmpfs", path] if os.path.isdir(path) and not os.path.islink(path) else ["--ro-bind", "/dev/null", path]


# -- the view ---------------------------------------------------------------------------------------


def view_arguments(command: Sequence[str], *, path_env: str | None, allow: Sequence[str] = (), secrets: Iterable[Path] = (),
                   network: bool = True) -> list[str]:
    """bwrap's arguments for the adapter's view of the filesystem: the allow-list and what is
    hidden inside it (the workspace, /dev, /proc and /tmp are the caller's). bubblewrap's root
    starts as an empty tmpfs; the caller remounts it read-only last."""
    args: list[str] = []
    for path in SYSTEM_RUNTIME:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    system = [_real(p) for p in SYSTEM_RUNTIME if os.path.isdir(p)]
    args += ["--ro-bind", ETC, ETC]
    if network:
        # A resolv.conf that is a link into /run (systemd-resolved): the file it names.
        resolv = _real(os.path.join(ETC, "resolv.conf"))
        if os.path.isfile(resolv) and not under(resolv, ETC) and not any(under(resolv, s) for s in system):
            args += ["--ro-bind", resolv, resolv]

    installations: list[str] = []  # shown, not walked
    walked: list[str] = []  # shown and walked
    files: list[str] = []  # single files: the executables
    program = shutil.which(command[0], path=path_env) or command[0]
    executables = interpreter_chain(program, path_env)
    prefixes = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix]
    for exe in executables:
        files.append(exe)
        root = manager_root(exe)
        if root:
            installations.append(root)
        prefixes += python_prefixes(exe)
    sites: list[str] = []
    for prefix in dict.fromkeys(_real(p) for p in prefixes if os.path.isdir(p)):
        if os.path.isfile(os.path.join(prefix, "pyvenv.cfg")):
            walked.append(prefix)
        else:
            installations.append(prefix)
        sites += site_dirs(prefix)
    for root in list(installations):
        sites += [p for version in glob.glob(os.path.join(root, "versions", "*")) for p in site_dirs(version)]
    for path in ("/usr", "/usr/local"):
        sites += site_dirs(path)
    sites = list(dict.fromkeys(sites))
    for site in sites:
        walked += editable_roots(site)
    walked += [_real(p) for p in allow]

    shown: list[str] = []
    for path in sorted({_real(p) for p in [*installations, *walked, *files] if os.path.exists(p)}, key=len):
        if any(under(path, s) for s in [*system, ETC, *shown]):
            continue
        shown.append(path)
        args += ["--ro-bind", path, path]
    visible = [*system, ETC, *shown]

    hidden: list[str] = [*etc_hidden()]
    for site in sites:
        hidden += listed_answers(site)
    for root in walked:
        if os.path.isdir(root):
            hidden += walked_hidden(root)
    for root in installations:
        hidden.append(os.path.join(root, ".git"))
    hidden += [os.fspath(p) for p in secrets]
    done: list[str] = []
    for path in sorted({_real(p) for p in hidden if os.path.lexists(p)}, key=len):
        if path == "/" or any(under(path, h) for h in done) or not any(under(path, v) for v in visible):
            continue
        if any(under(s, path) for s in shown if s != path) and os.path.isdir(path):
            # A directory that holds something shown (a dataset directory around an allowed
            # path): hiding it would hide that too; hide its answers instead.
            continue
        done.append(path)
        args += hiding(path)
    return args


# -- seccomp: ptrace closed -------------------------------------------------------------------------

# Classic BPF over struct seccomp_data {int nr; u32 arch; u64 ip; u64 args[6]}.
_LD_W_ABS, _JEQ_K, _JGE_K, _RET_K = 0x20, 0x15, 0x35, 0x06
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
_EPERM = 1
# (audit arch, ptrace's number, first number of a second ABI on the same arch (x32), or None)
_ARCHES = {"x86_64": (0xC000003E, 101, 0x40000000), "aarch64": (0xC00000B7, 117, None)}


def seccomp_program(machine: str | None = None) -> bytes | None:
    """A seccomp filter that refuses ptrace (EPERM) and every system call of another ABI, so the
    adapter can neither stop the sandbox's init nor read another process's memory; None on an
    architecture it does not know (the sandbox then runs without it)."""
    machine = machine or os.uname().machine
    if machine not in _ARCHES:
        return None
    arch, ptrace, second_abi = _ARCHES[machine]
    deny = _RET_ERRNO | _EPERM
    program = [
        (_LD_W_ABS, 0, 0, 4),  # A = arch
        (_JEQ_K, 1, 0, arch),  # native: skip the next
        (_RET_K, 0, 0, deny),
        (_LD_W_ABS, 0, 0, 0),  # A = nr
    ]
    if second_abi is not None:
        program += [(_JGE_K, 0, 1, second_abi), (_RET_K, 0, 0, deny)]
    program += [(_JEQ_K, 0, 1, ptrace), (_RET_K, 0, 0, deny), (_RET_K, 0, 0, _RET_ALLOW)]
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in program)
