"""json_members.read_document_members: the case-by-case reader of a large document stream_document
wrote (a compared run's metrics.json), which must read exactly what json would, or refuse."""

from __future__ import annotations

import json

import pytest

from envirobench.json_members import read_document_members
from envirobench.jsonio import stream_document


def read(text: str, key: str = "cases"):
    seen: list[tuple[str, object]] = []
    rest = read_document_members(text, key, lambda name, value: seen.append((name, value)))
    return rest, seen


def test_it_reads_what_stream_document_writes_member_by_member():
    cases = {f"c{i:03d}": {"runs": {"candidate": {"errors": [["x", i, None]], "metrics": {"f1": i / 7}}}} for i in range(50)}
    head = {"format": "m.v1", "benchmark": {"id": "t", "nested": {"cases": {"not": "this one"}}}, "zeta": [1, 2.5, "é"]}
    member = (json.dumps({k: v}, sort_keys=True, ensure_ascii=False)[1:-1] for k, v in cases.items())
    text = "".join(stream_document(head, "cases", ["{", ", ".join(member), "}"]))
    rest, seen = read(text)
    assert rest == head
    assert seen == list(cases.items())
    assert json.loads(text) == {**head, "cases": cases}


@pytest.mark.parametrize("text", ['{"cases": {}}', ' {\n "cases" : { } , "a" : 1 }\n'])
def test_empty_objects_and_whitespace(text):
    rest, seen = read(text)
    assert seen == [] and rest == ({} if '"a"' not in text else {"a": 1})


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"cases": []}', "expected '{'"),
        ('{"a": 1}', "no object member 'cases'"),
        ('{"cases": {"x": 1, "x": 2}}', "duplicate key 'x'"),
        ('{"a": 1, "a": 2, "cases": {}}', "duplicate key 'a'"),
        ('{"cases": {"x": 1}} {}', "extra data"),
        ('{"cases": {"x": 1,}}', "expected a key"),
        ('{"cases": {"x": 1} "b": 2}', "expected ','"),
        ('{"cases": {"x": NaN}}', "NaN"),
        ('{"cases": {"x": 1}', "expected ','"),
        ("", "expected '{'"),
    ],
)
def test_malformed_documents_are_refused(text, why):
    with pytest.raises(ValueError, match=why):
        read(text)


def test_reading_leaves_no_cycle_behind():
    """Runs pause the cyclic collector: a reference cycle through the reader's closures would keep
    a compared run's whole metrics.json text alive for the rest of the run."""
    import gc

    text = '{"a": [1, {"b": 2}], "cases": {"x": {"runs": [1, 2]}, "y": null}, "z": "w"}'
    gc.collect()
    gc.disable()
    try:
        read(text)
        assert gc.collect() == 0
    finally:
        gc.enable()


def read_file(text: str, key: str = "cases"):
    """read_file_members on the text's UTF-8 bytes: (rest, members, SHA-256), or the refusal."""
    import hashlib
    import io

    from envirobench.json_members import read_file_members

    seen: list[tuple[str, object]] = []
    digest = hashlib.sha256()
    try:
        rest = read_file_members(io.BytesIO(text.encode("utf-8")), key, lambda name, value: seen.append((name, value)), digest)
    except ValueError as exc:
        return ("refused", type(exc).__name__, digest.hexdigest())
    return rest, seen, digest.hexdigest()


@pytest.mark.parametrize("window", [1, 2, 3, 5, 8, 13, 64, 1 << 22])
def test_a_file_read_a_window_at_a_time_reads_as_the_whole_text(window, monkeypatch):
    """Windows of any size, even a character: members, values and numbers that cross a window's
    end, white space at its end, multi-byte characters split between reads; the digest is the
    file's, refused or not."""
    import hashlib

    from envirobench import json_members

    monkeypatch.setattr(json_members, "_WINDOW", window)
    cases = {f"c{i:03d}é": {"runs": {"candidate": {"errors": [["x", i * 123456, None]], "metrics": {"f1": i / 7}}}, "n": 10**i} for i in range(30)}
    head = {"format": "m.v1", "benchmark": {"id": "t", "nested": {"cases": {"not": "this one"}}}, "zeta": [1, 2.5, "é" * 9], "big": 12345678}
    member = (json.dumps({k: v}, sort_keys=True, ensure_ascii=False)[1:-1] for k, v in cases.items())
    texts = ["".join(stream_document(head, "cases", ["{", ", ".join(member), "}"])), ' {\n "cases" : { "a":  12345 ,"b":{} }   ,  "z" : 1 }  \n\n ',
             '{"cases": {"x": 1, "x": 2}}', '{"cases": {"x": 1}} {}', '{"cases": {"x": 1', '{"cases": {"x": 12', '{"a": 1}', "{\"cases\": {\"x\": [1, 2]}}\n   x"]
    for text in texts:
        got = read_file(text)
        expected_digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        try:
            rest, seen = read(text)
        except ValueError as exc:
            assert got == ("refused", type(exc).__name__, expected_digest)
        else:
            assert got == (rest, seen, expected_digest)
