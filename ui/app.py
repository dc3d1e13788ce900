"""The desktop app: QApplication, a qasync event loop on the Qt main thread, the window.

Without flags the window opens as a person uses it. The smoke flags (``--run`` and
friends, see ``ui.smoke``) drive one request through the same window for checks of a
packaged build. A flag this parser does not know is an error (exit 2), never handed to Qt:
Qt's own options go through its environment variables (``QT_QPA_PLATFORM``, …).
``--help`` and ``--version`` answer before Qt is imported, so they work without a display.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from core.cli.exit_codes import USAGE_ERROR
from core.cli.usage import PROG, TERMINAL_MODE_FLAGS, Parser, parser as usage_parser
from core.cli.usage import unknown_flag_message

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from core.config import Settings
    from ui.main_window import MainWindow

WINDOW_USAGE = f"{PROG} [--verbose] [--workspace DIR] [--run REQUEST [smoke options]]"
TERMINAL_ONLY = ("--jsonl", "--yes", "--classic", "--dump-context", "--conversation",
                 "--format", *TERMINAL_MODE_FLAGS)


def _prepare_environment() -> None:
    """Chromium refuses to start as root unless its sandbox is off; set before WebEngine."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")


def build_parser() -> Parser:
    parser = usage_parser(
        prog=PROG, usage=WINDOW_USAGE,
        description="PhaseDesk: a desktop agent that works on a folder in phases. Without a "
        "mode flag it opens the window; the modes below run in the terminal.")
    parser.add_argument("--verbose", action="store_true",
                        help="log what the app does, with Qt's and Chromium's diagnostic lines")
    smoke = parser.add_argument_group("smoke run", "Run one request in the window, e.g. to "
                                      "check a packaged build.")
    smoke.add_argument("--run", metavar="REQUEST", help="submit this request once the page is up")
    smoke.add_argument("--model-script", metavar="FILE",
                       help="answer every model call from this scripted-model file")
    smoke.add_argument("--workspace", metavar="DIR",
                       help="work in this folder (not saved in the settings)")
    smoke.add_argument("--exit-after-run", action="store_true",
                       help="quit once the summary is shown (exit 1 if none within --timeout)")
    smoke.add_argument("--screenshot", metavar="PNG",
                       help="save a screenshot of the window once the summary is shown")
    smoke.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                       help="how long --exit-after-run waits for the summary (default 60)")
    return parser


def _refuse_unknown(parser: Parser, unknown: list[str]) -> None:
    """Exit 2 naming the first argument the window does not take (and the nearest flag of
    the window's or a terminal mode's)."""
    if not unknown:
        return
    first = unknown[0]
    if first.split("=", 1)[0] in TERMINAL_ONLY:
        hint = f"{first} is a terminal mode's flag (see {PROG} --headless --help)"
    elif first.startswith("-"):
        hint = unknown_flag_message(first, [*parser.flags(), *TERMINAL_ONLY],
                                    f"see {PROG} --help")
    else:
        hint = (f"unexpected argument {first!r}: the window takes a request with --run; in the "
                f"terminal: {PROG} --headless --workspace DIR REQUEST")
    parser.error(hint)


def _check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if (args.exit_after_run or args.screenshot) and not args.run:
        parser.error("--exit-after-run and --screenshot need --run REQUEST")
    if args.run is not None and not args.run.strip():
        parser.error("--run: the request is empty")
    if args.workspace and not Path(args.workspace).expanduser().is_dir():
        parser.error(f"--workspace: not a folder: {args.workspace}")
    if args.timeout <= 0:
        parser.error("--timeout must be positive")


def _settings(args: argparse.Namespace) -> tuple[Settings, str, list[str]]:
    """The saved settings with ``--workspace`` applied, the saved workspace, and the problems
    reading them."""
    from core import config

    settings, problems = config.load()
    saved = settings.workspace
    if args.workspace:
        workspace = str(Path(args.workspace).expanduser().resolve())
        settings = dataclasses.replace(settings, workspace=workspace)
    return settings, saved, problems


def _application() -> QApplication:
    """The QApplication, named and with its icon."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    QApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
    app = QApplication([sys.argv[0] if sys.argv else "phasedesk"])
    app.setApplicationName("PhaseDesk")
    app.setDesktopFileName("phasedesk")
    icon = Path(__file__).resolve().parent.parent / "resources" / "phasedesk.svg"
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))
    return app


def _dispose(window: MainWindow) -> None:
    """Close the window and delete it and its page before the application goes."""
    from PySide6.QtCore import QCoreApplication, QEvent

    window.close()
    window.page.deleteLater()
    window.deleteLater()
    for _ in range(3):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QCoreApplication.processEvents()


def main(argv: list[str]) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    _refuse_unknown(parser, unknown)
    _check(parser, args)
    _prepare_environment()
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from ui.quiet_start import start_quietly

    start_quietly(args.verbose)
    import qasync

    from core.llm.scripted import ScriptError
    from ui.gui_thread_gc import GuiThreadGc
    from ui.main_window import MainWindow
    from ui.smoke import ScriptFileFactory, SmokeRun

    factory = None
    if args.model_script:
        try:
            factory = ScriptFileFactory(Path(args.model_script))
        except ScriptError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return USAGE_ERROR
    settings, saved_workspace, problems = _settings(args)
    app = _application()
    collector = GuiThreadGc(app)
    collector.start()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    window = MainWindow(settings, factory, problems=problems, saved_workspace=saved_workspace)
    if args.model_script:
        window.model_label = ("scripted", Path(args.model_script).name)
    window.show()
    smoke = None
    if args.run:
        smoke = SmokeRun(window, args.run, exit_after_run=args.exit_after_run,
                         screenshot=Path(args.screenshot) if args.screenshot else None,
                         timeout_s=args.timeout)
    with loop:
        code = loop.run_forever()
        _dispose(window)
    collector.stop()
    if smoke is not None and smoke.exit_code is not None:
        return smoke.exit_code
    return int(code or 0)
