"""Nothing in core/ decides what a request asks, or what a model's prose says, by matching the
words of a natural language: the model reads the request, the engine checks its reading by
shape (file names, code, quotes). This test reads every module of core/ and fails on a regular
expression that alternates natural words (``(?:implement|add|create)``, ``(实现|添加)``) or a
collection of natural words (a stop-word set); patterns over tool output are listed below with
the reason they are not about a request or prose."""

from __future__ import annotations

import ast
import keyword
import re
from pathlib import Path

CORE = Path(__file__).resolve().parents[3] / "core"
RE_FUNCTIONS = {"compile", "search", "match", "fullmatch", "findall", "finditer", "sub",
                "subn", "split"}
WORD = re.compile(r"^(?:[A-Za-z]{2,}|[\u3040-\u30ff\u3400-\u9fff]{2,}|[\u0400-\u04ff]{2,})$")
# (module, assigned name) → why its words are not read from a request or a model's prose
ALLOWED = {
    ("core/tools/test_runs.py", ""): "the test runners' own output",
    ("core/llm/text_calls.py", "_NAMED"): "the JSON keys of a call written as text",
    ("core/secrets.py", "KEY_SHAPES"): "the prefixes of API keys",
    ("core/tools/workspace_tests.py", "PYTEST_COUNTS"): "pytest's own summary line",
    ("core/tools/workspace_tests.py", "COMMAND_WORDS"): "the test runners' program names",
    ("core/tools/registry.py", "_SECTION"): "section heads of the project's own docstrings",
    ("core/tools/sandbox.py", ""): "bubblewrap's own error messages",
    ("core/tools/code_checks.py", ""): "Python's own error messages",
    ("core/engine/language.py", "HUMAN_LANGUAGES"): "names of languages the analysis's "
                                                   "`language` field may hold (a value)",
    ("core/engine/phase/dependencies.py", "ENDED"): "the engine's own phase statuses",
    ("core/engine/stages/task_specs.py", "KEEP"): "JSON Schema keywords",
}


def _branches(pattern: str) -> list[list[str]]:
    """The alternatives of each group of ``pattern`` (and of the pattern itself), each
    stripped of word boundaries, optional groups and whitespace escapes."""
    groups = re.findall(r"\((?:\?:)?([^()]*\|[^()]*)\)", pattern)
    if "|" in pattern and not groups:
        groups = [pattern]
    found = []
    for group in groups:
        parts = [re.sub(r"\\[bsw][+*]?|[?^$]", " ", part).strip() for part in group.split("|")]
        found.append(parts)
    return found


def _natural(part: str) -> bool:
    """Whether an alternative is made of natural words only (not Python's keywords)."""
    tokens = part.split()
    return bool(tokens) and all(WORD.match(token) and not keyword.iskeyword(token)
                                for token in tokens)


def natural_alternation(pattern: str) -> list[str]:
    """The natural words a pattern alternates (two or more in one group), else []."""
    for parts in _branches(pattern):
        words = [part for part in parts if _natural(part)]
        if len(words) >= 2:
            return words
    return []


def natural_collection(node: ast.AST) -> list[str]:
    """The natural words of a set, list or tuple literal of five or more of them, else []."""
    if not isinstance(node, (ast.Set, ast.List, ast.Tuple)) and not (
            isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("frozenset", "set")
            and node.args):
        return []
    items = node.args[0].elts if isinstance(node, ast.Call) and hasattr(node.args[0], "elts") \
        else getattr(node, "elts", [])
    words = [item.value for item in items if isinstance(item, ast.Constant)
             and isinstance(item.value, str) and WORD.match(item.value)
             and item.value.islower()]
    return words if len(words) >= 5 and len(words) * 5 >= len(items) * 4 else []


def _pattern_text(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_pattern_text(v) for v in node.values)
    if isinstance(node, ast.BinOp):
        return _pattern_text(node.left) + _pattern_text(node.right)
    return ""


def findings(path: Path) -> list[str]:
    """Every natural-word pattern or collection in one module, "name: words"."""
    rel = path.relative_to(CORE.parent).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        target = ""
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            target = node.targets[0].id
            words = natural_collection(node.value)
            if words and (rel, target) not in ALLOWED and (rel, "") not in ALLOWED:
                found.append(f"{rel} {target}: {words[:6]}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in RE_FUNCTIONS and getattr(node.func.value, "id", "") == "re" \
                and node.args:
            words = natural_alternation(_pattern_text(node.args[0]))
            owner = _owner(tree, node)
            if words and (rel, owner) not in ALLOWED and (rel, "") not in ALLOWED:
                found.append(f"{rel} {owner or 'a pattern'}: {words[:6]}")
    return found


def _owner(tree: ast.Module, call: ast.Call) -> str:
    """The module-level name a pattern is assigned to ("" inside a function)."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(sub is call for sub in ast.walk(node.value)):
            target = node.targets[0]
            return target.id if isinstance(target, ast.Name) else ""
    return ""


def test_no_module_of_core_matches_natural_words() -> None:
    found = [line for path in sorted(CORE.rglob("*.py")) for line in findings(path)]
    assert found == []


def test_the_check_finds_the_word_lists_it_is_for(tmp_path: Path) -> None:
    assert natural_alternation(r"\b(implement|add|create|fix)\b")
    assert natural_alternation(r"(?:不要|不得|无需)\S{0,4}")
    assert natural_alternation(r"\s*(?:==|->|\bis\b|\bgives\b|\breturns\b)[ \t]+")
    assert not natural_alternation(r"(?:==>|==|->|=>|→)")
    assert not natural_alternation(r"^(test_.+|.+_test)\.py$")
    module = ast.parse('STOP = {"the", "and", "for", "with", "that", "this"}\n'
                       'SUFFIXES = {".py", ".md", ".txt", ".json", ".cfg"}\n')
    assert natural_collection(module.body[0].value)  # type: ignore[attr-defined]
    assert not natural_collection(module.body[1].value)  # type: ignore[attr-defined]
