"""Every evaluation task's request is also written in Chinese, Japanese, German, French, Spanish
and Russian (``request.LANG.txt``): each keeps the English request's code, leaves none of its
English prose behind, and the Chinese and Japanese ones put no spaces between words."""

from __future__ import annotations

import ast
import builtins
import re
import shutil
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "bench" / "evals" / "tasks"
LANGUAGES = ("zh", "ja", "de", "fr", "es", "ru")
CJK_LANGUAGES = ("zh", "ja")

# A `backticked` span or a quoted literal. A quote against a letter is a character of the text,
# not a quote: a"b, "ab"c, don't, l'adresse.
LITERAL = re.compile(r"`[^`\n]*`"
                     r"|(?<![A-Za-z0-9_])\"[^\"\n]*\"(?![A-Za-z0-9_])"
                     r"|(?<![A-Za-z])'[^'\n]*'(?![A-Za-z])")
CALL = re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_.]*\(")
FILE = r"(?:[A-Za-z0-9_-]+/)*[A-Za-z0-9_-]+\.(?:py|txt|csv|json|md|cfg)(?![A-Za-z0-9_])"
FILE_NAME = re.compile(rf"(?<![A-Za-z0-9_./-]){FILE}")
TUPLE = re.compile(r"\([A-Za-z_]\w*(?:, [A-Za-z_]\w*)+\)")  # (start, end), (word, count)
WORD = re.compile(r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*")
OPERATOR = set("=<>+*/%&|^[]{}")  # a word against one of these is code: key=value, now - t
CJK = r"[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]"
# A space between two non-ASCII characters, or between a CJK character and a name.
CJK_SPACE = re.compile(rf"[^\x00-\x7f] +(?=[^\x00-\x7f])|{CJK} +(?=[A-Za-z0-9_])"
                       rf"|(?<=[A-Za-z0-9_]) +{CJK}")

# Python names the English requests write as plain words.
CODE_NAMES = {"int", "float", "str", "dict", "unittest", "datetime"}
# Names a request writes as plain words that its workspace does not hold yet.
TASK_NAMES = {"ex-lru-cache": {"evictions"}, "rename-function": {"add"}}
# Words of the language that are spelt like an English word of a request.
SAME_WORDS: dict[str, set[str]] = {
    "zh": set(), "ja": set(), "ru": set(),
    "de": {"test", "tests", "bit", "byte", "bytes", "cent", "apostrophe"},
    "fr": {"test", "tests", "apostrophe", "apostrophes", "code", "division", "exception",
           "exceptions", "message", "minutes", "module", "notation", "section", "tuple",
           "tuples"},
    "es": {"byte", "bytes", "error"},
}


def task_folders() -> list[Path]:
    return [p for p in sorted(TASKS.iterdir())
            if (p / "check.py").is_file() and (p / "workspace").is_dir()]


def code_spans(english: str) -> list[str]:
    """The English request's code: literals, calls with their arguments, tuples of names and
    file names."""
    spans = [m.group() for m in LITERAL.finditer(english)]
    for match in CALL.finditer(english):
        depth, end = 1, match.end()
        while end < len(english) and depth:
            depth += {"(": 1, ")": -1}.get(english[end], 0)
            end += 1
        spans.append(english[match.start():end])
    spans += [m.group() for m in TUPLE.finditer(english)]
    spans += [m.group() for m in FILE_NAME.finditer(english)]
    return spans


def required_code(english: str) -> set[str]:
    """What every translation must hold unchanged: each literal, ``name(`` and file name."""
    return ({m.group() for m in LITERAL.finditer(english)}
            | {m.group() for m in CALL.finditer(english)}
            | {m.group() for m in FILE_NAME.finditer(english)})


def _python_names(source: str) -> set[str]:
    """Identifiers of a Python file and the words of its strings, docstrings left out."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.update(part for name in (node.name, node.asname) if name
                         for part in name.split("."))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docstrings):
            names.update(re.findall(r"[A-Za-z]+", node.value))
    return names


def workspace_names(task: Path) -> set[str]:
    """Lowercased names of the task: its workspace's file and folder names, the identifiers and
    string words of its Python files, every word of its other files, and ``TASK_NAMES``."""
    names: set[str] = set()
    for path in (task / "workspace").rglob("*"):
        names.update(re.findall(r"[A-Za-z]+", path.name))
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            names.update(_python_names(text) if path.suffix == ".py"
                         else re.findall(r"[A-Za-z]+", text))
    return {name.lower() for name in names | TASK_NAMES.get(task.name, set())}


def _blank(text: str, spans: list[str]) -> str:
    for span in sorted(spans, key=len, reverse=True):
        text = text.replace(span, " ")
    return text


def _inside_a_latin_word(text: str, start: int, end: int) -> bool:
    """Whether the ASCII run ``text[start:end]`` is part of a longer word (Länge, déjà)."""
    around = [text[i] for i in (start - 1, end) if 0 <= i < len(text)]
    return any(not c.isascii() and c.isalpha() and "LATIN" in unicodedata.name(c, "")
               for c in around)


def leftover_english(english: str, translation: str, language: str,
                     names: set[str]) -> list[str]:
    """The English prose words of ``english`` that ``translation`` writes outside its code.
    ``names``: the lowercased names of the task's workspace."""
    spans = code_spans(english)
    code_words = {w.lower() for span in spans for w in re.findall(r"[A-Za-z]+", span)}
    prose = {w.lower() for w in re.findall(r"[A-Za-z]+", _blank(english, spans))}
    text = LITERAL.sub(lambda m: " " * len(m.group()), translation)
    left = []
    for match in WORD.finditer(text):
        word, start, end = match.group(), match.start(), match.end()
        before, after = text[start - 1:start], text[end:end + 1]
        if (sum(c.isalpha() for c in word) < 3 or _inside_a_latin_word(text, start, end)
                or re.search(r"[_\d.]|[a-z][A-Z]|[A-Z].*[A-Z]", word) or after == "("
                or before in OPERATOR or after in OPERATOR
                or (word[0].isupper() and hasattr(builtins, word))):
            continue
        lower = word.lower()
        if lower in prose and not (lower in names or lower in code_words
                                   or lower in CODE_NAMES or lower in SAME_WORDS[language]):
            left.append(word)
    return left


def cjk_spacing(translation: str) -> list[str]:
    """The places where a Chinese or Japanese text puts a space between two words."""
    return [translation[max(m.start() - 8, 0):m.end() + 8]
            for m in CJK_SPACE.finditer(translation)]


def translation_problems(task: Path, language: str) -> list[str]:
    """What is wrong with ``task``'s ``request.LANGUAGE.txt`` (nothing: ``[]``)."""
    path = task / f"request.{language}.txt"
    if not path.is_file():
        return [f"{path.name} is missing"]
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        return [f"{path.name} is not UTF-8 ({exc.reason})"]
    if not text.strip():
        return [f"{path.name} is empty"]
    english = (task / "request.txt").read_text(encoding="utf-8")
    problems = []
    missing = sorted(code for code in required_code(english) if code not in text)
    if missing:
        problems.append(f"{path.name} lost the request's code {missing}")
    left = leftover_english(english, text, language, workspace_names(task))
    if left:
        problems.append(f"{path.name} leaves English words {left}")
    spaced = cjk_spacing(text) if language in CJK_LANGUAGES else []
    if spaced:
        problems.append(f"{path.name} spaces words apart: {spaced}")
    return problems


TRANSLATIONS = [(task, language) for task in task_folders() for language in LANGUAGES]


def test_the_suite_has_its_tasks() -> None:
    assert len(task_folders()) >= 38
    assert all((task / "request.txt").is_file() for task in task_folders())


@pytest.mark.parametrize(("task", "language"), TRANSLATIONS,
                         ids=[f"{t.name}-{lang}" for t, lang in TRANSLATIONS])
def test_each_task_has_its_request_translated(task: Path, language: str) -> None:
    assert translation_problems(task, language) == []


def _copy_task(tmp_path: Path, name: str) -> Path:
    task = tmp_path / name
    shutil.copytree(TASKS / name, task)
    return task


def test_an_untranslated_request_is_caught(tmp_path: Path) -> None:
    task = _copy_task(tmp_path, "add-is-prime")
    shutil.copy(task / "request.txt", task / "request.de.txt")
    problems = translation_problems(task, "de")
    assert len(problems) == 1 and "leaves English words ['Add', 'function'" in problems[0]


def test_a_translation_that_loses_code_is_caught(tmp_path: Path) -> None:
    task = _copy_task(tmp_path, "csv-pipeline")
    text = (task / "request.fr.txt").read_text(encoding="utf-8")
    (task / "request.fr.txt").write_text(
        text.replace('"region,total"', '"région,total"').replace("totals.csv", "totaux.csv"),
        encoding="utf-8")
    assert translation_problems(task, "fr") == [
        "request.fr.txt lost the request's code ['\"region,total\"', 'totals.csv']"]


def test_a_left_english_word_is_caught_but_not_a_name(tmp_path: Path) -> None:
    task = _copy_task(tmp_path, "ex-lru-cache")
    text = (task / "request.es.txt").read_text(encoding="utf-8")
    assert "evictions" in text and "capacity" in text  # names stay and pass
    (task / "request.es.txt").write_text(text.replace("una caché", "una cache que holds"),
                                         encoding="utf-8")
    assert translation_problems(task, "es") == ["request.es.txt leaves English words ['holds']"]


def test_spaces_between_cjk_words_and_names_are_caught(tmp_path: Path) -> None:
    task = _copy_task(tmp_path, "add-is-prime")
    text = (task / "request.zh.txt").read_text(encoding="utf-8")
    (task / "request.zh.txt").write_text(
        text.replace("在mathtools.py中", "在 mathtools.py 中").replace("质数时", "质数 时"),
        encoding="utf-8")
    spaced = cjk_spacing((task / "request.zh.txt").read_text(encoding="utf-8"))
    assert len(spaced) == 3  # before and after the file name, and between 质数 and 时
    assert "在 mathtool" in spaced[0] and ".py 中" in spaced[1] and "质数 时" in spaced[2]
    assert translation_problems(task, "zh") == [f"request.zh.txt spaces words apart: {spaced}"]


def test_a_missing_empty_or_undecodable_translation_is_caught(tmp_path: Path) -> None:
    task = _copy_task(tmp_path, "fix-total")
    (task / "request.ja.txt").unlink()
    (task / "request.ru.txt").write_text(" \n", encoding="utf-8")
    (task / "request.es.txt").write_bytes("Las pruebas".encode("latin-1") + b"\xe9\xff")
    assert translation_problems(task, "ja") == ["request.ja.txt is missing"]
    assert translation_problems(task, "ru") == ["request.ru.txt is empty"]
    assert translation_problems(task, "es")[0].startswith("request.es.txt is not UTF-8")


def test_quotes_against_letters_are_text_not_literals() -> None:
    english = 'A quote in a"b stays; "ab"c is bad; don\'t split \'x,y\' or "q".'
    assert sorted(required_code(english)) == ['"q"', "'x,y'"]
