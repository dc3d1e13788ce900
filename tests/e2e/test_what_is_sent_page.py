"""What leaves the machine, in the real window and page: the LLM-calls view lists per call the
files whose content it sent and those held back; a model on another machine asks once per
workspace and endpoint (a card listing the files), never for this machine or the offline
model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from core import config
from core.config import Settings
from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import click, count, js, submit, texts, wait_js
from tests.e2e.scripted_runs import ScriptedFactory
from tests.support.script import authored
from tests.support.staged_model import StagedModel

pytestmark = pytest.mark.gui
FINISHED = "document.querySelectorAll('.run-footer').length === {n}"
TOKEN = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12345"
REMOTE = "https://api.example.com/v1"
ASKED_TO_SEND = "🔐 The agent wants to send this workspace's files to a model on another machine"


class StagedFactory(ScriptedFactory):
    """Each run gets a ``StagedModel`` answering ``replies`` by stage, served at ``endpoint``."""

    def __init__(self, replies: dict[str, list[dict[str, Any]]], endpoint: str = "") -> None:
        super().__init__()
        self.replies = replies
        self.endpoint = endpoint
        self.staged: list[StagedModel] = []

    def make_model(self, settings: Settings) -> Any:
        model = StagedModel(self.replies, self.endpoint)
        self.staged.append(model)
        return model


@pytest.fixture
def planted(workspace: Path) -> Path:
    (workspace / "app.py").write_text("from config import PORT\n", encoding="utf-8")
    (workspace / "keys.py").write_text(f'API_TOKEN = "{TOKEN}"\n', encoding="utf-8")
    (workspace / ".env").write_text("SECRET=x\n", encoding="utf-8")
    (workspace / ".gitignore").write_text("build/\n", encoding="utf-8")
    (workspace / "build").mkdir()
    (workspace / "build" / "out.txt").write_text("artifact\n", encoding="utf-8")
    return workspace


def test_the_llm_calls_view_lists_the_files_each_call_carried(
        qtbot: QtBot, make_window: WindowMaker, planted: Path) -> None:
    factory = StagedFactory({"text": [authored("PORT = 8080\n", "config.py")]})
    window = make_window(factory)
    submit(qtbot, window, "Set PORT to 8080 in config.py")
    wait_js(qtbot, window, FINISHED.format(n=1))
    assert (planted / "config.py").read_text() == "PORT = 8080\n"
    calls = factory.last.of("llm_call")
    drafted = [c for c in calls if c.stage == "author"]
    assert drafted and drafted[0].files == [".gitignore", "app.py", "config.py"]
    assert TOKEN not in str(factory.staged[0].requests)

    click(qtbot, window, ".calls-toggle")
    rows = js(qtbot, window, "Array.from(document.querySelectorAll('.call')).map(c => ["
                             "(c.querySelector('.call-files') || {}).textContent || '',"
                             "(c.querySelector('.call-held') || {}).textContent || ''])")
    assert rows == [[f"📄 {', '.join(c.files[:3])}" if c.files else "",
                     "🔒 held back: " + ", ".join(n.split(" (")[0] for n in c.held_back)
                     if c.held_back else ""] for c in calls]
    assert rows[calls.index(drafted[0])] == ["📄 .gitignore, app.py, config.py",
                                             "🔒 held back: .env, keys.py"]
    click(qtbot, window, ".call-head", calls.index(drafted[0]))
    assert texts(qtbot, window, ".call.open .call-sent-files li") == [
        ".gitignore", "app.py", "config.py"]
    assert texts(qtbot, window, ".call.open .call-held-files li") == [
        ".env (held back: looks like a secret (named like .env))",
        "keys.py (held back: looks like a secret (GitHub Token))"]
    assert "out.txt" not in js(qtbot, window, "document.querySelector('.calls').innerText")


def test_a_remote_model_asks_once_per_workspace_and_endpoint(
        qtbot: QtBot, make_window: WindowMaker, planted: Path) -> None:
    config.save(config.from_mapping({"use_phase_task": False}))
    factory = StagedFactory({"free": [{"text": "Port 8000."}]}, REMOTE)
    window = make_window(factory)
    submit(qtbot, window, "Which port?")
    wait_js(qtbot, window, "document.querySelector('.approval button') !== null")
    assert texts(qtbot, window, ".approval-head") == [ASKED_TO_SEND]
    detail = js(qtbot, window, "document.querySelector('.approval-detail').textContent")
    assert detail.startswith("The model at api.example.com is on another machine.")
    assert "  app.py (24 bytes)" in detail and "  keys.py (GitHub Token)" in detail
    assert "out.txt" not in detail and TOKEN not in detail
    assert factory.staged[0].requests == []  # nothing is sent before the answer
    click(qtbot, window, ".approval [data-decision=\"once\"]")
    wait_js(qtbot, window, FINISHED.format(n=1))
    assert texts(qtbot, window, ".approval-answer") == ["Approved once"]
    assert factory.staged[0].requests

    submit(qtbot, window, "Which port, again?")
    wait_js(qtbot, window, FINISHED.format(n=2))
    assert count(qtbot, window, ".approval") == 1  # the same workspace and endpoint: not again

    factory.endpoint = "https://other.example.org/v1"
    submit(qtbot, window, "Which port, elsewhere?")
    wait_js(qtbot, window, "document.querySelectorAll('.approval').length === 2")
    click(qtbot, window, ".approval:not(.resolved) [data-decision=\"deny\"]")
    wait_js(qtbot, window, FINISHED.format(n=3))
    assert factory.staged[2].requests == []  # refused: nothing was sent
    assert "did not allow this workspace's files to be sent to other.example.org" in js(
        qtbot, window, "document.querySelectorAll('.run')[2].innerText")


@pytest.mark.parametrize("endpoint", ["http://127.0.0.1:8080/v1", ""])
def test_this_machine_and_the_offline_model_are_never_asked(
        qtbot: QtBot, make_window: WindowMaker, planted: Path, endpoint: str) -> None:
    config.save(config.from_mapping({"use_phase_task": False}))
    factory = StagedFactory({"free": [{"text": "Port 8000."}]}, endpoint)
    window = make_window(factory)
    submit(qtbot, window, "Which port?")
    wait_js(qtbot, window, FINISHED.format(n=1))
    assert count(qtbot, window, ".approval") == 0
    assert factory.staged[0].requests
