"""Fenced blocks read out of replies as small models write them."""

from __future__ import annotations

import pytest

from core.engine.authoring.blocks import code_blocks, same_path


def test_a_block_with_a_language_tag_and_text_around_it() -> None:
    reply = "Here is the file:\n\n```python\ndef f():\n    return 1\n```\n\nHope it helps."
    [block] = code_blocks(reply)
    assert block.body == "def f():\n    return 1\n"
    assert block.language == "python"
    assert block.path is None and block.closed


@pytest.mark.parametrize("before", ["hello.py", "**hello.py**", "`hello.py`", "### hello.py",
                                    "File: hello.py", "hello.py:", "### File: `hello.py`",
                                    "1. hello.py", "- **hello.py**"])
def test_the_file_name_on_the_line_before_the_fence(before: str) -> None:
    [block] = code_blocks(f"{before}\n```\nx = 1\n```\n")
    assert block.path == "hello.py"
    assert block.body == "x = 1\n"


@pytest.mark.parametrize("info", ["python hello.py", "hello.py", "python:hello.py",
                                  'python title="hello.py"', "py filename=hello.py"])
def test_the_file_name_in_the_info_string(info: str) -> None:
    [block] = code_blocks(f"```{info}\nx = 1\n```")
    assert block.path == "hello.py"


def test_a_sentence_before_the_fence_is_not_a_name() -> None:
    [block] = code_blocks("Here is the updated code for the module:\n```python\nx = 1\n```")
    assert block.path is None


def test_several_files_and_a_tilde_fence() -> None:
    reply = "src/a.py\n```python\na = 1\n```\nand\n\nb.txt\n~~~\nb\n~~~\n"
    blocks = code_blocks(reply)
    assert [(b.path, b.body) for b in blocks] == [("src/a.py", "a = 1\n"), ("b.txt", "b\n")]


def test_a_reply_cut_inside_the_block_is_not_closed() -> None:
    [block] = code_blocks("```python\ndef f():\n    return")
    assert not block.closed
    assert block.body == "def f():\n    return\n"


def test_inner_shorter_fences_stay_in_a_longer_block() -> None:
    reply = "README.md\n````markdown\n# Title\n```bash\nls\n```\n````\n"
    [block] = code_blocks(reply)
    assert block.body == "# Title\n```bash\nls\n```\n"


def test_an_indented_block_loses_its_indent_and_blank_lines_stay() -> None:
    [block] = code_blocks("  ```\n  a\n\n  b\n  ```")
    assert block.body == "a\n\nb\n"


def test_no_block() -> None:
    assert code_blocks("I cannot do that.") == []


def test_same_path_by_file_name_or_full_path() -> None:
    assert same_path("hello.py", "src/hello.py")
    assert same_path("./src/hello.py".removeprefix("./"), "src/hello.py")
    assert not same_path("other.py", "src/hello.py")
    assert not same_path(None, "hello.py")
