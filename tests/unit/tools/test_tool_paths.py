"""Every way out of the workspace is refused, by every tool, with the rule named."""

from __future__ import annotations

import os
import shutil
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tool_harness import Harness

from core.tools import paths
from core.tools.base import ToolError
from tests.support.proc_tree import require_sandbox


def test_plain_relative_and_absolute_inside_paths_resolve(workspace: Path) -> None:
    (workspace / "src").mkdir()
    (workspace / "src" / "a.py").write_text("x = 1\n")
    assert paths.resolve(workspace, "src/a.py").rel == "src/a.py"
    assert paths.resolve(workspace, "./src/../src/a.py").rel == "src/a.py"
    assert paths.resolve(workspace, str(workspace / "src" / "a.py")).rel == "src/a.py"
    assert paths.resolve(workspace, ".").rel == "."
    missing = paths.resolve(workspace, "new/file.txt")
    assert (missing.rel, missing.exists) == ("new/file.txt", False)


@pytest.mark.parametrize(("raw", "rule"), [
    ("../x", "path escapes the workspace: ../x"),
    ("src/../../x", "path escapes the workspace"),
    ("/etc/passwd", "absolute path outside the workspace: /etc/passwd"),
    ("", "path is empty"),
    ("a\x00b", "NUL byte"),
])
def test_lexical_escapes_are_refused(workspace: Path, raw: str, rule: str) -> None:
    with pytest.raises(ToolError, match=rule.replace("(", r"\(")):
        paths.resolve(workspace, raw)


def test_symlink_to_root_is_refused(workspace: Path) -> None:
    (workspace / "root").symlink_to("/")
    with pytest.raises(ToolError, match="symlink leads outside the workspace: root/etc/passwd"):
        paths.resolve(workspace, "root/etc/passwd")
    with pytest.raises(ToolError, match="symlink leads outside"):
        paths.resolve(workspace, "root")


def test_symlink_chain_leaving_the_workspace_is_refused(workspace: Path, tmp_path: Path
                                                        ) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    (workspace / "c").symlink_to(outside)
    (workspace / "b").symlink_to("c")
    (workspace / "a").symlink_to("b")
    with pytest.raises(ToolError, match=r"symlink leads outside the workspace: a/secret\.txt"):
        paths.resolve(workspace, "a/secret.txt")


def test_symlink_staying_inside_is_followed(workspace: Path) -> None:
    (workspace / "real.txt").write_text("hi")
    (workspace / "link.txt").symlink_to("real.txt")
    assert paths.resolve(workspace, "link.txt").rel == "real.txt"


def test_dangling_symlink_pointing_outside_is_refused(workspace: Path, tmp_path: Path) -> None:
    (workspace / "out").symlink_to(tmp_path / "does-not-exist-yet")
    with pytest.raises(ToolError, match="symlink leads outside"):
        paths.resolve(workspace, "out")


def test_symlink_loop_is_refused(workspace: Path) -> None:
    (workspace / "x").symlink_to("y")
    (workspace / "y").symlink_to("x")
    with pytest.raises(ToolError, match="symlink loop"):
        paths.resolve(workspace, "x")


def test_fifo_socket_and_device_are_refused(workspace: Path) -> None:
    os.mkfifo(workspace / "pipe")
    with pytest.raises(ToolError, match=r"not a regular file or folder \(a FIFO\): pipe"):
        paths.resolve(workspace, "pipe")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(workspace / "sock"))
        with pytest.raises(ToolError, match=r"\(a socket\)"):
            paths.resolve(workspace, "sock")
    finally:
        server.close()
    (workspace / "null").symlink_to("/dev/null")
    with pytest.raises(ToolError, match="symlink leads outside"):
        paths.resolve(workspace, "null")


def test_workspace_given_through_a_symlink(tmp_path: Path, workspace: Path) -> None:
    alias = tmp_path / "alias"
    alias.symlink_to(workspace)
    (workspace / "f.txt").write_text("x")
    assert paths.resolve(alias, str(alias / "f.txt")).rel == "f.txt"
    assert paths.resolve(alias, "f.txt").real == workspace / "f.txt"


@pytest.mark.parametrize("tool,arguments", [
    ("read_file", {}),
    ("write_file", {"content": "pwned", "overwrite": True}),
    ("edit_file", {"old_text": "root", "new_text": "toor"}),
    ("list_files", {}),
    ("search_code", {"pattern": "root"}),
])
@pytest.mark.parametrize("raw", ["../x", "/etc/passwd", "root/etc/passwd", "chain/passwd",
                                 "fifo"])
def test_every_tool_refuses_every_escape(harness: Harness, tmp_path: Path, tool: str,
                                         arguments: dict[str, object], raw: str) -> None:
    ws = harness.workspace
    (ws / "root").symlink_to("/")
    (ws / "hop").symlink_to("/etc")
    (ws / "chain").symlink_to("hop")
    os.mkfifo(ws / "fifo")
    (tmp_path / "x").write_text("outside")
    before = (tmp_path / "x").read_bytes()
    result = harness.call(tool, path=raw, **arguments)
    assert not result.ok
    assert any(rule in result.error for rule in (
        "path escapes the workspace", "absolute path outside the workspace",
        "symlink leads outside the workspace", "not a regular file or folder"))
    assert (tmp_path / "x").read_bytes() == before
    assert harness.events == []


@pytest.fixture
def outside() -> Iterator[Path]:
    """A file outside the workspace and outside /tmp (whose sandboxed view is private)."""
    folder = Path("/var/tmp") / f"phasedesk-escape-{uuid.uuid4().hex}"
    folder.mkdir()
    (folder / "x").write_text("outside")
    yield folder / "x"
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("raw", ["../x", "{outside}", "root{outside}", "chain/x", "hop/x"])
@pytest.mark.parametrize("write", ["echo pwned > {}", "echo pwned >> {}", "rm -f {}",
                                   "ln -sf /etc/passwd {}", "mv {} moved"])
def test_a_command_cannot_escape_the_same_ways(harness: Harness, tmp_path: Path, outside: Path,
                                               raw: str, write: str) -> None:
    """run_command runs sandboxed: the same escapes fail inside the shell and change nothing."""
    require_sandbox()
    ws = harness.workspace
    (ws / "root").symlink_to("/")
    (ws / "hop").symlink_to(outside.parent)
    (ws / "chain").symlink_to("hop")
    (tmp_path / "x").write_text("outside")
    target = raw.format(outside=outside)
    result = harness.call("run_command", command=write.format(target))
    assert result.sandbox == "sandboxed"
    if not target.startswith(".."):  # ../ is the sandbox's private /tmp: nothing to refuse
        assert not result.ok and "Read-only file system" in result.output, result.output
    assert (tmp_path / "x").read_text() == outside.read_text() == "outside"
    assert sorted(p.name for p in outside.parent.iterdir()) == ["x"]
    assert {p.name for p in tmp_path.iterdir()} - {"phasedesk-home"} == {"ws", "x"}


SEGMENTS = ["..", ".", "a", "b", "out", "inner", "loop", "x.txt", ""]


@given(st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=8), st.booleans())
@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_no_combination_of_segments_resolves_outside(tmp_path: Path, parts: list[str],
                                                     absolute: bool) -> None:
    ws = tmp_path / "prop-ws"
    if not ws.exists():
        (ws / "a" / "b").mkdir(parents=True)
        (tmp_path / "outside").mkdir()
        (ws / "out").symlink_to(tmp_path / "outside")
        (ws / "a" / "inner").symlink_to("b")
        (ws / "a" / "b" / "loop").symlink_to("../../a")
    raw = "/".join(parts)
    if absolute:
        raw = f"{ws}/{raw}"
    root = os.path.realpath(ws)
    try:
        resolved = paths.resolve(ws, raw)
    except ToolError:
        return
    assert paths.inside(resolved.real, root)
    assert str(resolved.real) == os.path.realpath(os.path.join(ws, raw))
