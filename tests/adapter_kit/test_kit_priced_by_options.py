"""The kit's additions for an adapter priced and bounded by its user's options (the
OpenAI-compatible adapter's case): `Adapter(prices_from_options=...)` and a bound that is a
function of the case and the run's options."""

from __future__ import annotations

from kit_helpers import MODEL, read, texts, write_request

from envirobench.testing import CountWords
from envirobench_adapter_kit import Adapter


def prices_given(options):
    if not options["price"]:
        return {}
    value = float(options["price"])
    if value < 0:
        raise ValueError(f"price must not be negative, not {options['price']!r}")
    return {MODEL: {"input_per_mtok": value, "output_per_mtok": value}}


def kit_priced_by_options() -> Adapter:
    kit = Adapter("priced-by-options", "1.0", types=[CountWords], options={"price": "", "max_output": "100"},
                  prices_from_options=prices_given)

    @kit.predict("count-words", max_input_tokens=1000, max_output_tokens=lambda case, options: int(options["max_output"]))
    def count(case, ctx):
        ctx.usage(input_tokens=1000, output_tokens=int(ctx.options["max_output"]))
        return {"count": len(case.input["text"].split())}

    return kit


def test_prices_and_bounds_from_the_options_price_and_bound_the_run(tmp_path):
    kit = kit_priced_by_options()
    # $1 per million tokens: each case 1,000 input + 1,000 output tokens = $0.002; $0.007 pays for 3 of 5.
    request = write_request(tmp_path / "r1.json", texts(5), input_dir=tmp_path / "in", budget_usd=0.007,
                            options={"price": "1", "max_output": "1000"})
    report = kit.run(request, tmp_path / "out1", max_concurrency=1)
    assert (report.count("predicted"), report.count("not-started")) == (3, 2)
    assert abs(report.spent_usd - 0.006) < 1e-12


def test_a_model_the_options_do_not_price_or_a_bad_price_is_refused(tmp_path):
    kit = kit_priced_by_options()
    for n, (options, expected) in enumerate([({}, "$.model: 'example/word-counter' has no price"),
                                              ({"price": "-1"}, "$.options: price must not be negative")]):
        request = write_request(tmp_path / f"r{n}.json", texts(2), input_dir=tmp_path / "in", options=options)
        report = kit.run(request, tmp_path / f"out{n}")
        result = read(tmp_path / f"out{n}" / "adapter-result.json")
        assert report.status == result["status"] == "failed" and result["error"].startswith(expected), result["error"]
