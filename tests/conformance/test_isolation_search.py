"""The answer-isolation check searches every input file for every serialisation of every answer
object in one pass (`found_in`); it must find exactly what searching for each would find."""

from __future__ import annotations

import json
import random

from envirobench.conformance.isolation import _field_texts, _key_texts, found_in, serialisations


def test_found_in_finds_exactly_the_needles_that_occur():
    rng = random.Random(7)
    alphabet = b'{}"ab:, \x00\xff'
    for _ in range(300):
        data = bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 400)))
        needles = {bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 20))) for _ in range(40)}
        # Some cut from the data itself: present, overlapping, sharing prefixes, at either end.
        for _ in range(10):
            start = rng.randrange(0, len(data) + 1)
            needles.add(data[start : start + rng.randrange(1, 30)])
        assert found_in(data, needles) == {n for n in needles if n and n in data}


def test_an_answer_serialised_in_a_binary_file_is_found_among_thousands():
    answers = [{"key": f"MW-{i:04d}", "value": i / 8, "unit": "µg/L"} for i in range(3000)]
    needles = {text for answer in answers for text in serialisations(answer)}
    leaked = json.dumps(answers[1234], indent=2, ensure_ascii=False).encode()
    data = bytes(range(256)) * 4000 + leaked + b"%%EOF"
    assert found_in(data, needles) == {leaked}
    assert found_in(data.replace(leaked, b""), needles) == set()


def test_every_serialisation_holds_each_key_quoted_as_the_search_looks_for_it():
    """find_leaks makes an object's serialisations only for a file holding each of its keys
    quoted and followed by ":" (`_key_texts`): sound only if every serialisation holds them, keys
    with non-ASCII letters, quotes and escapes included, at any nesting, in any form."""
    rng = random.Random(11)
    names = ["count", "µg/L", 'say "no"', "tab\there", "Größe", "a:b", "日付", "\\"]

    def value(depth):
        kind = rng.randrange(4 if depth < 3 else 2)
        if kind == 0:
            return rng.choice([1, 2.5, None, True, "x", "µ"])
        if kind == 1:
            return rng.choice(["MW-3", -7, 0.125, "ä\"b"])
        if kind == 2:
            return [value(depth + 1) for _ in range(rng.randrange(3))]
        return {rng.choice(names): value(depth + 1) for _ in range(rng.randrange(1, 4))}

    for _ in range(300):
        obj = {rng.choice(names): value(1) for _ in range(rng.randrange(1, 5))}
        for text in serialisations(obj):
            for key in obj:
                assert any(quoted in text for quoted in _key_texts(key)), (key, text)
        for key, item in obj.items():
            for text in _field_texts(key, item):
                assert any(quoted in text for quoted in _key_texts(key)), (key, text)
