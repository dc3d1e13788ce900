"""Building an engine for one request from settings: the one place the UI and CLI start runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.config import Settings
from core.engine.base import EngineBase
from core.llm.base import ChatModel
from core.engine.memory import format_memory
from core.tools import run_tools, tool_parameters


def create_engine(settings: Settings, workspace: Path, *, model: ChatModel | None = None,
                  memory: list[dict[str, Any]] | None = None,
                  run_id: str | None = None, thinking: ChatModel | None = None,
                  can_ask: bool = True) -> EngineBase:
    """The engine ``settings.use_phase_task`` selects, on ``model`` or the configured provider.

    ``thinking`` serves the thinking stages (the engine closes it when the run ends); without
    ``model`` both come from the settings. ``can_ask``: someone can answer a clarification;
    without, the run goes on as written. Raises ``ValueError`` with a clear message when
    the workspace is not a folder or the thinking model is set up wrongly.
    """
    folder = Path(workspace).expanduser()
    if not folder.is_dir():
        raise ValueError(f"the workspace is not a folder: {folder}")
    if model is None:
        from core.llm.factory import make_model, make_thinking_model

        thinking = thinking or make_thinking_model(settings)
        model = make_model(settings, tool_parameters())
    if settings.use_phase_task:
        from core.engine.phase.engine import PhaseEngine as engine_class
    else:
        from core.engine.classic.engine import ClassicEngine as engine_class  # type: ignore[assignment]
    return engine_class(model, run_tools(settings, folder), settings, folder, run_id=run_id,
                        memory=format_memory(memory or []), thinking=thinking, can_ask=can_ask)
