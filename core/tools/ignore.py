"""Which workspace paths the ignore files keep out of view, by git's rules (``pathspec``).

Two sets of rules, each read from every folder of the workspace: the ``.gitignore`` files
(with ``.git/info/exclude`` beneath them), which a setting can turn off, and the
``.phasedeskignore`` files, which always apply. Within one set a deeper file's rules come
before a shallower one's, the last matching line of a file decides, and a path under an
ignored folder is ignored too (git does not look inside an excluded folder).
"""

from __future__ import annotations

from pathlib import Path

from pathspec import GitIgnoreSpec

GITIGNORE = ".gitignore"
OWN = ".phasedeskignore"
RULES_BYTES = 256 * 1024  # of one ignore file read at most


class IgnoreRules:
    """The ignore rules of the workspace folder ``root`` (its real path); ignore files are
    read once, when a path beneath their folder is first asked about."""

    def __init__(self, root: Path, honour_gitignore: bool = True) -> None:
        self.root = root
        self.honour_gitignore = honour_gitignore
        self._specs: dict[tuple[str, str], GitIgnoreSpec | None] = {}
        self._answers: dict[tuple[str, bool], str] = {}

    def reason(self, rel: str, is_dir: bool = False) -> str:
        """Why ``rel`` (posix, relative to the root) is ignored — "ignored by .gitignore" or
        "ignored by .phasedeskignore" — or "" when it is not."""
        rel = rel.strip("/")
        if not rel or rel == ".":
            return ""
        key = (rel, is_dir)
        if key not in self._answers:
            parent, _, _ = rel.rpartition("/")
            self._answers[key] = (self.reason(parent, True) if parent else "") \
                or self._own_reason(rel, is_dir)
        return self._answers[key]

    def _own_reason(self, rel: str, is_dir: bool) -> str:
        for name in (OWN, GITIGNORE) if self.honour_gitignore else (OWN,):
            if self._decides(name, rel, is_dir):
                return f"ignored by {name}"
        return ""

    def _decides(self, name: str, rel: str, is_dir: bool) -> bool:
        """Whether the ``name`` files on the way to ``rel`` exclude it (deepest first)."""
        parts = rel.split("/")
        for depth in range(len(parts) - 1, -1, -1):
            folder = "/".join(parts[:depth])
            spec = self._spec(name, folder)
            if spec is None:
                continue
            below = "/".join(parts[depth:]) + ("/" if is_dir else "")
            result = spec.check_file(below)
            if result.include is not None:
                return bool(result.include)
        if name == GITIGNORE:
            info = self._spec("info/exclude", ".git")
            if info is not None:
                return bool(info.check_file(rel + ("/" if is_dir else "")).include)
        return False

    def _spec(self, name: str, folder: str) -> GitIgnoreSpec | None:
        key = (name, folder)
        if key not in self._specs:
            self._specs[key] = _read_spec(self.root / folder / name)
        return self._specs[key]


def _read_spec(path: Path) -> GitIgnoreSpec | None:
    """The rules of one ignore file; None when there is none (or it cannot be read)."""
    try:
        if path.is_symlink() or not path.is_file():
            return None
        with open(path, "rb") as handle:
            data = handle.read(RULES_BYTES)
    except OSError:
        return None
    lines = data.decode("utf-8", errors="replace").splitlines()
    return GitIgnoreSpec.from_lines(lines) if any(line.strip() for line in lines) else None
