"""The draft prompt: what the model alone is asked — the person's words and the workspace's text
files in one message, the whole changed files back.

One function (``oneshot_messages``) builds it for both its users: the engine's first write of
a file the request names (``authoring.stage``: the draft, the floor every later candidate
must beat on evidence) and the evaluation's one-shot baseline (``bench/evals/oneshot.py``),
so the baseline and the draft cannot drift apart. Which files it shows is
``core.tools.text_files.collect``'s business; ``reply_tokens`` sizes the reply so the model can
write every file shown again, grown, with room for a few words around the blocks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.tools.text_files import Listing, TextFile

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

path/of/the_file.py
```python
the whole file, every line of it
```

Write each file in full: no placeholders, no "rest unchanged" comments, no diffs. Leave out \
the files you do not change. If the request asks a question, answer it in plain text."""


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


def shown_within(listing: Listing, chars: int) -> str:
    """The files of ``listing`` as the prompt shows them, in order, as many as fit in
    ``chars`` characters."""
    shown, used = [], 0
    for file in listing.files:
        text = show_file(file)
        if used + len(text) > chars:
            break
        shown.append(text)
        used += len(text)
    return "\n\n".join(shown)


def oneshot_messages(request: str, listing: Listing) -> list[dict[str, Any]]:
    """The one call's messages: a short system turn, then the person's words (bounded), the
    files and the reply format; nothing else (no analysis, goal or plan)."""
    if listing.files:
        shown = "The project folder holds these files:\n\n" + "\n\n".join(
            show_file(f) for f in listing.files)
    else:
        shown = "The project folder has no text files."
    if listing.left_out:
        shown += "\n\nNot shown: " + "; ".join(listing.left_out) + "."
    user = f"Request:\n{request.strip()[:WORDS_CHARS]}\n\n{shown}\n\n{INSTRUCTIONS}"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def reply_tokens(listing: Listing) -> int:
    """``max_tokens`` for the reply: the files shown, twice over at about three characters a
    token (a stub grows into its implementation), plus 1,024, within the bounds."""
    wanted = 2 * listing.chars // 3 + 1024
    return max(REPLY_TOKENS_MIN, min(REPLY_TOKENS_MAX, wanted))
