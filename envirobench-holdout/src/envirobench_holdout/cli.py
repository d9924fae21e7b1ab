"""The commands: `envirobench submit` (teams) and `envirobench holdout ...` (the operator).

The operator's commands work on the service's data directory (--data, where held datasets are
copied; the SQLite database lives there too unless --db names another, e.g. a postgresql:// URL).
`serve` makes the database on first use, so it starts on a fresh machine with no set-up.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from envirobench import EnviroBenchError, Registry, get_registry

from . import keys
from .client import KEY_ENV, post_submission, submission_of
from .ledger import LedgerBroken, verify_export
from .store import Store, StoreError, init_store, sqlite_url

DATA_ENV, DB_ENV = "ENVIROBENCH_HOLDOUT_DATA", "ENVIROBENCH_HOLDOUT_DB"


def user_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """An EnviroBenchError, or a database that cannot be used (StoreError), becomes the command's
    one-line message and exit status 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (EnviroBenchError, StoreError) as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper


def registry() -> Registry:
    """The installed plugins' registry (the one in force)."""
    return get_registry()


def data_option(func):
    func = click.option("--db", envvar=DB_ENV, help=f"Database URL (sqlite:///PATH or postgresql://...); default: SQLite in --data. Env: {DB_ENV}.")(func)
    return click.option("--data", "data_dir", envvar=DATA_ENV, type=click.Path(path_type=Path, file_okay=False), default=Path("holdout-data"),
                        show_default=True, help=f"The service's data directory (held datasets; the SQLite database). Env: {DATA_ENV}.")(func)


def open_data(data_dir: Path, db: str | None) -> Store:
    """The service's database (made on first use); its StoreError is the command's `user_errors`."""
    data_dir.mkdir(parents=True, exist_ok=True)
    return init_store(db or sqlite_url(data_dir / "holdout.sqlite"))


@click.command("submit")
@click.argument("run_dir", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option("--to", "url", required=True, help="The holdout service's URL (http://host:port).")
@click.option("--key-env", default=KEY_ENV, show_default=True, help="The environment variable holding your API key.")
@click.option("--json", "as_json", is_flag=True, help="Print the service's answer as JSON.")
@user_errors
def submit_command(run_dir: Path, url: str, key_env: str, as_json: bool) -> None:
    """Send an unscored run of a sealed dataset to a holdout service to be scored.

    The service answers with the score the Ladder releases (never per-case results). Sending the
    same run again is answered with the first result and not counted against the quota.
    """
    api_key = os.environ.get(key_env, "").strip()
    if not api_key:
        raise click.ClickException(f"no API key: set {key_env} to the key your holdout operator gave you")
    body, idempotency_key = submission_of(run_dir)
    status, answer, headers = post_submission(url, api_key, body, idempotency_key)
    if status >= 400:
        wait = headers.get("retry-after")
        raise click.ClickException(f"{url} refused the submission ({status}): {answer.get('error', answer)}" + (f" [Retry-After: {wait} s]" if wait else ""))
    if as_json:
        click.echo(json.dumps(answer, indent=2, sort_keys=True, ensure_ascii=False))
        return
    again = " (already submitted: the first answer)" if answer.get("replayed") else ""
    click.echo(f"submission {answer['submission']}{again}: {answer['dataset']} v{answer['version']}, round {answer['round']}")
    click.echo(f"released score: {answer['released_score']:.2f} (Ladder step {answer['ladder_step']}); "
               f"submissions today: {answer['submissions_used_today']} of {answer['daily_quota']}")


@click.group("holdout")
def holdout_group() -> None:
    """The sealed-holdout scoring service: serve it, manage teams, keys and rounds, verify its ledger."""


@holdout_group.command("serve")
@data_option
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8035, show_default=True, type=int)
@click.option("--daily-quota", default=3, show_default=True, type=click.IntRange(min=1), help="Submissions per key, dataset and UTC day.")
@click.option("--ladder-step", default=1.0, show_default=True, type=click.FloatRange(min=0, min_open=True), help="The Ladder's step, in score points (0-100).")
@click.option("--max-upload-mb", default=32.0, show_default=True, type=click.FloatRange(min=0, min_open=True))
@user_errors
def serve_command(data_dir: Path, db: str | None, host: str, port: int, daily_quota: int, ladder_step: float, max_upload_mb: float) -> None:
    """Serve the holdout (HTTP) until stopped; the database is made on first use."""
    import uvicorn  # the server only here: the other commands do not need it

    from .service import Holdout, Settings, make_app

    store = open_data(data_dir, db)
    holdout = Holdout(store, registry(), Settings(daily_quota, ladder_step, int(max_upload_mb * (1 << 20))))
    click.echo(f"holdout: serving {len(holdout.reload())} dataset(s) on http://{host}:{port} (quota {daily_quota}/day, Ladder step {ladder_step})", err=True)
    uvicorn.run(make_app(holdout), host=host, port=port, log_level="warning")


@holdout_group.group("team")
def team_group() -> None:
    """Teams."""


@team_group.command("add")
@click.argument("name")
@data_option
@user_errors
def team_add(name: str, data_dir: Path, db: str | None) -> None:
    """Make a team (a ledger row records it)."""
    if not name.strip() or len(name) > 100:
        raise click.ClickException("a team name is 1 to 100 characters")
    open_data(data_dir, db).add_team(name)
    click.echo(f"team {name!r} made")


@holdout_group.group("key")
def key_group() -> None:
    """API keys."""


@key_group.command("add")
@click.argument("team")
@data_option
@user_errors
def key_add(team: str, data_dir: Path, db: str | None) -> None:
    """Make an API key for TEAM; it is printed once (only a salted hash is kept)."""
    made = keys.make_key()
    open_data(data_dir, db).add_key(team, made.key_id, made.salt, made.hashed)
    click.echo(f"key {made.key_id} for team {team!r} (shown once; give it to the team, who sets {KEY_ENV}):", err=True)
    click.echo(made.secret_key)


@holdout_group.group("dataset")
def dataset_group() -> None:
    """The sealed datasets the service holds."""


@dataset_group.command("add")
@click.argument("source", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option("--public-out", type=click.Path(path_type=Path), required=True, help="Where to write the public part (every file but the answer key, marked sealed).")
@click.option("--private-share", default=0.5, show_default=True, type=float, help="The share of cases in the private part (drawn in secret).")
@click.option("--service-url", default="", help="The service's URL, recorded in the public part's sealed.json.")
@data_option
@user_errors
def dataset_add(source: Path, public_out: Path, private_share: float, service_url: str, data_dir: Path, db: str | None) -> None:
    """Hold a whole dataset (answers included) and write its public, sealed part."""
    from .sealing import hold

    row = hold(open_data(data_dir, db), registry(), source, data_dir, public_out, private_share=private_share, service=service_url)
    click.echo(f"holding {row.dataset_id} v{row.version} ({row.digest}); its public part is {public_out}")


@dataset_group.command("demo")
@click.option("--public-out", type=click.Path(path_type=Path, file_okay=False), required=True, help="Where the demo's public parts are written (one directory per type).")
@click.option("--type", "type_ids", multiple=True, help="Only these benchmark types (default: one per category).")
@data_option
@user_errors
def dataset_demo(public_out: Path, type_ids: tuple[str, ...], data_dir: Path, db: str | None) -> None:
    """Generate the service's own small sealed split per category, from a secret seed it never prints."""
    from .demo import make_demo

    store = open_data(data_dir, db)
    for row, public in make_demo(store, registry(), data_dir, public_out, type_ids=type_ids):
        click.echo(f"holding {row.dataset_id} v{row.version} ({row.benchmark}); public part: {public}")


@holdout_group.group("round")
def round_group() -> None:
    """Rounds: closing one reveals its private scores."""


@round_group.command("close")
@click.argument("dataset")
@data_option
@user_errors
def round_close(dataset: str, data_dir: Path, db: str | None) -> None:
    """Close DATASET's current round (its ID or digest) and reveal each team's private score."""
    store = open_data(data_dir, db)
    matches = [h for h in store.held_datasets() if dataset in (h.digest, h.dataset_id)]
    if len(matches) != 1:
        raise click.ClickException(f"{dataset!r} names {len(matches)} held datasets; give its digest")
    _, round_, revealed = store.close_round(matches[0].digest)
    click.echo(f"closed round {round_} of {matches[0].dataset_id}: {len(revealed)} team(s) revealed")


@holdout_group.command("export")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), required=True, help="The JSON Lines file to write (refused if it exists).")
@data_option
@user_errors
def export_command(out: Path, data_dir: Path, db: str | None) -> None:
    """Export the ledger (every row with its hashes) for `envirobench holdout verify`.

    The export holds private scores: publish it only once their rounds are closed."""
    store = open_data(data_dir, db)
    if out.exists():
        raise click.ClickException(f"{out} exists; an export is written to a new file")
    partial = out.with_name(f".{out.name}.incomplete")
    count = 0
    with partial.open("w", encoding="utf-8") as fh:
        for row in store.rows():
            fh.write(row.line())
            count += 1
        fh.flush()
        os.fsync(fh.fileno())
    partial.rename(out)
    click.echo(f"exported {count} ledger row(s) to {out}")


@holdout_group.command("verify")
@click.argument("export", type=click.Path(path_type=Path, dir_okay=False, exists=True))
def verify_command(export: Path) -> None:
    """Check a ledger export's hash chain: every row present, in order, unaltered."""
    try:
        count, last = verify_export(export)
    except LedgerBroken as exc:
        click.echo(f"ledger does not verify: {exc}", err=True)
        sys.exit(1)
    except OSError as exc:
        raise click.ClickException(f"{export}: {exc.strerror}") from None
    click.echo(f"ledger verifies: {count} row(s), last hash {last}")



