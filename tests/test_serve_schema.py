"""`varroom serve`: the OpenAPI schema, fuzzed with schemathesis: no input gives a 500."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402

from varroom.serve import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KANE = ROOT / "examples" / "tottenham-sporting-2022-kane.json"
TOKEN = "schema-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _runner(provider: str, files: Any, progress: Any) -> list[Any]:
    progress(1.0)
    return [json.loads(KANE.read_text())]


def _app(tmp: Path) -> Any:
    app = create_app(None, TOKEN, tmp, audit_runner=_runner)
    # Something to find: situation 1, with a decision, so that ids 1 lead somewhere.
    room = app.state.room
    room.queue.add(json.loads(KANE.read_text()), "kane.json")
    renderer = room.pictures.renderer
    renderer._loaded = True  # pictures are tested elsewhere: keep the fuzzing fast
    renderer._render = None
    return app


def _picture_bytes(extension: str) -> st.SearchStrategy[bytes]:
    """What a still upload may hold: a real picture, its first bytes and noise, or noise alone.

    Registered for the media types the still endpoint reads: schemathesis 4.32.0 and older
    have no serializer for image/png or image/jpeg, and its own samples never reach the
    decoder's error paths with a real header. (A real 64x36 picture found that the player
    suggestion crashed the room.)
    """
    ok, encoded = cv2.imencode(extension, np.full((36, 64, 3), 90, np.uint8))
    assert ok
    real = encoded.tobytes()
    return st.one_of(
        st.just(real),
        st.binary(max_size=64).map(lambda tail: real[:16] + tail),
        st.binary(max_size=64),
    )


schemathesis.openapi.media_type("image/png", _picture_bytes(".png"))
schemathesis.openapi.media_type("image/jpeg", _picture_bytes(".jpg"))

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import tempfile

    _DATA = Path(tempfile.mkdtemp(prefix="varroom-schema-"))
    APP = _app(_DATA)
    # The event stream never ends by design (it is tested by a browser in
    # test_live_room_e2e.py): a fuzzer's request to it would wait for ever.
    schema = schemathesis.openapi.from_asgi("/openapi.json", APP).exclude(path="/api/events")


@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_input_makes_the_server_fail(case: Any) -> None:
    response = case.call(headers=AUTH)
    case.validate_response(response, checks=[not_a_server_error])


@schema.include(
    method="POST", path_regex=r"^/api/(situations/\{situation_id\}/|audits)"
).parametrize()
@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_body_for_a_real_situation_makes_the_server_fail(case: Any) -> None:
    # The same, with the id of a situation that exists and a provider that does, so that
    # the fuzzed facts, decisions and uploads reach the code behind the checks.
    if case.path_parameters and "situation_id" in case.path_parameters:
        case.path_parameters["situation_id"] = 1
    if case.operation.path == "/api/audits" and isinstance(case.body, dict):
        case.body["provider"] = "tracab"
        if isinstance(case.body.get("files"), list):
            case.body["roles"] = ["raw_data"] * len(case.body["files"])
    response = case.call(headers=AUTH)
    case.validate_response(response, checks=[not_a_server_error])
