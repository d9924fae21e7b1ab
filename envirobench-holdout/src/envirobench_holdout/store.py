"""The service's database, through SQLAlchemy: SQLite (WAL) by default, PostgreSQL by URL.

Tables: teams, api_keys (salted hashes only), datasets (the sealed datasets the service holds),
ledger (the hash chain: ledger.py) and two indexes of it, submissions and round_closures, written
in the same transaction as their ledger row. Nothing is ever updated or deleted.

Every write that appends to the ledger runs in one transaction holding the ledger's lock (SQLite:
BEGIN IMMEDIATE, one writer at a time; PostgreSQL: a transaction-scoped advisory lock), so the
chain is never forked, a quota is counted exactly and an idempotency key is claimed once, whatever
the number of workers or processes.

The schema is versioned (SCHEMA_VERSION in schema_version): `init` makes it, `open_store` refuses a
database of another version with what to do.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from .ledger import GENESIS, Row, row_hash

SCHEMA_VERSION = 1
IMMEDIATE = "holdout_immediate"  # execution option: an SQLite transaction that takes the write lock at BEGIN
LEDGER_LOCK = 350_035  # PostgreSQL advisory-lock key of the ledger (any constant the service alone uses)

metadata = sa.MetaData()
schema_version = sa.Table("schema_version", metadata, sa.Column("version", sa.Integer, primary_key=True), sa.Column("applied_at", sa.String(40), nullable=False))
teams = sa.Table("teams", metadata, sa.Column("name", sa.String(100), primary_key=True), sa.Column("created_at", sa.String(40), nullable=False))
api_keys = sa.Table(
    "api_keys", metadata,
    sa.Column("key_id", sa.String(16), primary_key=True),
    sa.Column("team", sa.String(100), sa.ForeignKey("teams.name"), nullable=False),
    sa.Column("salt", sa.LargeBinary(16), nullable=False),
    sa.Column("hashed", sa.LargeBinary(32), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
)
datasets = sa.Table(
    "datasets", metadata,
    sa.Column("digest", sa.String(80), primary_key=True),
    sa.Column("dataset_id", sa.String(200), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("benchmark", sa.String(200), nullable=False),
    sa.Column("path", sa.Text, nullable=False),  # the full dataset (with its answer key), on the service only
    sa.Column("private_cases", sa.Text, nullable=False),  # JSON list of the private part's case IDs
    sa.Column("added_at", sa.String(40), nullable=False),
)
ledger = sa.Table(
    "ledger", metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("at", sa.String(40), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("prev", sa.String(80), nullable=False, unique=True),
    sa.Column("hash", sa.String(80), nullable=False, unique=True),
)
submissions = sa.Table(
    "submissions", metadata,
    sa.Column("seq", sa.Integer, sa.ForeignKey("ledger.seq"), primary_key=True, autoincrement=False),
    sa.Column("key_id", sa.String(16), sa.ForeignKey("api_keys.key_id"), nullable=False),
    sa.Column("team", sa.String(100), nullable=False),
    sa.Column("dataset_digest", sa.String(80), sa.ForeignKey("datasets.digest"), nullable=False),
    sa.Column("day", sa.String(10), nullable=False),
    sa.Column("idempotency_key", sa.String(200), nullable=False),
    sa.Column("predictions_sha256", sa.String(80), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("system", sa.String(400), nullable=False),
    sa.Column("public_score", sa.Float, nullable=False),
    sa.Column("private_score", sa.Float, nullable=False),
    sa.Column("released", sa.Float, nullable=True),  # the score the Ladder showed after it (None: none yet)
    sa.Column("at", sa.String(40), nullable=False),
    sa.UniqueConstraint("key_id", "idempotency_key", name="one_submission_per_idempotency_key"),
)
sa.Index("submissions_quota", submissions.c.key_id, submissions.c.dataset_digest, submissions.c.day)
round_closures = sa.Table(
    "round_closures", metadata,
    sa.Column("seq", sa.Integer, sa.ForeignKey("ledger.seq"), primary_key=True, autoincrement=False),
    sa.Column("dataset_digest", sa.String(80), sa.ForeignKey("datasets.digest"), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.UniqueConstraint("dataset_digest", "round", name="one_closure_per_round"),
)


class StoreError(Exception):
    """A database that cannot be used as it is (wrong schema version, not initialised)."""


def now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="microseconds")


def engine_url(url: str) -> str:
    """PostgreSQL URLs use psycopg (version 3) unless they name a driver."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain):]
    return url


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{Path(path).resolve()}"


def make_engine(url: str) -> Engine:
    url = engine_url(url)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 60}, pool_size=8, max_overflow=16)

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_connection, _record):
            # pysqlite's own transaction handling is switched off so that BEGIN IMMEDIATE (below)
            # starts every appending transaction: one writer at a time, taken at the start, never
            # upgraded from a reader (which could deadlock).
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged submission survives a crash
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn):
            # Appending transactions take the write lock at once; reads begin deferred (WAL lets
            # them run beside the writer).
            conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(IMMEDIATE) else "BEGIN")

        return engine
    return sa.create_engine(url, pool_size=8, max_overflow=16, pool_pre_ping=True)


@attrs.frozen
class HeldDatasetRow:
    digest: str
    dataset_id: str
    version: int
    benchmark: str
    path: str
    private_cases: tuple[str, ...]


@attrs.frozen
class SubmissionRow:
    seq: int
    key_id: str
    team: str
    dataset_digest: str
    idempotency_key: str
    predictions_sha256: str
    round: int
    system: str
    public_score: float
    private_score: float
    released: float | None
    at: str


class Store:
    """The database: open with `open_store` (or `init_store` for a new one)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgresql = engine.dialect.name == "postgresql"

    @contextmanager
    def appending(self) -> Iterator[Connection]:
        """A transaction holding the ledger's lock, committed when the block ends without error."""
        with self.engine.connect().execution_options(**{IMMEDIATE: True}) as conn, conn.begin():
            if self.postgresql:
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": LEDGER_LOCK})
            yield conn

    def append(self, conn: Connection, kind: str, body: Mapping[str, Any], at: str | None = None) -> Row:
        """Append one ledger row inside an `appending` transaction."""
        last = conn.execute(sa.select(ledger.c.seq, ledger.c.hash).order_by(ledger.c.seq.desc()).limit(1)).first()
        seq, prev = (last.seq + 1, last.hash) if last else (1, GENESIS)
        at = at or now()
        body = dict(body)
        row = Row(seq, at, kind, body, prev, row_hash(prev, seq, at, kind, body))
        conn.execute(ledger.insert().values(seq=seq, at=at, kind=kind, body=json.dumps(body, sort_keys=True), prev=prev, hash=row.hash))
        return row

    # -- administration ---------------------------------------------------------------------

    def add_team(self, name: str) -> Row:
        with self.appending() as conn:
            if conn.execute(sa.select(teams.c.name).where(teams.c.name == name)).first():
                raise StoreError(f"team {name!r} exists already")
            at = now()
            conn.execute(teams.insert().values(name=name, created_at=at))
            return self.append(conn, "team", {"team": name}, at)

    def add_key(self, team: str, key_id: str, salt: bytes, hashed: bytes) -> Row:
        with self.appending() as conn:
            if not conn.execute(sa.select(teams.c.name).where(teams.c.name == team)).first():
                raise StoreError(f"no team {team!r}; make it first: envirobench holdout team add {team}")
            at = now()
            conn.execute(api_keys.insert().values(key_id=key_id, team=team, salt=salt, hashed=hashed, created_at=at))
            return self.append(conn, "key", {"team": team, "key_id": key_id}, at)

    def add_dataset(self, held: HeldDatasetRow) -> Row:
        with self.appending() as conn:
            if conn.execute(sa.select(datasets.c.digest).where(datasets.c.digest == held.digest)).first():
                raise StoreError(f"dataset {held.dataset_id} v{held.version} ({held.digest}) is held already")
            at = now()
            conn.execute(datasets.insert().values(digest=held.digest, dataset_id=held.dataset_id, version=held.version, benchmark=held.benchmark,
                                                  path=held.path, private_cases=json.dumps(list(held.private_cases)), added_at=at))
            # The ledger names the dataset and the size of its private part, never which cases.
            return self.append(conn, "dataset", {"dataset": held.dataset_id, "version": held.version, "digest": held.digest,
                                                 "benchmark": held.benchmark, "private_cases": len(held.private_cases)}, at)

    def key(self, key_id: str) -> tuple[str, bytes, bytes] | None:
        """(team, salt, hash) of a key."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(api_keys.c.team, api_keys.c.salt, api_keys.c.hashed).where(api_keys.c.key_id == key_id)).first()
        return (row.team, bytes(row.salt), bytes(row.hashed)) if row else None

    def held_datasets(self) -> list[HeldDatasetRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(datasets).order_by(datasets.c.dataset_id)).all()
        return [HeldDatasetRow(r.digest, r.dataset_id, r.version, r.benchmark, r.path, tuple(json.loads(r.private_cases))) for r in rows]

    # -- submissions ------------------------------------------------------------------------

    @staticmethod
    def submission_for(conn: Connection, key_id: str, idempotency_key: str) -> SubmissionRow | None:
        row = conn.execute(sa.select(submissions).where(submissions.c.key_id == key_id, submissions.c.idempotency_key == idempotency_key)).first()
        return _submission(row) if row else None

    @staticmethod
    def used_today(conn: Connection, key_id: str, dataset_digest: str, day: str) -> int:
        return conn.execute(sa.select(sa.func.count()).select_from(submissions).where(
            submissions.c.key_id == key_id, submissions.c.dataset_digest == dataset_digest, submissions.c.day == day)).scalar_one()

    @staticmethod
    def current_round(conn: Connection, dataset_digest: str) -> int:
        closed = conn.execute(sa.select(sa.func.max(round_closures.c.round)).where(round_closures.c.dataset_digest == dataset_digest)).scalar()
        return (closed or 0) + 1

    @staticmethod
    def best_released(conn: Connection, team: str, dataset_digest: str, round_: int) -> float | None:
        return conn.execute(sa.select(sa.func.max(submissions.c.released)).where(
            submissions.c.team == team, submissions.c.dataset_digest == dataset_digest, submissions.c.round == round_)).scalar()

    @staticmethod
    def record_submission(conn: Connection, row: SubmissionRow, day: str) -> None:
        conn.execute(submissions.insert().values(day=day, **attrs.asdict(row)))

    def close_round(self, dataset_digest: str) -> tuple[Row, int, list[dict[str, Any]]]:
        """Close the dataset's current round: reveal each team's private score (of its submission
        whose public score the Ladder last released), in a ledger row. (row, round, revealed)."""
        with self.appending() as conn:
            held = conn.execute(sa.select(datasets.c.dataset_id).where(datasets.c.digest == dataset_digest)).first()
            if held is None:
                raise StoreError(f"no held dataset has digest {dataset_digest}")
            round_ = self.current_round(conn, dataset_digest)
            revealed = [attrs.asdict(entry) for entry in board(conn, dataset_digest, round_, reveal=True)]
            row = self.append(conn, "round-closed", {"dataset_digest": dataset_digest, "round": round_, "revealed": revealed})
            conn.execute(round_closures.insert().values(seq=row.seq, dataset_digest=dataset_digest, round=round_))
            return row, round_, revealed

    def board(self, dataset_digest: str) -> tuple[int, list[BoardEntry], list[BoardEntry]]:
        """(current round, its public board, the last closed round's board with private scores)."""
        with self.engine.connect() as conn:
            round_ = self.current_round(conn, dataset_digest)
            current = board(conn, dataset_digest, round_, reveal=False)
            closed = board(conn, dataset_digest, round_ - 1, reveal=True) if round_ > 1 else []
        return round_, current, closed

    def rows(self) -> Iterator[Row]:
        with self.engine.connect() as conn:
            for r in conn.execute(sa.select(ledger).order_by(ledger.c.seq)):
                yield Row(r.seq, r.at, r.kind, json.loads(r.body), r.prev, r.hash)

    def submissions(self) -> list[SubmissionRow]:
        with self.engine.connect() as conn:
            return [_submission(r) for r in conn.execute(sa.select(submissions).order_by(submissions.c.seq))]


@attrs.frozen
class BoardEntry:
    team: str
    system: str
    released: float
    submissions: int
    at: str  # when the released score was made
    private_score: float | None = None  # revealed once the round is closed


def board(conn: Connection, dataset_digest: str, round_: int, *, reveal: bool) -> list[BoardEntry]:
    """Each team's row of a round: its released score (the last submission that raised it), the
    submissions it used, and, when revealed, that submission's private score. Best first."""
    rows = conn.execute(sa.select(submissions).where(submissions.c.dataset_digest == dataset_digest, submissions.c.round == round_)
                        .order_by(submissions.c.seq)).all()
    by_team: dict[str, tuple[Any, int]] = {}
    for r in rows:
        best, used = by_team.get(r.team, (None, 0))
        if r.released is not None and (best is None or r.released > best.released):
            best = r
        by_team[r.team] = (best, used + 1)
    entries = [BoardEntry(team, best.system, best.released, used, best.at, best.private_score if reveal else None)
               for team, (best, used) in by_team.items() if best is not None]
    return sorted(entries, key=lambda e: (-e.released, e.at))


def _submission(r: Any) -> SubmissionRow:
    return SubmissionRow(r.seq, r.key_id, r.team, r.dataset_digest, r.idempotency_key, r.predictions_sha256, r.round, r.system,
                         r.public_score, r.private_score, r.released, r.at)


def init_store(url: str) -> Store:
    """Make the schema in a new (or empty) database, or open an initialised one of this version."""
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            if not sa.inspect(conn).has_table("schema_version"):
                metadata.create_all(conn)
                conn.execute(schema_version.insert().values(version=SCHEMA_VERSION, applied_at=now()))
    except sa.exc.DatabaseError as exc:  # not a database at all (a stray file, a refused login)
        raise StoreError(f"{url} cannot be used as a holdout database: {exc.orig}") from None
    return open_store(url, engine)


def open_store(url: str, engine: Engine | None = None) -> Store:
    engine = engine or make_engine(url)
    with engine.connect() as conn:
        if not sa.inspect(conn).has_table("schema_version"):
            raise StoreError(f"{url} is not a holdout database; make it with: envirobench holdout init --db URL")
        versions = conn.execute(sa.select(schema_version.c.version)).scalars().all()
    if versions != [SCHEMA_VERSION]:
        raise StoreError(f"{url} has schema version {versions}, this service needs [{SCHEMA_VERSION}]; upgrade envirobench-holdout or the database")
    return Store(engine)
