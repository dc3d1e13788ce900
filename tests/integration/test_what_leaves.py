"""What leaves the machine (issue 51), with a scripted model on a real workspace: a planted
``.env`` and a ``config.py`` holding a GitHub token never reach a prompt, in either engine, for
a change, a question or a ``read_file`` of them (the model gets the held-back note); what the
``.gitignore`` excludes is never listed or sent; a secret the request names is sent only once
the person approves it; each call's ``LlmCall`` names the files it carried.

The model answers by stage (``StagedModel``), so the scripts hold whatever stages the engines
add or move; what is checked is what the model was sent."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from core.engine.build import create_engine
from core.events import ApprovalRequested, Event
from tests.support.script import authored, files_workspace, judge, of, plan, settings, task
from tests.support.staged_model import StagedModel

OPENAI_KEY = "sk-proj-Xq3vT9bL2mN8pR4sW6yZ1aC5dF7gH0jK2lM4nP6qR8sT0uV"
GITHUB_TOKEN = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12345"
ARTIFACT = "BUILD-ARTIFACT-7731"
LOGGED = "LOG-LINE-5520"
NEVER_SENT = (OPENAI_KEY, GITHUB_TOKEN, ARTIFACT, LOGGED, "debug.log")  # the scripts never
# name debug.log; they do name build/out.txt, to read it
APP = "from config import PORT\n\n\ndef port():\n    return PORT\n"
APP_NEXT = "from config import PORT\n\n\ndef port():\n    return PORT + 1\n"
HELD_ENV = ".env (held back: looks like a secret (named like .env))"
HELD_CONFIG = "config.py (held back: looks like a secret (GitHub Token))"
CHANGE = "Change port() in app.py to return PORT + 1"
READS = (("read_file", {"path": "config.py"}), ("read_file", {"path": ".env"}),
         ("read_file", {"path": "build/out.txt"}),
         ("list_files", {"recursive": True}), ("search_code", {"pattern": "ghp_|sk-|ARTIFACT"}))


@pytest.fixture()
def ws(tmp_path: Path) -> Path:
    return files_workspace(tmp_path, {
        ".env": f"OPENAI_API_KEY={OPENAI_KEY}\n",
        "config.py": f'API_TOKEN = "{GITHUB_TOKEN}"\nPORT = 8000\n',
        "app.py": APP,
        ".gitignore": "build/\n*.log\n",
        "build/out.txt": f"{ARTIFACT}\n",
        "debug.log": f"{LOGGED}\n"})


def run(replies: dict[str, list[dict[str, Any]]], workspace: Path, request: str,
        decision: str = "deny", endpoint: str = "", **values: Any
        ) -> tuple[list[Event], StagedModel]:
    """A run on a model answering by stage (served at ``endpoint``: "" for this machine);
    every approval request is answered ``decision``."""
    model = StagedModel(replies, endpoint)

    async def go() -> list[Event]:
        engine = create_engine(settings(**values), workspace, model=model)
        events = []
        async for event in engine.run(request):
            events.append(event)
            if isinstance(event, ApprovalRequested):
                engine.answer_approval(event.request_id, decision)
        return events

    return asyncio.run(go()), model


def sent(model: StagedModel) -> str:
    """Everything the model was sent, as one text."""
    return "\n".join(json.dumps(request["messages"]) for request in model.requests)


def assert_nothing_leaked(model: StagedModel) -> None:
    text = sent(model)
    assert model.requests
    for secret in NEVER_SENT:
        assert secret not in text


def calls(*specs: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"tool_calls": [{"tool": name, "arguments": args} for name, args in specs]}


def carried(events: list[Event], stage: str) -> list[Any]:
    return [c for c in of(events, "llm_call") if c.stage == stage]


def test_phase_change_request_sends_neither_secrets_nor_ignored_files(ws: Path) -> None:
    events, model = run({"text": [authored(APP_NEXT, "app.py")]}, ws, CHANGE)
    assert (ws / "app.py").read_text() == APP_NEXT
    assert_nothing_leaked(model)
    assert "out.txt" not in sent(model)
    [draft] = [r for r in model.requests if not r["tools"]]
    prompt = draft["messages"][1]["content"]
    assert HELD_ENV in prompt and HELD_CONFIG in prompt and "def port():" in prompt
    [drafted] = carried(events, "author")
    assert drafted.files == [".gitignore", "app.py"]
    assert drafted.held_back == [HELD_ENV, HELD_CONFIG]
    assert of(events, "approval_requested") == []  # nothing named a secret; no remote model


def test_phase_question_and_reads_get_the_held_back_note(ws: Path) -> None:
    events, model = run({
        "text": [{"text": "It uses PORT from config.py."}],
        "plan_tool_call": [plan(*[task(n, name, **args)
                                  for n, (name, args) in enumerate(READS, start=1)])],
        "judge_tasks": [judge([4, 5], [1, 2, 3])],
    }, ws, "Which port does the app use? Look at every file.")
    assert_nothing_leaked(model)
    finished = {e.task_id: e for e in of(events, "task_finished")}
    assert finished[1].error.startswith(HELD_CONFIG) and finished[2].error.startswith(HELD_ENV)
    assert finished[3].error == ("build/out.txt is ignored by .gitignore: PhaseDesk does not "
                                 "read, search or send it")
    listing = finished[4].result.splitlines()
    assert listing == [".env  (71 bytes; held back: looks like a secret (named like .env))",
                       ".gitignore  (13 bytes)", f"app.py  ({len(APP)} bytes)",
                       "config.py  (68 bytes)"]
    assert finished[5].result == (f"no matches for 'ghp_|sk-|ARTIFACT' in .\n"
                                  f"Not shown: {HELD_ENV}; {HELD_CONFIG}.")
    summarizer = json.dumps(model.requests[-1]["messages"])
    assert "def port():" in summarizer  # a question is answered with the files in view
    assert HELD_CONFIG in summarizer
    [judged] = carried(events, "judge")
    assert judged.files == [] and judged.held_back == [HELD_ENV, HELD_CONFIG]


def test_classic_question_and_reads_get_the_held_back_note(ws: Path) -> None:
    events, model = run({"free": [calls(*READS), {"text": "The app uses port 8000."}]}, ws,
                        "Which port does the app use?", use_phase_task=False)
    assert_nothing_leaked(model)
    loop = [r for r in model.requests if len(r["tools"]) > 1]
    results = [m["content"] for m in loop[-1]["messages"] if m["role"] == "tool"]
    assert results[0].startswith(HELD_CONFIG) or HELD_CONFIG in results[0]
    assert HELD_ENV in results[1] and "ignored by .gitignore" in results[2]
    first = loop[0]["messages"][1]["content"]
    assert "def port():" in first and HELD_CONFIG in first
    answered = carried(events, "classic")[-1]
    assert answered.files == [".gitignore", "app.py"]
    assert answered.held_back == [HELD_ENV, HELD_CONFIG]


def test_classic_change_request_drafts_without_secrets(ws: Path) -> None:
    events, model = run({
        "free": [calls(("write_file", {"path": "app.py", "instruction": "return PORT + 1"})),
                 {"text": "port() returns PORT + 1 now."}],
        "text": [authored(APP_NEXT, "app.py")],
    }, ws, CHANGE, use_phase_task=False)
    assert (ws / "app.py").read_text() == APP_NEXT
    assert_nothing_leaked(model)
    [draft] = [r for r in model.requests if not r["tools"]]
    assert HELD_CONFIG in draft["messages"][1]["content"]


@pytest.mark.parametrize("use_phase_task", [True, False])
@pytest.mark.parametrize("decision", ["once", "deny"])
def test_a_secret_the_request_names_is_sent_only_once_approved(
        ws: Path, decision: str, use_phase_task: bool) -> None:
    read = calls(("read_file", {"path": "config.py"}))
    events, model = run({
        "free": [read, {"text": "It sets the token and the port."}],
        "text": [{"text": "It sets the token and the port."}],
        "plan_tool_call": [plan(task(1, "read_file", path="config.py"))],
        "judge_tasks": [judge([1])],
    }, ws, "What is in config.py?", decision, use_phase_task=use_phase_task)
    [asked] = of(events, "approval_requested")
    assert asked.action == "read" and asked.detail.startswith("config.py: held back")
    assert GITHUB_TOKEN not in asked.detail
    assert (GITHUB_TOKEN in sent(model)) is (decision == "once")
    assert OPENAI_KEY not in sent(model)  # .env is not named: it stays held back
    shown = [c for c in of(events, "llm_call") if "config.py" in c.files]
    assert bool(shown) is (decision == "once")


REMOTE = "https://api.example.com/v1"


def test_a_remote_endpoint_asks_once_per_workspace_and_endpoint(ws: Path, tmp_path: Path
                                                                ) -> None:
    question = {"free": [{"text": "Port 8000."}]}
    events, model = run(question, ws, "Which port?", "once", REMOTE, use_phase_task=False)
    [asked] = of(events, "approval_requested")
    assert asked.action == "send"
    lines = asked.detail.splitlines()
    assert lines[0].startswith("The model at api.example.com is on another machine.")
    assert f"  app.py ({len(APP)} bytes)" in lines and "  .gitignore (13 bytes)" in lines
    assert lines[lines.index("Held back, as they look like secrets:") + 1:][:2] == [
        "  .env (named like .env)", "  config.py (GitHub Token)"]
    assert not any("out.txt" in line or "debug.log" in line for line in lines)
    assert model.requests and of(events, "run_finished")[0].status == "completed"

    again, _ = run(question, ws, "Which port?", "once", REMOTE, use_phase_task=False)
    assert of(again, "approval_requested") == []  # once per workspace and endpoint
    other, _ = run(question, ws, "Which port?", "once", "https://other.example.org/v1",
                   use_phase_task=False)
    assert [e.action for e in of(other, "approval_requested")] == ["send"]
    elsewhere = files_workspace(tmp_path / "second", {"a.py": "A = 1\n"})
    third, _ = run(question, elsewhere, "Which port?", "once", REMOTE, use_phase_task=False)
    assert [e.action for e in of(third, "approval_requested")] == ["send"]


@pytest.mark.parametrize("endpoint", ["", "http://127.0.0.1:8080/v1", "http://localhost:11434/v1",
                                      "http://[::1]:8000/v1"])
def test_this_machine_and_the_offline_model_are_not_asked(ws: Path, endpoint: str) -> None:
    events, model = run({"free": [{"text": "Port 8000."}]}, ws, "Which port?", "deny",
                        endpoint, use_phase_task=False)
    assert of(events, "approval_requested") == []
    assert of(events, "run_finished")[0].status == "completed"


def test_the_setting_skips_the_question(ws: Path) -> None:
    events, _ = run({"free": [{"text": "Port 8000."}]}, ws, "Which port?", "deny", REMOTE,
                    use_phase_task=False, ask_before_sending=False)
    assert of(events, "approval_requested") == []
    assert of(events, "run_finished")[0].status == "completed"


@pytest.mark.parametrize("use_phase_task", [True, False])
def test_a_refusal_sends_nothing_and_ends_the_run(ws: Path, use_phase_task: bool) -> None:
    events, model = run({"free": [{"text": "Port 8000."}]}, ws, "Which port?", "deny",
                        REMOTE, use_phase_task=use_phase_task)
    assert model.requests == []  # not even the request
    finished = of(events, "run_finished")[0]
    assert finished.status == "failed" and finished.llm_calls == 0
    summary = of(events, "summary")[0]
    assert summary.generated_by == "fallback"
    assert "did not allow this workspace's files to be sent to api.example.com" in \
        summary.final_summary
    again, _ = run({"free": [{"text": "Port 8000."}]}, ws, "Which port?", "once", REMOTE,
                   use_phase_task=use_phase_task)
    assert [e.action for e in of(again, "approval_requested")] == ["send"]  # asked again


def test_a_commands_output_holds_back_the_lines_that_look_like_secrets(ws: Path) -> None:
    """``cat .env`` is not read through the gate: its output is, line by line, before the
    model or the page sees it."""
    events, model = run({
        "text": [{"text": "It uses PORT from config.py."}],
        "plan_tool_call": [plan(task(1, "run_command", command="cat .env config.py"))],
        "judge_tasks": [judge([1])],
    }, ws, "Show me the settings.", decision="approve", command_approval="auto")
    assert_nothing_leaked(model)
    [command] = [e for e in of(events, "task_finished") if e.tool == "run_command"]
    assert command.status == "done"
    assert "[held back: looks like a secret" in command.result and "PORT = 8000" in command.result
    assert OPENAI_KEY not in command.result and GITHUB_TOKEN not in command.result
