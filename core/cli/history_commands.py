"""The history side of the terminal: listing, exporting and undoing recorded runs.

Every command that takes a run id takes any start of it that names one run (as git takes
a commit's); an unknown or ambiguous one is a usage error that lists what matched.
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
        return _undo(run_id)
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


def _list(store: Store) -> int:
    print(f"{'run id':36}  {'outcome':9}  {'started':16}  {'status':20}  {'engine':7}  calls  "
          "request")
    for conversation in store.list_conversations():
        for run in store.runs(conversation["id"]):
            print(f"{run['id']:36}  {run['outcome'] or '—':9}  {_started(run):16}  "
                  f"{run['status']:20}  {run['engine']:7}  "
                  f"{run['llm_calls']:5}  {_request(run)}")
    return SUCCEEDED


def _export(store: Store, run_id: str, fmt: str) -> int:
    from core.store.export import export_text

    sys.stdout.write(export_text(store, run_id, fmt))  # type: ignore[arg-type]
    return SUCCEEDED


def _undo(run_id: str) -> int:
    from core.tools.undo import undo_run

    try:
        report = undo_run(run_id)
    except (KeyError, FileNotFoundError):
        print(f"error: run {run_id} has no recorded file changes", file=sys.stderr)
        return USAGE_ERROR
    print(report.describe() if hasattr(report, "describe") else report)
    return SUCCEEDED if getattr(report, "ok", True) else FAILED
