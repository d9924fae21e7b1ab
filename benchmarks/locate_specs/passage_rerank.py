"""docs/reference-scores.md's Locate table for `passage-rerank`: blind baselines and columns
(read by benchmarks/reference_scores.py --locate)."""

import random
import zlib

from _spec_parts import by_category, count, share

BENCHMARK = "passage-rerank"
UNIT = "questions"
INTRO = (
    "The reference adapter (`solvers/passage_rerank.py`: Okapi BM25 of the question over its own 20 candidates, "
    "textbook parameters, developed on the dev split only) on both splits; the test split's wordings of dates, wells, "
    "units and sources never occur in dev. Beside it, blind baselines that never read a word: the candidates in the "
    "order they are offered (shuffled by the generator, so it carries nothing), that order reversed, a random "
    "order (seeded by the question), and the longest passage first (a length shortcut: no word read). nDCG@10 is trec_eval's ndcg_cut.10; essential@10 pools the essential passages of "
    "all questions; all essential@10 is the share of questions with every essential passage in the top 10."
)


def _random_order(case_input, answer):
    ids = [p.id for p in case_input.passages]
    random.Random(zlib.crc32(case_input.question.encode("utf-8"))).shuffle(ids)
    return {"ranking": ids}


def _longest_first(case_input, answer):
    """The audit's shortcut (issue 32): relevant passages ran longer than the distractors."""
    ordered = sorted(case_input.passages, key=lambda p: -len(p.text))  # stable: ties keep the offered order
    return {"ranking": [p.id for p in ordered]}


BASELINES = {
    "longest passage first (no word read)": _longest_first,
    "the offered order": lambda case_input, answer: {"ranking": [p.id for p in case_input.passages]},
    "the offered order reversed": lambda case_input, answer: {"ranking": [p.id for p in reversed(case_input.passages)]},
    "a random order (seeded)": _random_order,
}
COLUMNS = (
    share("ndcg_cut_10", "nDCG@10"),
    share("essential_at_10", "essential@10"),
    share("all_essential_at_10", "all essential@10"),
    count("questions"),
)
GROUP_METRIC = ("all_essential", None)
GROUP_TITLE = "Questions with every essential passage in the reference adapter's top 10, by question kind"
groups = by_category
