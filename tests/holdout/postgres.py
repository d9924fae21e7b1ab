"""A throwaway PostgreSQL server for the holdout's tests: Debian's `postgresql` binaries, a data
directory and socket in a temporary directory, listening on a Unix socket only, stopped at the end.

bin/test installs Debian's postgresql when it is missing; where its binaries are absent (or the
server cannot start here) the PostgreSQL half of the tests skips, saying why. As root, the server
runs as the `postgres` user the package makes (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


class PostgresServer:
    def __init__(self, root: Path, bin_dir: Path) -> None:
        self.root, self.bin = root, bin_dir
        self.data, self.socket = root / "data", root / "socket"
        self.port = 5432
        self.user = "postgres"

    def _as_owner(self, argv: list[str]) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv

    def start(self) -> None:
        self.socket.mkdir(parents=True)
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
            shutil.chown(self.socket, "postgres")
        else:
            self.user = os.environ.get("USER") or "postgres"
        subprocess.run(self._as_owner([str(self.bin / "initdb"), "-D", str(self.data), "-U", self.user, "--auth=trust", "-E", "UTF8", "--no-sync"]),
                       check=True, capture_output=True, text=True)
        options = f"-c listen_addresses='' -c unix_socket_directories={self.socket} -c fsync=on -c max_connections=200 -p {self.port}"
        subprocess.run(self._as_owner([str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-w", "-t", "60", "-l", str(self.root / "log"), "start"]),
                       check=True, capture_output=True, text=True)

    def stop(self) -> None:
        subprocess.run(self._as_owner([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"]), capture_output=True)

    def url(self, database: str) -> str:
        return f"postgresql://{self.user}@/{database}?host={self.socket}&port={self.port}"

    def new_database(self) -> str:
        """A new, empty database's URL."""
        import psycopg

        name = "holdout_" + uuid.uuid4().hex[:12]
        with psycopg.connect(host=str(self.socket), port=self.port, user=self.user, dbname="postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextlib.contextmanager
def postgres_server() -> Iterator[PostgresServer | str]:
    """A running server, or the reason there is none (a string)."""
    bin_dir = pg_bin()
    if bin_dir is None:
        yield "Debian's postgresql is not installed (bin/test installs it)"
        return
    root = Path(tempfile.mkdtemp(prefix="holdout-pg-"))
    os.chmod(root, 0o755)
    server = PostgresServer(root, bin_dir)
    try:
        try:
            server.start()
        except subprocess.CalledProcessError as exc:
            yield f"PostgreSQL did not start here: {(exc.stderr or exc.stdout or '').strip().splitlines()[-1:]}"
            return
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
