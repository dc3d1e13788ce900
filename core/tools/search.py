"""search_code: regex search over the workspace, with ripgrep when present.

Both engines follow one set of rules, so their output is identical: Python regex syntax
(a pattern ripgrep cannot run falls back to Python); a leading UTF-8 BOM dropped; text
printed as UTF-8 with invalid bytes shown as U+FFFD; hidden files included; folders in
``IGNORED_DIRS`` and what the run's gate keeps out of view (the ignore files) skipped; files
the gate holds back as secrets (by name, or a credential in the lines that would be shown)
named as held back, their lines not shown; symlinks not followed; files with a NUL byte in
their first 8 KiB or larger than 20 MiB skipped; a match is reported as ``path:line:text``
with lines longer than 300 characters cut; results sorted by path and line, the first
``max_results`` kept.

One difference remains, on purpose: ripgrep matches invalid UTF-8 bytes as raw bytes, the
fallback as U+FFFD, so a pattern that must match such a byte itself (``caf.`` against
Latin-1 ``café``) finds it only in the fallback. Asking ripgrep to transcode instead
(``--encoding utf-8``) makes it slower than the fallback.
"""

from __future__ import annotations

import asyncio
import codecs
import heapq
import os
import re
import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Annotated

from core.tools import paths
from core.tools.base import ToolContext, ToolError
from core.tools.enclosing import enclosing
from core.tools.gate import Gate
from core.tools.registry import Limit, PathArg, tool

MAX_FILE_SIZE = 20 * 1024 * 1024
LINE_CAP = 300
Match = tuple[str, int, str]


def ripgrep() -> str | None:
    """The ripgrep executable, or None to use the pure-Python search."""
    return shutil.which("rg")


@tool
async def search_code(ctx: ToolContext, pattern: Annotated[str, Limit(min_length=1,
                                                                       max_length=1000)],
                      path: PathArg = ".",
                      glob: Annotated[str, Limit(max_length=200)] | None = None,
                      max_results: Annotated[int, Limit(minimum=1, maximum=2000)] = 200) -> str:
    """Search file contents with a regular expression (Python syntax).

    Prints one 'path:line:text' per matching line, sorted by path and line; a line of a
    Python file names the function or class it is in: 'path:line (in Class.method):text'.

    Args:
        pattern: Regular expression to look for, matched against each line.
        path: Folder (or file) to search, relative to the workspace root.
        glob: Only search files whose name matches this glob, e.g. '*.py' (whose path
            matches it when it contains '/', e.g. 'src/**/*.ts').
        max_results: Show at most this many matching lines.
    """
    try:
        regex = re.compile(pattern)
    except re.error as exc:
        raise ToolError(f"invalid regular expression {pattern!r}: {exc}") from None
    target = paths.resolve(ctx.run.workspace, path)
    if not target.exists:
        raise paths.not_found(target, "path")
    gate = ctx.run.gate
    gate.refuse_ignored(target.rel, target.is_dir)
    accept = glob_matcher(glob)
    found: Collector | None = None
    executable = ripgrep()
    if executable:
        found = await _ripgrep(executable, target, pattern, glob, accept,
                               Collector(max_results, gate))
    if found is None:
        found = await asyncio.to_thread(_python, target, regex, accept,
                                        Collector(max_results, gate))
    return await asyncio.to_thread(found.render, pattern, target.rel, target.root)


class Collector:
    """Keeps the ``limit`` smallest matches by (path, line) and counts the rest; a file the
    gate keeps out of view is skipped, one named as a secret held back."""

    def __init__(self, limit: int, gate: Gate) -> None:
        self.limit = limit
        self.gate = gate
        self.total = 0
        self._items: list[Match] = []
        self._files: dict[str, str] = {}  # path → "" (searched), "ignored" or why held back
        self.held: dict[str, str] = {}  # path → its held-back note

    def _judged(self, rel: str) -> str:
        if rel not in self._files:
            why = "ignored" if self.gate.ignored(rel) else self.gate.secret_name(rel)
            self._files[rel] = why
            if why and why != "ignored":
                self.held[rel] = self.gate.held_entry(rel, why)
        return self._files[rel]

    def add(self, rel: str, number: int, line: str) -> None:
        if self._judged(rel):
            return
        self.total += 1
        text = line.removesuffix("\r")
        if len(text) > LINE_CAP:
            text = text[: LINE_CAP - 1] + "…"
        self._items.append((rel, number, text))
        if len(self._items) >= 4 * self.limit + 1000:
            self._items = heapq.nsmallest(self.limit, self._items)

    def _shown(self) -> list[Match]:
        """The first matches, without those of a file whose shown lines hold a secret."""
        first = heapq.nsmallest(self.limit, self._items)
        by_file: dict[str, list[str]] = {}
        for rel, _, text in first:
            by_file.setdefault(rel, []).append(text)
        for rel, lines in by_file.items():
            why = self.gate.secret(rel, "\n".join(lines))
            if why:
                self.held[rel] = self.gate.held_entry(rel, why)
                self.total -= len(lines)
        return [match for match in first if match[0] not in self.held]

    def render(self, pattern: str, where: str, root: Path) -> str:
        first = self._shown()
        held = [self.held[rel] for rel in sorted(self.held)]
        if not first:
            return "\n".join([f"no matches for {pattern!r} in {where}"] + (
                [f"Not shown: {'; '.join(held)}."] if held else []))
        names = {path: _definitions(root, path) for path, _, _ in first if path.endswith(".py")}
        lines = []
        for path, number, text in first:
            name = names[path](number) if path in names else ""
            lines.append(f"{path}:{number} (in {name}):{text}" if name
                         else f"{path}:{number}:{text}")
        if self.total > self.limit:
            lines.append(f"… {self.total:,} matching lines; showing the first {self.limit}. "
                         "Narrow the pattern, path or glob, or raise max_results.")
        else:
            files = len({path for path, _, _ in first})
            lines.append(f"({self.total} matching line{'s' * (self.total != 1)} in {files} "
                         f"file{'s' * (files != 1)})")
        if held:
            lines.append(f"Not shown: {'; '.join(held)}.")
        for path in dict.fromkeys(path for path, _, _ in first):
            self.gate.release(path, next(line for line in lines
                                         if line.startswith(f"{path}:")))
        return "\n".join(lines)


def _definitions(root: Path, rel: str) -> Callable[[int], str]:
    try:
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as handle:
            return enclosing(handle.read(MAX_FILE_SIZE))
    except OSError:
        return lambda _line: ""


def glob_matcher(glob: str | None) -> Callable[[str], bool]:
    """Gitignore-style: '*' stays within a folder, '**/' spans folders; no '/' means the name."""
    if not glob:
        return lambda rel: True
    parts: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            parts.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            parts.append(".*")
            i += 2
        else:
            parts.append({"*": "[^/]*", "?": "[^/]"}.get(glob[i], re.escape(glob[i])))
            i += 1
    regex = re.compile("".join(parts) + r"\Z")
    if "/" in glob:
        return lambda rel: regex.match(rel) is not None
    return lambda rel: regex.match(rel.rsplit("/", 1)[-1]) is not None


def _is_text(real: str) -> bool:
    try:
        with open(real, "rb") as handle:
            return b"\x00" not in handle.read(8192)
    except OSError:
        return False


def _python(target: paths.Resolved, regex: re.Pattern[str], accept: Callable[[str], bool],
            found: Collector) -> Collector:
    for rel, real in _files(target, found.gate):
        if not accept(rel):
            continue
        try:
            with open(real, "rb") as handle:
                if b"\x00" in handle.read(8192):
                    continue
                handle.seek(0)
                for number, raw in enumerate(handle, start=1):
                    if number == 1:
                        raw = raw.removeprefix(codecs.BOM_UTF8)
                    line = raw.decode("utf-8", errors="replace").removesuffix("\n")
                    if regex.search(line):
                        found.add(rel, number, line)
        except OSError:
            continue
    return found


def _files(target: paths.Resolved, gate: Gate) -> Iterator[tuple[str, str]]:
    if not target.is_dir:
        if os.path.getsize(target.real) <= MAX_FILE_SIZE:
            yield target.rel, str(target.real)
        return
    for rel, entry in gate.walk(target.rel):
        try:
            if entry.is_symlink() or not entry.is_file(follow_symlinks=False) \
                    or entry.stat(follow_symlinks=False).st_size > MAX_FILE_SIZE:
                continue
        except OSError:
            continue
        yield rel, entry.path


async def _ripgrep(executable: str, target: paths.Resolved, pattern: str, glob: str | None,
                   accept: Callable[[str], bool], found: Collector) -> Collector | None:
    """Matches found by ripgrep, or None when it cannot run this search."""
    args = [executable, "--no-config", "--no-ignore", "--hidden", "--text", "--null",
            "--line-number", "--with-filename", "--no-heading",
            "--color", "never", "--no-messages", "--max-filesize", str(MAX_FILE_SIZE)]
    for name in sorted(paths.IGNORED_DIRS):
        args += ["--glob", f"!{name}"]
    if glob and "/" not in glob:
        args += ["--glob", glob]
    args += ["--regexp", pattern, "--", target.rel]
    proc = await asyncio.create_subprocess_exec(
        *args, cwd=target.root, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    texts: dict[str, bool] = {}
    try:
        assert proc.stdout is not None
        async for raw in _lines(proc.stdout):
            where, _, rest = raw.partition(b"\x00")
            number, _, text = rest.partition(b":")
            rel = os.path.normpath(where.decode("utf-8", errors="surrogateescape"))
            rel = rel.replace(os.sep, "/")
            if rel not in texts:
                texts[rel] = accept(rel) and _is_text(os.path.join(target.root, rel))
            if texts[rel] and number.isdigit():
                found.add(rel, int(number), text.decode("utf-8", errors="replace"))
        code = await proc.wait()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return None if code == 2 and found.total == 0 else found


async def _lines(stream: asyncio.StreamReader) -> AsyncIterator[bytes]:
    """Lines without their newline, read in large chunks (far fewer awaits than readline)."""
    pending: list[bytes] = []
    while chunk := await stream.read(256 * 1024):
        parts = chunk.split(b"\n")
        if len(parts) == 1:
            pending.append(chunk)
            continue
        pending.append(parts[0])
        yield b"".join(pending)
        for part in parts[1:-1]:
            yield part
        pending = [parts[-1]]
    if any(pending):
        yield b"".join(pending)
