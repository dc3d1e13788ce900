"""A model call's reply while it is written: the part a person reads, sent as ``StageDelta``.

A forced stage streams its tool-call arguments (JSON); the person reads one string field
of them — the summary, the judge's and Think's line — so that field is read out of the
unfinished JSON as it grows. A text answer (the classic loop) is shown as it is. Pieces
arrive per token; the relay sends what is new at most every ``INTERVAL_S`` (and once more
when a pause follows), so the page is not flooded.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Callable

from core.events import Event, StageDelta

INTERVAL_S = 0.05
MAX_SHOWN_CHARS = 20_000
# The argument each stage shows while it is written, in order of preference.
SHOWN_FIELDS: dict[str, tuple[str, ...]] = {
    "request_analyser": ("core_goal",),
    "phase_planner": ("execution_strategy",),
    "plan": ("reasoning",),
    "judge": ("user_summary",),
    "think": ("next_round_strategy", "user_summary"),
    "summarizer": ("final_summary",),
}
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def partial_string(arguments: str, name: str) -> str | None:
    """The value of the top-level-looking string field ``name`` in unfinished JSON: what was
    written of it so far (None while its value has not begun)."""
    found = re.search(r'"' + re.escape(name) + r'"\s*:\s*"', arguments)
    if found is None:
        return None
    out: list[str] = []
    i, end = found.end(), len(arguments)
    while i < end:
        char = arguments[i]
        if char == '"':
            break
        if char != "\\":
            out.append(char)
            i += 1
            continue
        if i + 1 >= end:
            break
        code = arguments[i + 1]
        if code == "u":
            digits = arguments[i + 2:i + 6]
            if len(digits) < 4:
                break
            try:
                out.append(chr(int(digits, 16)))
            except ValueError:
                break
            i += 6
            continue
        out.append(_ESCAPES.get(code, code))
        i += 2
    return "".join(out)


class DeltaRelay:
    """Receives one call's pieces (``feed`` is a ``CallOptions.on_delta``) and emits the shown
    field as ``StageDelta`` events, coalesced; ``close`` ends it (nothing is sent after)."""

    def __init__(self, stage: str, emit: Callable[[Event], None]) -> None:
        self.stage = stage
        self.emit = emit
        self.fields = SHOWN_FIELDS.get(stage, ())
        self.text = ""
        self.arguments = ""
        self.sent = ""
        self.field = ""
        self._last = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False

    def feed(self, kind: str, piece: str) -> None:
        if self._closed or not piece:
            return
        if kind == "text":
            self.text += piece
        else:
            self.arguments += piece
        wait = self._last + INTERVAL_S - time.monotonic()
        if wait <= 0:
            self._send()
        elif self._timer is None:
            try:
                self._timer = asyncio.get_running_loop().call_later(wait, self._send)
            except RuntimeError:  # no loop in this thread: the next piece sends it
                pass

    def shown(self) -> tuple[str, str]:
        """(field, text) a person should see now; ("", "") when there is nothing yet."""
        for name in self.fields:
            value = partial_string(self.arguments, name)
            if value:
                return name, value
        if self.text.strip() and (not self.fields or not self.arguments):
            return "text", self.text
        return "", ""

    def _send(self) -> None:
        self._timer = None
        if self._closed:
            return
        self._last = time.monotonic()
        field, text = self.shown()
        text = text[:MAX_SHOWN_CHARS]
        if not field or (field, text) == (self.field, self.sent):
            return
        self.field, self.sent = field, text
        self.emit(StageDelta(stage=self.stage, field=field, text=text))

    def close(self) -> None:
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

