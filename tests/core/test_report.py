"""report.html and report-assets/: written with every run, self-contained, escaped, reproducible."""

from __future__ import annotations

import html.parser
import json
import re

import pytest
import reportkit
from click.testing import CliRunner

from envirobench import plugins
from envirobench.adapters import Workspace
from envirobench.cli import main
from envirobench.report import CSP, decode_chunk, script_json
from envirobench.runs import rescore_run
from envirobench.testing import toy_plugin, write_count_dataset


@pytest.fixture
def separator_runs(tmp_path):
    return reportkit.make_separator_runs(tmp_path)


class Elements(html.parser.HTMLParser):
    """Every start tag with its attributes, and the text of each script element."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._in_script: dict[str, str | None] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = dict(attrs)
            self.scripts.append((self._in_script, ""))

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = None

    def handle_data(self, data):
        if self._in_script is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)


def parse(text: str) -> Elements:
    parser = Elements()
    parser.feed(text)
    return parser


def test_report_is_written_with_every_run_and_links_nothing_remote(separator_runs):
    text = (separator_runs["cand"] / "report.html").read_text()
    page = parse(text)
    metas = [a for t, a in page.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert metas == [{"http-equiv": "Content-Security-Policy", "content": CSP}]
    assert "default-src 'none'" in CSP and "img-src 'self' data:" in CSP
    # The CSP tag comes before any script or style.
    first = [t for t, _ in page.tags if t in ("meta", "script", "style", "link")]
    assert first[:2] == ["meta", "meta"]
    for tag, attrs in page.tags:
        assert tag not in ("link", "iframe", "object", "embed", "base", "form") or tag == "form" and "action" not in attrs
        for name in ("src", "href", "action", "srcset"):
            value = attrs.get(name)
            assert value is None or not re.match(r"^\s*([a-z][a-z0-9+.-]*:|//)", value, re.I), (tag, name, value)
    assert "@import" not in text and "url(" not in text
    # Baseline and summary runs have their own report too.
    assert (separator_runs["base"] / "report.html").is_file()
    summary = (separator_runs["cand"] / "summary.md").read_text()
    assert "[report.html](report.html)" in summary and "(report.html#bucket=worse)" in summary


def test_report_assets_hold_the_case_images_only(separator_runs):
    cand, dataset = separator_runs["cand"], separator_runs["dataset"]
    assets = sorted(p.relative_to(cand / "report-assets").as_posix() for p in (cand / "report-assets").rglob("*") if p.is_file())
    assert assets == [f"assets/t{i:03d}.png" for i in range(8)]  # not the .txt sidecar
    for rel in assets:
        assert (cand / "report-assets" / rel).read_bytes() == (dataset / rel).read_bytes()
    data = reportkit.embedded_data((cand / "report.html").read_text())
    assert data["assets"] == assets and data["assets_dir"] == "report-assets"
    by_id = {row[0]: row for row in data["cases"]}
    assert [data["assets"][i] for i in by_id["t003"][4]] == ["assets/t003.png"]


def test_embedded_data_matches_metrics(separator_runs):
    cand = separator_runs["cand"]
    metrics = json.loads((cand / "metrics.json").read_text())
    data = reportkit.embedded_data((cand / "report.html").read_text())
    assert data["profiles"] == ["logical", "strict"] and data["gated"] == ["logical"]
    assert data["runs"] == ["candidate", "baseline", "control-1"] and data["run_ids"] == ["cand", "base", "control"]
    assert len(data["cases"]) == 8
    for cid, cat, buckets, errs, _ in data["cases"]:
        per_case = metrics["cases"][cid]
        assert data["categories"][cat] == per_case["category"]
        assert [data["buckets"][b] for b in buckets] == [per_case["bucket"][p] for p in data["profiles"]]
        for r, label in enumerate(data["runs"]):
            for p, profile in enumerate(data["profiles"]):
                expected = per_case["runs"][label][profile]["errors"]
                assert ([] if errs == 0 else [data["errors"][i] for i in errs[r][p]]) == expected


def test_headline_metrics_show_their_intervals_and_the_paired_test(separator_runs):
    """docs/report.md: each headline number with its 95 % interval, each change with its paired
    interval, and the exact McNemar test per profile (the separator type overrides summarize, so
    its intervals come from summarize on each resample)."""
    cand = separator_runs["cand"]
    metrics = json.loads((cand / "metrics.json").read_text())
    text = (cand / "report.html").read_text()
    for profile, m in metrics["profiles"].items():
        assert set(m["intervals"]) == set(m["headline"]) and set(m["paired"]["change"]) == set(m["change"])
        for name, interval in m["intervals"].items():
            assert interval["low"] <= m["headline"][name] <= interval["high"]
            assert f'<span class="eb-small" title="95 % interval"> [{interval["low"]:.4f}, {interval["high"]:.4f}]</span>' in text
            change = m["paired"]["change"][name]
            assert f'<span class="eb-small" title="95 % paired interval"> [{change["low"]:+.4f}, {change["high"]:+.4f}]</span>' in text
        paired = m["paired"]
        line = f"<li>{profile}: cases that became error-free or gained errors against the baseline: {paired['better']} better, {paired['worse']} worse, "
        assert line in text
    assert (metrics["profiles"]["logical"]["paired"]["better"], metrics["profiles"]["logical"]["paired"]["worse"]) == (1, 3)
    assert "1 better, 3 worse, p = 0.6250 (exact McNemar test)" in text
    assert 'id="intervals"' in text and "cases (1,000 resamples, seed 1729)" in text
    # The baseline's own report: intervals, and no paired test without a baseline of its own.
    base = (separator_runs["base"] / "report.html").read_text()
    assert 'id="intervals"' in base and 'id="paired"' not in base


def test_inputs_answers_and_predictions_are_embedded_once(separator_runs):
    cand = separator_runs["cand"]
    text = (cand / "report.html").read_text()
    comparison = json.loads((cand / "comparison.json").read_text())
    data = reportkit.embedded_data(text)
    blocks = [(attrs, body) for attrs, body in parse(text).scripts if (attrs.get("id") or "").startswith("eb-cases-")]
    assert len(blocks) == data["chunks"] == 1
    assert blocks[0][0]["type"] == "application/octet-stream" and blocks[0][0]["data-encoding"] == "base64 gzip json"
    assert re.fullmatch(r"[A-Za-z0-9+/=]+", blocks[0][1])
    chunk = decode_chunk(blocks[0][1])
    for n, case in enumerate(comparison["cases"]):
        case_input, answer, refs = chunk[n]
        assert case_input == case["input"] and answer == case["answer"]
        predictions = []
        for ref in refs:
            predictions.append(None if ref is None else answer if ref == -1 else predictions[ref] if isinstance(ref, int) else ref[0])
        assert predictions == [case["predictions"][label] for label in data["runs"]]
    # t005: the baseline's and the control's predictions equal the candidate's: stored as references to it.
    assert chunk[5][2][1:] == [0, 0]
    # The injected note is in there once, as data.
    assert sum(json.dumps(c).count("window.__pwned=1") for c in chunk) == 1


def test_many_cases_make_many_blocks(tmp_path, make_spec):
    from envirobench.report import CHUNK
    from envirobench.runs import execute_run

    n = CHUNK + 5
    dataset = write_count_dataset(tmp_path / "big", n)
    registry = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", dataset)))])
    outcome = execute_run(make_spec("big"), registry)
    text = (outcome.run_dir / "report.html").read_text()
    data = reportkit.embedded_data(text)
    blocks = [body for attrs, body in parse(text).scripts if (attrs.get("id") or "").startswith("eb-cases-")]
    assert data["chunks"] == len(blocks) == 2 and len(data["cases"]) == n
    assert [len(decode_chunk(b)) for b in blocks] == [CHUNK, 5]


def test_a_runs_report_is_the_one_its_files_give(tmp_path, make_spec):
    """A new run encodes the report's case data while it writes comparison.json; rewriting the
    report from the run's files must give the same bytes, in the dataset's order of cases (not
    metrics.json's, which is sorted by ID), over more than one block."""
    from envirobench.report import CHUNK, rewrite_report
    from envirobench.runs import execute_run
    from envirobench.testing import CountWords

    dataset = write_count_dataset(tmp_path / "unsorted", CHUNK + 3)
    for name in ("cases.jsonl", "answers.jsonl"):
        lines = (dataset / name).read_text().splitlines(keepends=True)
        (dataset / name).write_text("".join(lines[1::2] + lines[0::2]))
    from envirobench import write_manifest

    write_manifest(dataset, dataset_id="test/count-words-v1", version=1, benchmark=CountWords.ID, title="unsorted")
    registry = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", dataset)))])
    base = execute_run(make_spec("base", options={"off": "c000001:1"}), registry)
    cand = execute_run(make_spec("cand", options={"off": "c000002:2"}, baseline=base.run_dir), registry)
    report = cand.run_dir / "report.html"
    made = report.read_bytes()
    ids = [case[0] for case in reportkit.embedded_data(made.decode())["cases"]]
    assert ids[:2] == ["c000001", "c000003"] and len(ids) == CHUNK + 3
    report.unlink()
    rewrite_report(cand.run_dir, registry)
    assert report.read_bytes() == made


def test_hostile_strings_cannot_break_out(separator_runs):
    text = (separator_runs["cand"] / "report.html").read_text()
    assert "window.__pwned" in text  # it is there, but only as escaped data
    assert "<script>window.__pwned" not in text and '<img src=x onerror="window.__pwned' not in text
    assert "&lt;img src=x onerror=&#34;window.__pwned=2&#34;&gt;" in text  # the category in the chart, escaped
    page = parse(text)
    # Exactly the scripts the report puts there: the case index, the type's viewer, json, the app, one chunk.
    kinds = [attrs.get("type") or "code" for attrs, _ in page.scripts]
    assert kinds == ["application/json", "code", "code", "code", "application/octet-stream"]
    for attrs, body in page.scripts:
        if attrs.get("type") == "application/json":
            json.loads(body)  # each data block is whole, valid JSON
            assert "<" not in body and ">" not in body and "&" not in body


def test_script_json_escapes_everything_that_could_end_a_script():
    value = {"a": "</script><!-- & \u2028\u2029 >"}
    text = script_json(value)
    for bad in ("<", ">", "&", "\u2028", "\u2029"):
        assert bad not in text
    assert json.loads(text) == value


def test_rescore_reproduces_the_report_byte_for_byte(separator_runs, monkeypatch):
    cand = separator_runs["cand"]
    before = (cand / "report.html").read_bytes()
    assets = {p: p.read_bytes() for p in (cand / "report-assets").rglob("*.png")}
    rescore_run(cand, separator_runs["registry"])
    assert (cand / "report.html").read_bytes() == before
    assert {p: p.read_bytes() for p in (cand / "report-assets").rglob("*.png")} == assets
    # Re-pairing without the baseline changes the report (and the verdict in it).
    rescore_run(cand, separator_runs["registry"], baseline=None, controls=[])
    after = (cand / "report.html").read_text()
    assert "Baseline required" in after and reportkit.embedded_data(after)["runs"] == ["candidate"]
    assert not list(cand.glob("report-assets/**/.*.tmp"))


def test_report_of_count_words_uses_the_json_viewer(make_run, results):
    make_run("base", off="c000001:1")
    make_run("cand", off="c000002:3", baseline=results / "base")
    text = (results / "cand" / "report.html").read_text()
    data = reportkit.embedded_data(text)
    assert data["viewer"] == "json" and data["assets"] == []
    assert 'EB.viewers["json"]' in text and 'EB.viewers["image-overlay"]' not in text
    assert "Gate failed" in text and "exact: 1 case(s) got worse than the baseline run base." in text
    assert "12</strong> case(s) scored of 12 requested" in text


def test_coverage_counts_retired_cases_with_their_reasons(tmp_path, make_spec):
    from envirobench.runs import execute_run

    dataset = write_count_dataset(tmp_path / "retiring", 6, retired={"c000003": "the scan is <illegible>"})
    registry = plugins.build_registry(extra=[("toy", toy_plugin(("test/count-words-v1", dataset)))])
    outcome = execute_run(make_spec("r"), registry)
    text = (outcome.run_dir / "report.html").read_text()
    assert "5</strong> case(s) scored of 5 requested" in text
    assert "1</strong> case(s) retired" in text and "the scan is &lt;illegible&gt;" in text


def test_plugin_viewer_is_embedded_and_core_viewers_come_through_the_hook(tmp_path, make_spec, count_dataset):
    from envirobench import hookimpl
    from envirobench.runs import execute_run
    from envirobench.testing import CountWords

    class Sparkly(CountWords):
        VIEWER = "sparkly"

    @hookimpl
    def envirobench_benchmark_types(register):
        register(Sparkly)

    @hookimpl
    def envirobench_viewers(register):
        register("sparkly", script="window.EnviroBench.viewers['sparkly'] = {render() {}}; // </script> stays inside", style=".sparkly{}")

    @hookimpl
    def envirobench_datasets(register):
        register("test/count-words-v1", count_dataset)

    import types

    plugin = types.SimpleNamespace(envirobench_benchmark_types=envirobench_benchmark_types, envirobench_viewers=envirobench_viewers, envirobench_datasets=envirobench_datasets)
    registry = plugins.build_registry(extra=[("sparkly-plugin", plugin)])
    assert registry.registered_by("envirobench-core")["viewers"] == ["image-overlay", "json", "table-grid"]
    outcome = execute_run(make_spec("s"), registry)
    text = (outcome.run_dir / "report.html").read_text()
    assert "window.EnviroBench.viewers['sparkly']" in text and "// <\\/script> stays inside" in text
    assert reportkit.embedded_data(text)["viewer"] == "sparkly"
    assert ".sparkly{}" in text


def test_review_check_rerenders_the_report_with_the_interpretation(use_registry, separator_runs, monkeypatch):
    cand = separator_runs["cand"]
    use_registry(separator_runs["registry"])
    runner = CliRunner()
    assert 'id="review"' not in (cand / "report.html").read_text()
    assert runner.invoke(main, ["review", "draft", "--run", str(cand)]).exit_code == 0
    result = runner.invoke(main, ["review", "check", "--run", str(cand)])
    assert result.exit_code == 0, result.output
    text = (cand / "report.html").read_text()
    assert 'id="review"' in text and "Finding 1:" in text and "--recommendation 1" in text
    # A broken interpretation is reported in the report, not silently shown.
    (cand / "interpretation.json").write_text("{ not json")
    rescore_run(cand, separator_runs["registry"])
    assert "interpretation.json is present but not valid" in (cand / "report.html").read_text()


# -- permissions: what a run writes is for others to read, as the umask says -----------------------


def modes(root):
    """The permission bits of `root` and of every file and directory under it, by relative path."""
    found = {".": root.stat().st_mode & 0o7777}
    for path in root.rglob("*"):
        found[path.relative_to(root).as_posix()] = path.lstat().st_mode & 0o7777
    return found


@pytest.mark.parametrize(("mask", "file_mode", "dir_mode"), [(0o022, 0o644, 0o755), (0o077, 0o600, 0o700), (0o002, 0o664, 0o775)])
def test_every_file_of_a_run_has_the_permissions_the_umask_gives(tmp_path, umask, mask, file_mode, dir_mode):
    umask(mask)
    runs = reportkit.make_separator_runs(tmp_path)
    cand = runs["cand"]
    for run_dir in (runs["base"], runs["control"], cand):
        found = modes(run_dir)
        assert {"adapter/predictions.json", "adapter.log", "report.html", "report-assets/assets/t000.png", "run.json"} <= set(found)
        wrong = {p: oct(m) for p, m in found.items() if m != (dir_mode if (run_dir / p).is_dir() else file_mode)}
        assert wrong == {}, run_dir.name
    rescore_run(cand, runs["registry"], baseline=None)  # the new set, written beside the run and swapped in
    wrong = {p: oct(m) for p, m in modes(cand).items() if m != (dir_mode if (cand / p).is_dir() else file_mode)}
    assert wrong == {}
    # The adapter's workspace stays private whatever the umask.
    workspace = Workspace.create()
    try:
        assert workspace.root.stat().st_mode & 0o777 == 0o700
    finally:
        workspace.remove()


def test_a_types_curves_are_drawn_by_core_one_line_per_run(separator_runs, monkeypatch):
    from envirobench import Curve, EnviroBenchError
    from envirobench.report import rewrite_report

    hostile = reportkit.INJECTED_NOTE

    def curves(self, profile, summary):
        first = summary[self.HEADLINE[0]]
        return (Curve(f"Share by step {hostile}", "coverage", "risk", ((0.0, 0.0), (0.5, first), (1.0, 1.0)), caption="lower is better"),)

    monkeypatch.setattr(reportkit.ImageSeparators, "curves", curves, raising=False)
    cand = separator_runs["cand"]
    text = rewrite_report(cand, separator_runs["registry"]).read_text()
    section = text.split('<section id="curves">', 1)[1].split("</section>", 1)[0]
    page = parse(text)
    lines = [a for tag, a in page.tags if tag == "polyline" and a.get("stroke", "").startswith("#")]
    runs = reportkit.embedded_data(text)["runs"]
    assert len(runs) >= 2 and len(lines) == len(runs) * len(reportkit.ImageSeparators.PROFILES)
    assert all(re.fullmatch(r"[\d.]+,[\d.]+( [\d.]+,[\d.]+){2}", line["points"]) for line in lines)
    # The title is text: escaped, never markup.
    assert hostile not in section and "&lt;/script&gt;&lt;script&gt;" in section and "lower is better" in section

    # A curve that is not numbers is the plugin's bug, refused with the field named, and the
    # report already written is left as it was.
    before = (cand / "report.html").read_bytes()
    monkeypatch.setattr(reportkit.ImageSeparators, "curves", lambda self, p, s: (Curve("bad", "x", "y", ((0.0, 1.0), (1.0, float("nan")))),), raising=False)
    with pytest.raises(EnviroBenchError, match=r"curve 'bad': points\[1\] must be two finite numbers"):
        rewrite_report(cand, separator_runs["registry"])
    assert (cand / "report.html").read_bytes() == before


def test_a_type_without_curves_has_no_curves_section(separator_runs):
    assert 'id="curves"' not in (separator_runs["cand"] / "report.html").read_text()


def test_metrics_outside_the_headline_are_folded_under_the_table(separator_runs, monkeypatch):
    original = reportkit.ImageSeparators.summarize

    def with_bins(self, profile, scores):
        return {**original(self, profile, scores), "bin_right_00": 3.0}

    monkeypatch.setattr(reportkit.ImageSeparators, "summarize", with_bins)
    rescore_run(separator_runs["cand"], separator_runs["registry"])
    text = (separator_runs["cand"] / "report.html").read_text()
    table = text.split('<section id="headline">', 1)[1].split("</table>", 1)[0]
    folded = text.split('<details class="eb-other-metrics">', 1)[1].split("</details>", 1)[0]
    assert "bin_right_00" not in table and all(name in table for name in reportkit.ImageSeparators.HEADLINE)
    assert "bin_right_00" in folded and "other metric(s)" in folded


def test_counts_are_shown_as_whole_numbers(separator_runs, monkeypatch):
    """Issue 36, point 7: a count (the number of tables) reads "4", not "4.0000 [4.0000, 4.0000]",
    in the report and in summary.md; rates keep their four decimals."""
    original = reportkit.ImageSeparators.summarize

    def with_count(self, profile, scores):
        return {**original(self, profile, scores), "tables": float(len(scores))}

    monkeypatch.setattr(reportkit.ImageSeparators, "summarize", with_count)
    monkeypatch.setattr(reportkit.ImageSeparators, "HEADLINE", ("separator_f1", "tables_exact", "tables"))
    rescore_run(separator_runs["cand"], separator_runs["registry"])
    cand = separator_runs["cand"]
    metrics = json.loads((cand / "metrics.json").read_text())
    tables = int(metrics["profiles"]["logical"]["headline"]["tables"])
    assert tables > 1
    text = (cand / "report.html").read_text()
    table = text.split('<section id="headline">', 1)[1].split("</table>", 1)[0]
    row = table.split("<td>tables</td>", 1)[1].split("</tr>", 1)[0]
    assert f'<td class="eb-num">{tables}</td>' in row and ".0000" not in row and "+0" in row
    assert re.search(r"<td>separator_f1</td>\s*<td class=\"eb-num\">\d\.\d{4}<br>", table)
    summary = (cand / "summary.md").read_text()
    line = next(line for line in summary.splitlines() if "| tables |" in line)
    assert f"| {tables} | {tables} | +0" in line and ".0000" not in line


def test_is_count_tells_counts_from_rates():
    from envirobench.rundir import Interval
    from envirobench.templating import format_interval, format_number, is_count

    assert is_count(200.0, 198.0) and not is_count(1.0, 1.0) and not is_count(200.0, 0.5) and not is_count(None)
    assert format_number(200.0, True) == "200" and format_number(0.5) == "0.5000" and format_number(None, True) == "n/a"
    assert format_interval(Interval(200.0, 200.0), count=True) == ""
    assert format_interval(Interval(180.0, 220.0), count=True) == " [180, 220]"
    assert format_interval(Interval(-2.0, 3.0), signed=True, count=True) == " [-2, +3]"
