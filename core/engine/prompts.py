"""The words the engines say to the model, in one place."""

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
    "changed or created, a value written, a question answered), one per item; never steps of "
    "the work, and nothing the request did not ask for. complexity: simple when a few tool "
    "calls can do it (a question, a count, a fix or edit in a few files), and then "
    "estimated_phases is 1; medium or complex only for work with distinct stages. Set "
    "clarification_needed only when the request cannot be acted on at all; otherwise make "
    "reasonable assumptions and record them as constraints."
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


def write_nudge(path: str) -> str:
    """The classic loop's one reminder when the model answers while nothing is written though
    the request asks for changes; ``path`` is the file the request names ("" for none)."""
    target = f"with the path {path}" if path else "with the file's path"
    return ("Nothing has been written yet, but the request asks for files to be created or "
            f"changed. If you can, call write_file now {target} and an instruction saying what "
            "it must contain or what must change (its content is written in a separate step). "
            "If it cannot be done, answer why.")


WORDS_CHARS = 6_000  # of the person's request shown to the authoring call
SKETCH = re.compile(r"^\s*(def |class |return |import |from \S+ import )", re.MULTILINE)
AUTHOR_SYSTEM = (
    "You write one file of a software project at a time. You reply with the file's new "
    "content in a fenced code block, complete and ready to save: no placeholders, no "
    "omitted parts, nothing the task does not ask to change."
)
LANGUAGES = {".py": "python", ".js": "javascript", ".ts": "typescript", ".json": "json",
             ".md": "markdown", ".sh": "bash", ".html": "html", ".css": "css",
             ".toml": "toml", ".yaml": "yaml", ".yml": "yaml", ".cfg": "ini", ".ini": "ini",
             ".sql": "sql", ".rs": "rust", ".go": "go", ".java": "java", ".c": "c",
             ".cpp": "cpp", ".h": "c", ".rb": "ruby"}


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


def authoring_language(language: str) -> str:
    """The authoring call's note on a request in another language: the file is not
    translated; "" for English."""
    if is_english(language):
        return ""
    return (f"The request is in {language}. Do not translate the file: code, names and text "
            "the task does not ask to change stay as they are; new comments follow the "
            "language of the file's comments.")


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


def analyser_user(request: str, previous: dict[str, Any] | None) -> str:
    if not previous:
        return request
    return ("Earlier analysis of this request:\n"
            f"{json.dumps(previous, ensure_ascii=False)}\n\n"
            f"The person answered the clarification questions:\n{request}")


def summary_request(words: str, analysis_text: str, memory: str) -> str:
    """The summarizer's request: the person's own words (a question is answered in them,
    whatever the analysis made of it: "Which function raises ...?" was analysed as "raise
    the error in a file", and the summary answered that) and the structured request."""
    return (f"The person asked:\n{words.strip()[:WORDS_CHARS]}\n\n"
            + execution_request(analysis_text, memory, ""))


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


def summarizer_instruction(status_line: str, reports: str,
                           requirements: list[str] | None) -> str:
    """``requirements``: those of the analysis, or ``None`` (classic loop: derive them)."""
    if requirements is None:
        ask = ("In requirements, list what the person's request asked for (at most 8), each "
               "with its status (done, failed, not_attempted) and the tasks, files or commands "
               "that show it.")
    else:
        listed = "\n".join(f"{n}. {r}" for n, r in enumerate(requirements, 1))
        ask = ("In requirements, give one entry per requirement below, in this order, with its "
               "status (done, failed, not_attempted) and the tasks, files or commands that "
               f"show it:\n{listed}")
    return (f"The run has ended: {status_line}\n\nReports of the phases:\n{reports}\n\n"
            "Write the final summary for the person with summarizer, in Markdown: what was "
            "done, what changed, what failed and why, and what is left. If the request asks "
            "a question, begin with the answer, quoting the exact values (names, numbers, "
            f"text) the task results above show. {ask}")


def fence_language(path: str) -> str:
    suffix = path[path.rfind("."):].lower() if "." in path.rsplit("/", 1)[-1] else ""
    return LANGUAGES.get(suffix, "")


def fix_request(path: str, wrong: list[str], edits: bool) -> str:
    """The authoring call's second try: what is wrong with the file it wrote."""
    listed = "\n".join(f"- {problem}" for problem in wrong)
    form = ("search/replace blocks against the file as it was shown first" if edits else
            f"the complete corrected content of {path} in one fenced code block")
    return f"The file you wrote has problems:\n{listed}\nReply with {form}."


def task_line(path: str, instruction: str) -> str:
    """The write task as the authoring and checks calls see it. A plan that put code in the
    instruction wrote that code inside JSON under a grammar, the form that costs a small
    model most, and the authoring call copies what it is shown (28 of 35 write tasks of an
    evaluation on the embedded 1.5B model held such a sketch, mostly naive: `line.split(",")`
    for a CSV parser): the sketch is left out and the request is what the file must meet."""
    if SKETCH.search(instruction):
        return (f"Task: write {path} so that it does everything the request asks (the plan's "
                "sketch of the code is left out: work from the request).")
    return f"Task: {instruction}"


def authoring_prompt(path: str, instruction: str, current: str | None, context: Any,
                     edits: bool, failures: list[str], facts: str, afresh: bool = False,
                     program: bool = False) -> str:
    """The authoring call's request: what to write, the file as it is, what it builds on,
    what went wrong before; the reply format last. ``context`` is an ``AuthoringContext``;
    ``afresh``: ``current`` is the file as it was before this run, since the version
    written since fails the request's checks (and is not shown); ``program``: the reply may
    be a program that prints the content (a data file, ``computed``)."""
    language = fence_language(path)
    parts = [f"Request:\n{context.request}"]
    if context.words and context.words.strip() != context.request.strip():
        parts = [f"The person asked:\n{asked(context)}",
                 f"Structured request:\n{context.request}"]
    if context.goal:
        parts.append(f"Current goal: {context.goal}")
    parts.append(task_line(path, instruction))
    if afresh:
        parts.append(f"The version of {path} written earlier in this run is not shown: checks "
                     "of the request's examples fail for it (below). Write the file afresh.")
    if current is None:
        parts.append(f"{path} {'did not exist before this run' if afresh else 'does not exist yet'}"
                     ": write it from scratch.")
    else:
        title = f"Content of {path} before this run" if afresh else f"Current content of {path}"
        parts.append(f"{title}:\n{fenced(current, language)}")
    if context.related:
        parts.append(f"Results this task builds on:\n{context.related}")
    for failure in failures:
        parts.append(f"An earlier try at {path} failed: {failure}")
    if facts:
        parts.append(f"Checked after the last write of {path}: {facts}")
    if authoring_language(context.language):
        parts.append(authoring_language(context.language))
    if edits:
        parts.append(
            f"{path} is long: reply with search/replace blocks only, each like\n"
            f"{path}\n<<<<<<< SEARCH\n(lines copied exactly from the current file)\n"
            "=======\n(the lines to put in their place)\n>>>>>>> REPLACE\n"
            "Copy the SEARCH lines exactly, whitespace included, with enough lines to be "
            "unique.")
    else:
        if program:
            parts.append(program_offer(path))
        parts.append(f"{'Otherwise reply' if program else 'Reply'} with the complete new "
                     f"content of {path} in one fenced code block (```{language}), keeping "
                     "everything the task does not ask to change.")
    return "\n\n".join(parts)


def program_offer(path: str) -> str:
    """The authoring call's other form for a data file: a program that prints it."""
    return (f"If the content of {path} must be worked out from the workspace's files "
            "(counted, summed, sorted, filtered, the largest or smallest found), do not work "
            f"it out yourself: reply with a Python program in one ```python block that reads "
            f"the files and prints the complete content of {path}. It runs in the workspace "
            "folder, and what it prints is written to the file.")


def plain_authoring_prompt(path: str, current: str | None, context: Any) -> str:
    """The authoring call framed as the person would ask the model alone: their words, the
    file, the reply format; no structured request, goal or plan instruction. Its greedy reply
    is a second candidate as likely right as the first, and often right where the first is
    wrong (``ExampleChecks.refine``)."""
    language = fence_language(path)
    shown = f"{path} does not exist yet." if current is None else \
        f"{path}:\n{fenced(current, language)}"
    return (f"{asked(context)}\n\n{shown}\n\nReply with the complete new content of {path} "
            f"in one fenced code block (```{language}).")


def fenced(text: str, language: str) -> str:
    """``text`` in a fenced block (a longer fence when it holds one)."""
    fence = "````" if "```" in text else "```"
    end = "" if text.endswith("\n") or not text else "\n"
    return f"{fence}{language}\n{text}{end}{fence}"


def asked(context: Any) -> str:
    """The person's own words (bounded), or the structured request without them."""
    return context.words.strip()[:WORDS_CHARS] if context.words else context.request


CHECKS_SYSTEM = ("You write short Python check scripts: plain assert statements, no test "
                 "framework, no printing.")


def checks_prompt(path: str, module: str, context: Any, instruction: str) -> str:
    """The request for asserts of what the request says about ``path`` (``context`` is an
    ``AuthoringContext``)."""
    return (f"The person asked:\n{asked(context)}\n\n{task_line(path, instruction)}\n\n"
            f"Write a Python script that checks {path} against what the request says: start "
            f"with `from {module} import ...` (the names the request uses), then one `assert` "
            "per example or rule the request states, with the exact expected value (at most "
            "15). To check that a call raises an error, write `assert raises(ValueError, "
            "func, arg)` (raises is given). Check only what the request says. Reply with the "
            "script in one fenced code block.")


def checks_failed_request(path: str, report: str) -> str:
    """What the authoring call's next try is told after the checks of the request's examples
    failed (the earlier file itself is not shown: a small model copies it)."""
    return (f"An earlier try at {path} was run against checks of the request's examples: "
            f"{report}.\nWrite {path} afresh so that every one of them passes, and reply with "
            "its complete content in one fenced code block.")
