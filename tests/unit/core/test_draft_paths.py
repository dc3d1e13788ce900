"""The draft read as the model meant it: the format example names the request's own file, and a
block under a path nobody asked for is the file the request targets (a small model copies a
format example's path literally)."""

from __future__ import annotations

from pathlib import Path

from core.engine.authoring.draft import draft_targets, oneshot_messages
from core.engine.authoring.draft_reply import drafted_files
from core.tools.text_files import collect

PANGRAM = "def is_pangram(sentence):\n    raise NotImplementedError\n"
SOLVED = "def is_pangram(sentence):\n    return set('abcdefghijklmnopqrstuvwxyz') <= set(sentence.lower())\n"
# the reply shape seen from the embedded Qwen2.5-Coder-1.5B on pangram, prime-factors,
# matching-brackets and pythagorean-triplet: the prompt's placeholder path, then the file
PLACEHOLDER_REPLY = f"path/of/the_file.py\n```python\n{SOLVED}```\n"


def workspace(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_the_format_example_names_the_requests_file_never_a_placeholder(tmp_path: Path) -> None:
    ws = workspace(tmp_path, {"pangram.py": PANGRAM, "README.md": "# pangram\n"})
    listing = collect(ws)
    prompt = oneshot_messages("Implement is_pangram in pangram.py.", listing)[1]["content"]
    assert "path/of/the_file.py" not in prompt
    assert "reply with" in prompt.lower() and "\npangram.py\n```python\n" in prompt
    new = oneshot_messages("写一个report.md文件", collect(workspace(tmp_path / "b", {})))[1]
    assert "\nreport.md\n```markdown\n" in new["content"]
    empty = oneshot_messages("Write a script", collect(workspace(tmp_path / "c", {})))[1]
    assert "\nmain.py\n```python\n" in empty["content"]


def test_one_block_under_any_path_is_the_one_file_the_request_targets(tmp_path: Path) -> None:
    ws = workspace(tmp_path, {"pangram.py": PANGRAM, "README.md": "# pangram\n"})
    listing = collect(ws)
    targets = draft_targets("Implement is_pangram in pangram.py.", listing)
    assert targets == ["pangram.py"]
    drafted = drafted_files(PLACEHOLDER_REPLY, ws, listing, targets=targets)
    assert drafted.files == {"pangram.py": SOLVED}
    assert drafted.notes == ["the reply named path/of/the_file.py for block 1; it is read as "
                             "pangram.py, the file the request asks for"]


def test_an_unasked_missing_path_is_the_target_unless_another_block_gives_it(
        tmp_path: Path) -> None:
    ws = workspace(tmp_path, {"pangram.py": PANGRAM, "README.md": "# pangram\n"})
    listing = collect(ws)
    reply = (PLACEHOLDER_REPLY + "\nREADME.md\n```markdown\n# pangram\n\nNow done.\n```\n")
    drafted = drafted_files(reply, ws, listing, targets=["pangram.py"])
    assert drafted.files == {"pangram.py": SOLVED, "README.md": "# pangram\n\nNow done.\n"}
    both = (f"pangram.py\n```python\n{SOLVED}```\n\ntest_pangram.py\n```python\n"
            "def test_it():\n    pass\n```\n")
    kept_apart = drafted_files(both, ws, listing, targets=["pangram.py"])
    assert set(kept_apart.files) == {"pangram.py", "test_pangram.py"}  # the target is given


def test_with_several_targets_paths_are_taken_as_written(tmp_path: Path) -> None:
    ws = workspace(tmp_path, {"a.py": "A = 1\n", "b.py": "B = 1\n"})
    listing = collect(ws)
    drafted = drafted_files(PLACEHOLDER_REPLY, ws, listing, targets=["a.py", "b.py"])
    assert drafted.files == {"path/of/the_file.py": SOLVED} and drafted.notes == []
