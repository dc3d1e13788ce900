"""The history: conversations, their runs, and every event of every run, in SQLite.

Durability: WAL, ``synchronous=NORMAL``, one transaction per event. A WAL commit is a
``write()`` to the WAL file, so an event is safe from a killed process (SIGKILL too) once
``append_event`` returns; a power cut may lose the last commits but never corrupts the file.
``FULL`` adds an fsync per event (about 4 ms here, 35x slower) for the power-cut case only.
``MIGRATIONS[i]`` takes ``PRAGMA user_version`` from i to i + 1, on open, one transaction each.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypedDict, cast

from core import secrets
from core.appdirs import data_dir
from core.config import fields
from core.events import Event, FileChanged, LlmCall, RunFinished, is_progress, to_json
from core.shapes.mcp_server import hidden_env
from core.store.run_ids import SHOWN_MATCHES, id_start, the_one

RUN_STATUSES = ("running", "completed", "budget_exhausted", "cancelled", "failed",
                "clarification_needed", "interrupted")
_SECRET_SUFFIXES = ("api_key", "_secret", "password", "_token", "authorization")

MIGRATIONS: list[tuple[str, ...]] = [
    (
        "CREATE TABLE conversations (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL,"
        " created_at REAL NOT NULL, updated_at REAL NOT NULL)",
        "CREATE TABLE runs (id TEXT PRIMARY KEY, conversation_id INTEGER NOT NULL"
        " REFERENCES conversations(id) ON DELETE CASCADE, request TEXT NOT NULL,"
        " engine TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL,"
        " settings_snapshot TEXT NOT NULL DEFAULT '{}', status TEXT NOT NULL DEFAULT 'running',"
        " started_at REAL NOT NULL, finished_at REAL, llm_calls INTEGER NOT NULL DEFAULT 0,"
        " prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0,"
        " marked INTEGER NOT NULL DEFAULT 0, changed_files INTEGER NOT NULL DEFAULT 0,"
        " owner_pid INTEGER)",
        "CREATE INDEX runs_by_conversation ON runs (conversation_id, started_at)",
        "CREATE TABLE events (run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
        " seq INTEGER NOT NULL, kind TEXT NOT NULL, at REAL NOT NULL, json TEXT NOT NULL,"
        " PRIMARY KEY (run_id, seq)) WITHOUT ROWID",
    ),
    ("ALTER TABLE runs ADD COLUMN outcome TEXT NOT NULL DEFAULT ''",),
    ("ALTER TABLE runs ADD COLUMN verification TEXT NOT NULL DEFAULT ''",
     "ALTER TABLE runs ADD COLUMN verification_line TEXT NOT NULL DEFAULT ''"),
    ("ALTER TABLE runs ADD COLUMN undone_at REAL",),
]


class ConversationInfo(TypedDict):
    id: int
    title: str
    created_at: float
    updated_at: float
    run_count: int
    last_outcome: str  # what the latest run achieved ("" while it runs or before outcomes)


class RunInfo(TypedDict):
    id: str
    conversation_id: int
    request: str
    engine: str
    provider: str
    model: str
    settings_snapshot: dict[str, Any]
    status: str
    started_at: float
    finished_at: float | None
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    marked: bool
    changed_files: int
    owner_pid: int | None
    outcome: str
    verification: str  # verified | failing | unverified ("" before it was recorded)
    verification_line: str  # "12 tests pass", "not verified"
    undone_at: float | None  # when the person undid the run's file changes (None: never)


def public_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` without secret entries; their values are registered for ``redact``."""
    secret_names = {f.name for f in fields() if f.metadata["secret"]}
    server_lists = {f.name for f in fields() if isinstance(f.default, tuple)}
    kept: dict[str, Any] = {}
    for name, value in settings.items():
        if name in server_lists:
            kept[name] = hidden_env(value)
            continue
        if name in secret_names or name.lower().endswith(_SECRET_SUFFIXES):
            if isinstance(value, str):
                secrets.remember(value)
            continue
        kept[name] = secrets.redact(value) if isinstance(value, str) else value
    return kept


class Store:
    """One open history database. Thread-safe; every call is short enough for the UI loop."""

    def __init__(self, path: Path | None = None) -> None:
        """Open (creating and migrating as needed) ``path``, by default in the data dir."""
        self.path = path if path is not None else data_dir() / "history.sqlite3"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._conn = sqlite3.connect(self.path, isolation_level=None, timeout=10.0,
                                     check_same_thread=False)
        self._conn.row_factory = sqlite3.Row
        try:
            for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
                self._conn.execute(f"PRAGMA {pragma}")
            self._migrate()
        except BaseException:
            self._conn.close()
            raise

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _migrate(self) -> None:
        with self._tx() as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > len(MIGRATIONS):
                raise RuntimeError(f"{self.path} has schema version {version}, newer than this "
                                   f"PhaseDesk understands ({len(MIGRATIONS)})")
            for number in range(version, len(MIGRATIONS)):
                for statement in MIGRATIONS[number]:
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {number + 1}")

    @property
    def schema_version(self) -> int:
        return int(self._rows("PRAGMA user_version")[0][0])

    def create_conversation(self, title: str) -> int:
        now = time.time()
        with self._tx() as conn:
            return int(conn.execute("INSERT INTO conversations (title, created_at, updated_at) "
                                    "VALUES (?, ?, ?)", (_title(title), now, now)).lastrowid or 0)

    def _change_one(self, sql: str, params: tuple[Any, ...], missing: str) -> None:
        with self._tx() as conn:
            if conn.execute(sql, params).rowcount == 0:
                raise KeyError(missing)

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        self._change_one("UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?",
                         (_title(title), time.time(), conversation_id),
                         f"no conversation {conversation_id}")

    def delete_conversation(self, conversation_id: int) -> None:
        """Delete a conversation with all its runs and their events."""
        self._change_one("DELETE FROM conversations WHERE id = ?", (conversation_id,),
                         f"no conversation {conversation_id}")

    def list_conversations(self) -> list[ConversationInfo]:
        """All conversations, most recently active first."""
        return self._conversations("ORDER BY updated_at DESC, id DESC")

    def conversation(self, conversation_id: int) -> ConversationInfo | None:
        found = self._conversations("WHERE id = ?", conversation_id)
        return found[0] if found else None

    def _conversations(self, clause: str, *params: Any) -> list[ConversationInfo]:
        rows = self._rows("SELECT c.*, (SELECT COUNT(*) FROM runs WHERE conversation_id = c.id)"
                          " AS run_count, COALESCE((SELECT outcome FROM runs WHERE"
                          " conversation_id = c.id ORDER BY started_at DESC, rowid DESC LIMIT 1),"
                          f" '') AS last_outcome FROM conversations c {clause}", *params)
        return [cast(ConversationInfo, dict(row)) for row in rows]

    def _rows(self, sql: str, *params: Any) -> list[sqlite3.Row]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def start_run(self, conversation_id: int, request: str, engine: str, provider: str,
                  model: str, settings: dict[str, Any]) -> str:
        """Record a new run as ``running``; the API key never reaches the snapshot."""
        run_id, now = str(uuid.uuid4()), time.time()
        snapshot = json.dumps(public_settings(settings), ensure_ascii=False)
        with self._tx() as conn:
            conn.execute("INSERT INTO runs (id, conversation_id, request, engine, provider, model,"
                         " settings_snapshot, started_at, owner_pid)"
                         " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (run_id, conversation_id, secrets.redact(request), engine, provider,
                          model, snapshot, now, os.getpid()))
            conn.execute("UPDATE conversations SET updated_at = ? WHERE id = ?",
                         (now, conversation_id))
        return run_id

    def append_event(self, run_id: str, event: Event) -> int:
        """Commit one event and return its sequence number (1, 2, … within the run).

        In the same transaction an ``LlmCall`` adds to the live totals, a ``FileChanged``
        recounts the distinct paths changed, and ``RunFinished`` finishes the run.
        """
        text = secrets.redact(to_json(event))
        with self._tx() as conn:
            seq = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE run_id = ?",
                               (run_id,)).fetchone()[0]
            conn.execute("INSERT INTO events (run_id, seq, kind, at, json) VALUES (?, ?, ?, ?, ?)",
                         (run_id, seq, event.kind, time.time(), text))
            if isinstance(event, LlmCall):
                conn.execute(
                    "UPDATE runs SET llm_calls = llm_calls + 1, prompt_tokens = prompt_tokens + ?,"
                    " completion_tokens = completion_tokens + ? WHERE id = ?",
                    (event.prompt_tokens, event.completion_tokens, run_id))
            elif isinstance(event, FileChanged):
                conn.execute(
                    "UPDATE runs SET changed_files = (SELECT COUNT(DISTINCT json_extract(json, "
                    "'$.path')) FROM events WHERE run_id = ?1 AND kind = 'file_changed') "
                    "WHERE id = ?1", (run_id,))
            elif isinstance(event, RunFinished):
                self._finish(conn, run_id, event.status, event.llm_calls, event.prompt_tokens,
                             event.completion_tokens)
                conn.execute("UPDATE runs SET outcome = ?, verification = ?, verification_line = ?"
                             " WHERE id = ?", (event.outcome, event.verification,
                                               event.verification_line, run_id))
        return int(seq)

    def finish_run(self, run_id: str, status: str, llm_calls: int | None = None,
                   prompt_tokens: int | None = None, completion_tokens: int | None = None) -> None:
        """Set the final status; totals left as ``None`` keep the live counts."""
        if status not in RUN_STATUSES or status == "running":
            raise ValueError(f"not a final run status: {status!r}")
        with self._tx() as conn:
            self._finish(conn, run_id, status, llm_calls, prompt_tokens, completion_tokens)

    @staticmethod
    def _finish(conn: sqlite3.Connection, run_id: str, status: str, *totals: int | None) -> None:
        now = time.time()
        if conn.execute(
                "UPDATE runs SET status = ?, finished_at = ?, llm_calls = COALESCE(?, llm_calls),"
                " prompt_tokens = COALESCE(?, prompt_tokens),"
                " completion_tokens = COALESCE(?, completion_tokens) WHERE id = ?",
                (status, now, *totals, run_id)).rowcount == 0:
            raise KeyError(f"no run {run_id}")
        conn.execute("UPDATE conversations SET updated_at = ? WHERE id = "
                     "(SELECT conversation_id FROM runs WHERE id = ?)", (now, run_id))

    def runs(self, conversation_id: int) -> list[RunInfo]:
        """The conversation's runs, oldest first."""
        return self._runs("conversation_id = ? ORDER BY started_at, rowid", conversation_id)

    def all_runs(self) -> list[RunInfo]:
        """Every run of every conversation, newest first."""
        return [_run_info(row) for row in self._rows(
            "SELECT * FROM runs ORDER BY started_at DESC, rowid DESC")]

    def record_undo(self, run_id: str) -> None:
        """Record that the run's file changes were undone (all of them, now)."""
        self._change_one("UPDATE runs SET undone_at = ? WHERE id = ?", (time.time(), run_id),
                         f"no run {run_id}")

    def run(self, run_id: str) -> RunInfo | None:
        found = self._runs("id = ?", run_id)
        return found[0] if found else None

    def resolve_run_id(self, text: str) -> str:
        """The full id of the one run ``text`` names: its id or any start of it, in any case
        (``fca1e85b``). Raises ``core.store.run_ids.RunIdError`` when no run or several
        runs match, with those runs, newest first."""
        start = id_start(text)
        rows = self._rows("SELECT * FROM runs WHERE substr(id, 1, ?) = ? ORDER BY started_at"
                          " DESC, rowid DESC LIMIT ?", len(start), start, SHOWN_MATCHES + 1)
        return the_one(start, [_run_info(row) for row in rows] if start else [])

    def _runs(self, where: str, key: int | str) -> list[RunInfo]:
        return [_run_info(row) for row in self._rows(f"SELECT * FROM runs WHERE {where}", key)]

    def events(self, run_id: str) -> list[dict[str, Any]]:
        """The run's events in order, each as ``core.events.to_dict`` produced it."""
        rows = self._rows("SELECT json FROM events WHERE run_id = ? ORDER BY seq", run_id)
        return [json.loads(row[0]) for row in rows]

    def mark_run(self, run_id: str, marked: bool) -> None:
        """Set or clear the person's milestone flag on a run."""
        self._change_one("UPDATE runs SET marked = ? WHERE id = ?", (int(marked), run_id),
                         f"no run {run_id}")

    def mark_interrupted(self) -> list[str]:
        """``running`` runs whose process is gone (killed, crashed) become ``interrupted``;
        returns their ids, so the caller can sweep what their unfinished writes left in the
        workspace (``core.tools.checkpoint.sweep_interrupted_runs``).

        Runs of another live PhaseDesk process (a headless run beside the window) are left
        alone; call this at startup, before this process starts runs of its own.
        """
        with self._tx() as conn:
            orphans = [row[0] for row in conn.execute(
                "SELECT id, owner_pid FROM runs WHERE status = 'running'").fetchall()
                if not _alive(row[1])]
            for run_id in orphans:
                conn.execute(
                    "UPDATE runs SET status = 'interrupted', finished_at = COALESCE("
                    "(SELECT MAX(at) FROM events WHERE run_id = runs.id), started_at) "
                    "WHERE id = ?", (run_id,))
        return orphans

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Recorder:
    """``recorder(event)`` stores each engine event; ``RunFinished`` also finishes the run."""

    def __init__(self, store: Store, run_id: str) -> None:
        self.store = store
        self.run_id = run_id
        self.finished = False

    def __call__(self, event: Event) -> int:
        """Store ``event`` and return its sequence number; progress events (a call under way,
        a reply as it is written) are not part of the record: 0, nothing stored."""
        if is_progress(event):
            return 0
        seq = self.store.append_event(self.run_id, event)
        self.finished = self.finished or isinstance(event, RunFinished)
        return seq

    def close(self, status: str = "interrupted") -> None:
        """End the run with ``status`` if the engine never reported ``RunFinished``."""
        if not self.finished:
            self.store.finish_run(self.run_id, status)
            self.finished = True

    async def wrap(self, stream: AsyncIterator[Event]) -> AsyncIterator[Event]:
        """Record and pass on every event of an engine stream."""
        try:
            async for event in stream:
                self(event)
                yield event
        finally:
            self.close()


def _alive(pid: int | None) -> bool:
    """Whether another process with this id still runs (our own id counts as gone)."""
    if not pid or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _title(title: str) -> str:
    return secrets.redact(" ".join(title.split()))[:200] or "New conversation"


def _run_info(row: sqlite3.Row) -> RunInfo:
    data = dict(row)
    data["settings_snapshot"] = json.loads(data["settings_snapshot"])
    data["marked"] = bool(data["marked"])
    return cast(RunInfo, data)
