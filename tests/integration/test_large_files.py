"""A file is measured before it is read: a 200 MB file in the workspace (sparse, text at its
start) is never read into memory by any run that shows, reads, searches or lists the
workspace's files, and the draft shows it as its path, size and first lines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from core.engine.authoring.draft import oneshot_messages
from core.tools.text_files import collect
from tests.support.script import files_workspace

HUGE = 200 * 1024 * 1024
ROOT = Path(__file__).resolve().parents[2]
LIMIT_KIB = 300 * 1024


def workspace(root: Path, huge: bool) -> Path:
    folder = files_workspace(root, {"app.py": "def main():\n    return 1\n",
                                    "data/notes.txt": "a line\nanother line\n"})
    if huge:
        with open(folder / "data" / "huge.txt", "wb") as handle:
            handle.write(b"".join(b"line %06d of the big file\n" % n for n in range(1000)))
            handle.truncate(HUGE)  # the rest is a hole: no disk, but 200 MB when read
    return folder


def peak_kib(folder: Path) -> int:
    """The peak resident memory (KiB) of a process running ``peak_memory_run`` on ``folder``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "tests.support.peak_memory_run", str(folder)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return int(done.stdout.strip().splitlines()[-1])


def test_a_200_mb_file_is_not_read_into_memory(tmp_path: Path) -> None:
    without = peak_kib(workspace(tmp_path / "small", huge=False))
    with_huge = peak_kib(workspace(tmp_path / "large", huge=True))
    assert with_huge - without < LIMIT_KIB, (without, with_huge)


def test_the_draft_shows_a_large_file_as_its_path_size_and_first_lines(tmp_path: Path) -> None:
    folder = workspace(tmp_path, huge=True)
    listing = collect(folder)
    assert listing.paths == ["app.py", "data/notes.txt"]
    [head] = listing.heads
    assert (head.path, head.size) == ("data/huge.txt", HUGE)
    assert head.text.splitlines() == [f"line {n:06d} of the big file" for n in range(20)]
    prompt = oneshot_messages("Change app.py", listing)[1]["content"]
    assert ("data/huge.txt (209,715,200 bytes, too large to show whole; its first lines)\n"
            "```text\nline 000000 of the big file\n") in prompt
    assert "line 000020" not in prompt
