"""``main_qt.py --headless``: the same engine in a terminal.

Flags for every setting are generated from ``core.config``; ``--model-script`` replays a
scripted model; ``--jsonl`` prints one event per line. Exit code 0 whenever the run
ended with a summary (also after Stop or an exhausted budget); 2 for usage errors.
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

from core import config
from core.config import Settings
from core.events import ApprovalRequested, Event, to_json
from core.cli.exit_codes import USAGE_ERROR
from core.cli.printer import describe
from core.models.mcp_server import McpServer, merged
from core.secrets import redact, remember




def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="main_qt.py --headless",
                                     description="Run one PhaseDesk request in the terminal.")
    parser.add_argument("--headless", action="store_true", help="run without a window")
    parser.add_argument("request", nargs="?", help="the request text ('-' reads stdin)")
    parser.add_argument("--jsonl", action="store_true", help="print one JSON event per line")
    parser.add_argument("--model-script", metavar="FILE", help="replay a scripted model file")
    parser.add_argument("--classic", action="store_true", help="use the classic engine")
    parser.add_argument("--yes", action="store_true",
                        help="approve every command and write; a request the model finds "
                             "unclear is worked on as written instead of asking")
    parser.add_argument("--dump-context", metavar="DIR",
                        help="write each model call's messages as JSON into DIR")
    parser.add_argument("--conversation", type=int, metavar="ID",
                        help="continue a conversation of the history")
    parser.add_argument("--list-runs", action="store_true", help="list recorded runs")
    parser.add_argument("--export", metavar="RUN_ID", help="export a recorded run")
    parser.add_argument("--format", choices=("json", "md"), default="json")
    parser.add_argument("--undo", metavar="RUN_ID", help="undo a run's file changes")
    parser.add_argument("--probe", action="store_true",
                        help="probe the endpoint: which ways of forcing stage calls it honours")
    for f in config.fields():
        flag = "--" + (f.metadata["flag"] or f.name).replace("_", "-")
        help_text = f.metadata["description"]
        if isinstance(f.default, tuple):
            parser.add_argument(flag, dest=f.name, action="append", type=_server_flag,
                                default=None, metavar="NAME=COMMAND", help=help_text)
        elif isinstance(f.default, bool):
            parser.add_argument(flag, dest=f.name, action=argparse.BooleanOptionalAction,
                                default=None, help=help_text)
        else:
            parser.add_argument(flag, dest=f.name, type=type(f.default), default=None,
                                choices=f.metadata["choices"] or None, help=help_text)
    return parser


def _server_flag(text: str) -> McpServer:
    try:
        return McpServer.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def resolve_settings(args: argparse.Namespace) -> Settings:
    """Flags, else saved settings, else OPENAI_BASE_URL / OPENAI_API_KEY."""
    settings, problems = config.load()
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    if not settings.base_url and os.environ.get("OPENAI_BASE_URL"):
        settings = dataclasses.replace(settings, base_url=os.environ["OPENAI_BASE_URL"])
    if not settings.api_key and os.environ.get("OPENAI_API_KEY"):
        settings = dataclasses.replace(settings, api_key=os.environ["OPENAI_API_KEY"])
    overrides = {f.name: getattr(args, f.name) for f in config.fields()
                 if getattr(args, f.name, None) is not None}
    for f in config.fields():
        if f.name in overrides and isinstance(f.default, tuple):
            overrides[f.name] = merged(getattr(settings, f.name), overrides[f.name])
    if args.classic:
        overrides["use_phase_task"] = False
    settings = config.from_mapping(overrides, settings)
    remember(settings.api_key)
    return settings


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = resolve_settings(args)
    except ValueError as exc:
        parser.error(str(exc))
    from core.cli.history import history_command

    if args.list_runs or args.export or args.undo:
        return history_command(args)
    if args.probe:
        from core.cli.probe_command import probe_command

        return probe_command(settings)
    request = sys.stdin.read() if args.request == "-" else args.request
    if not request or not request.strip():
        parser.error("the request is empty: say what the agent should do")
    workspace = Path(settings.workspace or os.getcwd()).expanduser().resolve()
    settings = dataclasses.replace(settings, workspace=str(workspace))
    if not workspace.is_dir():
        parser.error(f"the workspace is not a folder: {workspace}")
    thinking: Any = None  # a script answers every call: no thinking model with one
    if args.model_script:
        from core.engine.runner import scripted_model
        from core.llm.scripted import ScriptError

        try:
            model: Any = scripted_model(args.model_script)
        except ScriptError as exc:
            parser.error(str(exc))
    else:
        from core.engine.runner import build_models

        try:
            model, thinking = build_models(settings)
        except ValueError as exc:
            parser.error(str(exc))
    return asyncio.run(_run(settings, workspace, model, request, args, thinking))


async def _run(settings: Settings, workspace: Path, model: Any, request: str,
               args: argparse.Namespace, thinking: Any = None) -> int:
    from core.engine.runner import create_engine
    from core.store.history import Store
    from core.store.runs import start_recorded_run
    from core.tools.checkpoint import sweep_interrupted_runs

    store = Store()
    sweep_interrupted_runs(store.mark_interrupted())
    try:
        start = start_recorded_run(store, settings, request, model.provider, model.name,
                                   args.conversation)
    except KeyError as exc:
        print(f"error: {exc.args[0]}", file=sys.stderr)
        for built in (model, thinking):
            if built is not None:
                await built.aclose()
        store.close()
        return USAGE_ERROR
    engine = create_engine(settings, workspace, model=model, memory=start.memory,
                           run_id=start.run_id, thinking=thinking, can_ask=not args.yes)
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGINT, engine.cancel)
    except (NotImplementedError, RuntimeError):
        pass
    if args.dump_context:
        from core.cli.context_dump import attach_dump

        attach_dump(engine, Path(args.dump_context))
    try:
        await _stream(engine, start.recorder.wrap(engine.run(
            request, previous_analysis=start.pending_analysis)), args)
    finally:
        await model.aclose()
        store.close()
    return 0


async def _stream(engine: Any, events: AsyncIterator[Event], args: argparse.Namespace) -> None:
    """Print the run's events as they come and answer its approval requests."""
    interactive = sys.stdin.isatty() and not args.jsonl
    printing = True
    async for event in events:
        if printing:
            try:
                _print(event, args.jsonl)
            except BrokenPipeError:  # the reader went away (`| head`): stop, keep recording
                printing = False
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                engine.cancel()
        if isinstance(event, ApprovalRequested):
            engine.answer_approval(event.request_id, await _ask(event, args.yes, interactive))


def _print(event: Event, jsonl: bool) -> None:
    line = to_json(event) if jsonl else describe(event)
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
