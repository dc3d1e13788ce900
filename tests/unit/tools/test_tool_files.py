"""list_files and read_file on real files."""

from __future__ import annotations

import re

from tool_harness import Harness


def test_list_files_sorted_with_ignores_and_sizes(harness: Harness) -> None:
    ws = harness.workspace
    for folder in (".git", "node_modules", ".venv", "src/__pycache__", "src/pkg"):
        (ws / folder).mkdir(parents=True)
    (ws / ".git" / "HEAD").write_text("ref")
    (ws / "src" / "pkg" / "mod.py").write_text("x = 1\n")
    (ws / "src" / "__pycache__" / "mod.pyc").write_bytes(b"\0")
    (ws / "README.md").write_text("hello")
    (ws / "link").symlink_to("README.md")
    flat = harness.call("list_files")
    assert flat.ok
    assert flat.output.splitlines() == ["README.md  (5 bytes)", "link -> README.md", "src/"]
    deep = harness.call("list_files", recursive=True)
    assert deep.output.splitlines() == ["README.md  (5 bytes)", "link -> README.md", "src/",
                                        "src/pkg/", "src/pkg/mod.py  (6 bytes)"]
    only_py = harness.call("list_files", path="src", pattern="*.py", recursive=True)
    assert only_py.output == "src/pkg/mod.py  (6 bytes)"


def test_list_files_says_when_truncated(harness: Harness) -> None:
    for i in range(30):
        (harness.workspace / f"f{i:02}.txt").write_text("x")
    result = harness.call("list_files", max_entries=10)
    lines = result.output.splitlines()
    assert len(lines) == 11 and lines[9].startswith("f09.txt")
    assert "truncated after 10 entries" in lines[10]


def test_list_files_errors(harness: Harness) -> None:
    (harness.workspace / "a.txt").write_text("x")
    listed = harness.call("list_files", path="a.txt")  # a file named for a folder: said, no error
    assert listed.ok and listed.output == ("a.txt (1 bytes) is a file, not a folder; read_file "
                                           "shows its content")
    assert "folder not found" in harness.call("list_files", path="nope").error
    assert harness.call("list_files", pattern="*.rs").output == (
        "no entries match '*.rs' in the workspace root")


def test_a_missing_path_names_what_the_workspace_has_by_that_name(harness: Harness) -> None:
    ws = harness.workspace
    for folder in ("pkg", "docs/pkg", ".venv/lib"):
        (ws / folder).mkdir(parents=True)
    (ws / "setup.cfg").write_text("[metadata]\n")
    (ws / ".venv" / "lib" / "setup.cfg").write_text("")  # an ignored folder is not named
    assert harness.call("list_files", path="pkg/setup.cfg").error == (
        "folder not found: pkg/setup.cfg (by that name the workspace has setup.cfg)")
    assert harness.call("read_file", path="src/setup.cfg").error == (
        "file not found: src/setup.cfg (by that name the workspace has setup.cfg)")
    assert harness.call("search_code", pattern="x", path="src/pkg").error == (
        "path not found: src/pkg (by that name the workspace has pkg/, docs/pkg/)")
    assert harness.call("read_file", path="nothing.txt").error == "file not found: nothing.txt"


def test_read_file_numbers_lines_and_records_the_read(harness: Harness) -> None:
    (harness.workspace / "a.py").write_text("one\ntwo\r\nthree")
    result = harness.call("read_file", path="a.py")
    assert result.output == "a.py — lines 1–3 of 3\n     1\tone\n     2\ttwo\n     3\tthree"
    assert "a.py" in harness.run.read_paths
    middle = harness.call("read_file", path="a.py", start_line=2, end_line=2)
    assert middle.output == "a.py — lines 2–2 of 3\n     2\ttwo"


def test_read_file_range_errors(harness: Harness) -> None:
    (harness.workspace / "a.py").write_text("one\n")
    assert "past the end of a.py (1 lines)" in harness.call(
        "read_file", path="a.py", start_line=5).error
    assert "end_line (1) is before start_line (2)" in harness.call(
        "read_file", path="a.py", start_line=2, end_line=1).error
    assert "file not found: b.py" in harness.call("read_file", path="b.py").error
    assert "is a folder" in harness.call("read_file", path=".").error


def test_reading_a_5_mb_file_is_capped_with_a_note(harness: Harness) -> None:
    line = "x" * 99 + "\n"
    (harness.workspace / "big.txt").write_text(line * 50_000)
    result = harness.call("read_file", path="big.txt")
    assert result.ok
    assert len(result.output.encode()) < 64 * 1024 + 400
    note = result.output.splitlines()[-1]
    match = re.fullmatch(r"\[truncated — showing lines 1–(\d+) of 50000 \(64 KiB limit\); "
                         r"ask for lines (\d+)–50000 with start_line=(\d+)\]", note)
    assert match, note
    shown, next_line, start = (int(g) for g in match.groups())
    assert next_line == start == shown + 1 and 500 < shown < 700
    follow = harness.call("read_file", path="big.txt", start_line=next_line)
    assert follow.output.splitlines()[1].startswith(f"{next_line:>6}\t")
    tail = harness.call("read_file", path="big.txt", start_line=49_990)
    assert "truncated" not in tail.output and tail.output.endswith("50000\t" + "x" * 99)


def test_a_single_huge_line_is_cut(harness: Harness) -> None:
    (harness.workspace / "min.js").write_text("a" * 300_000 + "\nsecond\n")
    result = harness.call("read_file", path="min.js")
    assert result.ok and "line(s) 1 longer than 64 KiB were cut" in result.output
    assert len(result.output) < 70_000
    assert "ask for lines 2–2" in result.output


def test_binary_file_is_refused(harness: Harness) -> None:
    (harness.workspace / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 10)
    result = harness.call("read_file", path="img.png")
    assert not result.ok
    assert result.error == "img.png is a binary file (160 bytes); read_file only shows text"
    assert "img.png" not in harness.run.read_paths


def test_non_utf8_is_decoded_with_replacement_and_said_so(harness: Harness) -> None:
    (harness.workspace / "latin1.txt").write_bytes("café\nnaïve\n".encode("latin-1"))
    result = harness.call("read_file", path="latin1.txt")
    assert result.ok
    assert "     1\tcaf\ufffd" in result.output
    assert "not valid UTF-8; undecodable bytes are shown as �" in result.output
    (harness.workspace / "utf8.txt").write_text("café\n", encoding="utf-8")
    assert "not valid UTF-8" not in harness.call("read_file", path="utf8.txt").output


def test_empty_file(harness: Harness) -> None:
    (harness.workspace / "empty.txt").write_bytes(b"")
    assert harness.call("read_file", path="empty.txt").output == "empty.txt is empty"
