"""datasets.HeldValues: a dataset's answers and a compared run's predictions held compactly give,
on every look-up, exactly the value validation (or reading the predictions) made."""

from __future__ import annotations

import math
import types
from pathlib import Path

import attrs

from envirobench import datasets as ds
from envirobench import plugins
from envirobench.authoring import write_manifest
from envirobench.benchmark import BenchmarkType, Case, CaseScore
from envirobench.datasets import HeldValues, structurer_of
from envirobench.hookspecs import hookimpl
from envirobench.jsonio import dumps_line
from envirobench.testing import CountInput


@attrs.frozen
class Band:
    start: int
    end: int


@attrs.frozen
class Nested:
    rows: tuple[int, ...]
    bands: tuple[Band, ...]
    note: str | None = None


@attrs.frozen
class Flat:
    count: int


def held(cls: type, raws: dict[str, object]) -> HeldValues:
    make = structurer_of(cls)
    values = HeldValues(make)
    for key, raw in raws.items():
        values.hold(key, make(raw), raw)
    return values


def test_nested_values_come_back_equal_and_in_order() -> None:
    raws = {
        "b": {"rows": [300, 1000], "bands": [{"start": 1, "end": 2}], "note": None},
        "a": {"rows": [], "bands": [{"start": 5, "end": 9}, {"start": 10, "end": 12}], "note": "é \u2028"},
    }
    values = held(Nested, raws)
    assert list(values) == ["b", "a"] and len(values) == 2
    assert values["b"] == Nested((300, 1000), (Band(1, 2),), None)
    assert values["a"] == Nested((), (Band(5, 9), Band(10, 12)), "é \u2028")
    assert "a" in values and "c" not in values and values.get("c") is None
    assert dict(values.items()) == {"b": values["b"], "a": values["a"]}


def test_what_json_text_would_not_give_back_is_held_as_made() -> None:
    @attrs.frozen
    class Floats:
        values: tuple[float, ...]

    # 1e400 reads as infinity, which orjson writes as null; 2**70 is beyond orjson's integers.
    values = held(Floats, {"inf": {"values": [math.inf, -0.0]}, "big": {"values": [2**70]}})
    assert values["inf"].values[0] == math.inf and math.copysign(1.0, values["inf"].values[1]) == -1.0
    assert values["big"].values == (2**70,)


def test_flat_values_are_the_objects_made() -> None:
    made = Flat(3)
    values = HeldValues(structurer_of(Flat))
    values.hold("c1", made, {"count": 3})
    assert values["c1"] is made



@attrs.frozen
class Word:
    text: str
    length: int

    def __attrs_post_init__(self) -> None:
        if len(self.text) != self.length:
            raise ValueError("length is the text's")


@attrs.frozen
class WordsAnswer:
    words: tuple[Word, ...]


class SplitWords(BenchmarkType):
    """A toy type whose answers nest records in a tuple, as table-separators' do."""

    ID = "split-words"
    FORMAT = "envirobench.split-words.v1"
    LABEL = "Split words (test type)"
    SCORING_VERSION = "envirobench.split-words.scores.v1"
    TIER = "component"
    PROFILES = ("exact",)
    HEADLINE = ("accuracy",)
    VIEWER = "json"
    Input = CountInput
    Answer = WordsAnswer
    Prediction = WordsAnswer

    def score_case(self, case: Case, answer: WordsAnswer, prediction: WordsAnswer) -> dict[str, CaseScore]:
        errors = () if prediction == answer else (("wrong-words",),)
        return {"exact": CaseScore(errors, {"accuracy": float(not errors)})}


def test_a_dataset_of_nested_answers_gives_each_answer_as_validation_made_it(tmp_path: Path) -> None:
    root = tmp_path / "split-words"
    root.mkdir()
    texts = [" ".join(["ab", "cde", "f"][: 1 + i % 3]) for i in range(30)]
    with open(root / "cases.jsonl", "w", encoding="utf-8") as cases, open(root / "answers.jsonl", "w", encoding="utf-8") as answers:
        for i, text in enumerate(texts):
            cases.write(dumps_line({"id": f"w{i:03d}", "category": "any", "input": {"text": text}}))
            answers.write(dumps_line({"id": f"w{i:03d}", "answer": {"words": [{"text": w, "length": len(w)} for w in text.split()]}}))
    write_manifest(root, dataset_id="test/split-words-v1", version=1, benchmark=SplitWords.ID, title="Split words (tests)")

    @hookimpl
    def envirobench_benchmark_types(register):
        register(SplitWords)

    registry = plugins.build_registry(extra=[("split", types.SimpleNamespace(envirobench_benchmark_types=envirobench_benchmark_types))])
    contents = ds.load_contents(root, registry)
    assert isinstance(contents.answers, HeldValues)  # held as text: the answers nest arrays
    # The same records Dataset.answers makes, reading answers.jsonl the other way, line by line.
    assert dict(contents.answers.items()) == contents.dataset.answers(registry.benchmark_type(SplitWords.ID))
    assert list(contents.answers) == list(contents.cases)
    assert contents.answers["w002"] == WordsAnswer((Word("ab", 2), Word("cde", 3), Word("f", 1)))
