"""What a phase's history keeps of its own stage calls, so that later calls are not sent the
same things twice.

Every call of a phase after the first is sent the phase's history. A Plan call's arguments
list the round's tool calls, which the history then holds anyway as the executed calls with
their results: once the round has run, the Plan call, its acknowledgement and the
instruction that asked for it leave it. A
judge's verdict stays, without its next tasks (they run as the next round's calls, where
the history shows them) and without its verdicts on tasks it found done (the results show
them; a verdict that a task failed or did only part of its work is kept). After a round
that wrote files, the results of the rounds before it are cut to their first lines: the
round that needed them was judged with them whole, the authoring calls read the files they
write themselves, what an earlier read showed may have changed, and those calls took the
phase's prompt out of llama.cpp's cache (it keeps the previous prompt only), so the next
stage call is evaluated whole anyway. A read of the lines still needed
(``start_line``/``end_line``) brings them back. Rounds that only read keep everything: a
cached prompt prefix serves them. About 200 characters are kept: a read's header line and
its first lines, which say what the file is (at 500, the eight module reads of
``bench/bench_engines.py``'s "read 8 files + report" still cost the judge after the report's
write 4,600 characters, and the run more characters than the classic loop's batched one).
"""

from __future__ import annotations

import json
import re

from core.llm.base import Message

PLAN_TOOL = "plan_tool_call"
EARLIER_RESULT_CHARS = 200
TASK_CALL = re.compile(r"task_(\d+)_(\d+)_\d+")  # task_executor.call_id


def _called(message: Message) -> str:
    calls = message.get("tool_calls") or []
    return calls[0]["function"]["name"] if message.get("role") == "assistant" and calls else ""


def drop_plan_call(messages: list[Message]) -> None:
    """Remove the Plan call and its acknowledgement that end ``messages``, if they do, with
    the instruction that asked for it."""
    if len(messages) >= 2 and _called(messages[-2]) == PLAN_TOOL \
            and messages[-1].get("role") == "tool":
        asked = len(messages) >= 3 and messages[-3].get("role") == "user"
        del messages[-3 if asked else -2:]


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


def shorten_earlier_results(messages: list[Message], phase_id: int, round_no: int,
                            keep: int = EARLIER_RESULT_CHARS) -> None:
    """Cut the results of this phase's rounds before ``round_no`` to about ``keep``
    characters (whole lines), saying how much was left out (the messages are replaced, not
    changed: a request already made keeps what it sent)."""
    tools = {call["id"]: call["function"]["name"] for m in messages
             for call in m.get("tool_calls") or [] if m.get("role") == "assistant"}
    for index, message in enumerate(messages):
        call_id = str(message.get("tool_call_id", ""))
        found = TASK_CALL.fullmatch(call_id)
        content = message.get("content")
        if message.get("role") != "tool" or not found or not isinstance(content, str):
            continue
        if int(found.group(1)) != phase_id or int(found.group(2)) >= round_no:
            continue
        if len(content) <= keep * 1.5 or SHORTENED in content[-200:]:
            continue
        head = content[:keep].rsplit("\n", 1)[0] if "\n" in content[:keep] else content[:keep]
        again = (" (read_file with start_line and end_line shows any lines again)"
                 if tools.get(call_id) == "read_file" else "")
        messages[index] = {**message, "content": (
            f"{head}\n[… {len(content) - len(head):,} more characters, shown whole in round "
            f"{found.group(2)}, {SHORTENED}{again}]")}


SHORTENED = "not repeated here"
