"""The operator's and a team's commands end to end, as docs/holdout.md shows them: `holdout serve`
(SQLite, a fresh data directory, a process of its own), a team and its key, a held dataset and its
public part, `envirobench run` on the sealed part (unscored, in the sandbox where bubblewrap is
installed), `envirobench submit` (a released score; a retry replayed; the fourth of the day 429),
then `holdout export` and `holdout verify` (and a tampered export refused)."""

from __future__ import annotations

import json

from click.testing import CliRunner
from holdout_kit import free_port, start_server
from scripted_adapters import adapter_executable

from envirobench.cli import main
from envirobench.sandbox import find_bwrap


def cli(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def test_a_team_submits_to_a_fresh_service_and_the_ledger_verifies(tmp_path, registry, full_dataset):
    data = tmp_path / "fresh-service"
    fake = adapter_executable(tmp_path / "bin" / "fake", "fake_adapter.py")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    made = cli("holdout", "team", "add", "alpha", "--data", str(data))
    assert made.exit_code == 0, made.output
    key = cli("holdout", "key", "add", "alpha", "--data", str(data))
    assert key.exit_code == 0
    api_key = key.stdout.strip().splitlines()[-1]
    assert api_key.startswith("ebh_")
    public = tmp_path / "public"
    held = cli("holdout", "dataset", "add", str(full_dataset), "--public-out", str(public), "--data", str(data), "--service-url", url)
    assert held.exit_code == 0, held.output
    assert not (public / "answers.jsonl").exists()
    server = start_server(data, None, port, quota=3)
    try:
        sandbox = "auto" if find_bwrap() else "none"
        runs = []
        for n in range(5):
            run = cli("run", "--adapter", str(fake), "--run", f"team-{n}", "--model", "test/fake", "--benchmark", "count-words",
                      "--dataset", f"count-words={public}", "--budget", "1", "--results", str(tmp_path / "results"), "--sandbox", sandbox,
                      *(["--adapter-option", f"off=c000001:{n}"] if n else []))
            assert run.exit_code == 0, run.output
            assert "unscored" in run.output
            runs.append(tmp_path / "results" / f"team-{n}")
        env = {"ENVIROBENCH_HOLDOUT_KEY": api_key}
        first = cli("submit", str(runs[0]), "--to", url, env=env)
        assert first.exit_code == 0, first.output
        assert "released score:" in first.output and "submissions today: 1 of 3" in first.output
        again = cli("submit", str(runs[0]), "--to", url, "--json", env=env)
        assert again.exit_code == 0 and json.loads(again.stdout)["replayed"] is True
        for n in (1, 2):
            assert cli("submit", str(runs[n]), "--to", url, env=env).exit_code == 0
        fourth = cli("submit", str(runs[3]), "--to", url, env=env)
        assert fourth.exit_code == 1 and "(429)" in fourth.output and "Retry-After" in fourth.output
        no_key = cli("submit", str(runs[4]), "--to", url, env={"ENVIROBENCH_HOLDOUT_KEY": ""})
        assert no_key.exit_code == 1 and "no API key" in no_key.output
    finally:
        server.kill()
        server.wait(30)
    export = tmp_path / "ledger.jsonl"
    assert cli("holdout", "export", "--out", str(export), "--data", str(data)).exit_code == 0
    verified = cli("holdout", "verify", str(export))
    assert verified.exit_code == 0 and "ledger verifies: 6 row(s)" in verified.output  # team, key, dataset, 3 submissions
    lines = export.read_text().splitlines()
    row = json.loads(lines[4])
    row["body"]["released"] = 100.0  # a forged release
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join([*lines[:4], json.dumps(row), *lines[5:]]) + "\n")
    refused = CliRunner().invoke(main, ["holdout", "verify", str(tampered)])
    assert refused.exit_code == 1 and "row 5" in refused.output and "altered" in refused.output
    dropped = tmp_path / "dropped.jsonl"
    dropped.write_text("\n".join([*lines[:3], *lines[4:]]) + "\n")
    refused = CliRunner().invoke(main, ["holdout", "verify", str(dropped)])
    assert refused.exit_code == 1 and "missing or out of order" in refused.output
