"""write_file and edit_file: approval, read-before-overwrite, atomicity, events."""

from __future__ import annotations

import os
import stat

from tool_harness import Harness

from core.events import FileChanged


def test_write_creates_parents_asks_and_emits(harness: Harness) -> None:
    result = harness.call("write_file", path="a/b/new.txt", content="héllo\n")
    assert result.ok and result.output == "wrote a/b/new.txt (7 bytes, created)"
    assert (harness.workspace / "a/b/new.txt").read_bytes() == "héllo\n".encode()
    assert harness.approvals == [("write", "a/b/new.txt (7 bytes)")]
    assert harness.events == [FileChanged(
        path="a/b/new.txt", change="created", bytes=7, task_id=7, phase_id=1, added=1,
        diff="--- /dev/null\n+++ b/a/b/new.txt\n@@ -0,0 +1 @@\n+héllo")]
    assert [p.name for p in (harness.workspace / "a/b").iterdir()] == ["new.txt"]
    mode = stat.S_IMODE((harness.workspace / "a/b/new.txt").stat().st_mode)
    assert mode == 0o644


def test_write_refuses_an_unread_existing_file(harness: Harness) -> None:
    target = harness.workspace / "keep.txt"
    target.write_text("precious")
    refused = harness.call("write_file", path="keep.txt", content="gone")
    assert not refused.ok
    assert refused.error == ("keep.txt already exists and was not read in this run; read it "
                             "first, or pass overwrite=true to replace it")
    assert target.read_text() == "precious" and harness.approvals == []
    forced = harness.call("write_file", path="keep.txt", content="new", overwrite=True)
    assert forced.ok and target.read_text() == "new"
    assert harness.events[-1] == FileChanged(
        "keep.txt", "modified", 3, task_id=7, phase_id=1, added=1, removed=1,
        diff="--- a/keep.txt\n+++ b/keep.txt\n@@ -1 +1 @@\n-precious\n+new")


def test_write_after_reading_keeps_the_mode(harness: Harness) -> None:
    target = harness.workspace / "run.sh"
    target.write_text("echo 1\n")
    target.chmod(0o755)
    assert harness.call("read_file", path="run.sh").ok
    assert harness.call("write_file", path="run.sh", content="echo 2\n").ok
    assert target.read_text() == "echo 2\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o755


def test_denied_write_changes_nothing(harness: Harness) -> None:
    harness.answer = False
    result = harness.call("write_file", path="x.txt", content="data")
    assert not result.ok and result.error == "denied by user"
    assert not (harness.workspace / "x.txt").exists()
    assert harness.events == [] and harness.run.checkpoint is None


def test_write_through_an_inside_symlink_replaces_the_target(harness: Harness) -> None:
    (harness.workspace / "real.txt").write_text("old")
    (harness.workspace / "alias.txt").symlink_to("real.txt")
    harness.call("read_file", path="alias.txt")
    assert harness.call("write_file", path="alias.txt", content="new").ok
    assert (harness.workspace / "real.txt").read_text() == "new"
    assert os.path.islink(harness.workspace / "alias.txt")


def test_edit_replaces_exactly_one_match(harness: Harness) -> None:
    target = harness.workspace / "m.py"
    target.write_bytes(b"def f():\n    return 1\n\ndef g():\n    return 2\n")
    result = harness.call("edit_file", path="m.py", old_text="return 2", new_text="return 3")
    assert result.ok
    assert result.output.startswith("edited m.py: replaced lines 5–5")
    assert "     5\t    return 3" in result.output
    assert target.read_bytes() == b"def f():\n    return 1\n\ndef g():\n    return 3\n"
    assert harness.approvals == [("write", "m.py (45 bytes)")]
    assert harness.events == [FileChanged(
        "m.py", "modified", 45, task_id=7, phase_id=1, added=1, removed=1,
        diff="--- a/m.py\n+++ b/m.py\n@@ -2,4 +2,4 @@\n     return 1\n \n def g():\n"
             "-    return 2\n+    return 3")]


def test_edit_with_zero_matches(harness: Harness) -> None:
    (harness.workspace / "m.py").write_text("a = 1\n")
    result = harness.call("edit_file", path="m.py", old_text="b = 1", new_text="b = 2")
    assert not result.ok
    assert result.error == ("old_text was not found in m.py (0 matches); copy old_text "
                            "exactly from the file as it is now:\n     1\ta = 1")
    assert (harness.workspace / "m.py").read_text() == "a = 1\n" and harness.events == []


def test_a_missed_edit_of_a_long_file_shows_the_lines_most_like_old_text(
        harness: Harness) -> None:
    lines = [f"value_{n} = {n}" for n in range(1, 80)]
    lines[59] = "PORT = 8000"
    (harness.workspace / "server.py").write_text("\n".join(lines) + "\n")
    result = harness.call("edit_file", path="server.py", old_text="port=8000",
                          new_text="listen_port=8000")
    assert not result.ok
    head, *shown = result.error.split("\n")
    assert head == ("old_text was not found in server.py (0 matches); copy old_text exactly "
                    "from the file; the lines most like it:")
    assert "    60\tPORT = 8000" in shown
    assert len(shown) <= 11 and all(line.startswith(" ") for line in shown)


def test_a_missed_edit_with_nothing_alike_says_to_read_the_file(harness: Harness) -> None:
    (harness.workspace / "big.txt").write_text("".join(f"{n}\n" for n in range(100)))
    result = harness.call("edit_file", path="big.txt", old_text="def main():", new_text="x")
    assert result.error == ("old_text was not found in big.txt (0 matches); copy old_text "
                            "exactly from the file (read_file shows it), including whitespace")


def test_edit_with_two_matches_names_the_lines(harness: Harness) -> None:
    (harness.workspace / "m.py").write_text("x = 1\ny = 2\nx = 1\n")
    result = harness.call("edit_file", path="m.py", old_text="x = 1", new_text="x = 3")
    assert not result.ok
    assert "matches 2 times in m.py (at lines 1, 3)" in result.error
    assert (harness.workspace / "m.py").read_text() == "x = 1\ny = 2\nx = 1\n"


def test_edit_keeps_undecodable_bytes(harness: Harness) -> None:
    target = harness.workspace / "l1.txt"
    target.write_bytes(b"caf\xe9 = 1\nname = 'x'\n")
    assert harness.call("edit_file", path="l1.txt", old_text="'x'", new_text="'y'").ok
    assert target.read_bytes() == b"caf\xe9 = 1\nname = 'y'\n"


def test_edit_refuses_binary_and_missing_files(harness: Harness) -> None:
    (harness.workspace / "b.bin").write_bytes(b"ab\x00cd")
    assert "binary file" in harness.call("edit_file", path="b.bin", old_text="ab",
                                         new_text="x").error
    assert "file not found: nope.txt" in harness.call("edit_file", path="nope.txt",
                                                      old_text="a", new_text="b").error


def test_edit_does_not_overwrite_a_change_made_while_asking(harness: Harness) -> None:
    target = harness.workspace / "m.py"
    target.write_text("a = 1\n")

    async def approve_while_someone_types(action: str, detail: str, scope: str = "",
                                           diff: str = "") -> bool:
        target.write_text("a = 1\nb = 2\n")
        return True

    harness.approve = approve_while_someone_types  # type: ignore[method-assign]
    result = harness.call("edit_file", path="m.py", old_text="a = 1", new_text="a = 3")
    assert not result.ok
    assert result.error == ("m.py changed while waiting for approval; nothing was written; "
                            "read it again and redo the edit")
    assert target.read_text() == "a = 1\nb = 2\n" and harness.events == []


def test_an_edit_whose_new_text_holds_the_old_is_never_applied_twice(harness: Harness) -> None:
    target = harness.workspace / "config.json"
    target.write_text('{"host": "0.0.0.0", "port": 8000}')
    first = harness.call("edit_file", path="config.json", old_text="port", new_text="listen_port")
    assert first.ok and target.read_text() == '{"host": "0.0.0.0", "listen_port": 8000}'
    again = harness.call("edit_file", path="config.json", old_text="port", new_text="listen_port")
    assert not again.ok and "already made" in again.error
    assert target.read_text() == '{"host": "0.0.0.0", "listen_port": 8000}'
    target.write_text('{"listen_port": 1, "port": 2}')  # one match left outside new_text
    third = harness.call("edit_file", path="config.json", old_text="port", new_text="listen_port")
    assert third.ok and target.read_text() == '{"listen_port": 1, "listen_port": 2}'


def test_python_that_does_not_parse_is_refused_and_nothing_is_written(harness: Harness) -> None:
    (harness.workspace / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    harness.run.read_paths.add("calc.py")
    result = harness.call("write_file", path="calc.py", content="def add(a, b:\n    return a\n")
    assert not result.ok
    assert "not valid Python" in result.error and "line 1" in result.error
    assert (harness.workspace / "calc.py").read_text() == "def add(a, b):\n    return a + b\n"
    edit = harness.call("edit_file", path="calc.py", old_text="return a + b", new_text="return (")
    assert not edit.ok and "not valid Python" in edit.error
    assert (harness.workspace / "calc.py").read_text() == "def add(a, b):\n    return a + b\n"


def test_a_file_that_did_not_parse_before_may_be_written_and_the_facts_say_so(harness: Harness) -> None:
    (harness.workspace / "broken.py").write_text("def f(:\n")
    harness.run.read_paths.add("broken.py")
    result = harness.call("write_file", path="broken.py", content="def f(:\n    pass\n")
    assert result.ok and "broken.py does not parse" in result.output


def test_the_facts_of_a_write_name_lost_definitions_and_a_shrink(harness: Harness) -> None:
    original = "class Cart:\n    def add(self, item):\n        pass\n\n" \
               "    def total(self):\n        return 0\n\n\ndef helper():\n    return 1\n"
    (harness.workspace / "cart.py").write_text(original)
    harness.run.read_paths.add("cart.py")
    result = harness.call("write_file", path="cart.py", content="class Cart:\n    pass\n")
    assert result.ok
    assert "cart.py parses" in result.output
    assert "no longer defines Cart.add, Cart.total, helper" in result.output
    assert "replaced by much less content" in result.output
