"""Schema versions: every database PhaseDesk may meet on open ends at the current version."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from core.store import history as store_module
from core.store.history import MIGRATIONS, Store

TABLES = {"conversations", "runs", "events"}


def _schema(path: Path) -> tuple[int, dict[str, str]]:
    with sqlite3.connect(path) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        return version, {name: sql for name, sql in rows}


def _version_zero_without_tables(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE scratch (x)")
        conn.execute("DROP TABLE scratch")
        conn.execute("PRAGMA user_version = 0")
    conn.close()
    assert path.stat().st_size > 0 and _schema(path) == (0, {})


@pytest.mark.parametrize("start", ["missing", "empty file", "version 0, no tables"])
def test_first_open_migrates_to_the_current_version(tmp_path: Path, start: str) -> None:
    path = tmp_path / "history.sqlite3"
    if start == "empty file":
        path.touch()
    elif start == "version 0, no tables":
        _version_zero_without_tables(path)

    with Store(path) as opened:
        assert opened.schema_version == len(MIGRATIONS)
        conversation = opened.create_conversation("works")
        opened.start_run(conversation, "r", "phase", "p", "m", {})

    version, schema = _schema(path)
    assert version == len(MIGRATIONS) and TABLES <= set(schema)


def test_reopening_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    with Store(path) as opened:
        conversation = opened.create_conversation("kept")
    before = _schema(path)
    for _ in range(3):
        with Store(path) as opened:
            assert opened.schema_version == len(MIGRATIONS)
            assert [c["title"] for c in opened.list_conversations()] == ["kept"]
    assert _schema(path) == before
    assert conversation == 1


def test_a_new_migration_upgrades_old_data(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "history.sqlite3"
    with Store(path) as opened:
        opened.create_conversation("from release 1")
    upgraded = [*MIGRATIONS, ("ALTER TABLE conversations ADD COLUMN pinned INTEGER DEFAULT 0",)]
    monkeypatch.setattr(store_module, "MIGRATIONS", upgraded)

    with Store(path) as opened:
        assert opened.schema_version == len(MIGRATIONS) + 1
        assert opened.list_conversations()[0]["title"] == "from release 1"
    assert "pinned" in _schema(path)[1]["conversations"]


def test_a_failing_migration_changes_nothing(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "history.sqlite3"
    Store(path).close()
    broken = [*MIGRATIONS, ("CREATE TABLE extra (x)", "ALTER TABLE missing ADD COLUMN y")]
    monkeypatch.setattr(store_module, "MIGRATIONS", broken)
    with pytest.raises(sqlite3.OperationalError):
        Store(path)
    version, schema = _schema(path)
    assert version == len(MIGRATIONS) and "extra" not in schema


def test_a_database_from_a_newer_release_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    Store(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 7")
    conn.close()
    with pytest.raises(RuntimeError, match="newer"):
        Store(path)
    assert _schema(path)[0] == 7


def test_a_release_1_database_gains_the_outcome_column(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "history.sqlite3"
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS[:1])
    with Store(path) as opened:
        conversation = opened.create_conversation("old")
        run_id = opened.start_run(conversation, "r", "phase", "p", "m", {})
        opened.finish_run(run_id, "completed")
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS)
    with Store(path) as opened:
        run = opened.run(run_id)
        assert run is not None and run["status"] == "completed" and run["outcome"] == ""
        assert opened.list_conversations()[0]["last_outcome"] == ""
