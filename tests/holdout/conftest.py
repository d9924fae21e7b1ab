"""Fixtures of the holdout's tests: a held count-words dataset (core's test type), its sealed public
part, a store on SQLite and on PostgreSQL (`store_url`, parametrised), the service in process
(Starlette's TestClient) and a team with a key.

The tests load only the holdout plugin (ENVIROBENCH_LOAD_PLUGINS) and core's test type, so they do
not depend on, or pay for, the category packages.
"""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

from envirobench import plugins
from envirobench.testing import toy_plugin, write_count_dataset

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # scripted_adapters

from holdout_kit import live_server, new_key  # noqa: E402
from postgres import postgres_server  # noqa: E402

from envirobench_holdout.sealing import hold  # noqa: E402
from envirobench_holdout.service import Holdout, Settings, make_app  # noqa: E402
from envirobench_holdout.store import init_store, sqlite_url  # noqa: E402

DATASET_ID = "test/count-words-v1"
CASES = 20


@pytest.fixture(autouse=True)
def _only_the_holdout_plugin(monkeypatch):
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "envirobench-holdout")


@pytest.fixture(scope="session")
def postgres():
    with postgres_server() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    if request.param == "sqlite":
        return sqlite_url(tmp_path / "service" / "holdout.sqlite")
    server = request.getfixturevalue("postgres")
    if isinstance(server, str):
        pytest.skip(server)
    return server.new_database()


@pytest.fixture
def full_dataset(tmp_path):
    # Answers that are not simply the word counts, so a prediction from the text alone is not
    # all correct, and answer content is recognisable in a response body.
    return write_count_dataset(tmp_path / "full", CASES, answer_overrides={f"c{i:06d}": 987_654_000 + i for i in range(0, CASES, 3)})


@pytest.fixture
def public_registry(tmp_path):
    """The registry a team has: the type, no dataset registered (the public part is run by path)."""
    return plugins.build_registry(extra=[("toy", toy_plugin())])


@pytest.fixture
def registry(public_registry, use_registry):
    use_registry(public_registry)
    return public_registry


@pytest.fixture
def held(tmp_path, store_url, registry, full_dataset):
    """(store, held row, public part directory)."""
    (tmp_path / "service").mkdir(exist_ok=True)
    store = init_store(store_url)
    row = hold(store, registry, full_dataset, tmp_path / "service", tmp_path / "public", private_share=0.5)
    return store, row, tmp_path / "public"


@pytest.fixture
def settings():
    return Settings(daily_quota=3, ladder_step=1.0, max_upload_bytes=1 << 20)


@pytest.fixture
def service(held, registry, settings):
    """An httpx client of the service, served by uvicorn on loopback (`.holdout` is its state)."""
    holdout = Holdout(held[0], registry, settings)
    with live_server(make_app(holdout)) as url, httpx.Client(base_url=url, timeout=60) as client:
        client.holdout = holdout
        yield client


@pytest.fixture
def team_key(held):
    """An API key of team 'alpha'."""
    return new_key(held[0], "alpha")
