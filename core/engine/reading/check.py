"""The model's reading of a request, checked item by item without knowing the request's
language; what fails a check is dropped, with the reason.

- A quote must occur in the request (whitespace, case and the punctuation at its ends aside);
  an item whose quote does not is dropped. An example's quote may also come from the file it
  is about. A file's quote may instead hold the file's name with at least ``CONTEXT``
  characters of the request's own text around it (a small model often wraps the words it
  quotes in words of its own: "The request states: 'Füge in mathtools.py eine Funktion …'").
  An example whose quote is not there still holds when two or more of its values occur within
  ``pairing.TOGETHER`` characters of one another in the request or the file: the request's own text
  pairs them, in whatever words the model quoted it.
- A file must occur in the request or the workspace: a file to change or only to read exists
  (a folder may be read or forbidden); a file to create does not exist yet (one that exists is
  a file to change), and the request writes its name; ``*`` forbids every file, unless the
  request is read as a change (then the reading contradicts itself). A change
  that names no file to change or create keeps no file as only read (the reading contradicts
  itself, and keeping them would refuse every write the change needs).
- An example parses as a call of a plain function with literal arguments and a literal result
  (or an exception's name); its function is defined in a Python file the request names or
  declared in the request (``name(``); every literal value in it, ``True``, ``False`` and
  ``None`` aside, occurs in the request or in those files as they were before the run, and
  each list, tuple, dict or set it passes or gives is written there whole (``literals``).
- A rename's old name occurs in the workspace's text, and differs from the new one.
- A tool is one the run offers.
- A requirement whose quote is not in the request is an assumption.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import Any

from core.tools.code_in_text import bounded, declared_functions, defined_functions, \
    example_of, file_names, named_files
from core.engine.reading.literals import written
from core.engine.reading.pairing import containers, occurs, parts_together, together
from core.tools.reading_facts import WorkspaceFacts
from core.shapes.reading import EVERY_FILE, Example, Reading, Rename, Requirement

IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")
RAISES = re.compile(r"^(?P<call>.+?)\s+raises\s+(?P<name>[A-Za-z_]\w*)\s*$")
ASSERT = re.compile(r"^\s*assert\s+")


CONTEXT = 12  # characters of the request's text beside a file's name that ground its quote
ENDS = "\"'`“”‘’「」『』«».,;:!?。，、；：！？…"


def squeezed(text: str) -> str:
    """``text`` without whitespace, quote marks and punctuation at its ends, in lower case (how
    quotes are compared)."""
    return "".join(text.split()).strip(ENDS).casefold()


def quoted(quote: str, *sources: str) -> bool:
    """Whether ``quote`` is empty or occurs in one of ``sources`` (see ``squeezed``)."""
    wanted = squeezed(quote)
    return not wanted or any(wanted in squeezed(source) for source in sources)


def _starts(text: str, part: str) -> list[int]:
    return [i for i in range(len(text)) if text.startswith(part, i)]


def context_around(quote: str, source: str, name: str) -> int:
    """How many characters beside ``name`` the quote and the source share: the longest run of
    ``quote`` through an occurrence of ``name`` that ``source`` also holds through one of its
    own (compared as ``squeezed`` text), less the name itself."""
    q, s, n = squeezed(quote), squeezed(source), "".join(name.split()).casefold()
    best = 0
    for qi in _starts(q, n):
        for si in _starts(s, n):
            left = 0
            while left < min(qi, si) and q[qi - left - 1] == s[si - left - 1]:
                left += 1
            right, qe, se = 0, qi + len(n), si + len(n)
            while qe + right < len(q) and se + right < len(s) and q[qe + right] == s[se + right]:
                right += 1
            best = max(best, left + right)
    return best


def file_quoted(quote: str, words: str, path: str) -> bool:
    """Whether a file item's ``quote`` grounds it in the request ``words``: it occurs there, or
    it holds ``path`` with at least ``CONTEXT`` characters of the request around it."""
    return quoted(quote, words) or (
        path != EVERY_FILE and context_around(quote, words, path) >= CONTEXT)


def check_reading(raw: Mapping[str, Any], words: str, workspace: WorkspaceFacts,
                  requirements: list[tuple[str, str]], found_examples: tuple[Example, ...] = ()
                  ) -> Reading:
    """The reading ``raw`` (the analysis's fields) of the request ``words``, checked;
    ``requirements``: (requirement, quote) pairs; ``found_examples``: the examples found in the
    request and the named files without a model (they are checked the same way)."""
    dropped: list[str] = []
    kind = raw.get("kind") if raw.get("kind") in ("change", "question", "both") else "unknown"
    quotes: dict[str, str] = {}
    roles = _files(raw.get("files") or [], words, workspace, dropped, quotes)
    change, create, read, forbid = (roles[r] for r in ("change", "create", "read", "forbid"))
    read = [p for p in read if p not in change]
    if EVERY_FILE in forbid and (change or create):
        forbid.remove(EVERY_FILE)
        dropped.append("\"do not change any file\" beside files to change or create: ignored")
    if kind == "question" and (change or create):
        kind = "both"
    if EVERY_FILE in forbid and kind in ("change", "both"):
        forbid.remove(EVERY_FILE)
        dropped.append("* (forbid): a request read as a change cannot forbid every file")
    if kind in ("change", "both") and read and not (change or create):
        dropped += [f"{path} (read): a change that changes and creates no file cannot only "
                    "read every file it names" for path in read]
        read = []
    named = _named(words, workspace)
    sources = [words, *(workspace.texts.get(p, "") for p in dict.fromkeys(
        [*change, *named, *read]) if p.endswith(".py"))]
    python = [p for p in dict.fromkeys([*change, *create, *named]) if p.endswith(".py")]
    defined = set().union(*(defined_functions(workspace.texts.get(p, "")) for p in python)) \
        if python else set()
    examples = _examples([*(raw.get("examples") or []), *found_examples], words, sources,
                         defined | declared_functions(words), dropped)
    kept: list[Requirement] = []
    assumed: list[str] = []
    for text, quote in requirements:
        if quote.strip() and quoted(quote, words):
            kept.append(Requirement(text, quote))
        else:
            assumed.append(text)
    return Reading(words=words, kind=kind, change=tuple(change), create=tuple(create),  # type: ignore[arg-type]
                   read=tuple(read), forbid=tuple(forbid), named=tuple(named),
                   renames=_renames(raw.get("renames") or [], words, workspace, dropped),
                   examples=examples,
                   tools=_tools(raw.get("tools") or [], words, workspace, dropped),
                   requirements=tuple(kept), assumptions=tuple(assumed),
                   declared=frozenset(declared_functions(words)), quotes=quotes,
                   dropped=tuple(dropped))


def _named(words: str, workspace: WorkspaceFacts) -> list[str]:
    return named_files(words, list(workspace.files))


def _path(given: str) -> str:
    path = given.strip().strip("`\"'").replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/") if path != "/" else path


def _files(items: list[Any], words: str, workspace: WorkspaceFacts, dropped: list[str],
           quotes: dict[str, str]) -> dict[str, list[str]]:
    roles: dict[str, list[str]] = {"change": [], "create": [], "read": [], "forbid": []}
    written = file_names(words)
    for item in items:
        if not isinstance(item, Mapping):
            continue
        path, role, quote = _path(str(item.get("path", ""))), item.get("role"), \
            str(item.get("quote", ""))
        if not path or role not in roles:
            continue
        if not file_quoted(quote, words, path):
            dropped.append(f"{path} ({role}): its quote \"{quote[:80]}\" is not in the request")
            continue
        if role == "forbid" and path == EVERY_FILE:
            _add(roles["forbid"], path)
            quotes.setdefault(f"forbid:{path}", quote)
            continue
        exists = workspace.exists(path)
        if role == "create" and exists and path in workspace.files:
            role = "change"  # a file that exists is changed, not created
        elif role == "change" and not exists:
            role = "create"
        if role == "create" and not (path in written or bounded(words, path)):
            dropped.append(f"{path} (create): the request does not name it and the workspace "
                           "has no such file")
            continue
        if role == "create" and path in workspace.folders:
            dropped.append(f"{path} (create): it is a folder")
            continue
        if role in ("read", "forbid") and not exists and not _globbed(path, workspace):
            dropped.append(f"{path} ({role}): the workspace has no such file or folder")
            continue
        if role == "change" and path in workspace.folders:
            dropped.append(f"{path} (change): it is a folder, not a file")
            continue
        _add(roles[role], path)
        quotes.setdefault(f"{role}:{path}", quote)
    for role in ("read", "forbid"):
        roles[role] = [p for p in roles[role] if p not in roles["change"] + roles["create"]]
    return roles


def _globbed(pattern: str, workspace: WorkspaceFacts) -> bool:
    """Whether ``pattern`` holds a wildcard that matches a workspace file."""
    if not any(mark in pattern for mark in "*?["):
        return False
    from fnmatch import fnmatch
    return any(fnmatch(path, pattern) or fnmatch(path.rsplit("/", 1)[-1], pattern)
               for path in workspace.files)


def _add(items: list[str], path: str) -> None:
    if path not in items:
        items.append(path)


def _examples(items: list[Any], words: str, sources: list[str], functions: set[str],
              dropped: list[str]) -> tuple[Example, ...]:
    kept: dict[tuple[str, str, str], Example] = {}
    for item in items:
        if isinstance(item, Example):
            example, quote = item, ""
        elif isinstance(item, Mapping):
            code, quote = example_code(item), str(item.get("quote", ""))
            example = parse_example(code)
            if example is None:
                dropped.append(f"example `{code[:80]}`: not a call of a function with literal "
                               "arguments and a literal result")
                continue
        else:
            continue
        why = _unfounded(example, quote, words, sources, functions)
        if why:
            dropped.append(f"example `{example.code()[:80]}`: {why}")
            continue
        kept.setdefault((example.call, example.expected, example.raises), example)
    return tuple(kept.values())


def parse_example(code: str) -> Example | None:
    """``f(1) == 2`` (or ``->``, ``=>``), ``f(1) is True``, ``f("x") raises ValueError`` or
    ``assert f(1) == 2`` as an example; None when it is none of these."""
    text = ASSERT.sub("", code.strip().rstrip(";"))
    raised = RAISES.match(text)
    if raised:
        return example_of(raised.group("call"), "", raised.group("name"))
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        for arrow in ("==>", "->", "=>", "→"):
            if arrow in text:
                call, _, expected = text.partition(arrow)
                return example_of(call, expected)
        return None
    if isinstance(node, ast.Compare) and len(node.ops) == 1 \
            and isinstance(node.ops[0], (ast.Eq, ast.Is)):
        expected = ast.get_source_segment(text, node.comparators[0]) or ""
        if isinstance(node.ops[0], ast.Is) and expected not in ("True", "False", "None"):
            return None
        return example_of(ast.get_source_segment(text, node.left) or "", expected)
    return None


def example_code(item: Mapping[str, Any]) -> str:
    """An example item as one line of code: ``call == result``, ``call raises Error``, or the
    call alone where it already holds the comparison (or no result is given)."""
    call = str(item.get("call", "")).strip()
    result = str(item.get("result", "")).strip()
    if not result or "==" in call or " raises " in call:
        return call
    if result.startswith("raises "):
        return f"{call} {result}"
    return f"{call} == {result}"


def _unfounded(example: Example, quote: str, words: str, sources: list[str],
               functions: set[str]) -> str:
    """Why ``example`` does not hold ("" when it does)."""
    if example.name not in functions:
        return f"{example.name} is not defined in the files the request names, nor declared " \
               "in the request"
    values = literal_values(example)
    for value in values:
        if not any(occurs(value, source) for source in sources):
            return f"{value!r} is not in the request or the file"
    for value in containers(example):
        if not any(written(value, source) for source in sources):
            return f"{repr(value)[:60]} is not written as one value in the request or the file"
    if quote and not quoted(quote, *sources) and not (
            parts_together(example, sources) if containers(example)
            else together(values, sources)):
        return f"its quote \"{quote[:60]}\" is not in the request or the file"
    return ""


def literal_values(example: Example) -> list[Any]:
    """The strings and numbers an example's arguments and result hold (``True``, ``False``,
    ``None`` and containers left out; their contents counted)."""
    sources = [example.call[example.call.index("(") + 1:-1], example.expected]
    values: list[Any] = []
    for source in sources:
        if not source.strip():
            continue
        try:
            tree = ast.parse(f"({source},)", mode="eval")
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and not isinstance(node.value, (bool, type(None))) \
                    and isinstance(node.value, (str, int, float)):
                values.append(node.value)
    return values


def _renames(items: list[Any], words: str, workspace: WorkspaceFacts, dropped: list[str]
             ) -> tuple[Rename, ...]:
    found: list[Rename] = []
    for item in items:
        if not isinstance(item, Mapping):
            continue
        old, new = str(item.get("old", "")).strip("`'\" "), str(item.get("new", "")).strip("`'\" ")
        quote = str(item.get("quote", ""))
        if not old or not new or old == new or not IDENTIFIER.match(old) \
                or not IDENTIFIER.match(new):
            dropped.append(f"rename {old or '?'} → {new or '?'}: not two different names")
        elif not quoted(quote, words):
            dropped.append(f"rename {old} → {new}: its quote is not in the request")
        elif workspace.contains is None or not workspace.contains(old):
            dropped.append(f"rename {old} → {new}: the workspace does not use {old}")
        elif Rename(old, new) not in found:
            found.append(Rename(old, new))
    return tuple(found)


def _tools(items: list[Any], words: str, workspace: WorkspaceFacts, dropped: list[str]
           ) -> tuple[str, ...]:
    found: list[str] = []
    for item in items:
        if not isinstance(item, Mapping):
            continue
        name, quote = str(item.get("name", "")).strip(), str(item.get("quote", ""))
        if name not in workspace.offered:
            dropped.append(f"tool {name[:60] or '?'}: not a tool this run offers")
        elif not quoted(quote, words):
            dropped.append(f"tool {name}: its quote is not in the request")
        elif name not in found:
            found.append(name)
    return tuple(found)
