"""The conformance suite, tested the way plugin authors use it (pytester runs of real sessions).

It must pass a sound type (core's count-words, and the real table-separators in the automatic
mode) and catch broken ones: a scorer that never finds a mistake, an input that carries the
answer, a source file that holds the answer key, missing fixtures, a type that disagrees with its
task in the category definition. What a type or the machine lacks is reported as skipped, never
as passed; a session that does not ask for the suite gets nothing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from envirobench import plugins
from envirobench.conformance.browser import chromium_executable, render_every_case
from envirobench.conformance.harness import Harness
from envirobench.sandbox import find_bwrap
from envirobench_extract.package import PACKAGE as EXTRACT

pytest_plugins = ["pytester"]
pytestmark = pytest.mark.slow  # each test runs a pytest session that makes real runs

HERE = Path(__file__).parent
SUITE_TESTS = 28  # checks per type and dataset (parametrized ones counted per parameter)
LIFECYCLE_TESTS = 14  # of them, the run-lifecycle checks the automatic mode makes once per type
# Without bubblewrap the two sandbox checks are skipped (with the reason), never passed: one of
# the run lifecycle (made once per type), the probe on every dataset.
NO_SANDBOX_LIFECYCLE = NO_SANDBOX_DATA = 0 if find_bwrap()[0] else 1
NO_SANDBOX = NO_SANDBOX_LIFECYCLE + NO_SANDBOX_DATA
# The suite runs once per registered dataset of a type: table-separators has v1 and the v2 splits.
SEPARATORS_DATASETS = len(EXTRACT.layout("table-separators").datasets)

TOY_TEST = '''
import pytest
import toy_types
from envirobench.conformance import BenchmarkTypeConformance
from envirobench.plugins import build_registry

TYPE = {type_id!r}
DATASET = toy_types.write_benchmark({root!r}, TYPE, fixtures={fixtures!r})


class TestToyType(BenchmarkTypeConformance):
    @pytest.fixture
    def envirobench_registry(self):
        return build_registry(extra=[("toy", toy_types.plugin(TYPE, DATASET))])

    @pytest.fixture
    def benchmark_type_id(self):
        return TYPE

    @pytest.fixture
    def dataset_id(self):
        return "test/" + TYPE + "-v1"
'''


@pytest.fixture
def toy(pytester, monkeypatch):
    """toy(type_id, *pytest_args) -> the result of the suite run over that toy type."""
    monkeypatch.setenv(plugins.LOAD_PLUGINS_ENV, "")
    shutil.copy(HERE / "toy_types.py", pytester.path / "toy_types.py")
    pytester.syspathinsert()

    def run(type_id, *args, fixtures=True, conftest=None):
        pytester.makepyfile(**{f"test_toy_{type_id.replace('-', '_')}": TOY_TEST.format(type_id=type_id, root=str(pytester.path / "data"), fixtures=fixtures)})
        if conftest:
            pytester.makeconftest(conftest)
        return pytester.runpytest("-p", "no:cacheprovider", "-rs", *args)

    return run


def failed_tests(result) -> set[str]:
    """Names (without parameters) of the tests that failed."""
    names = set()
    for report in result.reprec.getreports("pytest_runtest_logreport"):
        if report.failed:
            names.add(report.nodeid.split("::")[-1].split("[")[0])
    return names


def test_a_sound_type_passes_every_check(toy):
    result = toy("count-words")
    # count-words is no task of any category: the check against its task is skipped, not passed.
    result.assert_outcomes(passed=SUITE_TESTS - 1 - NO_SANDBOX, skipped=1 + NO_SANDBOX)
    result.stdout.fnmatch_lines(["*'count-words' is not a task of any category*"])


def test_a_scorer_that_never_finds_a_mistake_is_caught(toy):
    # Only the checks that score the wrong run: the others (the sandbox probe's walk of the file
    # system among them) do not look at what the scorer finds, and test_a_sound_type makes them.
    result = toy("lenient-count", "-k", "wrong_predictions or wrong_candidate")
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) >= 1
    assert "test_wrong_predictions_score_errors_in_every_profile" in failed_tests(result)
    result.stdout.fnmatch_lines(["*wrong.json scores no error in profile 'exact'*"])
    # Pairing depends on errors too: the wrong run cannot regress from the correct one.
    assert "test_wrong_candidate_regresses_from_correct_baseline" in failed_tests(result)


def test_a_scorer_that_keeps_state_between_calls_is_caught(toy):
    result = toy("stateful-count", "-k", "well_formed")
    assert "test_case_scores_are_well_formed" in failed_tests(result)
    result.stdout.fnmatch_lines(["*the second time a copy of its prediction) gave different scores*"])


@pytest.mark.parametrize(
    ("leaky", "selected", "message"),
    [
        # an input that carries the answer
        ("leaky-input-count", "isolation or hold_no_answer or shown_only",
         "*case 'c000000': its input carries answer field $.count ('count' = 1) at $.input.count*"),
        # a source file holding the answer key
        ("leaky-sidecar-count", "hold_no_answer",
         "*input/notes/generator.json holds the whole answer of case 'c000000' at $.answers.c000000*"),
        # an answer written as JSON text in a source file
        ("leaky-log-count", "hold_no_answer",
         "*input/notes/generator.log holds the whole answer of case 'c000000' at (as JSON text)*"),
    ],
    ids=["input", "sidecar", "log"],
)
def test_an_answer_handed_to_the_adapter_is_caught(toy, leaky, selected, message):
    result = toy(leaky, "-k", selected)
    assert failed_tests(result) == {"test_request_and_input_hold_no_answer"}
    result.stdout.fnmatch_lines([message])


def test_a_viewer_that_fails_is_caught(toy):
    if chromium_executable() is None:
        pytest.skip("headless Chromium is not installed (bin/test installs Debian's chromium)")
    result = toy("broken-viewer-count", "-k", "viewer")
    assert failed_tests(result) == {"test_viewer_renders_every_case_in_a_browser"}
    result.stdout.fnmatch_lines(["*viewer broken-viewer failed: Error: this viewer always fails*"])


def test_the_browser_check_sees_an_image_that_does_not_load(tmp_path, monkeypatch):
    monkeypatch.delenv(plugins.LOAD_PLUGINS_ENV, raising=False)
    harness = Harness(plugins.build_registry(), "table-separators", "envirobench/table-separators-synthetic-v1", tmp_path)
    run = harness.shared_run("correct")
    (run / "report-assets" / "assets" / "ts-0002.png").unlink()
    rendered = render_every_case(run / "report.html", "image-overlay")
    if rendered.skipped:
        pytest.skip(rendered.skipped)
    assert {case["id"] for case in rendered.cases if case["broken_images"]} == {"ts-0002"}
    assert len(rendered.cases) == len(harness.case_ids) and all(case["viewer"] for case in rendered.cases)


class _Page:
    """A page whose pending counts follow `counts` (the last repeated), polled by _settle."""

    def __init__(self, counts):
        self.counts, self.polls = list(counts), 0

    def evaluate(self, script):
        self.polls += 1
        return self.counts.pop(0) if len(self.counts) > 1 else self.counts[0]

    def wait_for_timeout(self, ms):
        pass


def test_the_browser_check_waits_for_a_slow_report_and_fails_a_stuck_one(monkeypatch):
    from envirobench.conformance import browser

    clock = iter(range(0, 10_000, 10))  # ten seconds a poll
    monkeypatch.setattr(browser.time, "monotonic", lambda: next(clock))
    # Slow but moving: 3,000 images, 100 more loaded at each poll (ten seconds on the fake clock): 300 s in all.
    slow = _Page([{"cases": 0, "images": n} for n in range(3000, -1, -100)] + [{"cases": 0, "images": 0}])
    browser._settle(slow)
    assert slow.polls > 30  # five times TIMEOUT_MS on the fake clock, never a stall
    stuck = _Page([{"cases": 0, "images": 5}, {"cases": 0, "images": 4}, {"cases": 0, "images": 4}])
    with pytest.raises(TimeoutError, match="stopped rendering: nothing more rendered or loaded in 60 s"):
        browser._settle(stuck)


def test_missing_fixtures_fail_with_the_convention(toy):
    result = toy("count-words", "-k", "fixture_predicts or correct_predictions", fixtures=False)
    assert failed_tests(result) == {"test_fixture_predicts_every_case", "test_correct_predictions_score_no_errors_in_any_profile"}
    result.stdout.fnmatch_lines(["*no prediction fixture */benchmarks/count-words/fixtures/v1/correct.json*"])


def test_a_type_that_disagrees_with_its_category_task_fails(toy):
    result = toy("table-separators", "-k", "category_task")
    assert failed_tests(result) == {"test_type_agrees_with_its_category_task"}
    result.stdout.fnmatch_lines(["*LABEL 'Separators of tables' differs from the label of task 'table-separators'*"])


def test_a_sandbox_that_shows_the_answers_is_caught(toy, pytester):
    """A sandbox whose view also shows the toy dataset's directory (answers and fixtures with
    it): both sandbox checks fail, the probe naming the answer file and the fixtures it found."""
    if NO_SANDBOX:
        pytest.skip("needs bubblewrap (bin/test installs it)")
    data = str(pytester.path / "data")
    conftest = textwrap.dedent(
        f"""
        import pytest

        from envirobench import sandbox


        @pytest.fixture(autouse=True)
        def _show_the_data(monkeypatch):
            shown = sandbox.view_arguments
            monkeypatch.setattr(sandbox, "view_arguments", lambda *args, **kwargs: [*shown(*args, **kwargs), "--ro-bind", {data!r}, {data!r}])
        """
    )
    result = toy("count-words", "-k", "sandbox_hides or nothing_in_the_sandbox", conftest=conftest)
    assert failed_tests(result) == {"test_adapter_sandbox_hides_the_answers", "test_nothing_in_the_sandbox_holds_an_answer"}
    result.stdout.fnmatch_lines(["*inside its sandbox the adapter could still reach*answers.jsonl*"])
    result.stdout.fnmatch_lines(["*inside its sandbox an adapter can reach*"])
    assert "/answers.jsonl holds the bytes of test/count-words-v1: datasets/" in result.stdout.str()
    assert "/correct.json holds the bytes of test/count-words-v1: fixtures/" in result.stdout.str()


def test_automatic_mode_over_the_installed_table_separators(pytester, monkeypatch):
    monkeypatch.delenv(plugins.LOAD_PLUGINS_ENV, raising=False)
    result = pytester.runpytest("-p", "no:cacheprovider", "--envirobench-types=table-separators", "-v", "-rs")
    # The data checks on every dataset; the run lifecycle once, on the smallest (fewest bytes pinned).
    others = SEPARATORS_DATASETS - 1
    result.assert_outcomes(passed=SUITE_TESTS - NO_SANDBOX + others * (SUITE_TESTS - LIFECYCLE_TESTS - NO_SANDBOX_DATA),
                           skipped=NO_SANDBOX + others * (LIFECYCLE_TESTS + NO_SANDBOX_DATA))
    for dataset in ("synthetic-v1", "synthetic-dev-v2", "synthetic-test-v2"):
        result.stdout.fnmatch_lines([f"*::TestInstalledBenchmarkType::test_request_and_input_hold_no_answer[[]table-separators:envirobench/table-separators-{dataset}[]] PASSED*"])
    result.stdout.fnmatch_lines(["*::test_identical_runs_pass[[]table-separators:envirobench/table-separators-synthetic-dev-v2[]] PASSED*"])
    result.stdout.fnmatch_lines(["*the run lifecycle of table-separators is checked once per type, on its dataset envirobench/table-separators-synthetic-dev-v2*"])


def test_bin_test_leaves_out_of_its_conformance_step_only_the_type_checked_above():
    # bin/test's conformance step skips table-separators' targets since the test above made the
    # same suite over them in the main step: any other type left out would go unchecked.
    left_out = re.findall(r'-k "not ([^"]*)"', (HERE.parents[1] / "bin" / "test").read_text(encoding="utf-8"))
    assert left_out == ["table-separators:envirobench/"]


def test_every_dataset_option_makes_the_lifecycle_checks_on_each(pytester, monkeypatch):
    monkeypatch.delenv(plugins.LOAD_PLUGINS_ENV, raising=False)
    result = pytester.runpytest("-p", "no:cacheprovider", "--envirobench-types=table-separators", "--envirobench-every-dataset", "-k", "identical_runs")
    result.assert_outcomes(passed=SEPARATORS_DATASETS)


def test_plugin_loads_by_its_entry_point_name_when_autoloading_is_off(pytester, monkeypatch):
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "envirobench", "--envirobench-types=table-separators", "-k", "declared_completely")
    result.assert_outcomes(passed=SEPARATORS_DATASETS)


def test_automatic_mode_refuses_an_unknown_type(pytester):
    result = pytester.runpytest("-p", "no:cacheprovider", "--envirobench-types=no-such-type")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*unknown benchmark type(s) no-such-type*"])


def test_a_session_that_does_not_ask_gets_nothing(pytester):
    pytester.makepyfile(test_plain="def test_plain():\n    assert True\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    fixtures = pytester.runpytest("-p", "no:cacheprovider", "--fixtures")
    assert "conformance" not in fixtures.stdout.str()
    assert "envirobench_registry" not in fixtures.stdout.str()


def test_the_pytest_plugin_imports_cheaply():
    code = (
        "import sys, envirobench.conformance.plugin\n"
        "heavy = sorted(m for m in sys.modules if m.startswith(('envirobench.runs', 'envirobench.datasets', 'envirobench.conformance.suite', 'cattrs', 'jinja2')))\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"
