# Sourced by bin/demo and bin/test: make sure uv exists and the workspace is installed.
# Works on a fresh Debian machine with Python >= 3.11; installs nothing outside the repository
# except uv's cache (uv itself goes into .tools/ when it is not already on PATH).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if command -v uv >/dev/null 2>&1; then
    UV="$(command -v uv)"
else
    if [ ! -x "$ROOT/.tools/bin/uv" ]; then
        echo "bootstrap: installing uv into .tools/" >&2
        python3 -m venv "$ROOT/.tools"
        "$ROOT/.tools/bin/pip" install --quiet --disable-pip-version-check uv
    fi
    UV="$ROOT/.tools/bin/uv"
fi
export UV_PYTHON="${UV_PYTHON:-python3}"
# --frozen: install exactly what uv.lock pins; generated datasets are byte-reproducible only then.
"$UV" sync --frozen --quiet
# uv goes on PATH too: tests make fresh virtual environments with it.
export PATH="$ROOT/.venv/bin:$(dirname "$UV"):$PATH"
