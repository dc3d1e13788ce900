"""PhaseDesk's engine: everything but the window (``core`` never imports Qt)."""

__version__ = "0.1.0"  # the same as pyproject.toml's [project] version (a test keeps them equal)
