"""The diffs a write carries: correct hunks, new and deleted files, bounds, the run's diff."""

from __future__ import annotations

import random
import re

from tool_harness import Harness

from core.events import FileChanged
from core.tools.diffs import LINE_CHARS, MAX_CHARS, MAX_LINES, Oversize, file_diff

HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def apply(old: list[str], diff: str) -> list[str]:
    """Apply a unified diff to ``old`` as patch would, checking every line it claims."""
    lines = diff.split("\n")[2:]
    new: list[str] = []
    at = 0
    index = 0
    while index < len(lines):
        match = HUNK.fullmatch(lines[index])
        assert match, lines[index]
        start = int(match.group(1)) - (1 if match.group(2) != "0" else 0)
        new += old[at:start]
        at = start
        index += 1
        while index < len(lines) and not lines[index].startswith("@@"):
            sign, text = lines[index][0], lines[index][1:]
            if sign in " -":
                assert old[at] == text
                at += 1
            if sign in " +":
                new.append(text)
            index += 1
    return new + old[at:]


def encode(lines: list[str]) -> bytes:
    return "".join(line + "\n" for line in lines).encode()


def test_random_edits_give_hunks_that_rebuild_the_new_file() -> None:
    rng = random.Random(7)
    for _ in range(400):
        old = [rng.choice("abcdefg") for _ in range(rng.randint(0, 40))]
        new = list(old)
        for _ in range(rng.randint(1, 6)):
            roll = rng.random()
            if roll < 0.3 and new:
                del new[rng.randrange(len(new))]
            elif roll < 0.6:
                new.insert(rng.randint(0, len(new)), rng.choice("abxyz"))
            elif new:
                new[rng.randrange(len(new))] = rng.choice("xyz")
        diff = file_diff("f.txt", encode(old), encode(new))
        assert apply(old, diff.text) == new if old != new else diff.text == ""
        assert diff.added == sum(line.startswith("+") for line in diff.text.split("\n")[2:])
        assert diff.removed == sum(line.startswith("-") for line in diff.text.split("\n")[2:])


def test_new_and_deleted_files_have_dev_null_headers() -> None:
    created = file_diff("src/new.py", None, b"a = 1\nb = 2\n")
    assert created == (created.__class__(2, 0, "--- /dev/null\n+++ b/src/new.py\n"
                                               "@@ -0,0 +1,2 @@\n+a = 1\n+b = 2"))
    deleted = file_diff("old.py", b"x\n", None)
    assert deleted.text == "--- a/old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x"
    assert (deleted.added, deleted.removed) == (0, 1)


def test_a_huge_rewrite_is_bounded_with_a_marker_but_counted_in_full() -> None:
    old = [f"old line {n}" for n in range(50_000)]
    new = [f"new line {n}" for n in range(60_000)]
    diff = file_diff("big.txt", encode(old), encode(new))
    assert (diff.added, diff.removed) == (60_000, 50_000)
    lines = diff.text.split("\n")
    assert len(lines) == MAX_LINES + 1 and len(diff.text) <= MAX_CHARS + 100
    shown = MAX_LINES - 3  # the two headers and the hunk line
    assert lines[-1] == f"\\ {110_000 - shown:,} more diff lines not shown"


def test_long_lines_are_cut_and_the_characters_bounded() -> None:
    diff = file_diff("min.js", b"", ("x" * 2_000_000 + "\n").encode())
    assert diff.added == 1
    assert diff.text.split("\n")[-1] == "+" + "x" * (LINE_CHARS - 1) + \
        f"… [{2_000_000 - LINE_CHARS + 1:,} more characters]"
    wide = file_diff("wide.txt", b"", encode([f"{n} " + "y" * 300 for n in range(1000)]))
    assert len(wide.text) <= MAX_CHARS + 100 and wide.text.endswith("more diff lines not shown")


def test_scattered_changes_in_a_long_file_stay_small() -> None:
    old = [f"line {n}" for n in range(40_000)]
    new = [("changed" if n % 1000 == 0 else line) for n, line in enumerate(old)]
    diff = file_diff("long.txt", encode(old), encode(new))
    assert (diff.added, diff.removed) == (40, 40)
    assert apply(old, diff.text) == new


def test_binary_oversize_and_newline_only_changes_get_a_note() -> None:
    assert file_diff("a.bin", b"\x00\x01", b"\x00\x02").text.endswith(
        "\\ binary file; no line diff")
    assert file_diff("a.log", Oversize(9_000_000), b"x\n").text.endswith(
        "\\ too large to compare (9,000,000 bytes); no line diff")
    assert file_diff("a.txt", b"a\nb", b"a\nb\n").text.endswith(
        "\\ only line endings or the final newline changed")
    assert file_diff("a.txt", b"same\n", b"same\n").text == ""


def test_a_second_write_carries_the_runs_whole_diff_of_the_file(harness: Harness) -> None:
    (harness.workspace / "conf.py").write_text("PORT = 8000\nDEBUG = True\n")
    assert harness.call("edit_file", path="conf.py", old_text="8000", new_text="8080").ok
    assert harness.call("edit_file", path="conf.py", old_text="True", new_text="False").ok
    assert harness.call("write_file", path="new.md", content="# One\n").ok
    assert harness.call("write_file", path="new.md", content="# Two\n").ok
    first, second, created, rewritten = [e for e in harness.events
                                         if isinstance(e, FileChanged)]
    assert (first.run_diff, first.added, first.removed) == ("", 1, 1)
    assert second.diff.endswith("-DEBUG = True\n+DEBUG = False")
    assert second.run_diff == ("--- a/conf.py\n+++ b/conf.py\n@@ -1,2 +1,2 @@\n-PORT = 8000\n"
                               "-DEBUG = True\n+PORT = 8080\n+DEBUG = False")
    assert (second.run_added, second.run_removed) == (2, 2)
    assert created.change == "created" and created.run_diff == ""
    assert rewritten.diff == "--- a/new.md\n+++ b/new.md\n@@ -1 +1 @@\n-# One\n+# Two"
    assert rewritten.run_diff == "--- /dev/null\n+++ b/new.md\n@@ -0,0 +1 @@\n+# Two"
    assert (rewritten.run_added, rewritten.run_removed) == (1, 0)


def test_a_huge_rewrite_sends_a_bounded_event(harness: Harness) -> None:
    from core.events import to_json

    big = harness.workspace / "big.txt"
    big.write_text("".join(f"old line {n} {'x' * 40}\n" for n in range(100_000)))  # ~5 MB
    content = "".join(f"new {n}\n" for n in range(20_000))
    assert harness.call("write_file", path="big.txt", content=content, overwrite=True).ok
    assert harness.call("edit_file", path="big.txt", old_text="new 7\n",
                        new_text="seven\n").ok
    rewrite, edit = [e for e in harness.events if isinstance(e, FileChanged)]
    assert (rewrite.added, rewrite.removed) == (20_000, 100_000)
    assert len(to_json(rewrite)) < 2 * MAX_CHARS + 1_000
    assert rewrite.diff.endswith("more diff lines not shown")
    assert (edit.added, edit.removed) == (1, 1) and edit.diff.count("\n") == 10
    assert edit.run_diff.startswith("--- a/big.txt") and len(to_json(edit)) < 2 * MAX_CHARS + 1_000
