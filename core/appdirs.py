"""Where PhaseDesk keeps its settings and data: the bottom of the dependency order."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir

APP_NAME = "PhaseDesk"


def app_home() -> tuple[Path, Path]:
    """(config dir, data dir). ``PHASEDESK_HOME`` puts both under one folder (tests, portable use)."""
    home = os.environ.get("PHASEDESK_HOME")
    if home:
        return Path(home) / "config", Path(home) / "data"
    return Path(user_config_dir(APP_NAME)), Path(user_data_dir(APP_NAME))


def config_path() -> Path:
    return app_home()[0] / "settings.json"


def data_dir() -> Path:
    path = app_home()[1]
    path.mkdir(parents=True, exist_ok=True)
    return path


def models_dir() -> Path:
    """Where installed offline models (GGUF files) live: ``<data dir>/models``."""
    path = data_dir() / "models"
    path.mkdir(parents=True, exist_ok=True)
    return path
