"""The history side of the terminal: listing, exporting and undoing recorded runs."""

from __future__ import annotations

import argparse
import sys
import time

from core.cli.exit_codes import USAGE_ERROR
from core.store.history import Store
from core.tools.checkpoint import sweep_interrupted_runs


def history_command(args: argparse.Namespace) -> int:
    store = Store()
    sweep_interrupted_runs(store.mark_interrupted())
    try:
        if args.list_runs:
            return _list(store)
        if args.export:
            return _export(store, args.export, args.format)
        return _undo(args.undo)
    finally:
        store.close()


def _list(store: Store) -> int:
    print(f"{'run id':36}  {'outcome':9}  {'started':16}  {'status':20}  {'engine':7}  calls  "
          "request")
    for conversation in store.list_conversations():
        for run in store.runs(conversation["id"]):
            started = time.strftime("%Y-%m-%d %H:%M", time.localtime(run["started_at"]))
            request = " ".join(run["request"].split())[:50]
            print(f"{run['id']:36}  {run['outcome'] or '—':9}  {started:16}  "
                  f"{run['status']:20}  {run['engine']:7}  "
                  f"{run['llm_calls']:5}  {request}")
    return 0


def _export(store: Store, run_id: str, fmt: str) -> int:
    from core.store.export import export_text

    try:
        sys.stdout.write(export_text(store, run_id, fmt))  # type: ignore[arg-type]
    except KeyError:
        print(f"error: no recorded run {run_id} (see --list-runs)", file=sys.stderr)
        return USAGE_ERROR
    return 0


def _undo(run_id: str) -> int:
    from core.tools.undo import undo_run

    try:
        report = undo_run(run_id)
    except (KeyError, FileNotFoundError):
        print(f"error: run {run_id} has no recorded file changes", file=sys.stderr)
        return USAGE_ERROR
    print(report.describe() if hasattr(report, "describe") else report)
    return 0 if getattr(report, "ok", True) else 1
