"""The terminal modes' flags: one parser for ``--headless`` runs and the history commands,
with a flag for every setting of ``core.config``, and the settings they resolve to."""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from typing import Any

from core import config
from core.cli.usage import PROG, Parser, parser as usage_parser
from core.config import Settings
from core.shapes.mcp_server import McpServer, merged
from core.secrets import remember

USAGE = (f"{PROG} --headless --workspace DIR [options] REQUEST\n"
         f"       {PROG} --list-runs | --export RUN_ID [--format json|md] | --undo RUN_ID\n"
         f"       {PROG} --probe [--base-url URL --model NAME]")
DESCRIPTION = ("Run one PhaseDesk request in the terminal (--headless), or work with the "
               "recorded runs. A run needs --workspace DIR, the folder the agent may read and "
               "change (--workspace . for the current one).")
WORKSPACE_NOTE = " Required for a --headless run (--workspace . is the current folder)."


def build_parser() -> Parser:
    parser = usage_parser(prog=PROG, usage=USAGE, description=DESCRIPTION)
    parser.add_argument("request", nargs="?",
                        help="the request text, for a --headless run ('-' reads stdin)")
    modes = parser.add_argument_group("modes (at most one besides --headless)")
    modes.add_argument("--headless", action="store_true",
                       help="run REQUEST in the terminal, without a window")
    only = modes.add_mutually_exclusive_group()
    only.add_argument("--list-runs", action="store_true", help="list the recorded runs")
    only.add_argument("--export", metavar="RUN_ID",
                      help="print a recorded run (RUN_ID: its id or a unique start of it)")
    only.add_argument("--undo", metavar="RUN_ID",
                      help="undo a recorded run's file changes (RUN_ID as for --export)")
    only.add_argument("--probe", action="store_true",
                      help="probe the endpoint: which ways of forcing stage calls it honours")
    modes.add_argument("--format", choices=("json", "md"), default="json",
                       help="what --export prints: json, the whole record (replayable with "
                            "--model-script; the default), or md, a report to read")
    _run_flags(parser.add_argument_group("a --headless run"))
    _setting_flags(parser.add_argument_group(
        "settings", "Each overrides the saved setting for this run only (never saved)."))
    return parser


def _run_flags(group: argparse._ArgumentGroup) -> None:
    group.add_argument("--jsonl", action="store_true",
                       help="print one JSON event per line instead of readable progress")
    group.add_argument("--model-script", metavar="FILE",
                       help="answer every model call from a scripted-model file (or a run "
                            "exported with --format json)")
    group.add_argument("--classic", action="store_true",
                       help="use the classic reasoning loop instead of the phase engine")
    group.add_argument("--yes", action="store_true",
                       help="approve every command and write; a request the model finds "
                            "unclear is worked on as written instead of asking")
    group.add_argument("--dump-context", metavar="DIR",
                       help="write each model call's messages as JSON into DIR")
    group.add_argument("--conversation", type=int, metavar="ID",
                       help="continue a conversation of the history (its number)")


def setting_flag(f: dataclasses.Field[Any]) -> str:
    """The flag of setting ``f`` ("--max-iterations")."""
    return "--" + (f.metadata["flag"] or f.name).replace("_", "-")


def _setting_flags(group: argparse._ArgumentGroup) -> None:
    for f in config.fields():
        flag = setting_flag(f)
        help_text = f.metadata["description"] + (WORKSPACE_NOTE if f.name == "workspace" else "")
        if isinstance(f.default, tuple):
            group.add_argument(flag, dest=f.name, action="append", type=_server_flag,
                               default=None, metavar="NAME=COMMAND", help=help_text)
        elif isinstance(f.default, bool):
            group.add_argument(flag, dest=f.name, action=argparse.BooleanOptionalAction,
                               default=None, help=help_text)
        else:
            group.add_argument(flag, dest=f.name, type=type(f.default), default=None,
                               choices=f.metadata["choices"] or None, help=help_text)


def _server_flag(text: str) -> McpServer:
    try:
        return McpServer.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def check_mode(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Exit 2 (``parser.error``) when the flags do not make one mode: a request outside a
    run, a run without ``--workspace``, an empty RUN_ID."""
    other = next((name for name in ("list_runs", "export", "undo", "probe")
                  if getattr(args, name) not in (None, False)), None)
    flag = f"--{(other or 'headless').replace('_', '-')}"
    if other in ("export", "undo") and not getattr(args, other).strip():
        parser.error(f"{flag} needs a RUN_ID: a run's id or the start of it (see --list-runs)")
    if other and args.request is not None:
        parser.error(f"{flag} takes no request ({args.request!r}); a request is for "
                     "--headless")
    if not other and not args.workspace:
        parser.error("--headless needs --workspace DIR: the folder the agent may read and "
                     "change (--workspace . for the current folder)")


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
    for f in config.fields():
        if f.name in overrides:
            try:
                config.from_mapping({f.name: overrides[f.name]}, settings)
            except ValueError as exc:
                reason = str(exc).removeprefix(f"{f.metadata['label']}: ")
                raise ValueError(f"{setting_flag(f)}: {reason}") from None
    settings = config.from_mapping(overrides, settings)
    remember(settings.api_key)
    return settings
