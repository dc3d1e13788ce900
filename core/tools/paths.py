"""Confinement: every path a tool touches is resolved here against the workspace root.

A path is refused, with an error naming the rule, when it

- is empty or contains a NUL byte;
- is absolute and lies outside the workspace ("absolute path outside the workspace");
- climbs out with ``..`` ("path escapes the workspace");
- leads outside through a symlink or a chain of them ("symlink leads outside the workspace");
- loops through symlinks ("symlink loop");
- names a device, FIFO, socket or other special file ("not a regular file or folder").

Callers open files through ``open_regular`` (no following of a final symlink, no
blocking on a FIFO swapped in after the check) so a check and its use cannot drift apart.
"""

from __future__ import annotations

import errno
import os
import posixpath
import stat
from dataclasses import dataclass
from pathlib import Path

from core.tools.errors import ToolError
from core.tools.ignore import IgnoreRules

# Folders no tool lists, searches, copies or reports changes in: version control, installed
# packages, and the caches Python's tools leave behind (a test command's .pytest_cache is not
# a change the person asked for).
IGNORED_DIRS = frozenset({".git", "node_modules", ".venv", "__pycache__", ".pytest_cache",
                          ".mypy_cache", ".ruff_cache"})

NAME_SCAN = 20_000  # workspace entries looked at for a missing path's name
NAMED_AT_MOST = 3

_SPECIAL_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


@dataclass(frozen=True)
class Resolved:
    """A confined path: ``real`` has every symlink followed; ``rel`` is posix, relative to root."""

    root: Path
    real: Path
    rel: str
    exists: bool
    is_dir: bool

    @property
    def is_file(self) -> bool:
        return self.exists and not self.is_dir


def path_key(value: object) -> str:
    """A path as a call names it, in the one form calls are compared by (forward slashes,
    normalised, relative as given); "" when it names none."""
    if not isinstance(value, str) or not value.strip():
        return ""
    return posixpath.normpath(value.strip().replace("\\", "/"))


def workspace_root(workspace: Path) -> Path:
    """The real (symlink-free) workspace folder; a missing folder is an error."""
    root = Path(os.path.realpath(workspace))
    if not root.is_dir():
        raise ToolError(f"the workspace folder does not exist: {workspace}")
    return root


def inside(path: str | Path, root: str | Path) -> bool:
    path, root = os.fspath(path), os.fspath(root)
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def resolve(workspace: Path, raw: str) -> Resolved:
    """Resolve ``raw`` (relative, or absolute inside the workspace) or raise ``ToolError``."""
    if not raw or not raw.strip():
        raise ToolError("path is empty")
    if "\x00" in raw:
        raise ToolError(f"path contains a NUL byte: {raw!r}")
    root = workspace_root(workspace)
    given_root = os.path.abspath(workspace)
    candidate = os.path.join(root, raw)
    lexical = os.path.normpath(candidate)
    if not (inside(lexical, root) or inside(lexical, given_root)):
        if os.path.isabs(raw):
            raise ToolError(f"absolute path outside the workspace: {raw}")
        raise ToolError(f"path escapes the workspace: {raw}")
    real = os.path.realpath(candidate)
    if not inside(real, root):
        raise ToolError(f"symlink leads outside the workspace: {raw} -> {real}")
    try:
        info = os.stat(real)
    except FileNotFoundError:
        return Resolved(root, Path(real), _relative(real, root), exists=False, is_dir=False)
    except NotADirectoryError:
        raise ToolError(f"a parent of this path is a file, not a folder: {raw}") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ToolError(f"symlink loop: {raw}") from None
        raise ToolError(f"cannot access {raw}: {exc.strerror}") from None
    check_kind(info.st_mode, raw)
    return Resolved(root, Path(real), _relative(real, root), exists=True,
                    is_dir=stat.S_ISDIR(info.st_mode))


def check_kind(mode: int, raw: str) -> None:
    """Refuse anything but a regular file or a folder."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return
    kind = next((name for test, name in _SPECIAL_KINDS if test(mode)), "a special file")
    raise ToolError(f"not a regular file or folder ({kind}): {raw}")


def open_regular(target: Resolved) -> int:
    """A read-only descriptor of the regular file ``target``; the caller closes it."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(target.real, flags)
    except FileNotFoundError:
        raise not_found(target) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ToolError(f"the file became a symlink while opened: {target.rel}") from None
        raise ToolError(f"cannot open {target.rel}: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise ToolError(f"{target.rel} is a folder, not a file")
        check_kind(mode, target.rel)
    except BaseException:
        os.close(fd)
        raise
    return fd


def not_found(target: Resolved, what: str = "file") -> ToolError:
    """"file not found: pkg/setup.cfg", naming what the workspace has by that name ("(by that
    name the workspace has setup.cfg)"), so a wrong folder is put right in one step."""
    name = posixpath.basename(target.rel)
    same = same_name(target.root, name) if name not in ("", ".", "..") else []
    if not same:
        return ToolError(f"{what} not found: {target.rel}")
    shown = ", ".join(same[:NAMED_AT_MOST]) + (" and more" if len(same) > NAMED_AT_MOST else "")
    return ToolError(f"{what} not found: {target.rel} (by that name the workspace has {shown})")


def same_name(root: Path, name: str) -> list[str]:
    """The workspace paths (folders end with "/") whose last part is ``name``, in walk order,
    but what the ignore files exclude; at most ``NAME_SCAN`` entries are looked at."""
    rules = IgnoreRules(root)
    found: list[str] = []
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in IGNORED_DIRS
                         and not rules.reason(_relative(os.path.join(folder, d), root), True))
        for entry in [*dirs, *sorted(files)]:
            seen += 1
            if seen > NAME_SCAN:
                return found
            rel = _relative(os.path.join(folder, entry), root)
            if entry == name and not rules.reason(rel, entry in dirs):
                found.append(rel + ("/" if entry in dirs else ""))
    return found


def require_file(workspace: Path, raw: str) -> Resolved:
    """Resolve ``raw`` and insist that it is an existing regular file."""
    target = resolve(workspace, raw)
    if not target.exists:
        raise not_found(target)
    if target.is_dir:
        raise ToolError(f"{target.rel} is a folder, not a file")
    return target


def _relative(real: str, root: Path) -> str:
    rel = os.path.relpath(real, root)
    return Path(rel).as_posix()
