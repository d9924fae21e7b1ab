"""`envirobench serve`: read-only, 127.0.0.1 only, nothing outside the run directory."""

from __future__ import annotations

import http.client
import os
import re
import socket
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from envirobench.cli import main
from envirobench.errors import EnviroBenchError
from envirobench.report import CSP
from envirobench.serve import make_server, serve_in_thread


@pytest.fixture
def run_dir(make_run, results, tmp_path):
    make_run("served", off="c000001:1")
    run = results / "served"
    (tmp_path / "secret.txt").write_text("outside the run\n")
    (results / "secret.txt").write_text("beside the run\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("in a directory outside\n")
    (run / "leak").symlink_to(tmp_path / "secret.txt")
    (run / "leakdir").symlink_to(outside, target_is_directory=True)
    (run / "inner-link.json").symlink_to(run / "metrics.json")  # a link that stays inside is fine
    return run


@pytest.fixture
def server(run_dir):
    srv = make_server(run_dir, 0, quiet=True)
    serve_in_thread(srv)
    yield srv
    srv.shutdown()
    srv.server_close()


def request(server, method, path, *, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
    try:
        conn.putrequest(method, path, skip_host="Host" in (headers or {}), skip_accept_encoding=True)
        for key, value in (headers or {}).items():
            conn.putheader(key, value)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def test_serves_the_run_files(server, run_dir):
    status, headers, body = request(server, "GET", "/report.html")
    assert status == 200 and body == (run_dir / "report.html").read_bytes()
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Content-Security-Policy"] == CSP and headers["X-Content-Type-Options"] == "nosniff"
    status, _, body = request(server, "GET", "/")
    assert status == 200 and body == (run_dir / "report.html").read_bytes()
    status, headers, body = request(server, "GET", "/metrics.json")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    status, headers, body = request(server, "HEAD", "/summary.md")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) == (run_dir / "summary.md").stat().st_size
    status, _, body = request(server, "GET", "/adapter/predictions.json")
    assert status == 200 and body == (run_dir / "adapter" / "predictions.json").read_bytes()
    status, _, body = request(server, "GET", "/inner-link.json")
    assert status == 200 and body == (run_dir / "metrics.json").read_bytes()
    assert request(server, "GET", "/no-such-file")[0] == 404
    assert request(server, "GET", "/adapter/")[0] == 404  # no directory listings


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.txt",
        "/../../secret.txt",
        "/adapter/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/%2e%2e/secret.txt",
        "/.%2e/secret.txt",
        "/%2e%2e%2fsecret.txt",
        "/adapter%2f..%2f..%2fsecret.txt",
        "/..%5csecret.txt",
        "/..\\secret.txt",
        "/%252e%252e/secret.txt",
        "//etc/passwd",
        "/%2fetc%2fpasswd",
        "/etc/passwd",
        "/leak",
        "/leakdir/secret.txt",
        "/report.html%00.txt",
        "/./report.html",
        "/adapter//predictions.json",
    ],
)
def test_traversal_is_refused(server, path):
    status, _, body = request(server, "GET", path)
    assert status in (403, 404), (path, status)
    assert b"outside" not in body and b"beside the run" not in body and b"root:" not in body
    assert request(server, "HEAD", path)[0] in (403, 404)


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND", "MKCOL"])
def test_only_get_and_head(server, run_dir, method):
    before = (run_dir / "report.html").read_bytes()
    status, headers, _ = request(server, method, "/report.html", body=b"<html>replaced</html>")
    assert status == 405 and headers["Allow"] == "GET, HEAD"
    assert (run_dir / "report.html").read_bytes() == before
    assert not (run_dir / "new.html").exists()
    assert request(server, method, "/new.html", body=b"x")[0] == 405 and not (run_dir / "new.html").exists()


def test_a_foreign_host_header_is_refused(server):
    assert request(server, "GET", "/report.html", headers={"Host": "attacker.example"})[0] == 403
    port = server.server_address[1]
    assert request(server, "GET", "/report.html", headers={"Host": f"localhost:{port}"})[0] == 200


def test_bound_to_127_0_0_1_only(server):
    host, port = server.socket.getsockname()
    assert host == "127.0.0.1"
    # Another loopback address of this machine reaches nothing: the socket is not on 0.0.0.0.
    with pytest.raises(OSError), socket.create_connection(("127.0.0.2", port), timeout=2):
        pass
    assert "--host" not in CliRunner().invoke(main, ["serve", "--help"]).output


def test_port_taken_gives_a_clear_message(run_dir):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(EnviroBenchError, match=f"port {port} on 127.0.0.1 is already in use; choose another with --port"):
            make_server(run_dir, port)
        result = CliRunner().invoke(main, ["serve", "--run", str(run_dir), "--port", str(port)])
        assert result.exit_code == 1 and "already in use" in result.output and "Traceback" not in result.output


def test_refuses_a_directory_that_is_not_a_run(tmp_path):
    result = CliRunner().invoke(main, ["serve", "--run", str(tmp_path)])
    assert result.exit_code == 1 and "not a run directory" in result.output


def test_serve_command_end_to_end(run_dir):
    env = {**os.environ, "ENVIROBENCH_LOAD_PLUGINS": ""}
    proc = subprocess.Popen(
        [sys.executable, "-m", "envirobench.cli", "serve", "--run", str(run_dir), "--port", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True,
    )
    try:
        line = proc.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/report\.html", line)
        assert match, line
        port = int(match.group(1))
        deadline = time.monotonic() + 10
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/report.html")
                response = conn.getresponse()
                break
            except ConnectionRefusedError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        assert response.status == 200 and response.read() == (run_dir / "report.html").read_bytes()
        conn.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stderr.close()
