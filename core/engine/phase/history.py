"""What a phase's history keeps of its own stage calls, so that later calls are not sent the
same things twice.

Every call of a phase after the first is sent the phase's history. A Plan call's arguments
list the round's tool calls, which the history then holds anyway as the executed calls with
their results: once the round has run, the Plan call and its acknowledgement leave it. A
judge's verdict stays, without its next tasks (they run as the next round's calls, where
the history shows them) and without its verdicts on tasks it found done (the results show
them; a verdict that a task failed or did only part of its work is kept).
"""

from __future__ import annotations

import json

from core.llm.base import Message

PLAN_TOOL = "plan_tool_call"


def _called(message: Message) -> str:
    calls = message.get("tool_calls") or []
    return calls[0]["function"]["name"] if message.get("role") == "assistant" and calls else ""


def drop_plan_call(messages: list[Message]) -> None:
    """Remove the Plan call and its acknowledgement that end ``messages``, if they do."""
    if len(messages) >= 2 and _called(messages[-2]) == PLAN_TOOL \
            and messages[-1].get("role") == "tool":
        del messages[-2:]


def trim_verdict(message: Message) -> None:
    """The judge's call ``message`` without its next tasks and its verdicts on tasks it found
    done (in place); arguments that are not a JSON object are left as they are."""
    function = (message.get("tool_calls") or [{}])[0].get("function") or {}
    try:
        arguments = json.loads(function.get("arguments") or "")
    except ValueError:
        return
    if not isinstance(arguments, dict):
        return
    arguments.pop("next_tasks", None)
    verdicts = arguments.get("task_evaluation")
    if isinstance(verdicts, list):
        kept = [v for v in verdicts if not (isinstance(v, dict) and v.get("status") == "done")]
        if kept:
            arguments["task_evaluation"] = kept
        else:
            arguments.pop("task_evaluation")
    function["arguments"] = json.dumps(arguments, ensure_ascii=False)
