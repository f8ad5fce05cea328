"""tools/serve_check.py, which make dist and the docs' command test use for `varroom serve`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import ROOT

SCRIPT = ROOT / "tools" / "serve_check.py"


def test_a_server_that_exits_fails_the_check_with_its_log(tmp_path: Path) -> None:
    crashing = [sys.executable, "-c", "import sys; print('cannot bind'); sys.exit(3)"]
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *crashing],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 1
    assert "the server exited with 3" in result.stderr
    assert "cannot bind" in result.stderr


def test_no_command_is_a_usage_error(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT)], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 2


# A stand-in for `varroom serve`: /api/health answers 401 without `Bearer TOKEN`, TOKEN from
# --token, else VARROOM_TOKEN, else one nobody was told.
TOKEN_SERVER = """
import http.server, os, sys
args = sys.argv[1:]
token = args[args.index("--token") + 1] if "--token" in args else os.environ.get(
    "VARROOM_TOKEN", "untold"
)
class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.headers.get("Authorization") == f"Bearer {token}"
        self.send_response(200 if ok else 401)
        self.end_headers()
        self.wfile.write(b'{"ok": true}' if ok else b"{}")
port = int(args[args.index("--port") + 1])
http.server.HTTPServer(("127.0.0.1", port), Health).serve_forever()
"""


def test_the_health_check_brings_the_rooms_token_and_a_refusal_fails_at_once(
    tmp_path: Path,
) -> None:
    def check(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(SCRIPT), sys.executable, "-c", TOKEN_SERVER, *args],
            cwd=tmp_path,
            env={"PATH": "/usr/bin:/bin", **env},
            capture_output=True,
            text=True,
            check=False,
            timeout=30,  # well under the 60 s the check waits for a server that never answers
        )

    assert check("--token", "sekret").returncode == 0
    assert check(VARROOM_TOKEN="sekret").returncode == 0
    refused = check()
    assert refused.returncode == 1 and "/api/health answered 401" in refused.stderr
