"""What a request asks of the workspace: whether it asks for files to be created or changed,
forbids changes, and which files it names.

Such work is not done while no write succeeded: a search is no evidence that a function was
implemented, whatever the judge or the summary say. The test is on the words, in English
and Chinese; a question ("what does …", "how many …") asks for no change unless it also
says to write something. A request that says not to change files and asks for no change
besides forbids them (``forbidden_changes``): the engines then refuse every write.
"""

from __future__ import annotations

import re
from pathlib import Path

from core.tools.workspace_tests import is_test_file

CHANGE_WORDS = re.compile(
    r"\b(implement|implements|implementing|add|adds|create|creates|write|writes|fix|fixes|"
    r"change|changes|update|updates|rename|renames|refactor|remove|delete|replace|modify|"
    r"edit|convert|insert|append|rewrite|generate|save|store|bump|switch|turn|enable|disable|"
    r"move|increase|decrease|raise|lower|sort|format|translate|upgrade|migrate|calculate|"
    r"compute|build|solve|complete|extend|"
    r"make\s+\w+\s+(?:return|raise|accept|handle|use)|set\s+\w+\s+to)\b", re.IGNORECASE)
CHANGE_WORDS_ZH = re.compile(r"(实现|添加|增加|创建|新建|编写|写入|修复|修改|更改|改成|改为|更新|重命名|重构|"
                             r"删除|替换|转换|插入|保存|生成)")
NEGATED = re.compile(r"\b(?:do\s+not|don't|never|without|no\s+need\s+to)\s+(?:\w+\s+){0,2}?"
                     r"(?:chang|modif|edit|touch|writ|creat|delet)\w*", re.IGNORECASE)
NEGATED_ZH = re.compile(r"(?:不要|不得|无需|不用|别)\S{0,4}?(?:修改|更改|改动|写|创建|删除)")
CODE = re.compile(r"`[^`]*`|\b\w+\(")  # names in backticks, calls like add(
SENTENCE_END = re.compile(r"[.!?;\n。！？；]")
SAID_CHARS = 80
FILE_EXTENSIONS = {"py", "md", "txt", "rst", "json", "yaml", "yml", "toml", "ini", "cfg", "csv",
                   "tsv", "html", "css", "js", "ts", "sh", "sql", "xml", "log"}
FILE_NAME = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.[A-Za-z][A-Za-z0-9]{0,7})(?![\w/-])")


def asks_for_changes(text: str) -> bool:
    """Whether ``text`` asks for a file to be created or changed ("do not change any file"
    and names such as ``add()`` do not count)."""
    plain = CODE.sub(" ", NEGATED_ZH.sub(" ", NEGATED.sub(" ", text)))
    return bool(CHANGE_WORDS.search(plain) or CHANGE_WORDS_ZH.search(plain))


def forbidden_changes(text: str) -> str:
    """The words with which ``text`` forbids changing files ("Do not change any file"), up to
    the end of their sentence, when it asks for no change besides; "" otherwise ("Do not
    change the tests" beside "fix the bug" forbids nothing)."""
    found = NEGATED.search(text) or NEGATED_ZH.search(text)
    if found is None or asks_for_changes(text):
        return ""
    end = SENTENCE_END.search(text, found.end())
    return text[found.start():end.start() if end else len(text)].strip()[:SAID_CHARS]


def refusal(words: str) -> str:
    """A refused write's error, quoting the request's ``words`` that forbid it."""
    return f"not run: the request says \"{words}\"; no file is changed in this run"


def named_files(text: str, root: Path) -> list[str]:
    """The workspace files ``text`` names ("query.py", "src/app.py"), in the order first
    named; test modules, folders and names outside the workspace left out."""
    found: list[str] = []
    base = root.resolve()
    for match in FILE_NAME.finditer(text):
        name = match.group(1)
        path = (base / name).resolve()
        if name in found or is_test_file(name) or not path.is_relative_to(base):
            continue
        if path.is_file():
            found.append(name)
    return found


def new_files(text: str, root: Path, tests: bool = False) -> list[str]:
    """The files ``text`` names that the workspace does not hold yet ("write NOTES.md"), by
    the common extensions of text and code files; names outside the workspace left out, and
    test modules unless ``tests``. A method name such as ``str.split`` is not one."""
    found: list[str] = []
    base = root.resolve()
    for match in FILE_NAME.finditer(text):
        name = match.group(1)
        path = (base / name).resolve()
        if name in found or (is_test_file(name) and not tests) \
                or not path.is_relative_to(base) \
                or path.exists() or name.rsplit(".", 1)[-1].lower() not in FILE_EXTENSIONS:
            continue
        found.append(name)
    return found


def mentions(text: str, rel: str) -> bool:
    """Whether ``text`` names the file ``rel``: its path, or its file name alone."""
    named = {match.group(1) for match in FILE_NAME.finditer(text)}
    base = rel.rsplit("/", 1)[-1]
    return rel in named or base in {name.rsplit("/", 1)[-1] for name in named}
