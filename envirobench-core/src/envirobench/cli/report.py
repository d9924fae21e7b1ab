"""`envirobench serve` and `envirobench review draft|check`."""

from __future__ import annotations

import webbrowser
from pathlib import Path

import click

from ..errors import EnviroBenchError
from ..report import rewrite_report
from ..review import check_run_interpretation, write_draft
from ..rundir import INTERPRETATION_FILE
from ..serve import make_server
from .common import CONTEXT_SETTINGS, RUN_DIR, echo_json, registry, user_errors


@click.command("serve", context_settings=CONTEXT_SETTINGS)
@click.option("--run", "run_dir", required=True, type=RUN_DIR, help="The run directory to serve.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="Port on 127.0.0.1 (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the report in the default browser.")
@user_errors
def serve_command(run_dir: Path, port: int, open_browser: bool) -> None:
    """Serve a run directory read-only on 127.0.0.1 (GET and HEAD only) until Ctrl-C.

    Only files inside the run directory are served; paths with '..', encoded traversal,
    absolute paths and symlinks leading out of the run are refused.
    """
    server = make_server(run_dir, port)
    click.echo(f"serving {run_dir} read-only at {server.url} (Ctrl-C stops)", err=True)
    if open_browser:
        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
    finally:
        server.server_close()


@click.group("review", context_settings=CONTEXT_SETTINGS)
def review_group() -> None:
    """Review a run's changes: draft an interpretation, then check it.

    Reviews never change scores or the gate.
    """


@review_group.command("draft")
@click.option("--run", "run_dir", required=True, type=RUN_DIR, help="A finished run directory.")
@click.option("--output", type=click.Path(path_type=Path, dir_okay=False), help="Write the draft here instead of RUN/interpretation.json.")
@click.option("--json", "as_json", is_flag=True, help="Print the draft's path and counts as JSON.")
@user_errors
def review_draft(run_dir: Path, output: Path | None, as_json: bool) -> None:
    """Turn review-brief.json into an unexamined draft: one numbered finding per group.

    Edit the draft: for each case you examine set "examined": true, a "verdict" and the
    "evidence" (what you saw); adjust findings and recommendations; set "status": "reviewed".
    Then run `envirobench review check`.
    """
    path, draft = write_draft(run_dir, output)
    cases = sum(len(f.cases) for f in draft.findings)
    if as_json:
        echo_json({"path": str(path), "findings": len(draft.findings), "cases": cases, "recommendations": len(draft.recommendations)})
        return
    click.echo(f"wrote {path}: {len(draft.findings)} finding(s) covering {cases} case(s), none examined yet")
    for finding in draft.findings:
        click.echo(f"  {finding.number}. {finding.title}")
    if not draft.findings:
        click.echo("  (nothing changed and nothing remains wrong: there is nothing to review)")
    click.echo(f"next: examine the cases in report.html, record evidence, then: envirobench review check --run {run_dir}")


@review_group.command("check")
@click.option("--run", "run_dir", required=True, type=RUN_DIR, help="A finished run directory.")
@click.option("--file", "path", type=click.Path(path_type=Path, dir_okay=False, exists=True), help="Check this file instead of RUN/interpretation.json.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@user_errors
def review_check(run_dir: Path, path: Path | None, as_json: bool) -> None:
    """Validate interpretation.json: every examined case carries evidence, every case ID is a
    case of the run, every recommendation names cases. When the run's own interpretation is
    valid, report.html is rendered again to show it."""
    data, problems = check_run_interpretation(run_dir, path)
    if problems:
        if as_json:
            echo_json({"valid": False, "problems": problems})
        raise click.ClickException(f"the interpretation is not valid ({len(problems)} problem(s)):\n  " + "\n  ".join(problems))
    assert data is not None
    findings = data["findings"]
    examined = sum(1 for f in findings for c in f["cases"] if c.get("examined"))
    total = sum(len(f["cases"]) for f in findings)
    report_note = None
    if path is None or path.resolve() == (run_dir / INTERPRETATION_FILE).resolve():
        try:
            rewrite_report(run_dir, registry())
            report_note = "report.html now shows the interpretation"
        except EnviroBenchError as exc:
            report_note = f"report.html was not updated: {exc}"
    if as_json:
        echo_json({"valid": True, "status": data["status"], "findings": len(findings), "examined": examined, "cases": total,
                   "recommendations": len(data.get("recommendations") or []), "report": report_note})
        return
    click.echo(f"valid ({data['status']}): {len(findings)} finding(s), {examined} of {total} case(s) examined, {len(data.get('recommendations') or [])} recommendation(s)")
    if report_note:
        click.echo(report_note, err=True)
