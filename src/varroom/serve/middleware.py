"""The guard: pure ASGI middleware in front of everything.

- Host: without a token, only loopback names are served (no DNS rebinding).
- /api: a bearer token when one is set (401); a cross-site Origin on a write (403);
  bodies over the size limit (413), by Content-Length or by counting as they arrive, the
  rest of the body read and dropped before the connection closes; bodies that stall (408).
- Security headers and an `X-Request-Id` on every response; /api answers are never cached.
- An error no handler answered is logged with the request id and answered as a JSON 500
  that says nothing of the code or the server's files.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.datastructures import Headers

from varroom.serve.config import Limits

log = logging.getLogger("varroom.serve")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# How long the rest of a refused body is read (and dropped) before the connection closes.
# Closed with the client's bytes unread, a socket sends a reset, which can reach the client
# before the 413 and take it away (as nginx's lingering close avoids).
LINGER_S = 30.0

SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' blob: data:; style-src 'self'; "
        b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
        b"base-uri 'none'; form-action 'none'",
    ),
)


class _Exchange:
    """One request's way out: adds the security headers, and can refuse in the JSON error
    shape unless the answer has begun (then it only stops sending)."""

    def __init__(self, send: Send, api: bool) -> None:
        self._send = send
        self.api = api
        self.request_id = uuid.uuid4().hex[:16]
        self.started = False
        self.done = False

    async def send(self, message: Message) -> None:
        if self.done:
            return
        if message["type"] == "http.response.start":
            self.started = True
            headers = [
                (k, v)
                for k, v in message.get("headers", [])
                if not (self.api and k.lower() == b"cache-control")
            ]
            headers.extend(SECURITY_HEADERS)
            headers.append((b"x-request-id", self.request_id.encode()))
            if self.api:
                headers.append((b"cache-control", b"no-store"))
            message["headers"] = headers
        await self._send(message)

    async def refuse(
        self,
        status: int,
        error: str,
        more: tuple[tuple[bytes, bytes], ...] = (),
        rest: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Answer `status` and end the exchange; with `rest`, the answer is sent whole but
        ends only once `rest` has read what the client still sends of its body."""
        if self.started:
            self.done = True
            return
        body = json.dumps({"error": error}).encode()
        await self.send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                    *more,
                ],
            }
        )
        await self.send({"type": "http.response.body", "body": body, "more_body": rest is not None})
        if rest is not None:
            await rest()
            await self.send({"type": "http.response.body", "body": b""})
        self.done = True


class Guard:
    def __init__(
        self,
        app: ASGIApp,
        token: str | None,
        allowed_hosts: tuple[str, ...] | None,
        limits: Limits,
    ) -> None:
        self.app = app
        self.token = token.encode() if token else None
        self.allowed_hosts = allowed_hosts
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        api = path == "/api" or path.startswith("/api/")
        headers = Headers(scope=scope)
        exchange = _Exchange(send, api)
        host = host_name(headers.get("host", ""))
        if self.allowed_hosts is not None and host not in self.allowed_hosts:
            await exchange.refuse(
                400, f"this server answers to {', '.join(self.allowed_hosts)} only"
            )
            return
        if not api:
            await self._answer(scope, receive, exchange)
            return
        refusal = self._refusal(scope["method"], headers)
        if refusal is not None:
            await exchange.refuse(*refusal)
            return
        limit = (
            self.limits.audit_bytes
            if path.startswith("/api/audits")
            else self.limits.still_bytes
            if path == "/api/stills"
            else self.limits.situation_bytes
        )
        expects_continue = headers.get("expect", "").lower() == "100-continue"
        await self._within(
            limit, scope, receive, exchange, headers.get("content-length"), expects_continue
        )

    def _refusal(
        self, method: str, headers: Headers
    ) -> tuple[int, str, tuple[tuple[bytes, bytes], ...]] | None:
        """Why an /api request is refused before it is read, or None."""
        # Without a token the browser's own cookies-free requests are the only credential:
        # refuse writes that another site's page makes (its Origin is not ours, or "null").
        origin = headers.get("origin")
        if (
            self.token is None
            and origin
            and method not in ("GET", "HEAD", "OPTIONS")
            and host_port(origin) != headers.get("host", "").lower()
        ):
            return 403, "cross-site request refused", ()
        if self.token is not None and not self._authorised(headers.get("authorization", "")):
            return (
                401,
                "this review room needs its token: Authorization: Bearer <token>",
                ((b"www-authenticate", b'Bearer realm="varroom"'),),
            )
        return None

    async def _within(
        self,
        limit: int,
        scope: Scope,
        receive: Receive,
        exchange: _Exchange,
        length: str | None,
        expects_continue: bool,
    ) -> None:
        """Pass the request on while its body stays under `limit` bytes; 413 beyond."""
        too_large = f"request body over the limit of {limit} bytes"
        timeout_s = self.limits.read_timeout_s

        async def rest() -> None:
            try:
                async with asyncio.timeout(LINGER_S):
                    while True:
                        message = await asyncio.wait_for(receive(), timeout_s)
                        if message["type"] != "http.request" or not message.get("more_body"):
                            return
            except TimeoutError:
                return

        # A client that waits for "100 Continue" sends no body after a 413: none to read.
        after_413 = None if expects_continue else rest
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await exchange.refuse(400, "bad Content-Length")
                return
            if declared > limit:
                await exchange.refuse(413, too_large, rest=after_413)
                return
        received = 0
        body_read = False

        async def counted_receive() -> Message:
            nonlocal received, body_read
            if exchange.done:
                return {"type": "http.disconnect"}
            if body_read:  # now only a disconnect can come, however late: no timeout
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), timeout_s)
            except TimeoutError:
                await exchange.refuse(408, f"the request body stalled for {timeout_s:g} s")
                return {"type": "http.disconnect"}
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                body_read = not message.get("more_body", False)
                if received > limit:
                    await exchange.refuse(413, too_large, rest=None if body_read else after_413)
                    return {"type": "http.disconnect"}
            return message

        await self._answer(scope, counted_receive, exchange)

    async def _answer(self, scope: Scope, receive: Receive, exchange: _Exchange) -> None:
        """The application's answer; a JSON 500 (logged with the request id) if it fails."""
        try:
            await self.app(scope, receive, exchange.send)
        except Exception:
            if exchange.done:  # refused already (413): what failed was reading on
                return
            log.exception(
                "request %s (%s %s) failed", exchange.request_id, scope["method"], scope["path"]
            )
            await exchange.refuse(
                500, f"internal error: the server's log has it as request {exchange.request_id}"
            )

    def _authorised(self, header: str) -> bool:
        assert self.token is not None
        scheme, _, given = header.partition(" ")
        if scheme.lower() != "bearer":
            return False
        return hmac.compare_digest(given.strip().encode(), self.token)


def host_name(host: str) -> str:
    """The name in a Host header, without its port (IPv6 without brackets)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def host_port(origin: str) -> str:
    """An Origin's host:port, to compare with the Host header."""
    origin = origin.strip().lower()
    return origin.split("://", 1)[1] if "://" in origin else origin
