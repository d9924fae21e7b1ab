"""Helpers of the OpenAI-compatible adapter's tests: table-separators requests made by hand (each
case a small PNG), the options pointing the adapter at a loopback server, and a stand-in key."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

MODEL = "loopback/model"
PRICE = {"input_per_mtok": 2.0, "output_per_mtok": 8.0}
KEY_ENV = "LOOPBACK_TEST_API_KEY"
KEY = "sk-loopback-secret-0123456789abcdef"  # a stand-in key: the tests look for it in every output


def options(server_url: str, **more: str) -> dict[str, str]:
    return {"base_url": server_url, "model": "served-name", "api_key_env": KEY_ENV, "prices": json.dumps({MODEL: PRICE}),
            "max_tokens": "200", "max_image_tokens": "1000", **more}



def write_request(path: Path, n: int, opts: dict[str, str], *, input_dir: Path, budget_usd: float = 1.0, model: str = MODEL) -> Path:
    """A table-separators adapter-request.json as core writes it: n cases, each a small PNG."""
    (input_dir / "assets").mkdir(parents=True, exist_ok=True)
    cases = []
    for i in range(n):
        Image.new("RGB", (40 + i, 30), "white").save(input_dir / "assets" / f"t{i}.png")
        cases.append({"id": f"t{i:03d}", "input": {"height": 30, "image": f"assets/t{i}.png", "width": 40 + i}})
    request = {
        "format": "envirobench.adapter-request.v1", "protocol": "envirobench.adapter.v1", "run_id": "openai-test",
        "model": model, "budget_usd": budget_usd, "options": opts,
        "benchmark": {"id": "table-separators", "format": "envirobench.table-separators.v1"},
        "dataset": {"id": "test/table-separators", "version": 1, "input_digest": "0" * 64},
        "input_dir": str(input_dir), "cases": cases,
    }
    path.write_text(json.dumps(request), encoding="utf-8")
    return path


def read(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))
