"""`envirobench serve`: a finished run's files over HTTP, read-only, on 127.0.0.1 only.

The server binds the loopback address and nothing else, answers GET and HEAD only, and serves
only regular files inside the run directory: a path with `..`, `.` or empty segments, an
encoded one (`%2e%2e`, `%2f`, `%5c`), a backslash, a NUL, an absolute path, or one that reaches
outside the run through a symlink is refused. A request whose Host header is not the server's
own loopback address is refused too, so a web page cannot reach the server by DNS rebinding.
"""

from __future__ import annotations

import errno
import mimetypes
import os
import shutil
import stat
import threading
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from .errors import EnviroBenchError
from .report import CSP
from .rundir import REPORT_FILE, read_run

HOST = "127.0.0.1"
DEFAULT_PORT = 8765
ALLOWED_METHODS = "GET, HEAD"

mimetypes.add_type("application/json", ".json")
mimetypes.add_type("application/x-ndjson", ".jsonl")
mimetypes.add_type("text/markdown", ".md")
mimetypes.add_type("text/plain", ".log")
mimetypes.add_type("image/webp", ".webp")


class Refused(Exception):
    def __init__(self, status: HTTPStatus, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def resolve_request_path(root: Path, raw_target: str) -> Path:
    """The file inside `root` that a request target names, or Refused (403 or 404).

    `root` must already be resolved (absolute, no symlinks).
    """
    target = urllib.parse.urlsplit(raw_target)
    raw_path = target.path
    if not raw_path.startswith("/"):
        raise Refused(HTTPStatus.BAD_REQUEST, "the request target must start with '/'")
    if raw_path.startswith("//"):
        raise Refused(HTTPStatus.FORBIDDEN, "absolute file system paths are not served")
    decoded = urllib.parse.unquote(raw_path, errors="strict")
    if "\x00" in decoded or "\\" in decoded:
        raise Refused(HTTPStatus.FORBIDDEN, "backslashes and NUL are not allowed in paths")
    # Percent-encoded slashes would let one segment hide several: refuse them outright.
    lowered = raw_path.lower()
    if "%2f" in lowered or "%5c" in lowered:
        raise Refused(HTTPStatus.FORBIDDEN, "encoded slashes are not allowed in paths")
    segments = decoded.split("/")[1:]
    if segments == [""]:
        segments = [REPORT_FILE]
    if any(s in ("", ".", "..") for s in segments[:-1]) or segments[-1] in (".", ".."):
        raise Refused(HTTPStatus.FORBIDDEN, "'..', '.' and empty segments are not allowed in paths")
    if segments[-1] == "":
        raise Refused(HTTPStatus.NOT_FOUND, "directories are not listed")
    candidate = root.joinpath(*segments)
    try:
        resolved = candidate.resolve(strict=True)
    except (FileNotFoundError, NotADirectoryError):
        raise Refused(HTTPStatus.NOT_FOUND, "no such file") from None
    except (OSError, RuntimeError):  # symlink loops and the like
        raise Refused(HTTPStatus.FORBIDDEN, "cannot resolve the path") from None
    if resolved != root and root not in resolved.parents:
        raise Refused(HTTPStatus.FORBIDDEN, "the path leaves the run directory")
    if not resolved.is_file():
        raise Refused(HTTPStatus.NOT_FOUND, "not a file")
    return resolved


class RunRequestHandler(BaseHTTPRequestHandler):
    server_version = "envirobench-serve"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    root: Path  # set on the subclass made by make_server
    quiet = False

    # -- the two methods served -----------------------------------------------------------------

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self._serve(send_body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._serve(send_body=False)

    # -- everything else is refused ---------------------------------------------------------------

    def _refuse_method(self) -> None:
        self.close_connection = True  # any request body is left unread
        self._error(HTTPStatus.METHOD_NOT_ALLOWED, f"{self.command} is not allowed: this server is read-only", allow=True)

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse_method  # noqa: N815

    # -- helpers ----------------------------------------------------------------------------------

    def _host_allowed(self) -> bool:
        hosts = self.headers.get_all("Host") or []
        if len(hosts) != 1:
            return False
        host = hosts[0].strip().lower()
        port = self.server.server_address[1]
        return host in {f"{HOST}:{port}", f"localhost:{port}"} or (port == 80 and host in {HOST, "localhost"})

    def _serve(self, *, send_body: bool) -> None:
        if not self._host_allowed():
            self._error(HTTPStatus.FORBIDDEN, "unexpected Host header (only 127.0.0.1 and localhost are served)", body=send_body)
            return
        try:
            path = resolve_request_path(self.root, self.path)
        except Refused as exc:
            self._error(exc.status, exc.reason, body=send_body)
            return
        except UnicodeDecodeError:
            self._error(HTTPStatus.BAD_REQUEST, "the path is not valid UTF-8", body=send_body)
            return
        try:
            handle = path.open("rb")
        except OSError:
            self._error(HTTPStatus.NOT_FOUND, "cannot open the file", body=send_body)
            return
        with handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                self._error(HTTPStatus.NOT_FOUND, "not a file", body=send_body)
                return
            ctype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            if ctype.startswith("text/") or ctype in ("application/json", "application/x-ndjson"):
                ctype += "; charset=utf-8"
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(info.st_size))
            self._security_headers()
            self.end_headers()
            if send_body:
                shutil.copyfileobj(handle, self.wfile, 1 << 16)

    def _security_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")

    def _error(self, status: HTTPStatus, reason: str, *, body: bool = True, allow: bool = False) -> None:
        payload = f"{status.value} {status.phrase}: {reason}\n".encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(payload)))
        if allow:
            self.send_header("Allow", ALLOWED_METHODS)
        self._security_headers()
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(payload)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        # Malformed requests and unknown methods (http.server's own errors): plain text, no HTML.
        status = HTTPStatus(code)
        if code == HTTPStatus.NOT_IMPLEMENTED:
            status = HTTPStatus.METHOD_NOT_ALLOWED
            message = f"{self.command} is not allowed: this server is read-only"
        self.close_connection = True
        self._error(status, message or status.phrase, allow=status == HTTPStatus.METHOD_NOT_ALLOWED)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        if not self.quiet:
            super().log_message(format, *args)


class RunServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False  # a port in use must fail loudly, not be shared

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/{REPORT_FILE}"


def make_server(run_dir: Path, port: int = DEFAULT_PORT, *, quiet: bool = False) -> RunServer:
    """A server for `run_dir` bound to 127.0.0.1:port (port 0: any free port). Not started."""
    root = Path(run_dir)
    read_run(root)  # refuses a directory that is not a run
    resolved = root.resolve(strict=True)
    handler = type("BoundRunRequestHandler", (RunRequestHandler,), {"root": resolved, "quiet": quiet})
    try:
        return RunServer((HOST, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise EnviroBenchError(f"port {port} on {HOST} is already in use; choose another with --port N (or --port 0 for any free port)") from None
        if exc.errno == errno.EACCES:
            raise EnviroBenchError(f"no permission to listen on port {port} of {HOST}; choose a port above 1023 with --port N") from None
        raise EnviroBenchError(f"cannot listen on {HOST}:{port}: {exc.strerror}") from None


def serve_in_thread(server: RunServer) -> threading.Thread:
    """Start `server` in a daemon thread (tests); stop it with server.shutdown()."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="envirobench-serve", daemon=True)
    thread.start()
    return thread
