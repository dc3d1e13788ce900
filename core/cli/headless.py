"""``main_qt.py --headless``: the same engine in a terminal, and the history commands.

Flags (``core.cli.flags``) exist for every setting of ``core.config``; ``--model-script``
replays a scripted model; ``--jsonl`` prints one event per line. The exit code says how the
run ended (``core.cli.exit_codes``): 0 succeeded, 3 done but not verified, 1 failed or partly
done, 2 a usage error, 130 stopped with Ctrl+C; every run that starts ends with a summary, a
stopped one too.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from core.cli.exit_codes import FAILED, USAGE_ERROR, run_exit_code
from core.cli.flags import build_parser, check_mode, resolve_settings
from core.cli.printer import approved_by_yes, describe
from core.config import Settings
from core.events import ApprovalRequested, Event, RunFinished, to_json
from core.secrets import redact

__all__ = ["build_parser", "main", "resolve_settings"]


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    check_mode(parser, args)
    try:
        settings = resolve_settings(args)
    except ValueError as exc:
        parser.error(str(exc))
    if args.list_runs or args.export is not None or args.undo is not None:
        from core.cli.history_commands import history_command

        return history_command(args)
    if args.probe:
        from core.cli.probe_command import probe_command

        return probe_command(settings)
    request = sys.stdin.read() if args.request == "-" else args.request
    if not request or not request.strip():
        parser.error("the request is empty: say what the agent should do")
    workspace = Path(settings.workspace).expanduser().resolve()
    settings = dataclasses.replace(settings, workspace=str(workspace))
    if not workspace.is_dir():
        parser.error(f"--workspace: not a folder: {workspace}")
    model, thinking = _models(parser, args, settings)
    return asyncio.run(_run(settings, workspace, model, request, args, thinking))


def _models(parser: argparse.ArgumentParser, args: argparse.Namespace,
            settings: Settings) -> tuple[Any, Any]:
    """The run's model and thinking model (none with a script: it answers every call)."""
    if args.model_script:
        from core.engine.build import scripted_model
        from core.llm.scripted import ScriptError

        try:
            return scripted_model(args.model_script), None
        except ScriptError as exc:
            parser.error(f"--model-script: {exc}")
    from core.engine.build import build_models

    try:
        return build_models(settings)
    except ValueError as exc:
        parser.error(str(exc))


async def _run(settings: Settings, workspace: Path, model: Any, request: str,
               args: argparse.Namespace, thinking: Any = None) -> int:
    from core.session import NotStarted, start_session
    from core.store.history import Store
    from core.tools.checkpoint import sweep_interrupted_runs

    store = Store()
    sweep_interrupted_runs(store.mark_interrupted())
    try:
        session = start_session(store, settings, workspace, request,
                                conversation_id=args.conversation, model=model,
                                thinking=thinking, can_ask=not args.yes)
    except NotStarted as exc:
        print(f"error: {redact(str(exc))}", file=sys.stderr)
        await exc.close()
        store.close()
        return USAGE_ERROR if exc.start is None else FAILED
    engine = session.engine
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGINT, engine.cancel)
    except (NotImplementedError, RuntimeError):
        pass
    if args.dump_context:
        from core.cli.context_dump import attach_dump

        attach_dump(engine, Path(args.dump_context))
    try:
        finished = await _stream(engine, session.events(), args)
    finally:
        await session.close()
        store.close()
    return run_exit_code(finished.status, finished.outcome) if finished else FAILED


async def _stream(engine: Any, events: AsyncIterator[Event],
                  args: argparse.Namespace) -> RunFinished | None:
    """Print the run's events as they come and answer its approval requests; returns the
    run's last event (``None`` if the engine never sent it)."""
    interactive = sys.stdin.isatty() and not args.jsonl
    printing = True
    finished = None
    async for event in events:
        if isinstance(event, RunFinished):
            finished = event
        if printing:
            try:
                _print(event, args.jsonl, args.yes)
            except BrokenPipeError:  # the reader went away (`| head`): stop, keep recording
                printing = False
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                engine.cancel()
        if isinstance(event, ApprovalRequested):
            engine.answer_approval(event.request_id, await _ask(event, args.yes, interactive))
    return finished


def _print(event: Event, jsonl: bool, yes: bool) -> None:
    """One line for ``event``; with ``--yes`` a request for approval reads as approved."""
    if jsonl:
        line = to_json(event)
    elif yes and isinstance(event, ApprovalRequested):
        line = approved_by_yes(event)
    else:
        line = describe(event)
    if line:
        print(redact(line), flush=True)


async def _ask(event: ApprovalRequested, yes: bool, interactive: bool) -> str:
    if yes:
        return "run"
    if not interactive:
        print(f"  denied (no terminal to ask; pass --yes to allow): {event.detail}",
              file=sys.stderr, flush=True)
        return "deny"
    prompt = f"  allow {event.action} «{event.detail}»? [y]es once / [a]ll this run / [n]o: "
    answer = (await asyncio.to_thread(input, prompt)).strip().lower()
    return {"y": "once", "yes": "once", "a": "run", "all": "run"}.get(answer, "deny")
