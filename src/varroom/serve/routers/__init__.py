"""The review room's routes, one module per resource; `ROUTERS` in the order they mount."""

from __future__ import annotations

from fastapi import APIRouter

from varroom.serve.routers import (
    audits,
    decisions,
    export,
    facts,
    health,
    page,
    pictures,
    situations,
)

ROUTERS: tuple[APIRouter, ...] = (
    page.router,
    health.router,
    situations.router,
    pictures.router,
    facts.router,
    decisions.router,
    export.router,
    audits.router,
)
