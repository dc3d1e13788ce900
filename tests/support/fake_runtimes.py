"""Local HTTP fakes of the OpenAI-compatible runtimes people run (loopback only).

Each fake is a ``FakeOpenAI`` whose "model" is a script of stage replies keyed by what it
was asked for: the tool named in ``tool_choice``, the one tool offered with ``"required"``,
the schema named in ``response_format``, the function a prompted instruction names, or
``"auto"`` for a free call (the classic loop). What differs is how each runtime delivers
what the model meant, as seen on the real servers:

- ``openai``: honours named and ``"required"`` choices and ``response_format``; strict about
  the history (a tool turn must answer a call, every call must be answered: else HTTP 400).
- ``vllm``: the same, without the strictness.
- ``llama_server``: an object ``tool_choice`` is ignored (treated as ``"auto"``) and the
  model writes its call as text (double braces, a fenced block, ``<tool_call>`` tags); under
  ``"required"`` it writes the call and runs on in newlines to ``max_tokens``
  (``finish_reason: length``); ``response_format`` json_schema is honoured; tool-call
  arguments in the history that are not JSON get HTTP 500.
- ``ollama``: ``tool_choice`` is ignored: a forced call comes back as prose, while a free
  call with many tools gets real tool calls; ``response_format`` is honoured.
- ``no_tools``: any request with ``tools`` gets HTTP 400 "Unsupported param: tools";
  ``response_format`` is ignored (the model wraps its JSON in prose).

A scripted reply may carry ``"as_text": true`` (the model writes that call as text even
where the runtime would have enforced it) or ``"native": true`` (a real tool call even on
a runtime that writes calls as text). ``{"fault": "hang"}`` holds the reply until the
client closes the connection (recorded in ``closed_by_client``) or ``hang_s`` passes.
"""

from __future__ import annotations

import json
import re
import select
import socket
import threading
import time
from typing import Any

from core.llm.forcing_text import FUNCTIONS_MARKER, STAGE_MARKER
from tests.support.fake_openai import FakeOpenAI, _drop
from tests.support.fault_replies import first_call

RUNTIMES = ("openai", "vllm", "llama_server", "ollama", "no_tools")
EXPECTED_STRATEGY = {"openai": "named", "vllm": "named", "llama_server": "json_schema",
                     "ollama": "json_schema", "no_tools": "prompted"}
Reply = dict[str, Any]
_PROMPTED = re.compile(re.escape(STAGE_MARKER) + r" `(\w+)`")
PROSE = "Sure! I will take care of that right away and let you know how it goes."


def asked(body: dict[str, Any]) -> tuple[str, str]:
    """(how the request asks, the stage it asks for)."""
    tools = body.get("tools") or []
    choice = body.get("tool_choice")
    names = [t.get("function", {}).get("name", "") for t in tools]
    if tools and isinstance(choice, dict):
        return "named", str(choice.get("function", {}).get("name", "?"))
    if tools and len(tools) == 1:
        return ("required" if choice == "required" else "single"), names[0]
    if tools:
        return "auto", "auto"
    form = body.get("response_format") or {}
    if form.get("type") == "json_schema":
        return "json_schema", str(form.get("json_schema", {}).get("name", "?"))
    messages = body.get("messages") or []
    last = str(messages[-1].get("content", "")) if messages else ""
    found = _PROMPTED.search(last)
    if found:
        return "prompted", found.group(1)
    if any(FUNCTIONS_MARKER in str(m.get("content", "")) for m in messages):
        return "auto_text", "auto"
    return "plain", "plain"


def call_text(name: str, arguments: dict[str, Any], form: str) -> str:
    call = json.dumps({"name": name, "arguments": arguments})
    return {"braces": "{" + call + "}", "fenced": f"```json\n{call}\n```",
            "tags": f"<tool_call>\n{call}\n</tool_call>",
            "prose": f"Here is the call:\n```json\n{call}\n```\nLet me know."}.get(form, call)


def history_problem(runtime: str, messages: list[dict[str, Any]]) -> tuple[int, str] | None:
    """The HTTP error a runtime answers this history with, if any."""
    open_calls: set[str] = set()
    for message in messages:
        role = message.get("role")
        if runtime == "openai" and role != "tool" and open_calls:
            return 400, "an assistant message with 'tool_calls' must be followed by tool messages"
        if role == "tool" and runtime == "openai":
            if message.get("tool_call_id") not in open_calls:
                return 400, "messages with role 'tool' must be a response to a preceding tool_calls"
            open_calls.discard(message.get("tool_call_id"))
        for call in message.get("tool_calls") or []:
            if runtime == "llama_server":
                try:
                    json.loads(call["function"]["arguments"] or "{}")
                except ValueError:
                    return 500, "Failed to parse tool call arguments as JSON"
            open_calls.add(call.get("id", ""))
    return None


class FakeRuntime(FakeOpenAI):
    def __init__(self, runtime: str, stages: dict[str, list[Reply]], **kwargs: Any) -> None:
        if runtime not in RUNTIMES:
            raise ValueError(f"unknown runtime {runtime!r}")
        super().__init__(stages=stages, **kwargs)
        self.runtime = runtime
        self.closed_by_client = threading.Event()

    def _next(self, body: dict[str, Any], headers: dict[str, str], path: str
              ) -> tuple[dict[str, Any], int, str, int]:
        mode, stage = asked(body)
        with self._lock:
            nth = self._seen[stage] = self._seen.get(stage, 0) + 1
            meant = self._meant(stage, advance=False)
            reply = self.deliver(body, mode, meant)
            if "error" not in reply and reply.get("text") != PROSE:
                self._meant(stage, advance=True)
            self.requests.append({"path": path, "body": body, "headers": headers, "mode": mode,
                                  "stage": stage, "reply": reply, "fault": reply.get("fault", ""),
                                  "at": time.monotonic()})
            return reply, len(self.requests), stage, nth

    def _meant(self, stage: str, advance: bool) -> Reply:
        if stage == "plain":
            return {"text": "pong"}
        return self._normal(stage, advance)

    def deliver(self, body: dict[str, Any], mode: str, meant: Reply) -> Reply:
        """What the runtime sends back for the reply the model meant."""
        runtime = self.runtime
        if runtime == "no_tools" and body.get("tools"):
            return {"error": {"status": 400, "message": "Unsupported param: tools"}}
        problem = history_problem(runtime, body.get("messages") or [])
        if problem is not None:
            return {"error": {"status": problem[0], "message": problem[1]}}
        call = first_call(meant)
        if call is None or "fault" in meant or "error" in meant:
            return meant
        if meant.get("native"):
            return {k: v for k, v in meant.items() if k != "native"}
        arguments = call.get("arguments", {})
        raw = call.get("raw_arguments")
        as_json = raw if raw is not None else json.dumps(arguments)
        if mode == "json_schema":
            return {"text": "Here it is: " + as_json if runtime == "no_tools" else as_json}
        if mode in ("prompted", "auto_text"):
            form = {"prompted": "fenced", "auto_text": "tags"}[mode]
            return {"text": call_text(call["tool"], arguments, form)}
        if mode == "plain":
            return meant
        if meant.get("as_text"):
            return {"text": call_text(call["tool"], arguments, "prose")}
        if runtime == "llama_server":
            if mode == "required":
                newlines = "\n" * 2000
                return {"text": call_text(call["tool"], arguments, "fenced") + newlines,
                        "finish_reason": "length",
                        "usage": {"prompt_tokens": 100,
                                  "completion_tokens": int(body.get("max_tokens") or 9000)}}
            form = "braces" if len(self.requests) % 2 else "fenced"
            return {"text": call_text(call["tool"], arguments, form)}
        if runtime == "ollama" and mode in ("named", "required", "single"):
            return {"text": PROSE}
        return meant

    def respond(self, handler: Any, reply: dict[str, Any], number: int,
                stream: tuple[bool, ...] = ()) -> None:
        if reply.get("fault") != "hang":
            super().respond(handler, reply, number, stream)
            return
        connection: socket.socket = handler.connection
        deadline = time.monotonic() + self.hang_s
        while time.monotonic() < deadline and not self._closing.is_set():
            readable, _, _ = select.select([connection], [], [], 0.05)
            if readable:
                try:
                    if connection.recv(1, socket.MSG_PEEK) == b"":
                        self.closed_by_client.set()
                        break
                except OSError:
                    self.closed_by_client.set()
                    break
        _drop(handler, reset=False)
