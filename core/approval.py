"""Asking the person before a command runs or a file is written.

Policy comes from settings (``command_approval``: ask | allowlist | auto;
``write_approval``: ask | auto); MCP tools ask whenever their server's policy says so
(the MCP tool manager decides that and only calls here when it asks); sending a file that
looks like a secret ("read") is always asked, and sending the workspace's files to a model
on another machine ("send", ``core/engine/stages/outbound.py``) unless ``ask_before_sending``
is off. Asking emits ``ApprovalRequested`` and waits, with the task paused, until the front
end calls ``answer``; "run" approves that kind of action — or, for MCP, that one tool — for the
rest of the run. Cancelling the run denies whatever is pending.
"""

from __future__ import annotations

import asyncio
import shlex
import uuid
from typing import Callable

from core.config import Settings
from core.events import ApprovalRequested, ApprovalResolved, Event
from core.tools.base import ApprovalAction

DECISIONS: tuple[str, ...] = ("once", "run", "deny")
SHELL_OPERATORS = set(";&|`$<>(){}\n")


def allowlisted(command: str, allowlist: str) -> bool:
    """True when the command is one simple command whose first word is allow-listed."""
    if any(ch in SHELL_OPERATORS for ch in command):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    allowed = {w.strip() for w in allowlist.split(",") if w.strip()}
    return bool(words) and words[0] in allowed


class ApprovalBroker:
    def __init__(self, settings: Settings, emit: Callable[[Event], None]) -> None:
        self._settings = settings
        self._emit = emit
        self._pending: dict[str, asyncio.Future[str]] = {}
        self._approved_for_run: set[str] = set()

    def needs_asking(self, action: ApprovalAction, detail: str, scope: str = "") -> bool:
        if (scope or action) in self._approved_for_run:
            return False
        if action in ("mcp", "read"):
            return True
        if action == "send":
            return self._settings.ask_before_sending
        if action == "write":
            return self._settings.write_approval == "ask"
        policy = self._settings.command_approval
        if policy == "auto":
            return False
        return not (policy == "allowlist" and allowlisted(detail, self._settings.command_allowlist))

    async def approve(self, action: ApprovalAction, detail: str, *, scope: str = "",
                      task_id: int = 0, phase_id: int = 0, diff: str = "") -> bool:
        if not self.needs_asking(action, detail, scope):
            return True
        request_id = uuid.uuid4().hex[:12]
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        self._emit(ApprovalRequested(request_id=request_id, action=action, detail=detail,
                                     task_id=task_id, phase_id=phase_id, diff=diff))
        try:
            decision = await future
        finally:
            self._pending.pop(request_id, None)
        self._emit(ApprovalResolved(request_id=request_id, decision=decision))  # type: ignore[arg-type]
        if decision == "run":
            self._approved_for_run.add(scope or action)
        return decision != "deny"

    def answer(self, request_id: str, decision: str) -> bool:
        """Resolve a pending request; False when it is unknown, already answered or invalid."""
        future = self._pending.get(request_id)
        if future is None or future.done() or decision not in DECISIONS:
            return False
        future.set_result(decision)
        return True

    @property
    def pending(self) -> list[str]:
        return list(self._pending)
