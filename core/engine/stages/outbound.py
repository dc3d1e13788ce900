"""Before a run's first model call, the person's say on what leaves the machine.

Two questions, asked through the run's approvals (so the page shows a card and the terminal
asks, like a command):

- a file that looks like a secret and that the request names (its path or file name occurs
  in the request) is offered once: approved, the gate lets the model see it this run;
- a model served on another machine (its endpoint is not a loopback address; the offline
  model has none) gets, on the first run of a workspace with that endpoint, a card listing
  which files may be sent; the answer is kept per (workspace, endpoint) (``core.store.sent_to``).
  The ``ask_before_sending`` setting off skips it (the broker never asks then).
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Iterable
from typing import Protocol
from urllib.parse import urlsplit

from core.store import sent_to
from core.llm.base import ChatModel
from core.tools.base import ApprovalAction
from core.tools.gate import HELD, Gate

LISTED_AT_MOST = 40
SCANNED_AT_MOST = 40  # files whose content (the beginning) is checked for secrets for the card
SCANNED_BYTES = 64 * 1024


class Approvals(Protocol):
    """What this module needs of ``core.approval.ApprovalBroker``."""

    def needs_asking(self, action: ApprovalAction, detail: str, scope: str = "") -> bool: ...

    async def approve(self, action: ApprovalAction, detail: str, *, scope: str = "",
                      task_id: int = 0, phase_id: int = 0, diff: str = "") -> bool: ...


async def confirm_outbound(gate: Gate, approvals: Approvals, models: Iterable[ChatModel],
                           request: str) -> str:
    """Ask what must be asked before the first call; "" when the run may go on, else why
    it may not (the person did not allow the files to be sent)."""
    await allow_named_secrets(gate, approvals, request)
    for endpoint in remote_endpoints(models):
        if approvals.needs_asking("send", endpoint) \
                and not sent_to.confirmed(gate.root, endpoint):
            detail = await asyncio.to_thread(sending_detail, gate, endpoint)
            if not await approvals.approve("send", detail, scope=f"send:{endpoint}"):
                return (f"the person did not allow this workspace's files to be sent to "
                        f"{host_of(endpoint)}; nothing was sent")
            sent_to.remember(gate.root, endpoint)
    return ""


async def allow_named_secrets(gate: Gate, approvals: Approvals, request: str) -> None:
    """Offer each secret-looking file the request names; the approved ones are allowed."""
    named = await asyncio.to_thread(_named_secrets, gate, request)
    for rel, why in named:
        detail = (f"{rel}: {HELD} ({why}). The request names it: may the model be sent "
                  "its content in this run?")
        if await approvals.approve("read", detail, scope=f"read:{rel}"):
            gate.allow(rel)


def _named_secrets(gate: Gate, request: str) -> list[tuple[str, str]]:
    if not request.strip():
        return []
    named = gate.named(request, [entry.rel for entry in gate.files()])
    return [(rel, why) for rel in named
            if (why := gate.secret(rel, gate.read_bounded(rel, SCANNED_BYTES).text))]


def remote_endpoints(models: Iterable[ChatModel]) -> list[str]:
    """The endpoints of ``models`` on another machine, each once."""
    found: list[str] = []
    for model in models:
        endpoint = (model.capabilities.endpoint or "").rstrip("/")
        if endpoint and not is_local(endpoint) and endpoint not in found:
            found.append(endpoint)
    return found


def host_of(endpoint: str) -> str:
    return urlsplit(endpoint).netloc or endpoint


def is_local(endpoint: str) -> bool:
    """Whether ``endpoint``'s host is this machine (a loopback name or address)."""
    host = (urlsplit(endpoint).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def sending_detail(gate: Gate, endpoint: str) -> str:
    """The card's text: where the model is, and which of the workspace's files it may be
    sent (and which are held back or never sent)."""
    entries = gate.files()
    sent, held = [], []
    for number, entry in enumerate(entries):
        text = gate.read_bounded(entry.rel, SCANNED_BYTES).text if number < SCANNED_AT_MOST \
            else None
        why = gate.secret(entry.rel, text)
        if why:
            held.append(f"  {entry.rel} ({why})")
        else:
            sent.append(f"  {entry.rel} ({entry.size:,} bytes)")
    lines = [f"The model at {host_of(endpoint)} is on another machine. When the run needs "
             f"them, it may be sent the content of these files of {gate.root}:"]
    lines += sent[:LISTED_AT_MOST] or ["  (none)"]
    if len(sent) > LISTED_AT_MOST:
        lines.append(f"  … and {len(sent) - LISTED_AT_MOST:,} more")
    if held:
        lines += ["Held back, as they look like secrets:", *held[:LISTED_AT_MOST]]
    ignored = ".gitignore and .phasedeskignore" if gate.honour_gitignore \
        else ".phasedeskignore"
    lines.append(f"What {ignored} exclude is never sent. You are asked once for this "
                 "workspace and endpoint.")
    return "\n".join(lines)
