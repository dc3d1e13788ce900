"""The words the engines say to the model at each stage, in one place (the authoring stage has
its own: ``core.engine.authoring.prompts``)."""

from __future__ import annotations

import json
import re
from typing import Any

from core.engine.language import is_english

ANALYSER_SYSTEM = (
    "Turn the person's request into a structured requirement for an agent that works on the "
    "files of one workspace folder with tools (list, read, search, write, edit files; run "
    "shell commands). Call request_analyser. core_goal: the request's aim in one sentence. "
    "requirements: what must be true when the work is done, taken from the request (a file "
    "changed or created, a value written, a question answered), one per item, each with "
    "quote: the words of the request it comes from, copied exactly; never steps of the work, "
    "and nothing the request did not ask for. complexity: simple when a few tool "
    "calls can do it (a question, a count, a fix or edit in a few files), and then "
    "estimated_phases is 1; medium or complex only for work with distinct stages. Set "
    "clarification_needed only when the request cannot be acted on at all; otherwise make "
    "reasonable assumptions and record them as constraints. kind: change when the request "
    "asks to create, change or delete files (also to make tests pass), question when it asks "
    "only for an answer, both when it asks for both. files: each file or folder the request "
    "names or clearly means, with role change (an existing file it asks to modify), create (a "
    "new file it asks to write), read (a file it only uses as input) or forbid (a file it says "
    "not to touch; path \"*\" when it says to change no file), and quote: the words of the "
    "request around its name, copied character for character (never words of yours that "
    "describe its role, never the files' text shown after the request). examples: each "
    "example of a function's input and result that the request or the named file states, in "
    "whatever words: call (the request's function called with the example's arguments, as "
    "Python literals), result (what that call gives, as a Python literal, or raises and the "
    "exception's name) and quote: the words it comes from. renames: each name the request renames "
    "(old, new, quote). tools: only the listed tools the request says to use before "
    "writing anything (name, quote). Every quote is copied exactly from the request, in its "
    "language (an example's may come from the named file); leave a list empty when the "
    "request says nothing of it."
)

AGENT_SYSTEM = (
    "You are PhaseDesk, an agent working on a workspace folder in phases. Each round you plan "
    "tasks, the engine runs them and you judge the results. Call exactly the tool you are "
    "asked to call. Paths are relative to the workspace root. To create or change a file, "
    "plan write_file with the file's path and an instruction saying what it must contain or "
    "what must change; the engine then shows the model the file and has its new content "
    "written.\n\n"
    "Tools a task can use:\n{tools}"
)

SUMMARIZER_SYSTEM = (
    "You are PhaseDesk, an agent that worked on a workspace folder in phases for the person. "
    "The run is over; you report on it truthfully from the reports you are given."
)

CLASSIC_SYSTEM = (
    "You are PhaseDesk, an agent working in a workspace folder through tools. Call tools to "
    "gather information or make changes; several independent calls may go in one reply. After "
    "each batch of results decide whether you have enough information to answer the request: "
    "if yes, answer in plain text (Markdown); if not, make the next tool calls. Never repeat "
    "a call with the same arguments. Paths are relative to the workspace root. To create or "
    "change a file, call write_file with its path and an instruction saying what it must "
    "contain or what must change; its new content is written in a separate step that shows "
    "the current file."
)


WORDS_CHARS = 6_000  # of the person's request shown to the summarizer
REQUIREMENT_CHARS = 120  # of each requirement, where a stage lists them
# What each stage writes for the person to read, asked for in the person's language.
PERSON_FACING = {
    "request_analyser": "core_goal, requirements, constraints and clarification_questions",
    "phase_planner": "phase names and goals, and task titles and descriptions",
    "plan": "reasoning, task titles and descriptions",
    "judge": "user_summary, comments, failed_reason and task titles",
    "think": "user_summary and next_round_strategy",
    "summarizer": "final_summary, highlights, quality_assessment and evidence",
    "classic": "your answer and summary",
}


def language_ask(language: str, stage: str) -> str:
    """The sentence that ends a stage's instruction asking for its text for the person in the
    person's language; "" for English, the language the instructions are written in."""
    if is_english(language):
        return ""
    return (f"\n\nWrite {PERSON_FACING[stage]} in {language}, the person's language; code, "
            "paths and tool arguments stay as they are.")


def tool_catalogue(schemas: list[dict[str, Any]]) -> str:
    """One compact line per tool: name(param: type, ...) — the first sentence of its
    description (the rest tells how the tool behaves, which a plan need not know; the
    catalogue is in every plan, judge and phase-planner call)."""
    lines = []
    for entry in schemas:
        fn = entry["function"]
        props = fn.get("parameters", {}).get("properties", {})
        required = set(fn.get("parameters", {}).get("required", []))
        params = ", ".join(
            f"{name}{'' if name in required else '?'}: {spec.get('type', 'any')}"
            for name, spec in props.items())
        description = first_sentence(fn.get("description", ""))
        lines.append(f"- {fn['name']}({params}) — {description}")
    return "\n".join(lines)


def first_sentence(text: str) -> str:
    """The first line of ``text`` up to the end of its first sentence (a full stop, "!" or
    "?" before a space; "e.g." and "i.e." do not end it)."""
    line = text.split("\n")[0].strip()
    end = re.search(r"(?<!\be\.g)(?<!\bi\.e)[.!?](?=\s+\S)", line)
    return line[:end.start() + 1] if end else line


ANALYSED_FILE_CHARS = 6_000  # of the named files shown to the analysis, in all


def analyser_user(request: str, previous: dict[str, Any] | None, files: dict[str, str] | None
                  = None, tools: list[str] | None = None) -> str:
    """The analysis's user turn: the request (or the answer to its clarification), the text of
    the files it names (bounded: their docstrings state examples) and the agent's tools."""
    text = request if not previous else (
        "Earlier analysis of this request:\n"
        f"{json.dumps(previous, ensure_ascii=False)}\n\n"
        f"The person answered the clarification questions:\n{request}")
    left = ANALYSED_FILE_CHARS
    for path, content in (files or {}).items():
        if left <= 0:
            break
        shown = content[:left]
        left -= len(shown)
        text += f"\n\n---\nThe named file {path} (for reference):\n{shown}"
    if tools:
        text += "\n\n---\nTools the request may need run first: " + ", ".join(tools)
    return text


def summary_request(words: str, memory: str) -> str:
    """The summarizer's request: the person's own words (a question is answered in them,
    whatever the analysis made of it: "Which function raises ...?" was analysed as "raise
    the error in a file", and the summary answered that); the requirements follow in its
    instruction, so the structured request is not repeated."""
    text = f"The request:\n{words.strip()[:WORDS_CHARS]}"
    return f"Earlier in this conversation:\n{memory}\n\n{text}" if memory else text


def reanalyse_user(request: str, earlier: str, problem: str) -> str:
    return (f"{request}\n\n---\nAn earlier understanding of this request was:\n{earlier}\n"
            f"Working on it revealed a comprehension problem: {problem}\n"
            "Analyse the request again, correcting the misunderstanding.")


def execution_request(analysis_text: str, memory: str, files: str) -> str:
    """The run's first user turn: the structured request and the workspace's files (none
    given: the summarizer's)."""
    text = f"Structured request:\n{analysis_text}" + (f"\n\n{files}" if files else "")
    if memory:
        text = f"Earlier in this conversation:\n{memory}\n\n{text}"
    return text


def classic_request(request: str, memory: str, files: str) -> str:
    """The classic loop's first user turn: the request and the workspace's files."""
    text = f"{request}\n\n{files}"
    if memory:
        text = f"Earlier in this conversation:\n{memory}\n\n{text}"
    return text


PHASE_PLANNER_INSTRUCTION = ("Split the structured request into phases in dependency order "
                             "with phase_planner; if you know them, give the first phase's "
                             "first tasks as first_tasks.")


def phase_intro(index: int, total: int, name: str, goal: str, earlier: str) -> str:
    """The phase's first user turn; ``goal`` "" where it is the structured request's."""
    text = f"Phase {index} of {total}: {name}" + (f"\nGoal: {goal}" if goal else "")
    if earlier:
        text += f"\n\nEarlier phases:\n{earlier}"
    return text


def plan_instruction(round_no: int, max_rounds: int, max_tasks: int, mode: str,
                     detail: str) -> str:
    head = f"Round {round_no} of at most {max_rounds}. "
    if mode == "retry":
        head += ("Retry ONLY the failed tasks below, fixing what made them fail. "
                 f"Call plan_tool_call.\n{detail}")
    elif mode == "replan":
        head += f"The previous approach did not work. Make a new plan. {detail}".rstrip()
        head += " Call plan_tool_call."
    else:
        head += (f"Plan 1-{max_tasks} tasks with plan_tool_call; dependencies only where a "
                 "task needs another's result.")
        if detail:
            head += f" Strategy: {detail}"
    return head


def tools_first(needed: tuple[str, ...], ran: set[str]) -> str:
    """The plan's note on the tools the request needs before anything is written, of those
    not run yet ("" when none)."""
    left = [name for name in needed if name not in ran]
    if not left:
        return ""
    return (f" The request needs {', '.join(left)} run before anything is written: plan "
            f"{'it' if len(left) == 1 else 'them'} first, and write only with "
            f"{'its' if len(left) == 1 else 'their'} result.")


def judge_instruction(round_no: int, last_round: bool, next_phase: str, facts: str = "") -> str:
    text = (f"Judge round {round_no} with judge_tasks; give verdicts only for tasks not "
            "plainly done.")
    if facts:
        text = f"{facts}\n\n{text}"
    if not last_round:
        text += (" If you know the next round's tasks, give them as next_tasks (that implies "
                 "continue_phase; retry_failed: the failed ones, corrected).")
    if next_phase:
        text += (" If the phase goal is reached, you may give the next phase's first tasks as "
                 f"next_tasks. Next phase: {next_phase}")
    return text


def think_instruction(round_no: int) -> str:
    return (f"Reflect on round {round_no} with think: is the phase complete, should it "
            "continue, and what should the next round do differently?")


def short(text: str, most: int = REQUIREMENT_CHARS) -> str:
    """``text`` on one line, cut to ``most`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= most else line[:most - 1] + "…"


def summarizer_instruction(status_line: str, reports: str, requirements: list[str],
                           checked: str = "", changed: list[str] | None = None,
                           draft_answer: str = "") -> str:
    """The summarizer's instruction: the engine's facts (the run's end, the files it changed,
    what checked them), the phases' reports, the draft's answer to a question
    (``draft_answer``), and the person's requirements to account for."""
    if requirements:
        listed = "\n".join(f"{n}. {short(r)}" for n, r in enumerate(requirements, 1))
        ask = ("In requirements, give one entry per requirement below, in this order, with its "
               "status (done, failed, not_attempted) and the tasks, files or commands that "
               f"show it:\n{listed}")
    else:
        ask = "Leave requirements empty."
    checks = f"\n\nChecks of the final files: {checked}" if checked else ""
    files = ", ".join(changed or []) or "none"
    draft = (f"\n\nA first answer, written from the files alone:\n{draft_answer[:2000]}"
             if draft_answer else "")
    return (f"The run has ended: {status_line}\nFiles changed: {files}{checks}\n\n"
            f"Reports of the phases:\n{reports}{draft}\n\n"
            "Write the final summary for the person with summarizer, in Markdown, speaking to "
            "the person (\"you\") or impersonally, never of \"the person\": what was done, "
            "what changed, what failed and why, and what is left. Say only what the facts and "
            "reports show. If the request asks a question, begin with the answer, quoting "
            "the exact values (names, numbers, text) in backticks and naming the file each "
            f"comes from (path:line when the line is known). {ask}")
