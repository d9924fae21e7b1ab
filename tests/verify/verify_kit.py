"""What the Verify tests share: category_kit bound to envirobench-verify."""

from __future__ import annotations

from category_kit import CategoryKit

from envirobench_verify.package import PACKAGE

KIT = CategoryKit(PACKAGE)
reference_run, shipped_datasets = KIT.reference_run, KIT.shipped_datasets
fixture_scores, assert_fixtures_score_as_planted, shipped_bytes = KIT.fixture_scores, KIT.assert_fixtures_score_as_planted, KIT.shipped_bytes
sized_splits, wrong_fixture_scores = KIT.sized_splits, KIT.wrong_fixture_scores
raw_shipped, raw_fixture_scores = KIT.raw_shipped, KIT.raw_fixture_scores
assert_splits_share_no_family = KIT.assert_splits_share_no_family
