"""`envirobench submit`: send an unscored run of a sealed dataset to a holdout service.

What is sent: the run's run.json and its predictions (the file adapter-result.json names), both
checked first against the sizes and SHA-256s run.json recorded when the run was made. The
Idempotency-Key is derived from those bytes, so submitting the same run again, or a retry after a
dropped connection, is answered with the first submission's result and never counted twice.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import httpx

from envirobench import RESULT_FILE, EnviroBenchError, read_run

from .judge import SUBMISSION_FORMAT

KEY_ENV = "ENVIROBENCH_HOLDOUT_KEY"
RETRIES = 3
RUN_FILE, ADAPTER_DIR = "run.json", "adapter"  # a run directory's layout (docs/runs.md)


def check_saved_output(output_dir: Path, recorded: Any) -> None:
    """Every file run.json records for adapter/ (`recorded`, its adapter_output) is there, a
    regular file of the recorded size and SHA-256."""
    for relative, entry in recorded.files.items():
        path = output_dir / relative
        if path.is_symlink() or not path.is_file():
            raise EnviroBenchError(f"is missing or not a regular file, but {RUN_FILE} records it", file=path)
        data = path.read_bytes()
        if len(data) != entry.size or hashlib.sha256(data).hexdigest() != entry.sha256:
            raise EnviroBenchError(f"does not match the size and SHA-256 recorded in {RUN_FILE} when the run was made: it was changed since", file=path)


def submission_of(run_dir: Path) -> tuple[dict[str, Any], str]:
    """(the submission's JSON, its idempotency key) from an unscored run directory."""
    run = read_run(run_dir)
    if run.status != "unscored":
        raise EnviroBenchError(f"run {run.run_id!r} is {run.status!r}; only an unscored run (envirobench run on a sealed dataset) is submitted",
                               file=run_dir / RUN_FILE, field="$.status")
    output = run_dir / ADAPTER_DIR
    if run.adapter_output is None:
        raise EnviroBenchError("the run records no adapter output", file=run_dir / RUN_FILE, field="$.adapter_output")
    check_saved_output(output, run.adapter_output)
    result = json.loads((output / RESULT_FILE).read_text(encoding="utf-8"))
    data = (output / result["data"]).read_bytes()
    run_bytes = (run_dir / RUN_FILE).read_bytes()
    key = "run-" + hashlib.sha256(run_bytes + b"\n" + data).hexdigest()[:40]
    return {"format": SUBMISSION_FORMAT, "run": json.loads(run_bytes), "predictions": json.loads(data)}, key


def post_submission(url: str, api_key: str, body: dict[str, Any], idempotency_key: str, *, timeout: float = 300.0) -> tuple[int, dict[str, Any], dict[str, str]]:
    """(status, JSON answer, headers); a dropped connection is retried with the same key."""
    endpoint = url.rstrip("/") + "/v1/submissions"
    content = json.dumps(body, separators=(",", ":")).encode("utf-8")
    headers = {"Authorization": f"Bearer {api_key}", "Idempotency-Key": idempotency_key, "Content-Type": "application/json"}
    for attempt in range(1, RETRIES + 1):
        try:
            response = httpx.post(endpoint, content=content, headers=headers, timeout=timeout)
        except httpx.TransportError as exc:
            if attempt == RETRIES:
                raise EnviroBenchError(f"could not reach {endpoint}: {exc}") from None
            time.sleep(attempt)
            continue
        try:
            answer = response.json()
        except ValueError:
            answer = {"error": f"the service answered {response.status_code} without JSON"}
        return response.status_code, answer, dict(response.headers)
    raise AssertionError("unreachable")  # pragma: no cover
