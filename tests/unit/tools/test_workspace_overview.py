"""The workspace's files as the model first sees them."""

from __future__ import annotations

import os
from pathlib import Path

from core.tools.overview import overview


def make(root: Path, *files: str) -> None:
    for rel in files:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x")


def test_lists_the_top_of_the_tree_before_its_depths(tmp_path: Path) -> None:
    make(tmp_path, "a/deep/deeper/leaf.py", "a/mid.py", "setup.cfg", "z.txt")
    lines = overview(tmp_path).splitlines()
    assert lines == ["Workspace files when the run started:", "a/", "setup.cfg", "z.txt",
                     "a/deep/", "a/mid.py", "a/deep/deeper/", "a/deep/deeper/leaf.py"]


def test_skips_the_folders_the_tools_skip(tmp_path: Path) -> None:
    make(tmp_path, ".git/HEAD", "node_modules/x/index.js", ".venv/bin/python",
         "src/__pycache__/m.pyc", "src/m.py")
    assert overview(tmp_path).splitlines()[1:] == ["src/", "src/m.py"]


def test_a_large_workspace_is_cut_with_how_many_there_are(tmp_path: Path) -> None:
    make(tmp_path, *[f"f{n:03}.txt" for n in range(120)])
    lines = overview(tmp_path, limit=50).splitlines()
    assert lines[0] == ("Workspace files when the run started (the first 50 of 120; "
                        "list_files shows the rest):")
    assert lines[1:] == [f"f{n:03}.txt" for n in range(50)]


def test_an_empty_workspace_says_so(tmp_path: Path) -> None:
    assert overview(tmp_path) == "The workspace folder is empty."


def test_a_linked_folder_is_named_but_not_entered(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    make(outside, "secret.txt")
    workspace = tmp_path / "ws"
    make(workspace, "main.py")
    os.symlink(outside, workspace / "link")
    assert overview(workspace).splitlines()[1:] == ["link", "main.py"]
