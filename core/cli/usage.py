"""What ``main_qt.py`` can do, said once: its modes, which flags pick a terminal mode, its
version, and the help text both parsers (the window's in ``ui.app``, the terminal's in
``core.cli.flags``) end with. Nothing here imports Qt, so ``--version`` and ``--help`` work
without a display."""

from __future__ import annotations

import argparse
import difflib
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

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


def nearest_flag(flag: str, known: Iterable[str]) -> str:
    """The known flag closest to a mistyped ``flag`` ("--headles" → "--headless"); "" when
    none is close."""
    name = flag.split("=", 1)[0]
    found = difflib.get_close_matches(name, [k for k in known if k.startswith("--")], n=1,
                                      cutoff=0.6)
    return found[0] if found else ""


def unknown_flag_message(flag: str, known: Iterable[str], help_hint: str) -> str:
    """"unknown flag --headles (did you mean --headless?)", else the hint where to look."""
    nearest = nearest_flag(flag, known)
    return f"unknown flag {flag} " + (f"(did you mean {nearest}?)" if nearest else
                                      f"({help_hint})")


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose error for an unknown flag names the nearest known one."""

    def flags(self) -> list[str]:
        """Every option string this parser takes."""
        return [flag for action in self._actions for flag in action.option_strings]

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: Any = None) -> argparse.Namespace:
        parsed, unknown = self.parse_known_args(args, namespace)
        if unknown:
            self.refuse_unknown(unknown)
        return parsed

    def refuse_unknown(self, unknown: list[str]) -> NoReturn:
        """Exit 2 naming the first argument that is not this parser's, and the nearest flag."""
        first = unknown[0]
        if first.startswith("-"):
            self.error(unknown_flag_message(first, self.flags(), f"see {self.prog} --help"))
        self.error(f"unexpected argument {first!r}")


def parser(*, prog: str, usage: str | None, description: str) -> Parser:
    """A parser with the shared epilog and ``--version``; no abbreviated flags (``--exp``
    is an unknown flag, never ``--export``)."""
    made = Parser(prog=prog, usage=usage, description=textwrap.fill(description, WIDTH),
                  epilog=epilog(), allow_abbrev=False,
                  formatter_class=argparse.RawDescriptionHelpFormatter)
    made.add_argument("--version", action="version", version=version_text(),
                      help="print the version and exit")
    return made
