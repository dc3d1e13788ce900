"""A local OpenAI-compatible HTTP server for protocol and fault tests (loopback only).

Replies are in the scripted-model format. They come either from one list, one per POST
(``FakeOpenAI(replies)``), or per stage (``FakeOpenAI(stages={...})``): a request's stage
is the tool it forces (``request_stage``), or ``"auto"``; each stage has a queue of
replies whose last one repeats. ``Inject`` puts a fault (see ``FAULTS``) on chosen
requests of a stage; a reply may also carry ``{"fault": NAME}`` itself. Every request is
recorded with its stage, the fault it got and when it arrived. A hang never outlasts
``hang_s`` nor the server, and the server shuts itself down after ``lifetime_s``.
``on_request(stage, number)`` runs before each reply (to change the world mid-run).
``GET /v1/models`` lists ``models`` (answered 404, as a server without the route, when it
is None); the paths of GET requests are kept in ``gets``.
A request that asks to stream (``"stream": true``) gets its reply as server-sent events,
paced by the reply's ``"stream": {"piece": chars, "delay_s": seconds}``; with
``streams=False`` the server answers such requests whole, as endpoints that cannot stream do;
with ``stream_usage=False`` its streams never report the usage.
Faults are sent the same way whether or not the request asked to stream.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from core.llm.probe import PROBE_ANSWER, PROBE_TOOL
from tests.support.fault_replies import CONTENT_FAULTS, completion_body, completion_chunks, \
    content_fault

TRANSPORT_FAULTS = ("http_500", "http_429", "timeout", "reset", "truncated", "truncated_sse",
                    "not_json", "empty_choices", "down")
FAULTS = TRANSPORT_FAULTS + CONTENT_FAULTS
RST = b"\x01\x00\x00\x00\x00\x00\x00\x00"  # SO_LINGER on, 0 s: close() sends a reset


@dataclass(frozen=True)
class Inject:
    """``fault`` on requests ``at`` … ``at + times - 1`` of ``stage`` (counted from 1)."""

    stage: str
    fault: str
    at: int = 1
    times: int = 2

    def hits(self, stage: str, number: int) -> bool:
        return stage == self.stage and self.at <= number < self.at + self.times


_REFUSING: list[socket.socket] = []


def refused_url() -> str:
    """A loopback base URL on a port nobody listens on (connection refused).

    The port stays bound, never listening, for the rest of the test process: a port only
    probed and let go can be handed to the next server that binds port 0 (a fake server
    started right after got the "down" endpoint's requests on CI)."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    _REFUSING.append(holder)
    return f"http://127.0.0.1:{holder.getsockname()[1]}/v1"


def request_stage(body: dict[str, Any]) -> str:
    """The stage a request forces: the tool named in ``tool_choice``, the one tool offered
    with ``"required"``, or the schema named in ``response_format`` (a run steps down to
    these when replies ignore the named choice); else ``"auto"``."""
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        return str(choice.get("function", {}).get("name", "?"))
    tools = body.get("tools") or []
    if choice == "required" and len(tools) == 1:
        return str(tools[0].get("function", {}).get("name", "?"))
    form = body.get("response_format") or {}
    if form.get("type") == "json_schema":
        return str(form.get("json_schema", {}).get("name", "?"))
    return "auto"


class FakeOpenAI:
    def __init__(self, replies: list[dict[str, Any]] | None = None, *,
                 stages: dict[str, list[dict[str, Any]]] | None = None,
                 inject: list[Inject] | tuple[Inject, ...] = (), hang_s: float = 5.0,
                 retry_after: float = 1, lifetime_s: float = 120.0,
                 on_request: Callable[[str, int], None] | None = None,
                 streams: bool = True, stream_usage: bool = True,
                 models: list[str] | None = None) -> None:
        self.replies = list(replies or [])
        self.models = models
        self.gets: list[str] = []
        self.stages = {name: list(queue) for name, queue in (stages or {}).items()}
        self.inject = list(inject)
        self.requests: list[dict[str, Any]] = []
        self.hang_s = hang_s
        self.retry_after = retry_after
        self.on_request = on_request
        self.streams = streams
        self.stream_usage = stream_usage
        self._seen: dict[str, int] = {}
        self._lock = threading.Lock()
        self._closing = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return None

            def do_POST(self) -> None:  # noqa: N802 (http.server naming)
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                reply, number, stage, nth = server._next(body, dict(self.headers), self.path)
                if server.on_request is not None:
                    server.on_request(stage, nth)
                streamed = bool(body.get("stream")) and server.streams
                usage = server.stream_usage and bool(
                    (body.get("stream_options") or {}).get("include_usage"))
                server.respond(self, reply, number, stream=(usage,) if streamed else ())

            def do_GET(self) -> None:  # noqa: N802 (http.server naming)
                server.gets.append(self.path)
                if server.models is None or self.path.rstrip("/") != "/v1/models":
                    _send(self, 404, json.dumps({"error": {"message": "Not found"}}).encode(),
                          {"Content-Type": "application/json"})
                    return
                listed = [{"id": name, "object": "model", "created": 0, "owned_by": "fake"}
                          for name in server.models]
                _send(self, 200, json.dumps({"object": "list", "data": listed}).encode(),
                      {"Content-Type": "application/json"})

        self._server = _QuietServer(("127.0.0.1", 0), Handler)
        self._address = self._server.server_address[:2]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._timer = threading.Timer(lifetime_s, self.close)
        self._timer.daemon = True
        self._stopped = False

    @property
    def base_url(self) -> str:
        host, port = self._address
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop serving (idempotent); any hanging reply is released at once."""
        self._closing.set()
        self._timer.cancel()
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        self._stop_listening()
        self._server.shutdown()
        self._server.server_close()

    def _stop_listening(self) -> None:
        """Refuse new connections at once (a listening socket shut down refuses them)."""
        try:
            self._server.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _next(self, body: dict[str, Any], headers: dict[str, str], path: str
              ) -> tuple[dict[str, Any], int, str, int]:
        """(reply, request number, stage, the stage's request number) for one request."""
        stage = request_stage(body)
        with self._lock:
            nth = self._seen[stage] = self._seen.get(stage, 0) + 1
            rule = next((i for i in self.inject if i.hits(stage, nth)), None)
            normal = self._normal(stage, advance=rule is None)
            if rule is None:
                reply = normal
            elif rule.fault in CONTENT_FAULTS:
                reply = content_fault(rule.fault, stage, normal)
            else:
                reply = {"fault": rule.fault}
            self.requests.append({"path": path, "body": body, "headers": headers,
                                  "stage": stage, "fault": reply.get("fault", "") or
                                  (rule.fault if rule else ""), "at": time.monotonic()})
            return reply, len(self.requests), stage, nth

    def _normal(self, stage: str, advance: bool) -> dict[str, Any]:
        queue = self.stages.get(stage)
        if stage == PROBE_TOOL and not queue:  # an endpoint probe: the model honours it
            return {"tool": PROBE_TOOL, "arguments": PROBE_ANSWER}
        if queue:
            return queue.pop(0) if advance and len(queue) > 1 else queue[0]
        if self.replies:
            return self.replies.pop(0) if advance else self.replies[0]
        return {"error": {"status": 500, "message": "no scripted reply left"}}

    def respond(self, handler: BaseHTTPRequestHandler, reply: dict[str, Any], number: int,
                stream: tuple[bool, ...] = ()) -> None:
        """Answer one request; ``stream`` is ``(include_usage,)`` for a streamed answer."""
        fault = reply.get("fault", "")
        if fault in ("timeout", "hang"):
            self._closing.wait(self.hang_s)
            _drop(handler, reset=False)
            return
        if fault == "down":
            self._stop_listening()
            threading.Thread(target=self.close, daemon=True).start()
            _drop(handler, reset=True)
            return
        if fault == "http_500":
            reply = {"error": {"status": 500, "message": "upstream model crashed"}}
        elif fault == "http_429":
            reply = {"error": {"status": 429, "message": "slow down"},
                     "retry_after": self.retry_after}
        if "error" in reply:
            status = int(reply["error"].get("status", 500))
            headers = {"Retry-After": str(reply["retry_after"])} if "retry_after" in reply else {}
            raw = json.dumps({"error": {"message": reply["error"].get("message", ""),
                                        "type": "server_error"}}).encode()
            _send(handler, status, raw, headers)
            return
        if stream and not fault:
            self._stream(handler, number, completion_chunks(reply, number, usage=stream[0]),
                         float((reply.get("stream") or {}).get("delay_s", 0))
                         if isinstance(reply.get("stream"), dict) else 0.0)
            return
        body = completion_body(reply, number)
        if fault == "empty_choices":
            body["choices"] = []
        raw = b"<html>bad gateway</html>" if fault == "not_json" else json.dumps(body).encode()
        if fault in ("reset", "truncated"):
            _send_head(handler, 200, {"Content-Length": str(len(raw))})
            handler.wfile.write(raw[: len(raw) // 2])
            handler.wfile.flush()
            _drop(handler, reset=fault == "reset")
        elif fault == "truncated_sse":
            _send_head(handler, 200, {"Content-Type": "text/event-stream",
                                      "Transfer-Encoding": "chunked"})
            event = b"data: " + raw[:60]
            handler.wfile.write(b"%x\r\n%s" % (len(event) + 200, event))
            handler.wfile.flush()
            _drop(handler, reset=False)
        else:
            _send(handler, 200, raw, {})


    def _stream(self, handler: BaseHTTPRequestHandler, number: int,
                chunks: list[dict[str, Any]], pause_s: float) -> None:
        """Server-sent events in HTTP chunks, ``pause_s`` between them. The request's record
        gets ``chunks`` (how many), ``sent`` (how many went out: fewer when the client went
        away) and ``ended`` once the server is done with it."""
        record = self.requests[number - 1]
        record.update(chunks=len(chunks), sent=0)
        _send_head(handler, 200, {"Content-Type": "text/event-stream",
                                  "Transfer-Encoding": "chunked", "Cache-Control": "no-cache"})
        events = [b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks]
        try:
            for event in events + [b"data: [DONE]\n\n"]:
                handler.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
                handler.wfile.flush()
                record["sent"] = min(record["sent"] + 1, len(chunks))
                if pause_s and self._closing.wait(pause_s):
                    break
            handler.wfile.write(b"0\r\n\r\n")
            handler.wfile.flush()
        except OSError:  # the client went away (Stop)
            handler.close_connection = True
        finally:
            record["ended"] = True


class _QuietServer(ThreadingHTTPServer):
    """Connections the faults cut on purpose are not errors worth a traceback."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        return None


def _send_head(handler: BaseHTTPRequestHandler, status: int, headers: dict[str, str]) -> None:
    handler.send_response(status)
    headers = {"Content-Type": "application/json", **headers}
    for name, value in headers.items():
        handler.send_header(name, value)
    handler.end_headers()


def _send(handler: BaseHTTPRequestHandler, status: int, raw: bytes,
          headers: dict[str, str]) -> None:
    _send_head(handler, status, {"Content-Length": str(len(raw)), **headers})
    handler.wfile.write(raw)


def _drop(handler: BaseHTTPRequestHandler, reset: bool) -> None:
    """End the connection without (the rest of) a reply: a FIN, or a reset."""
    handler.close_connection = True
    try:
        handler.wfile.flush()
        if not reset:
            handler.connection.shutdown(socket.SHUT_RDWR)
            return
        handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RST)
        handler.rfile.close()
        handler.wfile.close()
        handler.connection.close()
    except OSError:
        pass
