"""What ``main_qt.py`` can do, said once: its modes, which flags pick a terminal mode, its
version, and the help text both parsers (the window's in ``ui.app``, the terminal's in
``core.cli.flags``) end with. Nothing here imports Qt, so ``--version`` and ``--help`` work
without a display."""

from __future__ import annotations

import argparse
import textwrap

from core import __version__
from core.cli.exit_codes import describe_exit_codes

PROG = "main_qt.py"
WIDTH = 88  # the help's text is wrapped here

# (how it is called, what it does): one line each in every --help.
MODES: tuple[tuple[str, str], ...] = (
    ("[window options]", "open the window (the default)"),
    ("--headless --workspace DIR REQUEST", "run one request in the terminal"),
    ("--list-runs", "list the recorded runs"),
    ("--export RUN_ID [--format json|md]", "print a recorded run"),
    ("--undo RUN_ID", "undo a recorded run's file changes"),
    ("--probe [endpoint flags]", "ask an endpoint how it takes stage calls"),
    ("--version", "print the version"),
)
MORE_HELP = f"{PROG} --headless --help lists a terminal run's flags, one for every setting."

# The flags that choose a terminal mode; without one, main_qt.py opens the window.
TERMINAL_MODE_FLAGS = ("--headless", "--list-runs", "--export", "--undo", "--probe")

RUN_ID_HELP = ("RUN_ID: a run's full id or any start of it that names one run, e.g. the "
               "short id a run prints (see --list-runs).")


def is_terminal_mode(argv: list[str]) -> bool:
    """Whether ``argv`` asks for a terminal mode (``--export ID`` or ``--export=ID`` alike);
    what follows ``--`` is a request's text, not a flag."""
    for arg in argv:
        if arg == "--":
            return False
        if arg.split("=", 1)[0] in TERMINAL_MODE_FLAGS:
            return True
    return False


def version_text() -> str:
    return f"PhaseDesk {__version__}"


def epilog() -> str:
    """The modes, what a RUN_ID may be and the exit codes: the end of every ``--help``."""
    width = max(len(call) for call, _ in MODES) + len(PROG) + 1
    lines = ["modes:"]
    lines += [f"  {f'{PROG} {call}':<{width}}  {what}" for call, what in MODES]
    notes = [textwrap.fill(text, WIDTH) for text in (MORE_HELP, RUN_ID_HELP)]
    return "\n".join([*lines, "", *notes, "", describe_exit_codes()])


def parser(*, prog: str, usage: str | None, description: str) -> argparse.ArgumentParser:
    """A parser with the shared epilog and ``--version``; no abbreviated flags (``--exp``
    is an unknown flag, never ``--export``)."""
    made = argparse.ArgumentParser(prog=prog, usage=usage,
                                   description=textwrap.fill(description, WIDTH),
                                   epilog=epilog(), allow_abbrev=False,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    made.add_argument("--version", action="version", version=version_text(),
                      help="print the version and exit")
    return made
