"""`BenchmarkTypeConformance`: the checks every benchmark type must pass, as a pytest base class.

Subclass it in a plugin's tests and provide the `benchmark_type_id` and `dataset_id` fixtures;
see `envirobench.conformance`. Every check runs core's real code paths: runs are made with
`envirobench.runs.execute_run` and a fixture adapter, rescored with `rescore_run`, reviewed with
`envirobench.review`, reported with `envirobench.report`. A check that depends on something the
machine lacks (a headless browser) is skipped with the reason, never passed silently.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from .. import categories, report, review
from ..benchmark import BenchmarkType, CaseScore, check_type_class
from ..errors import EnviroBenchError
from ..report_assets import case_assets
from ..rundir import ASSETS_DIR, METRICS_FILE, REPORT_FILE, RUN_FILE, SCORED_FILES
from ..runs import rescore_run
from .browser import Browser
from .harness import CORRECT, SNAPSHOT_SEEN, WRONG, ConformanceError, Harness
from .isolation import check_input_view, find_leaks
from .probe import findings, probe_report
from .session import installed_registry

_SCALARS = (str, int, float, bool, type(None))
_HARNESSES = pytest.StashKey[dict]()
_BROWSER = pytest.StashKey[Browser]()


def _json_scalar(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, _SCALARS)


class BenchmarkTypeConformance:
    """The conformance checks of one benchmark type on one of its datasets.

    Required fixtures (override them with a plain `@pytest.fixture`):
      benchmark_type_id  the type's ID
      dataset_id         a registered dataset ID, or a dataset directory

    Optional fixtures:
      fixtures_dir          where correct.json and wrong.json are (default: the convention,
                            `<dataset dir>/../../fixtures/`)
      envirobench_registry  the registry to use (default: every installed plugin)
    """

    #: Rule 3 of the isolation check (see envirobench.conformance.isolation): set False when the
    #: type's answers legitimately repeat an object offered in the input.
    ISOLATION_ANSWER_PARTS = True

    # -- fixtures --------------------------------------------------------------------------------
    # Plain (function-scoped) fixtures, so a subclass overrides them with a bare @pytest.fixture.
    # The harness, and with it every run, is made once per class and configuration.

    @pytest.fixture
    def benchmark_type_id(self) -> str:
        pytest.fail(f"{type(self).__name__} must provide the `benchmark_type_id` fixture (the type's ID)", pytrace=False)

    @pytest.fixture
    def dataset_id(self) -> str:
        pytest.fail(f"{type(self).__name__} must provide the `dataset_id` fixture (a registered dataset ID or a directory)", pytrace=False)

    @pytest.fixture
    def fixtures_dir(self) -> Path | None:
        return None  # the convention: <dataset dir>/../../fixtures/

    @pytest.fixture
    def envirobench_registry(self, request):
        """Every installed plugin, loaded once per session."""
        return installed_registry(request.config)

    @pytest.fixture
    def lifecycle_elsewhere(self) -> str | None:
        """Why the run-lifecycle checks (pairing, the gate, rescoring, re-keying, review, the
        sandbox, malformed results) are not made on this dataset, or None to make them here.
        They test the type's behaviour, not its data: the automatic mode makes them once per type,
        on its smallest dataset; the data checks (validity, fixtures, scores, isolation of the input,
        the report and viewer of every case) are made on every dataset."""
        return None

    @pytest.fixture
    def lifecycle_here(self, lifecycle_elsewhere) -> None:
        if lifecycle_elsewhere:
            pytest.skip(lifecycle_elsewhere)

    @pytest.fixture
    def conformance(self, request, envirobench_registry, benchmark_type_id, dataset_id, fixtures_dir, tmp_path_factory) -> Harness:
        """The harness: the type, its dataset and fixtures, and the runs made of them."""
        cache = request.config.stash.setdefault(_HARNESSES, {})
        key = (request.cls, benchmark_type_id, str(dataset_id), None if fixtures_dir is None else str(fixtures_dir))
        if key not in cache:
            workdir = tmp_path_factory.mktemp(f"conformance-{benchmark_type_id}")
            try:
                cache[key] = Harness(envirobench_registry, benchmark_type_id, dataset_id, workdir, fixtures_dir)
            except ConformanceError as exc:
                cache[key] = exc
        harness = cache[key]
        if isinstance(harness, ConformanceError):
            pytest.fail(str(harness), pytrace=False)
        return harness

    # -- the type itself -------------------------------------------------------------------------

    def test_type_is_declared_completely(self, conformance: Harness, benchmark_type_id):
        cls = type(conformance.btype)
        assert check_type_class(cls) == []
        assert benchmark_type_id == cls.ID, f"the class registered for {benchmark_type_id!r} has ID {cls.ID!r}"
        for name in ("FORMAT", "LABEL", "SCORING_VERSION"):
            assert isinstance(getattr(cls, name), str) and getattr(cls, name).strip(), f"{name} must be a non-empty string"
        assert len(set(cls.PROFILES)) == len(cls.PROFILES), f"PROFILES has duplicates: {cls.PROFILES}"
        assert cls.VIEWER in conformance.registry.viewers, f"viewer {cls.VIEWER!r} is not registered"

    def test_type_agrees_with_its_category_task(self, conformance: Harness):
        cls = type(conformance.btype)
        if categories.task(cls.ID) is None:
            pytest.skip(f"{cls.ID!r} is not a task of any category in {categories.SCORING_VERSION} (a private type is not)")
        problems = categories.disagreements(cls.ID, cls.LABEL, cls.TIER)
        assert not problems, "; ".join(problems) + " (envirobench.categories is the one definition)"

    def test_dataset_is_valid_and_has_cases(self, conformance: Harness):
        # The harness validated it (every pinned file and schema); a dataset must hold something.
        assert conformance.dataset.manifest.benchmark == conformance.type_id
        assert conformance.case_ids, f"dataset {conformance.dataset.id} has no unretired case"

    @pytest.mark.parametrize("fixture", [CORRECT, WRONG])
    def test_fixture_predicts_every_case(self, conformance: Harness, fixture):
        raw = conformance.fixture(fixture)
        every_case = {rec.id for rec in conformance.dataset.raw_inputs()}
        unknown = sorted(set(raw) - every_case)
        assert not unknown, f"{conformance.fixture_path(fixture)} predicts cases the dataset does not have: {unknown[:5]}"
        try:
            conformance.fixture_predictions(fixture)  # every unretired case, each a valid prediction
        except ConformanceError as exc:
            pytest.fail(str(exc), pytrace=False)

    @pytest.mark.parametrize("fixture", [CORRECT, WRONG])
    def test_case_scores_are_well_formed(self, conformance: Harness, fixture):
        btype = conformance.btype
        predictions = conformance.fixture_predictions(fixture)
        by_profile: dict[str, list[CaseScore]] = {p: [] for p in btype.PROFILES}
        for cid in conformance.case_ids:
            case, answer = conformance.cases[cid], conformance.answers[cid]
            scores = btype.score_case(case, answer, predictions[cid])
            assert isinstance(scores, Mapping), f"score_case must return a mapping of profile -> CaseScore (case {cid})"
            unknown = sorted(set(scores) - set(btype.PROFILES))
            assert not unknown, f"score_case returned profiles not in PROFILES: {unknown} (case {cid})"
            # Again on a copy: a prediction unchanged from the baseline's takes its score (envirobench.unchanged).
            again = btype.score_case(case, answer, copy.deepcopy(predictions[cid]))
            assert {p: again.get(p) for p in btype.PROFILES} == {p: scores.get(p) for p in btype.PROFILES}, (
                f"scoring case {cid} twice (the second time a copy of its prediction) gave different scores: score_case must be a function of "
                "the case, its answer and the prediction's value (docs/writing-a-plugin.md)")
            for profile in btype.PROFILES:
                score = scores.get(profile)
                if score is None:
                    continue
                assert isinstance(score, CaseScore), f"case {cid} profile {profile}: {score!r} is not a CaseScore"
                for error in score.errors:
                    assert isinstance(error, tuple) and error, f"case {cid} profile {profile}: error {error!r} must be a non-empty tuple"
                    assert all(_json_scalar(part) for part in error), f"case {cid} profile {profile}: error {error!r} must hold JSON scalars only"
                assert len(set(score.errors)) == len(score.errors), f"case {cid} profile {profile}: an error is reported twice"
                for name, value in score.metrics.items():
                    assert isinstance(name, str) and isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value), (
                        f"case {cid} profile {profile}: metric {name!r} = {value!r} must be a finite number"
                    )
                json.dumps(score.to_json(), allow_nan=False)
                by_profile[profile].append(score)
        for profile, scores in by_profile.items():
            if not scores:
                continue
            headline = btype.summarize(profile, scores)
            missing = [m for m in btype.HEADLINE if m not in headline]
            assert not missing, f"summarize({profile!r}) lacks the HEADLINE metric(s) {missing}"
            assert all(isinstance(v, (int, float)) and math.isfinite(v) for v in headline.values()), f"summarize({profile!r}) returned a non-finite value: {headline}"

    # -- isolation -------------------------------------------------------------------------------

    def test_adapter_is_shown_only_the_input_view(self, conformance: Harness):
        conformance.shared_run("correct")
        problems = check_input_view(conformance)
        assert not problems, "the adapter was shown more or other than the input-only view:\n  " + "\n  ".join(problems)

    def test_request_and_input_hold_no_answer(self, conformance: Harness):
        conformance.shared_run("correct")
        leaks = find_leaks(conformance, parts=self.ISOLATION_ANSWER_PARTS)
        assert not leaks, (
            f"answers reach the adapter ({len(leaks)} finding(s); rule in envirobench.conformance.isolation):\n  " + "\n  ".join(leaks[:20])
        )

    def test_adapter_sandbox_hides_the_answers(self, conformance: Harness, lifecycle_here):
        run = conformance.shared_run("correct")
        sandbox = conformance.run_record(run).sandbox
        if sandbox is None or sandbox.kind == "none":
            pytest.skip("bubblewrap is not installed, so the adapter ran without core's sandbox (bin/test installs it)")
        seen = json.loads((conformance.snapshot_dir / SNAPSHOT_SEEN).read_text(encoding="utf-8"))
        reached = {path: what for path, what in seen["probe"].items() if what in ("read", "listed")}
        assert not reached, f"inside its sandbox the adapter could still reach: {reached} (the dataset, its answers, the results and the fixtures must be hidden)"

    def test_nothing_in_the_sandbox_holds_an_answer(self, conformance: Harness):
        """Wherever answers live: a probe walks every file it can read from inside core's sandbox
        (conformance/probe.py) and finds no bytes of this dataset's answer key or fixtures, no line
        of its answer key, no .git, no results tree and no editable install's project directory."""
        report = probe_report(conformance.registry, conformance.type_id, conformance.dataset_spec, conformance.workdir.parent / "sandbox-probe")
        if report is None:
            pytest.skip("bubblewrap is not installed, so adapters run without core's sandbox (bin/test installs it)")
        found = findings(report, conformance.dataset.identity.id)
        assert not found, f"inside its sandbox an adapter can reach ({len(found)}):\n  " + "\n  ".join(found[:20])

    # -- malformed results -----------------------------------------------------------------------

    @pytest.mark.parametrize(
        ("mode", "message"),
        [
            pytest.param("missing-case", "have no prediction", id="missing-case"),
            pytest.param("extra-case", "were not requested", id="extra-case"),
            pytest.param("invalid-prediction", "is not a valid", id="invalid-prediction"),
        ],
    )
    def test_malformed_result_is_a_technical_failure(self, conformance: Harness, lifecycle_here, mode, message):
        outcome = conformance.run(f"malformed-{mode}", CORRECT, mode=mode)
        assert outcome.status == "failed", f"a result with {mode} was scored; it must be a technical failure"
        assert message in outcome.message, outcome.message
        for name in SCORED_FILES:
            assert not (outcome.run_dir / name).exists(), f"a failed run must have no {name}"
        record = conformance.run_record(outcome.run_dir)
        assert record.status == "failed" and record.gate is None and record.failure and record.failure.message

    # -- scoring the fixtures --------------------------------------------------------------------

    def test_correct_predictions_score_no_errors_in_any_profile(self, conformance: Harness):
        run = conformance.shared_run("correct")
        errors = conformance.candidate_errors(run)
        for profile, by_case in errors.items():
            scored = {cid: e for cid, e in by_case.items() if e is not None}
            assert scored, f"profile {profile!r} scores none of the cases of {CORRECT}"
            wrong = {cid: e for cid, e in scored.items() if e}
            assert not wrong, f"{CORRECT} has errors in profile {profile!r}: " + "; ".join(f"{cid}: {e}" for cid, e in list(wrong.items())[:5])
        metrics = conformance.metrics(run)
        for profile in conformance.btype.PROFILES:
            headline = metrics.profiles[profile].headline
            assert headline is None or all(m in headline for m in conformance.btype.HEADLINE)

    def test_wrong_predictions_score_errors_in_every_profile(self, conformance: Harness):
        run = conformance.shared_run("wrong")
        for profile in conformance.btype.PROFILES:
            assert conformance.error_cases(run, profile), (
                f"{WRONG} scores no error in profile {profile!r}: a scorer that never finds a mistake, or a fixture without one"
            )

    # -- pairing and the gate --------------------------------------------------------------------

    def test_unpaired_run_requires_a_baseline(self, conformance: Harness, lifecycle_here):
        gate = conformance.run_record(conformance.shared_run("correct")).gate
        assert gate is not None and gate.status == "baseline required"
        assert set(gate.by_profile.values()) == {"baseline required"}

    def test_wrong_candidate_regresses_from_correct_baseline(self, conformance: Harness, lifecycle_here):
        run = conformance.shared_run("wrong-vs-correct")
        metrics = conformance.metrics(run)
        wrong = conformance.shared_run("wrong")
        default_is_worse = _default_pairing(conformance.btype)
        assert metrics.gate.status == "failed"
        for profile in conformance.btype.PROFILES:
            result = metrics.profiles[profile]
            assert result.status == "failed", f"profile {profile!r}: {WRONG} against {CORRECT} as baseline is {result.status!r}, not failed"
            assert result.regressions, f"profile {profile!r}: no case regressed from {CORRECT} to {WRONG}"
            if default_is_worse:
                assert sorted(result.regressions) == sorted(conformance.error_cases(wrong, profile))
            assert result.buckets["worse"] == len(result.regressions)

    def test_identical_runs_pass(self, conformance: Harness, lifecycle_here):
        for name in ("correct-vs-correct", "wrong-vs-wrong"):
            metrics = conformance.metrics(conformance.shared_run(name))
            assert metrics.gate.status == "passed", f"{name}: identical predictions must pass the gate"
            for profile in conformance.btype.PROFILES:
                result = metrics.profiles[profile]
                assert result.status == "passed", f"{name}, profile {profile!r}: {result.status}"
                assert not result.regressions and not result.improvements and not result.unstable, f"{name}, profile {profile!r}: identical runs differ"

    def test_correct_candidate_improves_on_wrong_baseline(self, conformance: Harness, lifecycle_here):
        run = conformance.copy_run("correct", "correct-vs-wrong")
        rescore_run(run, conformance.registry, baseline=conformance.shared_run("wrong"), controls=[], gates=list(conformance.btype.PROFILES))
        metrics = conformance.metrics(run)
        assert metrics.gate.status == "passed"
        for profile in conformance.btype.PROFILES:
            result = metrics.profiles[profile]
            assert result.improvements, f"profile {profile!r}: {CORRECT} shows no improvement over {WRONG}"
            assert not result.regressions

    def test_disagreeing_control_makes_cases_unstable(self, conformance: Harness, lifecycle_here):
        metrics = conformance.metrics(conformance.shared_run("wrong-vs-correct-control-wrong"))
        plain = conformance.metrics(conformance.shared_run("wrong-vs-correct"))
        default = _default_pairing(conformance.btype)
        for profile in conformance.btype.PROFILES:
            result = metrics.profiles[profile]
            assert result.unstable, f"profile {profile!r}: a control that disagrees with the baseline marks no case unstable"
            assert not set(result.regressions) & set(result.unstable), f"profile {profile!r}: an unstable case still counts as a regression"
            if default:
                assert sorted(result.unstable_regressions) == sorted(plain.profiles[profile].regressions)
                assert not result.regressions and result.status == "passed", f"profile {profile!r}: {result.status} with regressions {result.regressions}"
        if default:
            assert metrics.gate.status == "passed"

    def test_target_case_with_an_error_fails_the_gate(self, conformance: Harness, lifecycle_here):
        profile = conformance.btype.PROFILES[0]
        wrong = conformance.shared_run("wrong")
        target = conformance.error_cases(wrong, profile)[0]
        run = conformance.copy_run("wrong-vs-wrong", "wrong-vs-wrong-targeted")
        outcome = rescore_run(run, conformance.registry, gates=[profile], targets=[target])
        assert outcome.gate is not None
        gate = outcome.gate.by_profile[profile]
        assert gate.status == "failed" and gate.failing_targets == (target,) and not gate.regressions

    # -- rescoring and re-keying -----------------------------------------------------------------

    def test_rescoring_an_unchanged_run_reproduces_its_files(self, conformance: Harness, lifecycle_here):
        original = conformance.shared_run("wrong-vs-correct-control-wrong")
        run = conformance.copy_run("wrong-vs-correct-control-wrong", "rescored")
        rescore_run(run, conformance.registry)
        for name in SCORED_FILES:
            assert (run / name).read_bytes() == (original / name).read_bytes(), f"rescoring an unchanged run changed {name}: scoring is not deterministic"

    def test_rekey_to_corrected_answers_changes_exactly_that_case(self, conformance: Harness, lifecycle_here):
        change = conformance.rekey_change()
        if change is None:
            pytest.skip("no answer change found that the correct predictions score differently (neither a wrong.json prediction nor another case's answer is a valid answer that changes the score)")
        case_id, new_answer = change
        revision, _ = conformance.make_revision("corrected-answers", answers={case_id: new_answer})
        before = conformance.metrics(conformance.shared_run("correct"))
        run = conformance.copy_run("correct", "rekeyed")
        rescore_run(run, conformance.registry, rekey=str(revision))
        after = conformance.metrics(run)
        changed = sorted(cid for cid in before.cases if before.cases[cid].runs["candidate"] != after.cases[cid].runs["candidate"])
        assert changed == [case_id], f"re-keying one answer (case {case_id}) changed the scores of {changed}"
        record = conformance.run_record(run)
        old = before.dataset
        assert record.dataset.version == old.version + 1
        assert record.dataset.input_digest == old.input_digest and record.dataset.answer_digest != old.answer_digest
        assert record.history and record.history[-1].action == "rekey"

    def test_rekey_refuses_changed_inputs(self, conformance: Harness, lifecycle_here):
        revision, changed = conformance.make_revision("changed-input", change_input=True)
        run = conformance.copy_run("correct", "rekey-refused")
        before = {name: (run / name).read_bytes() for name in (RUN_FILE, METRICS_FILE)}
        with pytest.raises(EnviroBenchError, match="inputs differ") as refusal:
            rescore_run(run, conformance.registry, rekey=str(revision))
        assert changed in str(refusal.value), f"the refusal does not name the changed input file {changed!r}: {refusal.value}"
        assert {name: (run / name).read_bytes() for name in before} == before, "a refused re-key changed the run"

    # -- review and report -----------------------------------------------------------------------

    def test_review_draft_covers_the_changed_cases(self, conformance: Harness, lifecycle_here):
        run = conformance.copy_run("wrong-vs-correct", "reviewed")
        regressions = conformance.metrics(run).profiles
        path, draft = review.write_draft(run)
        assert path == run / review.INTERPRETATION_FILE and draft.status == "draft"
        data, problems = review.check_run_interpretation(run)
        assert not problems, problems
        for profile in conformance.btype.PROFILES:
            worse = [f for f in draft.findings if f.profile == profile and f.group == "worse"]
            assert len(worse) == 1, f"profile {profile!r}: the draft has {len(worse)} 'worse' finding(s), expected one"
            assert sorted(c.id for c in worse[0].cases) == sorted(regressions[profile].regressions)
            assert not any(c.examined for c in worse[0].cases), "a draft must leave every case unexamined"
            assert sorted(review.recommendation_cases(run, worse[0].number)) == sorted(regressions[profile].regressions)

    def test_report_embeds_the_viewer_and_every_case(self, conformance: Harness):
        viewer = conformance.registry.viewer(conformance.btype.VIEWER)
        for name in ("correct", "wrong-vs-correct-control-wrong"):
            run = conformance.shared_run(name)
            html = (run / REPORT_FILE).read_text(encoding="utf-8")
            assert report.inline_code(viewer.script, "script") in html, f"{name}: report.html does not embed viewer {viewer.name!r}"
            # The case index the page embeds, read once (a substring search for each case ID
            # scanned the whole page per case: seconds for page-locate's 960 cases).
            listed = {row[0] for row in report.embedded_data(html)["cases"]}
            missing = [cid for cid in conformance.case_ids if cid not in listed]
            assert not missing, f"{name}: report.html lacks case(s) {missing[:5]}"
            # Each image once, though cases share them (page-locate: 65,000 uses of 6,500 images).
            first_user = {}
            for cid, paths in case_assets(conformance.btype, conformance.cases).items():
                for relative in paths:
                    first_user.setdefault(relative, cid)
            for relative, cid in first_user.items():
                asset = run / ASSETS_DIR / relative
                assert asset.is_file() and asset.read_bytes() == (conformance.dataset.root / relative).read_bytes(), f"{name}: image {relative} of case {cid} is not in {ASSETS_DIR}/"

    def test_viewer_renders_every_case_in_a_browser(self, request, conformance: Harness):
        run = conformance.shared_run("wrong-vs-correct-control-wrong")
        outcome = _session_browser(request.config).render_every_case(run / REPORT_FILE, conformance.btype.VIEWER)
        if outcome.skipped:
            pytest.skip(outcome.skipped)
        assert not outcome.page_errors, f"the report raised script errors: {outcome.page_errors[:5]}"
        assert not outcome.requests, f"the report made network requests: {outcome.requests[:5]}"
        rendered = {case["id"]: case for case in outcome.cases}
        missing = [cid for cid in conformance.case_ids if cid not in rendered]
        assert not missing, f"case(s) not in the rendered list: {missing[:5]}"
        for cid in conformance.case_ids:
            case = rendered[cid]
            assert case["viewer"], f"case {cid}: viewer {conformance.btype.VIEWER!r} rendered nothing"
            assert not case["warnings"], f"case {cid}: {case['warnings']}"
            assert not case["broken_images"], f"case {cid}: images that did not load: {case['broken_images']}"


def _session_browser(config: pytest.Config) -> Browser:
    """One headless Chromium for the session's browser checks (each report in a context of its
    own), closed when the session ends."""
    if _BROWSER not in config.stash:
        config.stash[_BROWSER] = Browser()
        config.add_cleanup(config.stash[_BROWSER].close)
    return config.stash[_BROWSER]


def _default_pairing(btype: Any) -> bool:
    """True when the type keeps the base class's is_worse and disagree (error-set difference)."""
    cls = type(btype)
    return cls.is_worse is BenchmarkType.is_worse and cls.disagree is BenchmarkType.disagree
