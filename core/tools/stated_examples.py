"""The examples a request states, read from the person's words without a model.

A person often writes what a function must give: ``to_int("1.2.3.4") is 16909060``,
``wrap_text("a b", 1) gives ["a", "b"]``, ``check("abc") raises WeakPasswordError``, or a
doctest (``>>> f(2)`` above ``4``): a call of a plain function with literal arguments, a
connecting word, and a literal result that ends where the sentence does (or an exception's
name). Under a line that describes one function of one required argument — by its signature
(``to_snake_case(name) turns ...``) or, at the start of a line, by the bare name of a
function the request writes that way elsewhere (``- rotate_clockwise turns the grid ...``) —
an input and its result suffice: ``"userID" gives "user_id"`` and ``"3 4 +" is 7`` are calls
of that function, and so are the quoted inputs in parentheses of a sentence that tells it to
raise one exception (``Raise ValueError for an unknown token ("3 4 ^", "3 x +")``), until the
next such line. Anything less clear (a method, a name as argument, "[34, 33] cents", a line
naming two functions, a sentence naming two exceptions) is not an example.
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass

MAX_EXAMPLES = 40
MAX_SPAN = 400  # characters a stated call or its result may take (bounds the scan)
MAX_TRIED = 160  # inputs-and-results looked at, at most (bounds the scan of a long request)
CALL_START = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\(")
ERROR = r"[A-Z]\w*(?:Error|Exception)"
CONNECTOR = re.compile(r"\s*(?:==|=>|->|→|\bis\b|\bgives\b|\breturns\b|\bshould (?:return|give|"
                       r"be)\b|\bevaluates to\b|\bequals\b)[ \t]+")
RAISES = re.compile(r"\s*(?:raises|should raise|must raise)[ \t]+(" + ERROR + r")\b")
AFTER_WORDS = re.compile(r"\s+(?:\(|(?:and|because|since|when|while|but)\b)")
SCOPED = re.compile(r"\s(?:gives|returns|->|→|=>)[ \t]+")
SCOPED_IS = re.compile(r"\sis[ \t]+")
EXAMPLES_WORD = re.compile(r"\b[Ee]xamples?\b")
SCOPED_RAISES = re.compile(r"\s(?:raises|should raise)[ \t]+(" + ERROR + r")\b")
RAISE_SENTENCE = re.compile(r"\b[Rr]aises?[ \t]+(" + ERROR + r")\b")
ERROR_NAME = re.compile(r"\b" + ERROR + r"\b")
GROUP_START = re.compile(r"(?<![\w)\]])\(")
BARE_NAME = re.compile(r"\s*(?:[-*•]|\d+[.)])?\s*([A-Za-z_]\w*)\b(?!\s*\()")
BOUNDARY = " \t(:;,"
LITERAL_STARTS = frozenset("\"'([{-+.0123456789TFN")
DOCTEST = re.compile(r"^\s*>>> (.+)\n\s*([^\n>][^\n]*)$", re.MULTILINE)
NOT_FUNCTIONS = frozenset(dir(builtins))


@dataclass(frozen=True)
class Example:
    """``call`` (source of a call of ``name`` with literal arguments) should equal the literal
    ``expected`` (its source), or raise the exception named ``raises``."""

    name: str
    call: str
    expected: str
    raises: str = ""

    def words(self) -> str:
        if self.raises:
            return f"{self.call} should raise {self.raises}"
        return f"{self.call} should give {self.expected}"


def stated_examples(text: str) -> tuple[Example, ...]:
    """The examples ``text`` states, each once, in order."""
    found: dict[tuple[str, str, str], Example] = {}
    for example in [*_prose(text), *_scoped(text), *_doctests(text)]:
        found.setdefault((example.call, example.expected, example.raises), example)
    return tuple(found.values())[:MAX_EXAMPLES]


def _prose(text: str) -> list[Example]:
    examples = []
    for match in CALL_START.finditer(text):
        end = _closing(text, match.end() - 1)
        if end < 0:
            continue
        raised = RAISES.match(text, end)
        if raised is not None:
            example = _example(text[match.start():end], "", raised.group(1))
            examples += [example] if example is not None else []
            continue
        connector = CONNECTOR.match(text, end)
        if connector is None:
            continue
        start = connector.end()
        line_end = text.find("\n", start, start + MAX_SPAN + 1)
        whole = line_end >= 0 or len(text) - start <= MAX_SPAN
        expected = _literal_at(text[start:line_end if line_end >= 0 else start + MAX_SPAN],
                               whole)
        example = _example(text[match.start():end], expected)
        if example is not None:
            examples.append(example)
    return examples


def _scoped(text: str) -> list[Example]:
    """Examples stated as an input and its result under the line that describes their
    function (see the module's docstring)."""
    examples: list[Example] = []
    declared = _declared(text)
    name = ""
    tried = 0
    for line in text.splitlines():
        if len(line) > 4 * MAX_SPAN:
            continue
        described = _described(line, declared)
        if described is not None:
            name = described
        if not name:
            continue
        for connector in _connectors(line, described is not None):
            tried += 1
            if tried > MAX_TRIED:
                return examples
            argument = _literal_before(line, connector.start())
            if not argument:
                continue
            rest = line[connector.end():connector.end() + MAX_SPAN]
            opened = connector.start() - len(argument) - 1
            expected = _literal_at(rest, len(line) - connector.end() <= MAX_SPAN) or (
                _literal_closed(rest) if opened >= 0 and line[opened] == "(" else "")
            example = _example(f"{name}({argument})", expected)
            if example is not None:
                examples.append(example)
        for raised in SCOPED_RAISES.finditer(line):
            argument = _literal_before(line, raised.start())
            example = _example(f"{name}({argument})", "", raised.group(1)) if argument else None
            examples += [example] if example is not None else []
        examples += _raising_inputs(line, name)
    return examples


def _connectors(line: str, describing: bool) -> list[re.Match[str]]:
    """Where ``line`` says that an input gives a result: "gives", "returns", an arrow, and
    "is" on the line that describes the function or after the word "example" (elsewhere "is"
    says too much else: "so "%C3%A9" is "é"" describes a step, not a result)."""
    found = list(SCOPED.finditer(line))
    said = EXAMPLES_WORD.search(line)
    found += [match for match in SCOPED_IS.finditer(line)
              if describing or said is not None and said.end() <= match.start()]
    return sorted(found, key=lambda match: match.start())


def _raising_inputs(line: str, name: str) -> list[Example]:
    """The quoted inputs in parentheses of a sentence of ``line`` that tells ``name`` to raise
    one exception and names no other."""
    examples = []
    for raised in RAISE_SENTENCE.finditer(line):
        sentence = line[raised.start():_sentence_end(line, raised.end())]
        if len(set(ERROR_NAME.findall(sentence))) != 1:
            continue
        for group in GROUP_START.finditer(sentence):
            end = _closing(sentence, group.start())
            for value in _quoted(sentence[group.start():end]) if end > 0 else ():
                example = _example(f"{name}({value})", "", raised.group(1))
                examples += [example] if example is not None else []
    return examples


def _quoted(group: str) -> list[str]:
    """The string literals of ``group`` ("("a", "b")", "("a" or "b")") when it holds
    nothing else."""
    try:
        node = ast.parse(group, mode="eval").body
    except SyntaxError:
        return []
    leaves = []
    pending = [node]
    while pending:
        item = pending.pop(0)
        if isinstance(item, ast.Tuple):
            pending = [*item.elts, *pending]
        elif isinstance(item, ast.BoolOp) and isinstance(item.op, ast.Or):
            pending = [*item.values, *pending]
        elif isinstance(item, ast.Constant) and isinstance(item.value, str):
            leaves.append(ast.unparse(item))
        else:
            return []
    return leaves


def _sentence_end(line: str, start: int) -> int:
    """The index just after the sentence that goes on at ``start``: a "." outside quotes and
    parentheses followed by a space, or the line's end."""
    depth, quote = 0, ""
    for index in range(start, len(line)):
        char = line[index]
        if quote:
            quote = "" if char == quote and line[index - 1] != "\\" else quote
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char == "." and not depth and (index + 1 == len(line) or line[index + 1].isspace()):
            return index + 1
    return len(line)


def _literal_closed(rest: str) -> str:
    """The shortest start of ``rest`` that is a literal followed by ")"."""
    for end in range(1, len(rest)):
        if rest[end] == ")" and _is_literal(rest[:end].strip()):
            return rest[:end].strip()
    return ""


def _signatures(line: str) -> list[tuple[str, int]]:
    """The functions ``line`` writes as signatures (``name(arg, key=1)``), with the number of
    required arguments each."""
    found = []
    for match in CALL_START.finditer(line):
        end = _closing(line, match.end() - 1)
        if end < 0:
            continue
        try:
            node = ast.parse(line[match.start():end], mode="eval").body
        except SyntaxError:
            continue
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        if all(isinstance(arg, ast.Name) for arg in node.args) and all(
                keyword.arg and _is_literal(ast.unparse(keyword.value))
                for keyword in node.keywords):
            found.append((node.func.id, len(node.args)))
    return found


def _declared(text: str) -> dict[str, int]:
    """Each function the request writes as a signature, with its required arguments (0 when
    it is written with different numbers)."""
    declared: dict[str, int] = {}
    for line in text.splitlines():
        for name, count in _signatures(line[:4 * MAX_SPAN]):
            declared[name] = count if declared.get(name, count) == count else 0
    return declared


def named_functions(text: str) -> set[str]:
    """The functions the request writes as signatures (``parse_ipv4(text)``)."""
    return set(_declared(text))


def _described(line: str, declared: dict[str, int]) -> str | None:
    """The function a line describes (see the module's docstring); "" when it describes
    several, or one of several required arguments (no scope); None when it describes none
    (the scope goes on)."""
    found = _signatures(line)
    if not found:
        bare = BARE_NAME.match(line)
        if bare is None or bare.group(1) not in declared:
            return None
        return bare.group(1) if declared[bare.group(1)] == 1 else ""
    return found[0][0] if len(found) == 1 and found[0][1] == 1 else ""


def _literal_before(line: str, end: int) -> str:
    """The shortest literal that ends at ``end`` and starts after a space, "(", ":", ";" or
    "," (or at the line's start); "" when there is none."""
    for start in range(end - 1, max(-1, end - MAX_SPAN), -1):
        if start and line[start - 1] not in BOUNDARY:
            continue
        source = line[start:end]
        if source[0] not in LITERAL_STARTS or source[0] in "\"'" and source[-1] != source[0] \
                or source[0] in "TFN" and source not in ("True", "False", "None"):
            continue
        if source.strip() == source and _is_literal(source):
            return source
    return ""


def _doctests(text: str) -> list[Example]:
    examples = []
    for match in DOCTEST.finditer(text):
        expected = match.group(2).strip()
        example = _example(match.group(1).strip(), expected if _is_literal(expected) else "")
        if example is not None:
            examples.append(example)
    return examples


def _closing(text: str, opening: int) -> int:
    """The index just after the parenthesis that closes the one at ``opening`` (-1: none on
    the same line within ``MAX_SPAN`` characters)."""
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


def _literal_at(rest: str, whole: bool) -> str:
    """The shortest start of ``rest`` that is a Python literal and ends where the sentence
    does (end of line, when ``rest`` is the whole rest of it; ".", ",", ";" or ":" then a
    space; a parenthesis or "and" after a space); "" when there is none."""
    for end in range(1, len(rest) + 1):
        tail = rest[end:]
        closes = (whole and not tail.strip()) or (tail[:1] in (".", ",", ";", ":") and (
            len(tail) == 1 and whole or len(tail) > 1 and tail[1].isspace())) \
            or AFTER_WORDS.match(tail) is not None
        if closes and _is_literal(rest[:end].strip()):
            return rest[:end].strip()
    return ""


def _is_literal(source: str) -> bool:
    try:
        ast.literal_eval(source)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return bool(source)


def _example(call: str, expected: str, raises: str = "") -> Example | None:
    """An example when ``call`` calls a plain name with literal arguments only."""
    if not expected and not raises:
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
            or not all(_is_literal(ast.unparse(value)) for value in values):
        return None
    return Example(node.func.id, call, expected, raises)
