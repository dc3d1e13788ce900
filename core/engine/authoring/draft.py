"""The draft prompt: what the model alone is asked — the person's words and the workspace's text
files in one message, the whole changed files back.

One function (``oneshot_messages``) builds it for both its users: the engine's first write of
a file the request names (``authoring.stage``: the draft, the floor every later candidate
must beat on evidence) and the evaluation's one-shot baseline (``bench/evals/oneshot.py``),
so the baseline and the draft cannot drift apart. Which files it shows is
``core.tools.text_files.collect``'s business (through the run's gate); ``reply_tokens`` sizes
the reply so the model can write every file shown again, grown, with room for a few words
around the blocks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.tools.code_in_text import file_names, named_files
from core.tools.text_files import Head, Listing, TextFile

WORDS_CHARS = 12_000  # of the person's words shown at most
REPLY_TOKENS_MIN = 1536
REPLY_TOKENS_MAX = 8192
LANGUAGES = {".py": "python", ".json": "json", ".md": "markdown", ".cfg": "ini",
             ".ini": "ini", ".toml": "toml", ".yaml": "yaml", ".yml": "yaml", ".js": "javascript",
             ".sh": "bash", ".html": "html", ".css": "css", ".csv": "csv", ".txt": "text"}

SYSTEM = ("You are an expert programmer. You carry out a request on the files of a project "
          "folder by replying with the complete new content of each file you create or change.")
INSTRUCTIONS = """\
Reply with the complete new content of every file you create or change, each in one fenced \
code block, with the file's path alone on the line before the opening fence, like this:

{path}
```{language}
the whole file, every line of it
```

Write each file in full: no placeholders, no "rest unchanged" comments, no diffs. Leave out \
the files you do not change. If the request asks a question, answer it in plain text."""
NO_FILE = "main.py"  # the format example's file when the request names none and none is shown


def draft_targets(request: str, listing: Listing) -> list[str]:
    """The files the request names, found without a model: the shown workspace files it
    names, then the new file names it writes; in that order, each once."""
    shown = [*listing.paths, *(h.path for h in listing.heads)]
    named = named_files(request, shown)
    return named + [name for name in file_names(request)
                    if name not in named and name not in shown and "/" + name not in shown]


def example_path(targets: list[str], listing: Listing) -> str:
    """The file the format example names: the request's first target, else the first file
    shown, else ``NO_FILE``; never a placeholder a small model would copy."""
    return targets[0] if targets else (listing.paths[0] if listing.paths else NO_FILE)


def _fence(text: str) -> str:
    """A backtick fence longer than any line of only backticks in ``text`` (such a line would
    otherwise close the block early)."""
    runs = [len(line.strip()) for line in text.splitlines()
            if line.strip() and set(line.strip()) == {"`"}]
    return "`" * max(3, max(runs, default=0) + 1)


def show_file(file: TextFile) -> str:
    """A file as the prompt shows it: its path, then its content in a fenced block."""
    fence = _fence(file.text)
    body = file.text if file.text.endswith("\n") or not file.text else file.text + "\n"
    language = LANGUAGES.get(Path(file.path).suffix.lower(), "")
    return f"{file.path}\n{fence}{language}\n{body}{fence}"


def show_head(head: Head) -> str:
    """A file too large to show whole: its path and size, then its first lines."""
    fence = _fence(head.text)
    body = head.text if head.text.endswith("\n") or not head.text else head.text + "\n"
    language = LANGUAGES.get(Path(head.path).suffix.lower(), "")
    return (f"{head.path} ({head.size:,} bytes, too large to show whole; its first lines)\n"
            f"{fence}{language}\n{body}{fence}")


def shown_within(listing: Listing) -> str:
    """The files of ``listing`` as the prompt shows them: the files whole, the beginnings
    of the large ones, the rest by name and size, and what was left out and why."""
    shown = [show_file(f) for f in listing.files] + [show_head(h) for h in listing.heads]
    if listing.listed:
        shown.append("Not shown, to keep within the prompt's budget: " + ", ".join(
            f"{e.rel} ({e.size:,} bytes)" for e in listing.listed) + ".")
    if listing.left_out:
        shown.append("Not shown: " + "; ".join(listing.left_out) + ".")
    return "\n\n".join(shown)


def oneshot_messages(request: str, listing: Listing, targets: list[str] | None = None
                     ) -> list[dict[str, Any]]:
    """The one call's messages: a short system turn, then the person's words (bounded), the
    files and the reply format, whose example names the request's first target (``targets``;
    by default ``draft_targets``); nothing else (no analysis, goal or plan)."""
    path = example_path(draft_targets(request, listing) if targets is None else targets,
                        listing)
    instructions = INSTRUCTIONS.format(path=path,
                                       language=LANGUAGES.get(Path(path).suffix.lower(), ""))
    if listing.files or listing.heads:
        shown = "The project folder holds these files:\n\n" + shown_within(listing)
    else:
        shown = "The project folder has no text files."
        rest = shown_within(listing)
        shown += f"\n\n{rest}" if rest else ""
    user = f"Request:\n{request.strip()[:WORDS_CHARS]}\n\n{shown}\n\n{instructions}"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def reply_tokens(listing: Listing) -> int:
    """``max_tokens`` for the reply: the files shown, twice over at about three characters a
    token (a stub grows into its implementation), plus 1,024, within the bounds."""
    wanted = 2 * listing.chars // 3 + 1024
    return max(REPLY_TOKENS_MIN, min(REPLY_TOKENS_MAX, wanted))
