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

from core.engine.requests import FILE_NAME, NEGATED, NEGATED_ZH, new_files

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


def missing(root: Path, names: tuple[str, ...]) -> list[str]:
    """Those of ``names`` that are not a file in ``root`` now."""
    return [name for name in names if not (root / name).is_file()]
