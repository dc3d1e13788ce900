"""PhaseDesk entry point: the desktop window, or ``--headless`` for a terminal run."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if "--headless" in args or any(a in args for a in ("--list-runs", "--export", "--undo")):
        from core.headless import main as headless_main

        return headless_main(args)
    from ui.app import main as gui_main

    return gui_main(args)


if __name__ == "__main__":
    sys.exit(main())
