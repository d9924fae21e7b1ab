"""Progress outside a terminal (issue 36, finding 2): a CI log, `nohup` or a pipe gets a line
every ENVIROBENCH_PROGRESS_INTERVAL seconds on stderr, with done/total, rate and time left."""

from __future__ import annotations

import io
import re
import time

import pytest
from click.testing import CliRunner

from envirobench.cli import main
from envirobench.cli.common import PROGRESS_INTERVAL_ENV, ProgressBars, duration


def run_args(adapter, results, *extra):
    return ["run", "--adapter", str(adapter), "--run", "slow", "--model", "m", "--benchmark", "count-words",
            "--dataset", "count-words=test/count-words-v1", "--budget", "0", "--sandbox", "none", "--results", str(results), *extra]


def test_a_run_outside_a_terminal_prints_progress_lines(use_registry, toy_registry, adapter_bin, tmp_path, monkeypatch):
    use_registry(toy_registry)
    monkeypatch.setenv(PROGRESS_INTERVAL_ENV, "0.5")
    adapter = adapter_bin("slow_progress_adapter.py")
    result = CliRunner().invoke(main, run_args(adapter, tmp_path / "results", "--adapter-option", "step=0.25"))  # 12 cases, ~3 s
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("progress: ")]
    assert len(lines) >= 3, result.stderr
    counted = [line for line in lines if re.match(r"progress: run slow: adapter \d+/12 cases \(\d+ %\)", line)]
    assert counted, lines
    assert any(re.search(r", \d+\.\d cases/(s|min), about \d+ (s|min \d\d s) left; \d+ s elapsed$", line) for line in counted), lines
    assert "progress" not in result.stdout


def test_no_progress_lines_when_the_interval_is_zero_or_the_run_is_quick(use_registry, toy_registry, adapter_bin, tmp_path, monkeypatch):
    use_registry(toy_registry)
    adapter = adapter_bin("slow_progress_adapter.py")
    monkeypatch.setenv(PROGRESS_INTERVAL_ENV, "0")
    result = CliRunner().invoke(main, run_args(adapter, tmp_path / "a", "--adapter-option", "step=0.1"))
    assert result.exit_code == 0 and "progress:" not in result.stderr
    monkeypatch.delenv(PROGRESS_INTERVAL_ENV)  # 30 s: a run of a second says nothing
    result = CliRunner().invoke(main, run_args(adapter, tmp_path / "b", "--adapter-option", "step=0.01"))
    assert result.exit_code == 0 and "progress:" not in result.stderr
    monkeypatch.setenv(PROGRESS_INTERVAL_ENV, "soon")
    result = CliRunner().invoke(main, run_args(adapter, tmp_path / "c"))
    assert result.exit_code == 1 and "ENVIROBENCH_PROGRESS_INTERVAL='soon' is not a number of seconds" in result.stderr


def test_a_silent_stage_still_gets_a_heartbeat():
    log = io.StringIO()
    bars = ProgressBars(log, interval=0.05).heartbeat("run r")
    try:
        for _ in range(200):
            if log.getvalue():
                break
            time.sleep(0.02)
    finally:
        bars.close()
    assert log.getvalue().splitlines()[0].startswith("progress: run r: ") and "no progress reported yet" in log.getvalue()


@pytest.mark.parametrize(("seconds", "text"), [(4.4, "4 s"), (200, "3 min 20 s"), (7500, "2 h 05 min")])
def test_durations(seconds, text):
    assert duration(seconds) == text


def test_the_line_says_done_total_rate_and_time_left():
    bars = ProgressBars(io.StringIO(), interval=0)
    bars("adapter", 0, 200)
    bars.stage_started -= 600  # ten minutes ago
    bars.started -= 900
    bars("adapter", 20, 200)
    assert bars.line(bars.stage_started + 600) == "progress: adapter 20/200 cases (10 %), 2.0 cases/min, about 1 h 30 min left; 15 min 00 s elapsed"


def test_a_one_case_run_shows_the_pages_read_of_the_case_under_way(use_registry, toy_registry, adapter_bin, tmp_path, monkeypatch):
    # A site-tier run is a few cases of hundreds of pages: "0/1" until the end says nothing.
    use_registry(toy_registry)
    monkeypatch.setenv(PROGRESS_INTERVAL_ENV, "0.4")
    adapter = adapter_bin("slow_progress_adapter.py")
    result = CliRunner().invoke(main, run_args(adapter, tmp_path / "results", "--limit", "1", "--adapter-option", "pages=12",
                                               "--adapter-option", "step=0.2"))
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if "under way" in line]
    assert lines, result.stderr
    assert all(re.match(r"progress: run slow: adapter 0/1 cases \(0 %\); under way: \d+/12 pages", line) for line in lines), lines
    assert any(re.search(r"under way: \d+/12 pages, \d+\.\d pages/s", line) for line in lines), lines


def test_the_progress_reader_keeps_a_lines_part(tmp_path):
    from envirobench.adapters import ProgressReader

    path = tmp_path / "progress.jsonl"
    reader = ProgressReader(path)
    path.write_text('{"done": 0, "total": 2, "part": {"done": 120, "total": 806, "unit": "pages"}}\n')
    assert reader.poll() and (reader.done, reader.total, reader.part) == (0, 2, (120, 806, "pages"))
    with path.open("a") as fh:
        fh.write('{"done": 1, "total": 2}\n')
    assert reader.poll() and reader.part is None
    for bad in ('{"done": 5, "total": 4}', '"pages"', '{"done": 1, "total": 2, "unit": ""}', '{"done": 1.5, "total": 2}'):
        with path.open("a") as fh:
            fh.write('{"done": 1, "total": 2, "part": ' + bad + "}\n")
        assert reader.poll() and reader.part is None  # the case count still counts; a bad part is ignored


def test_on_a_terminal_the_bar_names_the_pages_read():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    with ProgressBars(terminal) as bars:
        bars("adapter", 0, 1)
        bars("adapter:pages", 120, 806)
    assert "adapter (120/806 pages)" in terminal.getvalue()


def test_the_pages_under_way_stay_on_the_line_while_the_case_count_repeats():
    # The run reports the case count on every poll and the pages after it: a line printed by the
    # count's call must still name the pages of the case under way (it once dropped them at random).
    log = io.StringIO()
    bars = ProgressBars(log, interval=0.01)
    bars("adapter", 0, 1)
    bars("adapter:pages", 3, 12)
    time.sleep(0.02)
    bars("adapter", 0, 1)  # the same count again: the interval has passed, this call prints
    assert "under way: 3/12 pages" in log.getvalue().splitlines()[-1], log.getvalue()
    time.sleep(0.02)
    bars("adapter", 1, 1)  # the case is done: its pages are no longer under way
    assert "under way" not in log.getvalue().splitlines()[-1], log.getvalue()
