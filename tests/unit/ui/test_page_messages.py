"""The page protocol is closed: the page switches on exactly the kinds Python sends (engine
events and the window's own messages), each message has one JSON shape, and the page's copy
of the outcome wording is the Python table's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import shiboken6

from core.events import EVENT_TYPES, PROGRESS_TYPES
from core.tools.checkpoint import UndoReport
from core.shapes.wording import (ENDING_WORDS, OUTCOME_WORDING, PRIORITY_LEVELS, STAGE_LABELS,
                                 outcome_chip, outcome_text, priority_label)
from ui.bridge import Bridge
from ui.page_messages import (PAGE_MESSAGE_TYPES, UiClear, UiContext, UiMessage, UiState,
                              UiSubmitted, UiUndo, to_dict)

WEB = Path(__file__).resolve().parents[3] / "ui" / "web"


def js_object(source: str, name: str) -> str:
    """The body of ``const NAME = { … };`` in a page script."""
    match = re.search(rf"const {name} = \{{(.*?)\n  \}};", source, re.S)
    assert match, f"no {name} in the script"
    return match.group(1)


def test_the_page_handles_exactly_the_kinds_python_sends() -> None:
    handlers = js_object((WEB / "app.js").read_text(encoding="utf-8"), "HANDLERS")
    page_kinds = set(re.findall(r"^\s*(\w+):", handlers, re.M))
    python_kinds = set(EVENT_TYPES) | set(PROGRESS_TYPES) | set(PAGE_MESSAGE_TYPES)
    assert page_kinds == python_kinds
    assert not set(PAGE_MESSAGE_TYPES) & (set(EVENT_TYPES) | set(PROGRESS_TYPES))
    assert all(kind.startswith("ui_") for kind in PAGE_MESSAGE_TYPES)


def test_every_call_the_page_makes_is_a_slot_of_the_bridge() -> None:
    """No dead button: each ``PD.call("slot", …)`` in the page names a slot Python has."""
    calls = set()
    for script in WEB.glob("*.js"):
        calls |= set(re.findall(r'PD\.call\("(\w+)"', script.read_text(encoding="utf-8")))
    calls |= {"ready"}  # bridge.js reports ready on the channel itself
    meta = Bridge.staticMetaObject
    slots = {bytes(meta.method(i).name()).decode() for i in range(meta.methodOffset(),
                                                                  meta.methodCount())
             if meta.method(i).methodType() == meta.method(i).MethodType.Slot}
    assert {"retry_run", "submit", "approve"} <= calls
    assert calls <= slots, calls - slots


def test_each_message_has_its_kind_first_and_its_fields() -> None:
    assert to_dict(UiClear()) == {"kind": "ui_clear"}
    assert list(to_dict(UiMessage("warning", "Choose a workspace"))) == ["kind", "level", "message"]
    context = to_dict(UiContext(workspace="/w", provider="openai", model="m", engine="classic",
                                thinking=""))
    assert context == {"kind": "ui_context", "workspace": "/w", "provider": "openai",
                       "model": "m", "engine": "classic", "thinking": "", "demo": False,
                       "workspace_missing": False}
    assert to_dict(UiSubmitted(False, "hello")) == {"kind": "ui_submitted", "accepted": False,
                                                    "text": "hello"}
    report = UndoReport("r1", True, "done", restored=["a.py"], deleted=["new.md"])
    assert to_dict(UiUndo.answer("r1", "done", "Changes undone.", report, path="a.py",
                                 run_undone=True)) == {
        "kind": "ui_undo", "run_id": "r1", "status": "done", "message": "Changes undone.",
        "restored": ["a.py"], "deleted": ["new.md"], "path": "a.py", "run_undone": True}
    assert to_dict(UiUndo.answer("r1", "cancelled"))["restored"] == []


def test_the_bridge_sends_a_message_and_an_engine_event_as_json() -> None:
    bridge = Bridge()
    received: list[str] = []
    bridge.event.connect(received.append)
    bridge.ready("{}")
    bridge.send(UiMessage("info", "Settings saved."))
    bridge.send({"kind": "notice", "level": "info", "message": "from the engine"})
    assert [json.loads(text) for text in received] == [
        {"kind": "ui_message", "level": "info", "message": "Settings saved."},
        {"kind": "notice", "level": "info", "message": "from the engine"}]


def test_a_bridge_whose_window_closed_drops_what_a_run_still_sends() -> None:
    """A run ending after its window closed (Stop at exit, the smoke run's deadline) sends
    its last state to a deleted bridge: dropped, never a RuntimeError out of the run."""
    bridge = Bridge()
    bridge.ready("{}")
    shiboken6.delete(bridge)
    bridge.send(UiState("idle"))
    bridge.send({"kind": "notice", "level": "info", "message": "late"})
    assert not shiboken6.isValid(bridge)


def test_the_page_words_outcomes_endings_priorities_and_stages_as_the_python_tables_do(
        ) -> None:
    summary = (WEB / "summary.js").read_text(encoding="utf-8")
    outcomes = re.findall(r'(\w+): \["([\w-]+)", "([^"]+)", "([^"]+)"\]',
                          js_object(summary, "OUTCOMES"))
    assert {key: (badge, emoji, label) for key, badge, emoji, label in outcomes} == {
        outcome: (w.badge, w.emoji, w.label) for outcome, w in OUTCOME_WORDING.items()}
    endings = dict(re.findall(r'(\w+): "([^"]+)"', js_object(summary, "ENDINGS")))
    assert endings == ENDING_WORDS
    stages = dict(re.findall(r'(\w+): "([^"]+)"',
                             js_object((WEB / "stage.js").read_text(encoding="utf-8"), "LABELS")))
    assert stages == STAGE_LABELS
    cards = (WEB / "cards.js").read_text(encoding="utf-8")
    levels = re.search(r"const PRIORITY_LEVELS = (\[.*?\]);\n", cards)
    assert levels and json.loads(levels.group(1)) == [
        [low, f"{name} · {word}"] for low, name, word in PRIORITY_LEVELS]
    assert outcome_text("partial") == "◐ Partly done"
    assert outcome_text("failed", emoji=True) == "❌ Failed"
    assert outcome_text("") == outcome_text("unheard of") == ""
    assert outcome_chip("unverified", "unverified", "not verified") == "○ Done · not verified"
    assert outcome_chip("succeeded", "verified", "12 tests pass", emoji=True) == \
        "✅ Succeeded · 12 tests pass"
    assert outcome_chip("failed", "unverified", "not verified") == "✗ Failed"
    assert [priority_label(v) for v in (10, 8, 5, 1, "x")] == [
        "P1 · highest", "P2 · high", "P3 · normal", "P4 · low", "P3 · normal"]