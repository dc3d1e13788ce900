"""The files a request tells the agent to write, and which of them are missing at the end.

"Write totals.csv with the header ..." or "count the lines and write that number into
todo_count.txt" asks for a file the engine can look for without a model: a run that ends
without it has not done what was asked, whatever the judge or the summary say. A file counts
when the sentence tells the agent itself to write, create, save or generate it (the verb at
the start of the sentence or of a clause: "Write", "... and write", "Also create", "请生成")
and names it after the verb, and the workspace does not hold it when the run starts (a file
that exists is changed, not written). "Make the app write its log to app.log" asks the app,
not the agent; "Do not create ..." asks for nothing. Test modules count: "Also create
test_mathtools.py" is a file the run should leave behind.
"""

from __future__ import annotations

import re
from pathlib import Path

from core.engine.requests import FILE_NAME, NEGATED, NEGATED_ZH, asks_for_changes, \
    named_files, new_files

SENTENCE = re.compile(r"[^\n.!?;。！？；]+(?:[.!?;](?!\s|$)[^\n.!?;。！？；]*)*")
LEAD = r"(?:please\s+|also\s+|then\s+|now\s+|finally\s+|first\s+|next\s+|just\s+)*"
IMPERATIVE = re.compile(
    rf"(?:^\s*|[,:]\s*|\b(?:and|then)\s+){LEAD}"
    r"(?:write|create|save|generate|produce|store|export|put|dump)\b", re.IGNORECASE)
IMPERATIVE_ZH = re.compile(r"(?:^\s*|[，,：:]\s*|并且?|然后|再|请|并)\s*"
                           r"(?:写入|写到|创建|新建|生成|保存到|保存为|输出到)")
MAX_FILES = 20


def files_to_write(text: str, root: Path) -> tuple[str, ...]:
    """The files ``text`` tells the agent to write that ``root`` does not hold yet, each
    once, in the order named (at most ``MAX_FILES``)."""
    found: list[str] = []
    for sentence in SENTENCE.findall(text):
        if NEGATED.search(sentence) or NEGATED_ZH.search(sentence):
            continue
        plain = FILE_NAME.sub(lambda m: " " * len(m.group(0)), sentence)  # "output.log"
        verb = IMPERATIVE.search(plain) or IMPERATIVE_ZH.search(plain)
        if verb is None:
            continue
        found += [name for name in new_files(sentence[verb.end():], root, tests=True)
                  if name not in found]
    return tuple(found[:MAX_FILES])


READING = re.compile(r"\s*[\"'`(]*(?:read|use|using|count|run|load|open|parse|given|from|in|"
                     r"with|look\s+at|take)\b", re.IGNORECASE)
OPENS = re.compile(r"\s*[\"'`(]*(?:which|what|how|where|who|when|why|is|are|does|do|can)\b",
                   re.IGNORECASE)


def _unwritten(sentence: str, written: tuple[str, ...]) -> str:
    """``sentence`` with its "write NEW_FILE" clauses taken out: each verb up to the first of
    ``written`` named after it."""
    plain = FILE_NAME.sub(lambda m: " " * len(m.group(0)), sentence)
    kept, start = [], 0
    for verb in IMPERATIVE.finditer(plain):
        named = [m for m in FILE_NAME.finditer(sentence, verb.end()) if m.group(1) in written]
        if named and verb.start() >= start:
            kept.append(sentence[start:verb.start()])
            start = named[0].end()
    return "".join(kept) + sentence[start:]


def outputs_only(text: str, root: Path) -> tuple[str, ...]:
    """The new files ``text`` asks to be written when they are all it asks to change: "users.json
    holds a list of users. Write emails.txt with ..." reads users.json and writes emails.txt.
    () when it asks any other change ("... change it to 8080 and write CHANGES.md", "Create
    settings.py and change invoice.py ...") or names no new file to write: with its "write
    NEW_FILE" clauses taken out, what is left must ask for no change."""
    written = files_to_write(text, root)
    if not written:
        return ()
    rest = ". ".join(_unwritten(s, written) for s in SENTENCE.findall(text))
    return () if asks_for_changes(rest) else written


def reads_workspace(text: str, outputs: tuple[str, ...]) -> bool:
    """Whether ``text``, all of whose asked changes are the new files ``outputs``
    (``outputs_only``), reads the whole workspace: each of its sentences, once its write
    clauses are out, is empty or opens with a question word, a reading verb or a file name
    ("Which file in the data folder is the largest? Write a report.txt …"). Then no file that
    was there before the run is the run's to change, named or not."""
    if not outputs:
        return False
    for sentence in SENTENCE.findall(text):
        opened = _unwritten(sentence, outputs).lstrip(" \t\"'`(")
        if opened.strip(").,:;") and not (
                OPENS.match(opened) or READING.match(opened) or FILE_NAME.match(opened)):
            return False
    return True


def read_only(text: str, root: Path, outputs: tuple[str, ...]) -> tuple[str, ...]:
    """The workspace files ``text`` names only as what it reads, when all it asks to change is
    the new files ``outputs`` (``outputs_only``): every sentence naming such a file starts with
    the file itself ("users.json holds a list of users") or with a reading verb ("Read
    config.json and write ...", "Run the command \"python make_token.py\" and write ..."). A
    sentence that starts otherwise ("Set the port to 8080 in config.py, then write NOTES.md")
    may ask to change it in words no list of verbs holds, so its files are not kept."""
    if not outputs:
        return ()
    sentences = SENTENCE.findall(text)
    kept: list[str] = []
    for name in named_files(text, root):
        naming = [s for s in sentences
                  if re.search(rf"(?<![\w/.-]){re.escape(name)}(?![\w/-])", s)]
        if naming and all(s.lstrip(" \t\"'`(").startswith(name) or READING.match(s)
                          for s in naming):
            kept.append(name)
    return tuple(kept)


def missing(root: Path, names: tuple[str, ...]) -> list[str]:
    """Those of ``names`` that are not a file in ``root`` now."""
    return [name for name in names if not (root / name).is_file()]
