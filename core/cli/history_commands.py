"""The history side of the terminal: listing, exporting and undoing recorded runs.

Every command that takes a run id takes any start of it that names one run (as git takes
a commit's); an unknown or ambiguous one is a usage error that lists what matched. The list
is in time order, newest first, with each run's one outcome word and a mark on runs whose
changes were undone (``--undo`` records the undo in the history).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping
from typing import Any

from core.cli.exit_codes import FAILED, SUCCEEDED, USAGE_ERROR
from core.store.history import Store
from core.store.run_ids import RunIdError
from core.tools.checkpoint import sweep_interrupted_runs


def history_command(args: argparse.Namespace) -> int:
    store = Store()
    sweep_interrupted_runs(store.mark_interrupted())
    try:
        if args.list_runs:
            return _list(store)
        try:
            run_id = store.resolve_run_id(args.export or args.undo)
        except RunIdError as exc:
            print(run_id_error(exc), file=sys.stderr)
            return USAGE_ERROR
        if args.export:
            return _export(store, run_id, args.format)
        return _undo(store, run_id)
    finally:
        store.close()


def _started(run: Mapping[str, Any]) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(run["started_at"]))


def _request(run: Mapping[str, Any], chars: int = 50) -> str:
    return " ".join(str(run["request"]).split())[:chars]


def run_id_error(exc: RunIdError) -> str:
    """The error for a run id that names no run or several: the runs it matches, each with
    its start time and request, and what to do."""
    lines = [f"error: {exc.message}"]
    lines += [f"  {run['id']}  {_started(run)}  {_request(run)}" for run in exc.matches]
    if exc.more:
        lines.append("  …")
    lines.append("give more of the id (see --list-runs)" if exc.matches
                 else "see --list-runs for the recorded runs")
    return "\n".join(lines)


def outcome_word(run: Mapping[str, Any]) -> str:
    """The run's one word: its outcome (succeeded, unverified, partial, failed), else how it
    ended for a run without one (running, interrupted, a run recorded before outcomes)."""
    return str(run["outcome"] or run["status"]).replace("_", " ")


def _list(store: Store) -> int:
    print(f"{'run id':36}  {'outcome':12}  {'changes':7}  {'started':16}  {'engine':7}  calls  "
          "request")
    for run in store.all_runs():
        undone = "undone" if run["undone_at"] is not None else ""
        print(f"{run['id']:36}  {outcome_word(run):12}  {undone:7}  {_started(run):16}  "
              f"{run['engine']:7}  {run['llm_calls']:5}  {_request(run)}")
    return SUCCEEDED


def _export(store: Store, run_id: str, fmt: str) -> int:
    from core.store.export import export_text

    sys.stdout.write(export_text(store, run_id, fmt))  # type: ignore[arg-type]
    return SUCCEEDED


def _undo(store: Store, run_id: str) -> int:
    from core.tools.undo import undo_run

    try:
        report = undo_run(run_id)
    except (KeyError, FileNotFoundError):
        print(f"error: run {run_id} has no recorded file changes", file=sys.stderr)
        return USAGE_ERROR
    print(report.describe() if hasattr(report, "describe") else report)
    if not getattr(report, "ok", True):
        return FAILED
    store.record_undo(run_id)
    return SUCCEEDED
