"""What the authoring stage says to the model: every prompt that writes code begins with the
person's own words.

Two forms: the draft of a file the one-shot reply did not give (``plain_messages``: the
person's words, the file, the reply format, as the model alone would be asked), and a later
write (``authoring_messages``: the person's words first, then the file, then what this step
must do in the plan's words, marked as the plan's and second to the person's). The structured request, the goal and other paraphrases of the request never reach
these calls: a small model follows a paraphrase over the words it paraphrases.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.engine.authoring.draft import WORDS_CHARS
from core.engine.language import is_english
from core.llm.base import Message

AUTHOR_SYSTEM = (
    "You write one file of a software project at a time. You reply with the file's new "
    "content in a fenced code block, complete and ready to save: no placeholders, no "
    "omitted parts, nothing the request does not ask to change."
)
LANGUAGES = {".py": "python", ".js": "javascript", ".ts": "typescript", ".json": "json",
             ".md": "markdown", ".sh": "bash", ".html": "html", ".css": "css",
             ".toml": "toml", ".yaml": "yaml", ".yml": "yaml", ".cfg": "ini", ".ini": "ini",
             ".sql": "sql", ".rs": "rust", ".go": "go", ".java": "java", ".c": "c",
             ".cpp": "cpp", ".h": "c", ".rb": "ruby"}


@dataclass(frozen=True)
class WriteStep:
    """One later write as the authoring call sees it: the person's words, the file, and what
    the engine knows around it. ``program``: the reply may instead give a program that prints
    the file (a data file computed from the workspace; the ``computed_files`` assist)."""

    words: str
    path: str
    current: str | None
    instruction: str = ""
    related: str = ""
    failures: tuple[str, ...] = ()
    facts: str = ""
    edits: bool = False
    language: str = ""
    program_offer: str = ""


def fence_language(path: str) -> str:
    suffix = path[path.rfind("."):].lower() if "." in path.rsplit("/", 1)[-1] else ""
    return LANGUAGES.get(suffix, "")


def fenced(text: str, language: str) -> str:
    """``text`` in a fenced block (a longer fence when it holds one)."""
    fence = "````" if "```" in text else "```"
    end = "" if text.endswith("\n") or not text else "\n"
    return f"{fence}{language}\n{text}{end}{fence}"


def words_of(words: str) -> str:
    return words.strip()[:WORDS_CHARS]


def _shown(path: str, current: str | None) -> str:
    if current is None:
        return f"{path} does not exist yet."
    return f"{path}:\n{fenced(current, fence_language(path))}"


def _reply_form(path: str) -> str:
    return (f"Reply with the complete new content of {path} in one fenced code block "
            f"(```{fence_language(path)}).")


def plain_messages(words: str, path: str, current: str | None, program_offer: str = "",
                   files: str = "") -> list[Message]:
    """The draft of one file as the model alone would be asked for it: the person's words,
    the workspace's other files (``files``, shown as the one-shot prompt shows them), the
    file, the reply format."""
    parts = [f"Request:\n{words_of(words)}"]
    if files:
        parts.append(f"The project folder holds these files:\n\n{files}")
    parts.append(_shown(path, current))
    if program_offer:
        parts.append(program_offer)
    parts.append(("Otherwise r" if program_offer else "R") + _reply_form(path)[1:])
    return [{"role": "system", "content": AUTHOR_SYSTEM},
            {"role": "user", "content": "\n\n".join(parts)}]


def authoring_language(language: str) -> str:
    """The authoring call's note on a request in another language: the file is not
    translated; "" for English."""
    if is_english(language):
        return ""
    return (f"The request is written in {language}. Do not translate the file: code, names "
            "and text the request does not ask to change stay as they are; new comments "
            "follow the language of the file's comments.")


def authoring_messages(step: WriteStep) -> list[Message]:
    """A later write of ``step.path``: the person's words first, then the file, then the
    plan's words for this step (second to the person's), what it builds on, what went wrong
    before, the reply format."""
    parts = [f"The person asked:\n{words_of(step.words)}"]
    title = "Current content of" if step.current is not None else ""
    parts.append(f"{title} {_shown(step.path, step.current)}".strip())
    if step.instruction:
        parts.append("The plan's note for this step (where it differs from the person's "
                     f"words above, the person's words win): {step.instruction}")
    if step.related:
        parts.append(f"Results this step builds on:\n{step.related}")
    parts += [f"An earlier try at {step.path} failed: {failure}" for failure in step.failures]
    if step.facts:
        parts.append(f"Checked after the last write of {step.path}: {step.facts}")
    if authoring_language(step.language):
        parts.append(authoring_language(step.language))
    if step.edits:
        parts.append(
            f"{step.path} is long: reply with search/replace blocks only, each like\n"
            f"{step.path}\n<<<<<<< SEARCH\n(lines copied exactly from the current file)\n"
            "=======\n(the lines to put in their place)\n>>>>>>> REPLACE\n"
            "Copy the SEARCH lines exactly, whitespace included, with enough lines to be "
            "unique.")
    else:
        if step.program_offer:
            parts.append(step.program_offer)
        parts.append(("Otherwise r" if step.program_offer else "R")
                     + _reply_form(step.path)[1:] + " Keep everything the request does not "
                     "ask to change.")
    return [{"role": "system", "content": AUTHOR_SYSTEM},
            {"role": "user", "content": "\n\n".join(parts)}]


def fix_request(path: str, wrong: list[str], edits: bool) -> str:
    """The authoring call's second try: what is wrong with the file it wrote (it does not
    parse, it uses names nothing defines)."""
    listed = "\n".join(f"- {problem}" for problem in wrong)
    form = ("search/replace blocks against the file as it was shown first" if edits else
            f"the complete corrected content of {path} in one fenced code block")
    return f"The file you wrote has problems:\n{listed}\nReply with {form}."
