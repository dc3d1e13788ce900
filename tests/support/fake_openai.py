"""A local OpenAI-compatible HTTP server for protocol and fault tests (loopback only).

It serves replies in the scripted-model format, one per POST to
``/v1/chat/completions``, and records every request body. A reply may carry a
``fault`` instead: ``{"fault": "reset"}`` and friends (see ``FAULTS``).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FAULTS = ("reset", "hang", "truncated", "retry_after", "oversized", "empty_choices", "not_json")


def completion_body(reply: dict[str, Any], number: int) -> dict[str, Any]:
    calls = reply.get("tool_calls") or ([reply] if "tool" in reply else [])
    tool_calls = []
    for i, spec in enumerate(calls):
        arguments = spec["raw_arguments"] if "raw_arguments" in spec else json.dumps(
            spec.get("arguments", {}))
        tool_calls.append({"id": f"call_{number}_{i}", "type": "function",
                           "function": {"name": spec["tool"], "arguments": arguments}})
    message: dict[str, Any] = {"role": "assistant", "content": reply.get("text")}
    if tool_calls:
        message["tool_calls"] = tool_calls
    usage = reply.get("usage", {"prompt_tokens": 100, "completion_tokens": 20})
    return {"id": f"chatcmpl-{number}", "object": "chat.completion", "created": int(time.time()),
            "model": "fake-model",
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if tool_calls else "stop"}],
            "usage": {**usage, "total_tokens": sum(usage.values())}}


class FakeOpenAI:
    def __init__(self, replies: list[dict[str, Any]], hang_s: float = 5.0) -> None:
        self.replies = list(replies)
        self.requests: list[dict[str, Any]] = []
        self.hang_s = hang_s
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return None

            def do_POST(self) -> None:  # noqa: N802 (http.server naming)
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server.requests.append({"path": self.path, "body": body,
                                            "headers": dict(self.headers)})
                    number = len(server.requests)
                    reply = server.replies.pop(0) if server.replies else {
                        "error": {"status": 500, "message": "no scripted reply left"}}
                server.respond(self, reply, number)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> "FakeOpenAI":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()

    def respond(self, handler: BaseHTTPRequestHandler, reply: dict[str, Any], number: int) -> None:
        fault = reply.get("fault")
        if fault == "reset":
            handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                          b"\x01\x00\x00\x00\x00\x00\x00\x00")
            handler.connection.close()
            return
        if fault == "hang":
            time.sleep(self.hang_s)
            handler.close_connection = True
            return
        if "error" in reply:
            status = int(reply["error"].get("status", 500))
            headers = {"Retry-After": str(reply["retry_after"])} if "retry_after" in reply else {}
            self._send(handler, status, {"error": {"message": reply["error"].get("message", ""),
                                                   "type": "server_error"}}, headers)
            return
        body = completion_body(reply, number)
        if fault == "empty_choices":
            body["choices"] = []
        raw = json.dumps(body).encode()
        if fault == "truncated":
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(raw)))
            handler.end_headers()
            handler.wfile.write(raw[: len(raw) // 2])
            handler.wfile.flush()
            handler.close_connection = True
            handler.connection.shutdown(socket.SHUT_RDWR)
            return
        if fault == "not_json":
            raw = b"<html>bad gateway</html>"
        self._send_raw(handler, 200, raw, {})

    def _send(self, handler: BaseHTTPRequestHandler, status: int, body: dict[str, Any],
              headers: dict[str, str]) -> None:
        self._send_raw(handler, status, json.dumps(body).encode(), headers)

    @staticmethod
    def _send_raw(handler: BaseHTTPRequestHandler, status: int, raw: bytes,
                  headers: dict[str, str]) -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(raw)))
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(raw)
