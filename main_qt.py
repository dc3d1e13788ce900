"""PhaseDesk entry point: the desktop window, or a terminal mode (``--headless`` runs and the
history commands; ``core.cli.usage`` lists them). ``--help`` and ``--version`` never need a
display, and a flag no mode takes is an error (exit 2), never passed on to Qt."""

from __future__ import annotations

import os
import sys
from pathlib import Path

BUNDLED_MODEL_DIR = "models"  # where build.spec puts the gguf inside the frozen bundle


def _use_bundled_model() -> None:
    """In the PyInstaller bundle (where this file sits at the bundle's root) the embedded
    provider finds its gguf through ``PHASEDESK_GGUF``; a value the person set wins."""
    if getattr(sys, "frozen", False):
        bundled = sorted((Path(__file__).resolve().parent / BUNDLED_MODEL_DIR).glob("*.gguf"))
        if bundled:
            os.environ.setdefault("PHASEDESK_GGUF", str(bundled[0]))


def main(argv: list[str] | None = None) -> int:
    from core.cli.usage import is_terminal_mode

    _use_bundled_model()
    args = list(sys.argv[1:] if argv is None else argv)
    if is_terminal_mode(args):
        from core.cli.headless import main as headless_main

        return headless_main(args)
    from ui.app import main as gui_main

    return gui_main(args)


if __name__ == "__main__":
    sys.exit(main())
