"""Stills: upload a broadcast picture, mark it, judge it, save the marks, decide (docs/still.md).

The page is /still; its calls are under /api/stills. Marks are the still-marks format
(`shared/spec/still.md`); a fault in them is a 422 with the JSON path of the mark to correct.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Query, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from starlette.concurrency import run_in_threadpool

from varroom.serve.dependencies import ExpectedVersion, RoomDep, SituationId, facts_tag
from varroom.serve.json_input import CheckedJsonRoute
from varroom.serve.schemas import DecisionIn, raw_body, responses
from varroom.serve.service.stills import MEDIA_TYPES, Stills, pitch_points, verdict_out

router = APIRouter(tags=["stills"])
_marked = APIRouter(tags=["stills"], route_class=CheckedJsonRoute)

StillId = SituationId  # the same range of ids
Towards = Annotated[Literal["+x", "-x"], Query(description="the direction attacked")]
Marks = Annotated[
    dict[str, Any], Body(description="still marks (shared/spec/still.md), in the still's pixels")
]
PNG: dict[int | str, dict[str, Any]] = {200: {"content": {"image/png": {}}, "description": "PNG"}}


def get_stills(room: RoomDep) -> Stills:
    return Stills.of(room)


StillsDep = Annotated[Stills, Depends(get_stills)]


def _sign(towards: str) -> float:
    return 1.0 if towards == "+x" else -1.0


def _tagged(detail: dict[str, Any], response: Response) -> dict[str, Any]:
    if detail["facts_version"] is not None:
        response.headers["etag"] = facts_tag(detail["facts_version"])
    return detail


@router.get("/api/stills/pitch-points", responses=responses(422))
def landmarks_to_click(towards: Towards = "+x") -> list[dict[str, Any]]:
    """The pitch model's landmarks, named, with their pitch points: what a click can mark."""
    return pitch_points(_sign(towards))


@router.post(
    "/api/stills",
    status_code=201,
    responses=responses(413, 415, 422),
    openapi_extra=raw_body(
        {t: {"schema": {"type": "string", "format": "binary"}} for t in MEDIA_TYPES}
    ),
)
async def add_still(
    request: Request,
    stills: StillsDep,
    filename: Annotated[str | None, Query(max_length=300, description="for display only")] = None,
) -> JSONResponse:
    """Upload a still (PNG or JPEG, as the body): 201 with its id and size."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    body = await request.body()
    detail = await run_in_threadpool(stills.add, body, media_type, filename)
    return JSONResponse(
        detail, status_code=201, headers={"location": f"/api/stills/{detail['id']}"}
    )


@router.get("/api/stills/{still_id}", responses=responses(404, 422))
def get_still(still_id: StillId, stills: StillsDep, response: Response) -> dict[str, Any]:
    """The still, its incident and the marks saved last; the ETag names the incident's facts
    version (send it as If-Match to save marks or decide)."""
    return _tagged(stills.detail(still_id), response)


@router.get(
    "/api/stills/{still_id}/image",
    response_class=FileResponse,
    responses={**responses(404, 422), 200: {"content": {t: {} for t in MEDIA_TYPES}}},
)
def still_image(still_id: StillId, stills: StillsDep) -> FileResponse:
    """The still as uploaded."""
    path, media_type = stills.image(still_id)
    return FileResponse(path, media_type=media_type, headers={"cache-control": "private"})


@router.get(
    "/api/stills/{still_id}/suggestions",
    responses={
        **responses(404, 422),
        202: {"description": "computing: ask again after Retry-After"},
    },
)
def suggestions(
    still_id: StillId, stills: StillsDep, response: Response, towards: Towards = "+x"
) -> dict[str, Any]:
    """Landmarks and players suggested by OpenCV (`available` false without it). Computed
    once per still, in the room's worker: until then 202, `{"state": "computing"}`, to be
    asked again after `Retry-After` seconds."""
    found = stills.suggest(still_id, _sign(towards))
    if found is None:
        response.status_code = 202
        response.headers["retry-after"] = "1"
        return {"state": "computing"}
    return found


@_marked.post("/api/stills/{still_id}/verdict", responses=responses(404, 422))
def judge_marks(still_id: StillId, marks: Marks, stills: StillsDep) -> dict[str, Any]:
    """The verdict the marks give (`varroom still --json`), with each mark on the pitch.
    Nothing is stored."""
    return verdict_out(*stills.judge(still_id, marks))


@_marked.post(
    "/api/stills/{still_id}/picture.png",
    response_class=Response,
    responses={**responses(404, 422), **PNG},
)
def picture(still_id: StillId, marks: Marks, stills: StillsDep) -> Response:
    """The still with the true offside line the marks give (`varroom still --image`)."""
    return Response(
        stills.picture(still_id, marks),
        media_type="image/png",
        headers={"cache-control": "no-store"},
    )


@_marked.put("/api/stills/{still_id}/marks", responses=responses(404, 409, 422))
def save_marks(
    still_id: StillId,
    marks: Marks,
    stills: StillsDep,
    expected: ExpectedVersion,
    response: Response,
) -> dict[str, Any]:
    """Judge the marks and keep them with the still's incident (queued at the first save).
    Without If-Match only the first save is taken; with it (the still's ETag), only while the
    incident is at that version: any other save, a second first save included, is 409 with
    `facts_version`, the version to load."""
    return _tagged(stills.save(still_id, marks, expected), response)


@_marked.post(
    "/api/stills/{still_id}/decisions",
    status_code=201,
    responses={**responses(404, 409, 422), 200: {"description": "already recorded"}},
)
def decide(
    still_id: StillId,
    entry: DecisionIn,
    stills: StillsDep,
    expected: ExpectedVersion,
    response: Response,
) -> dict[str, Any]:
    """Append a decision on the still's incident (If-Match required): the entry, with the
    marks it was judged on."""
    decision, created = stills.decide(still_id, entry, expected)
    if not created:
        response.status_code = 200
    return decision


@router.get("/api/stills/{still_id}/decisions", responses=responses(404, 422))
def decisions(still_id: StillId, stills: StillsDep) -> list[dict[str, Any]]:
    """The decisions on the still's incident, oldest first, each with its marks."""
    return stills.decisions(still_id)


router.include_router(_marked)
