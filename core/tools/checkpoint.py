"""Per-run checkpoints: what every file looked like before a run first wrote it.

Layout under ``data_dir()/checkpoints/<run_id>/``::

    manifest.json   {"workspace", "files": {rel: {"original", "written", "mode"}},
                     "created_dirs", "undone", "undone_files"}
    blobs/<sha256>  original bytes of files the run changed (deduplicated)

``original`` is the SHA-256 of the bytes before the run's first write, or null when the
file did not exist; ``written`` is the SHA-256 of what the run last wrote. ``undo_run``
puts every file back byte for byte, or changes nothing and names the first file whose
content no longer matches what the run wrote. ``undo_file`` does the same for one file and
moves it from ``files`` to ``undone_files``, so the run's undo leaves it alone; when the
last file is undone that way the run counts as undone.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.appdirs import data_dir
from core.tools import paths
from core.tools.base import RunState, ToolError

_CHUNK = 1024 * 1024
_RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")


@dataclass
class UndoReport:
    run_id: str
    ok: bool
    message: str
    restored: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """The report for a person: the outcome, then one line per file."""
        lines = [self.message]
        lines += [f"  restored {rel}" for rel in self.restored]
        lines += [f"  deleted  {rel}" for rel in self.deleted]
        return "\n".join(lines)


def checkpoint_dir(run_id: str) -> Path:
    if not _RUN_ID.match(run_id):
        raise ValueError(f"not a valid run id: {run_id!r}")
    return data_dir() / "checkpoints" / run_id


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def atomic_write(target: Path, data: bytes | Path, mode: int | None) -> None:
    """Write ``data`` (bytes, or a file's content) to a temp file beside ``target`` and
    rename it over ``target``; ``mode`` None gives a new file 0o644."""
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                with open(data, "rb") as source:
                    shutil.copyfileobj(source, handle, _CHUNK)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode if mode is not None else 0o644)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


class Checkpoint:
    """The on-disk record of one run's file changes; safe to use from several threads.

    Writers hold ``writing`` around record-write-record, so two writes reaching one file
    (say through a symlink alias) are recorded in the order they happened.
    """

    def __init__(self, run_id: str, workspace: Path | None = None) -> None:
        self.run_id = run_id
        self.folder = checkpoint_dir(run_id)
        self._lock = threading.Lock()
        self.writing = threading.Lock()
        self._data: dict[str, Any] = {"workspace": str(workspace or ""), "files": {},
                                      "created_dirs": [], "undone": False}
        manifest = self.folder / "manifest.json"
        if manifest.exists():
            self._data = json.loads(manifest.read_text(encoding="utf-8"))
        self._data.setdefault("undone_files", [])

    @classmethod
    def of(cls, run: RunState) -> Checkpoint:
        """The run's checkpoint, created on first use."""
        if not isinstance(run.checkpoint, Checkpoint):
            run.checkpoint = cls(run.run_id, run.workspace)
        checkpoint: Checkpoint = run.checkpoint
        return checkpoint

    def before_write(self, target: paths.Resolved) -> None:
        """Record the original bytes of ``target`` unless this run already wrote it."""
        with self._lock:
            if target.rel in self._data["files"]:
                return
            entry: dict[str, Any] = {"original": None, "written": None, "mode": None}
            if target.exists:
                entry["original"] = self._store_blob(target.real)
                entry["mode"] = target.real.stat().st_mode & 0o7777
            self._data["files"][target.rel] = entry
            self._save()

    def after_write(self, target: paths.Resolved, data: bytes) -> None:
        with self._lock:
            self._data["files"][target.rel]["written"] = sha256(data)
            self._save()

    def created_dirs(self, rels: list[str]) -> None:
        with self._lock:
            self._data["created_dirs"].extend(rels)
            self._save()

    def files(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            return {rel: dict(entry) for rel, entry in self._data["files"].items()}

    def wrote(self, rel: str) -> bool:
        """Whether the run wrote ``rel`` before (its original is recorded)."""
        with self._lock:
            return rel in self._data["files"]

    def original_path(self, rel: str) -> Path | None:
        """Where the bytes ``rel`` had before the run are kept; None when the run created it
        (or never wrote it)."""
        with self._lock:
            entry = self._data["files"].get(rel)
            if entry is None or entry["original"] is None:
                return None
            return self.folder / "blobs" / str(entry["original"])

    def undo_file(self, rel: str) -> UndoReport:
        """Put one file back as it was before the run; the others keep their changes."""
        with self._lock:
            return self._undo_file(rel)

    def _undo_file(self, rel: str) -> UndoReport:
        run_id = self.run_id
        entry = self._data["files"].get(rel)
        if self._data["undone"] or rel in self._data["undone_files"]:
            return UndoReport(run_id, False, f"{rel} was already undone")
        if entry is None:
            return UndoReport(run_id, False, f"run {run_id} did not change {rel}")
        target, problem = self._check(Path(self._data["workspace"]), rel, entry)
        if target is None:
            return UndoReport(run_id, False, f"cannot undo {rel}: {problem}; nothing was "
                                             "changed")
        report = UndoReport(run_id, True, "")
        try:
            self._restore(target, entry, report)
        except OSError as exc:
            return UndoReport(run_id, False, f"cannot undo {rel}: {exc}")
        del self._data["files"][rel]
        self._data["undone_files"].append(rel)
        self._data["undone"] = not self._data["files"]
        if entry["original"] is None:
            self._remove_created_dirs(Path(self._data["workspace"]))
        self._save()
        report.message = (f"deleted {rel}, which the run created" if report.deleted
                          else f"restored {rel} as it was before the run")
        return report

    def _check(self, workspace: Path, rel: str, entry: dict[str, Any]
               ) -> tuple[paths.Resolved | None, str]:
        """The file to restore, or None and why it cannot be: it changed since the run wrote
        it, or its saved original is missing or damaged."""
        try:
            target = paths.resolve(workspace, rel)
        except ToolError as exc:
            return None, f"{rel}: {exc}"
        current = file_sha256(target.real) if target.is_file else None
        expected = entry["written"] if entry["written"] is not None else entry["original"]
        if target.is_dir or current != expected:
            what = ("was replaced by a folder" if target.is_dir
                    else "was deleted" if current is None else "changed")
            return None, (f"{rel} {what} since the run wrote it (its content no longer "
                          "matches what the run wrote)")
        blob = self.folder / "blobs" / str(entry["original"])
        if entry["original"] is not None and (
                not blob.exists() or file_sha256(blob) != entry["original"]):
            return None, f"the saved original of {rel} is missing or damaged"
        return target, ""

    def undo(self) -> UndoReport:
        with self._lock:
            return self._undo()

    def _undo(self) -> UndoReport:
        run_id = self.run_id
        if self._data["undone"]:
            return UndoReport(run_id, False, f"run {run_id} was already undone")
        entries: dict[str, dict[str, Any]] = self._data["files"]
        if not entries:
            return UndoReport(run_id, True, f"run {run_id} changed no files; nothing to undo")
        workspace = Path(self._data["workspace"])
        plan: list[tuple[paths.Resolved, dict[str, Any]]] = []
        for rel, entry in sorted(entries.items()):
            target, problem = self._check(workspace, rel, entry)
            if target is None:
                return self._refuse(problem)
            plan.append((target, entry))
        report = UndoReport(run_id, True, "")
        for target, entry in plan:
            try:
                self._restore(target, entry, report)
            except OSError as exc:
                report.ok = False
                report.message = (f"undo of run {run_id} stopped at {target.rel}: {exc}; "
                                  f"already restored: {report.restored + report.deleted}")
                return report
        self._remove_created_dirs(workspace)
        self._data["undone"] = True
        self._save()
        report.message = (f"undid run {run_id}: restored {len(report.restored)} file(s), "
                          f"deleted {len(report.deleted)} created file(s)")
        return report

    def _restore(self, target: paths.Resolved, entry: dict[str, Any], report: UndoReport
                 ) -> None:
        if entry["original"] is None:
            target.real.unlink(missing_ok=True)
            report.deleted.append(target.rel)
        else:
            atomic_write(target.real, self.folder / "blobs" / entry["original"], entry["mode"])
            report.restored.append(target.rel)

    def _refuse(self, reason: str) -> UndoReport:
        return UndoReport(self.run_id, False,
                          f"cannot undo run {self.run_id}: {reason}; nothing was changed")

    def _remove_created_dirs(self, workspace: Path) -> None:
        for rel in sorted(set(self._data["created_dirs"]), key=len, reverse=True):
            try:
                target = paths.resolve(workspace, rel)
                if target.is_dir:
                    target.real.rmdir()
            except (ToolError, OSError):
                continue

    def _store_blob(self, source: Path) -> str:
        """Copy ``source`` into the blob store in chunks; returns its SHA-256."""
        blobs = self.folder / "blobs"
        blobs.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256()
        fd, temp = tempfile.mkstemp(dir=blobs, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out, open(source, "rb") as handle:
                while chunk := handle.read(_CHUNK):
                    digest.update(chunk)
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, blobs / digest.hexdigest())
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
            raise
        return digest.hexdigest()

    def _save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self._data, indent=1, sort_keys=True).encode("utf-8")
        atomic_write(self.folder / "manifest.json", text, 0o600)


def sweep_interrupted(run_id: str) -> list[str]:
    """Delete the temp files a killed run left beside the files it was writing.

    ``atomic_write`` names them ``.NAME.XXXXXXXX.tmp`` in the target's folder; a run that
    dies between creating one and renaming it leaves it behind. Only that pattern is
    removed, and only beside files the run's checkpoint lists. Returns the paths removed.
    """
    try:
        data = json.loads((checkpoint_dir(run_id) / "manifest.json").read_text(encoding="utf-8"))
        workspace, files = Path(data["workspace"]), list(data["files"])
    except (OSError, ValueError, KeyError, TypeError):
        return []
    removed: list[str] = []
    for rel in files:
        try:
            target = paths.resolve(workspace, rel)
            entries = list(os.scandir(target.real.parent))
        except (ToolError, OSError):
            continue
        leftover = re.compile(rf"\.{re.escape(target.real.name)}\.[a-z0-9_]{{8}}\.tmp")
        for entry in entries:
            if leftover.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
                    removed.append(os.path.relpath(entry.path, target.root).replace(os.sep, "/"))
    return removed


def sweep_interrupted_runs(run_ids: Iterable[str]) -> list[str]:
    """``sweep_interrupted`` for each run (those ``Store.mark_interrupted`` just marked);
    returns the paths removed."""
    return [path for run_id in run_ids for path in sweep_interrupted(run_id)]
