"""What the engine finds in a request's text without a model — the file names it writes, the
workspace files it names, the functions it writes as calls and the examples it writes as code
— is the same in every translation of an evaluation task's request as in the English one."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.tools.code_in_text import code_examples, declared_functions, file_names, named_files

TASKS = Path(__file__).resolve().parents[2] / "bench" / "evals" / "tasks"
LANGUAGES = ("zh", "ja", "de", "fr", "es", "ru")


def found(task: Path, request: str) -> dict[str, list[str]]:
    """What the engine finds in ``request`` (a file of ``task``), each kind sorted."""
    text = (task / request).read_text(encoding="utf-8")
    workspace = task / "workspace"
    paths = sorted(p.relative_to(workspace).as_posix() for p in workspace.rglob("*")
                   if p.is_file()) if workspace.is_dir() else []
    return {"file names": sorted(file_names(text)),
            "workspace files": sorted(named_files(text, paths)),
            "functions": sorted(declared_functions(text)),
            "examples": sorted(f"{e.call} == {e.expected}" for e in code_examples(text))}


TASK_FOLDERS = sorted(p for p in TASKS.iterdir() if (p / "request.txt").is_file())


@pytest.mark.parametrize("task", TASK_FOLDERS, ids=[t.name for t in TASK_FOLDERS])
def test_every_translation_yields_what_the_english_request_does(task: Path) -> None:
    english = found(task, "request.txt")
    differences = {language: {kind: (english[kind], got[kind]) for kind, items in got.items()
                              if items != english[kind]}
                   for language in LANGUAGES
                   for got in [found(task, f"request.{language}.txt")]}
    assert {lang: diff for lang, diff in differences.items() if diff} == {}


def test_a_name_typed_between_cjk_characters_is_found() -> None:
    """The shape the suite's Chinese and Japanese requests use; before the bound was ASCII the
    first two gave nothing and the third gave ``intervals是由整数组成的``."""
    assert declared_functions("在ini.py中实现parse_ini(text)。") == {"parse_ini"}
    assert declared_functions("grid.pyにrotate_clockwise(grid)を実装して") == {"rotate_clockwise"}
    assert declared_functions("其中intervals是由整数组成的(start, end)列表") == set()
