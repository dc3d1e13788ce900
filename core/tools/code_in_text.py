"""What the engine finds in a request's text without a model, in any language: file names, and
examples written as code.

A file name is found by its shape (``name.ext``, ``dir/name.ext``, ``../x.txt``,
``/var/data/x.txt``) with only ASCII letters, digits and ``_.-/`` around it counting as part of
a name, so a name typed between Chinese or Japanese characters without spaces is found; and a
workspace file is named when its path, or its file name where no other file has that name,
occurs in the text so bounded (a file name in any script). A call (``parse_ini(text)``) is
bounded the same way, so ``在ini.py中实现parse_ini(text)`` declares ``parse_ini``. Examples
are taken only where they are written as code: a ``>>>`` doctest and its expected line, or a
call of a plain function with literal arguments followed by ``==``, ``=``, ``->``, ``=>``,
``==>``, ``→`` or ``➞`` (after a ``#`` or not) and a literal.
"""

from __future__ import annotations

import ast
import builtins
import re

from core.shapes.reading import Example

NAME_CHARS = r"A-Za-z0-9_\-"
FILE_NAME = re.compile(
    rf"(?<![{NAME_CHARS}/.])((?:\.{{1,2}}/|/)?(?:[{NAME_CHARS}]+/)*[{NAME_CHARS}]+"
    rf"\.[A-Za-z][A-Za-z0-9]{{0,7}})(?![{NAME_CHARS}/]|\.[A-Za-z0-9])")
CALL_START = re.compile(r"(?<![A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_]*)\(")
ARROW = re.compile(r"[ \t]*#?[ \t]*(?:==>|==|->|=>|→|➞|=(?![=>]))[ \t]*")
DOCTEST = re.compile(r"^[ \t]*>>> (.+)\n[ \t]*([^\n> \t][^\n]*)$", re.MULTILINE)
NOT_FUNCTIONS = frozenset(dir(builtins))
OPERATORS = set("+-*/%=<>^&|")
MAX_SPAN = 400  # characters a call or its expected value may take
MAX_EXAMPLES = 40


def file_names(text: str) -> list[str]:
    """The file names ``text`` writes, each once, in order (``./`` left off)."""
    found: list[str] = []
    for match in FILE_NAME.finditer(text):
        name = match.group(1).removeprefix("./")
        if name not in found:
            found.append(name)
    return found


def bounded(text: str, name: str) -> bool:
    """Whether ``name`` occurs in ``text`` with no ASCII name character on either side."""
    pattern = rf"(?<![{NAME_CHARS}/.]){re.escape(name)}(?![{NAME_CHARS}]|\.[A-Za-z0-9])"
    return re.search(pattern, text) is not None


def named_files(text: str, paths: list[str]) -> list[str]:
    """The workspace files (``paths``, relative with "/") that ``text`` names: by path, or by
    file name when no other file has it; in the order of ``paths``."""
    counts: dict[str, int] = {}
    for path in paths:
        base = path.rsplit("/", 1)[-1]
        counts[base] = counts.get(base, 0) + 1
    named = []
    for path in paths:
        base = path.rsplit("/", 1)[-1]
        if base in text and (bounded(text, path) or counts[base] == 1 and bounded(text, base)):
            named.append(path)
    return named


def mentions(text: str, rel: str) -> bool:
    """Whether ``text`` names the file ``rel``: its path, or its file name alone."""
    base = rel.rsplit("/", 1)[-1]
    return bounded(text, rel) or bounded(text, base)


def is_literal(source: str) -> bool:
    try:
        ast.literal_eval(source)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return bool(source.strip())


def example_of(call: str, expected: str, raises: str = "") -> Example | None:
    """An example when ``call`` calls a plain name with literal arguments only and
    ``expected`` is a literal (or ``raises`` names an exception)."""
    call, expected = call.strip(), expected.strip()
    if not raises and not is_literal(expected):
        return None
    try:
        node = ast.parse(call, mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) \
            or node.func.id in NOT_FUNCTIONS:
        return None
    values = [*node.args, *(keyword.value for keyword in node.keywords)]
    if any(isinstance(arg, ast.Starred) for arg in node.args) \
            or any(keyword.arg is None for keyword in node.keywords) \
            or not all(is_literal(ast.unparse(value)) for value in values):
        return None
    return Example(node.func.id, call, expected if not raises else "", raises)


def code_examples(text: str) -> tuple[Example, ...]:
    """The examples ``text`` writes as code (see the module's docstring), each once."""
    found: dict[tuple[str, str, str], Example] = {}
    for example in [*_doctests(text), *_arrows(text)]:
        found.setdefault((example.call, example.expected, example.raises), example)
    return tuple(found.values())[:MAX_EXAMPLES]


def _doctests(text: str) -> list[Example]:
    examples = []
    for match in DOCTEST.finditer(text):
        example = example_of(match.group(1), match.group(2))
        if example is not None:
            examples.append(example)
    return examples


def _arrows(text: str) -> list[Example]:
    examples = []
    for match in CALL_START.finditer(text):
        end = closing(text, match.end() - 1)
        arrow = ARROW.match(text, end) if end > 0 else None
        if arrow is None:
            continue
        rest = text[arrow.end():arrow.end() + MAX_SPAN].split("\n", 1)[0]
        expected = _leading_literal(rest)
        after = rest[rest.find(expected) + len(expected):].lstrip() if expected else ""
        if after[:1] in OPERATORS:
            continue  # "f(x) == 1 + 9 = 10": the literal is the start of a sum, not the result
        example = example_of(text[match.start():end], expected) if expected else None
        if example is not None:
            examples.append(example)
    return examples


def _leading_literal(rest: str) -> str:
    """The shortest start of ``rest`` that is a literal and ends where the sentence or the
    clause does (a space, ``,;:)``, a full stop before a space or the end)."""
    for end in range(1, len(rest) + 1):
        after = rest[end:end + 2]
        if after and not (after[0].isspace() or after[0] in ",;:)，。；：" or (
                after[0] == "." and (len(after) == 1 or after[1].isspace()))):
            continue
        if is_literal(rest[:end].strip()):
            return rest[:end].strip()
    return ""


def closing(text: str, opening: int) -> int:
    """The index just after the bracket that closes the one at ``opening`` (-1: none on the
    same line within ``MAX_SPAN`` characters)."""
    depth, quote = 0, ""
    for index in range(opening, min(len(text), opening + MAX_SPAN)):
        char = text[index]
        if char == "\n":
            return -1
        if quote:
            if char == quote and text[index - 1] != "\\":
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return index + 1
    return -1


def defined_functions(source: str) -> set[str]:
    """The names of the functions ``source`` defines at its top level."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    return {node.name for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def declared_functions(text: str) -> set[str]:
    """The plain names ``text`` writes as calls or signatures (``parse_ipv4(text)``)."""
    return {match.group(1) for match in CALL_START.finditer(text)
            if match.group(1) not in NOT_FUNCTIONS}
