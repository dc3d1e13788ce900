"""The one-shot baseline: one plain model call per task, its whole files applied, then checked.

The call has no tools, no grammar and no JSON: the prompt holds the request and the
workspace's text files (``core.engine.authoring.draft``: the same prompt the engines' drafts send), the reply is read for fenced blocks, each the
whole content of one file, which are written into a fresh copy of the workspace
(``oneshot_apply``, read as the engines read their drafts); the task's checker then judges that copy, with the reply as the run's
summary (a question is answered in the reply's text). It is what the model does alone, the
bar the engines' rows are measured against.

The model is made as the engines' runs make theirs (``core.llm.factory.make_model`` with the
same settings the runner's flags give a headless run); a replies file (``--model-script``)
gives each task's call the file's first reply. What a run leaves in ``OUT/oneshot/TASK/``:
``prompt.json`` (the messages and ``max_tokens``), ``reply.txt``, ``replies.json`` (the reply
as a model script, so ``--model-script OUT`` replays it), ``oneshot.json`` (the call's tokens,
wall time and finish reason, and what was written, left unchanged or refused), ``summary.txt``,
``check.txt`` and the final ``workspace/``.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.evals.engine_run import ModelChoice, Progress, RunResult
from bench.evals.oneshot_apply import Applied, apply_reply
from core.engine.authoring.draft import oneshot_messages, reply_tokens
from core.tools.text_files import collect
from bench.evals.suite import Task, check
from core.config import Settings
from core.llm.base import CallOptions, ChatModel, ModelError, Reply, reply_to_script
from core.llm.factory import make_model
from core.llm.scripted import ScriptedModel, ScriptError

ENGINE = "oneshot"


class OneShotModels:
    """The model each task's call goes to: one endpoint client or one embedded model for the
    whole suite (the embedded file is loaded once), or each task's replies file."""

    def __init__(self, choice: ModelChoice) -> None:
        self.choice = choice
        self._shared: ChatModel | None = None

    def model_for(self, task: Task) -> ChatModel:
        if self.choice.script:
            script = Path(self.choice.script)
            if script.is_dir():
                script = script / ENGINE / task.name / "replies.json"
            return ScriptedModel.from_file(script)
        if self._shared is None:
            self._shared = make_model(self._settings())
        return self._shared

    def _settings(self) -> Settings:
        if self.choice.gguf:
            return Settings(provider="embedded", gguf=self.choice.gguf)
        return Settings(provider="openai", base_url=self.choice.base_url,
                        model=self.choice.model, api_key=self.choice.api_key or "none")

    async def aclose(self) -> None:
        if self._shared is not None:
            await self._shared.aclose()


async def run_oneshot(task: Task, models: OneShotModels, out_root: Path, *, timeout_s: float,
                      on_event: Progress) -> RunResult:
    """One call for ``task``, its blocks applied to a fresh workspace copy, then the checker."""
    out = out_root / ENGINE / task.name
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    result = RunResult(task.name, ENGINE, output=str(out), stages=[ENGINE])
    with tempfile.TemporaryDirectory(prefix=f"phasedesk-oneshot-{task.name}-") as scratch:
        workspace = task.prepare(Path(scratch) / "workspace")
        listing = collect(workspace)
        messages = oneshot_messages(task.request, listing)
        max_tokens = reply_tokens(listing)
        _save_json(out / "prompt.json", {"messages": messages, "max_tokens": max_tokens})
        reply, record = await _call(models, task, messages, max_tokens, timeout_s, result)
        on_event(result, {"kind": "llm_call", "stage": ENGINE,
                          "prompt_tokens": result.prompt_tokens})
        text = (reply.text or "") if reply else ""
        if reply is not None:
            applied = apply_reply(text, workspace, listing, task.request)
            _settle(result, applied, record)
            (out / "reply.txt").write_text(text, encoding="utf-8")
            _save_json(out / "replies.json", {"replies": [_scripted(reply)]})
        _save_json(out / "oneshot.json", record)
        summary_file = out / "summary.txt"
        summary_file.write_text(text, encoding="utf-8")
        verdict = check(task, workspace, summary_file)
        result.passed, result.check = verdict.passed, verdict.message
        (out / "check.txt").write_text(("PASS: " if verdict.passed else "FAIL: ")
                                       + verdict.message + "\n", encoding="utf-8")
        shutil.copytree(workspace, out / "workspace",
                        ignore=shutil.ignore_patterns("__pycache__"))
    return result


def _ignored(kind: str, piece: str) -> None:
    """The streamed reply's pieces: the baseline reads only the whole reply."""


async def _call(models: OneShotModels, task: Task, messages: list[dict[str, Any]],
                max_tokens: int, timeout_s: float,
                result: RunResult) -> tuple[Reply | None, dict[str, Any]]:
    """The one call; ``result`` gets its status, tokens and wall time."""
    record: dict[str, Any] = {"max_tokens": max_tokens}
    result.calls = 1
    started = time.monotonic()
    try:
        model = models.model_for(task)
        loaded_before = getattr(model, "load_seconds", None)
        # streamed, as the engines' calls are: a long reply is then not cut off by the
        # client's request timeout where the engine's draft of the same prompt is not
        options = CallOptions(max_tokens=max_tokens, temperature=0.0, on_delta=_ignored)
        reply = await asyncio.wait_for(model.complete(messages, [], None, options), timeout_s)
    except (ModelError, ScriptError) as error:
        result.status, result.note = "model error", str(error)
    except TimeoutError:
        result.status = "timeout"
        result.note = f"the call took longer than {timeout_s:.0f} s; nothing written"
    else:
        wall = time.monotonic() - started
        load = getattr(model, "load_seconds", None)
        if loaded_before is None and load is not None:  # the embedded file's one-time load
            wall -= load
            record["model_load_s"] = round(load, 1)
        result.wall_s = round(wall, 1)
        result.status = "completed"
        result.prompt_tokens = reply.usage.prompt_tokens
        result.completion_tokens = reply.usage.completion_tokens
        result.cached_tokens = reply.usage.cached_tokens
        record.update(wall_s=result.wall_s, finish_reason=reply.finish_reason,
                      prompt_tokens=result.prompt_tokens,
                      completion_tokens=result.completion_tokens,
                      cached_tokens=result.cached_tokens,
                      estimated_tokens=reply.usage.estimated)
        return reply, record
    result.wall_s = round(time.monotonic() - started, 1)
    record.update(wall_s=result.wall_s, error=result.note)
    return None, record


def _settle(result: RunResult, applied: Applied, record: dict[str, Any]) -> None:
    count = len(applied.written)
    result.outcome = (f"wrote {count} file{'s' if count != 1 else ''}" if count
                      else "wrote nothing")
    result.note = applied.note
    if record.get("finish_reason") == "length":
        result.note = "; ".join(filter(None, [f"the reply reached max_tokens "
                                               f"({record['max_tokens']})", result.note]))
    record.update(written=applied.written, unchanged=applied.unchanged, refused=applied.refused)


def _scripted(reply: Reply) -> dict[str, Any]:
    scripted = reply_to_script(reply)
    scripted["usage"] = {"prompt_tokens": reply.usage.prompt_tokens,
                         "completion_tokens": reply.usage.completion_tokens,
                         "cached_tokens": reply.usage.cached_tokens}
    return scripted


def _save_json(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
