"""Questions about a site with candidate passages from its records, graded for relevance.

    rng = make_random(SEED, "test", "pr-test-0007")
    question = sample_question(rng, "exceedance", "test")
    question.text, [(p.text, p.grade, p.essential) for p in question.passages]

A *site* (`sample_site`) is a small world of facts: monitoring wells sampled in events, analyte
results with the standard each is compared with, underground storage tanks installed and
removed, the owners of the parcel and the direction groundwater flows. Each question asks one
fact (or, for `exceedance`, joins two: a result and its standard), and its candidates are
passages of the site's records written about that fact and about its neighbours:

    grade 3  a passage that states the fact asked for (essential)
    grade 2  one that states part of it or leads straight to it (the table or figure it is in,
             the standard a result is compared with (essential for `exceedance`), the deed out
             of an owner)
    grade 1  on the topic without the fact (the same well and analyte in another event, the
             tank's installation, a request that came before a decision)
    grade 0  hard negatives that share the question's words: the same analyte in another well,
             another analyte in the same well, the same well at a neighbouring site, the
             regional flow instead of the site's, another tank's removal, the adjoining parcel's
             deeds; and other facts of the same site

Families: each split words its passages, questions, dates, units and source documents with
templates of its own (`TEMPLATES[split]`); the test split's wordings (quarters for months,
"monitoring well 3" for "MW-3", "ug/L" for "µg/L", ...) never appear in dev, so a reranker tuned
on dev wordings meets new ones. The candidates are shuffled: their order carries nothing.

Grow the tables by appending: samplers pick by position.

The package in parts: `site` (the site and the records), `wordings` and `questions`.
"""

from .questions import sample_question
from .site import CANDIDATES, QUESTION_KINDS, RerankQuestion

__all__ = ["CANDIDATES", "QUESTION_KINDS", "RerankQuestion", "sample_question"]
