"""Building a run from settings: the one place its models and its engine are built.

Both front ends come here: ``build_models`` gives a run's models (the main one, and the
thinking one when the settings name it), ``scripted_model`` the one model of a run answered
from a script file, ``create_engine`` the engine on them, and ``endpoint_model`` the
configured model alone for Settings' "Test connection" and ``--probe``. Nothing connects
or loads here; a model does when it is first called.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.config import Settings
from core.engine.execution.offered import offered_parameters
from core.engine.base import EngineBase
from core.llm.base import ChatModel
from core.engine.memory import format_memory
from core.tools import run_tools, tool_parameters


def build_models(settings: Settings) -> tuple[ChatModel, ChatModel | None]:
    """A run's main model (told the workspace tools' parameters as plans are offered them,
    which the embedded model's grammar holds planned arguments to) and its thinking model (None: the main model serves
    every stage). Raises ``ValueError`` when the thinking model is set up wrongly."""
    from core.llm.factory import make_thinking_model

    thinking = make_thinking_model(settings)
    return _main_model(settings), thinking


def _main_model(settings: Settings) -> ChatModel:
    from core.llm.factory import make_model

    parameters = tool_parameters()
    return make_model(settings, offered_parameters(parameters) if settings.author_files
                      else parameters)


def scripted_model(path: str | Path) -> ChatModel:
    """A model that answers every call of a run (the thinking stages' too) from the script
    file at ``path`` (``--model-script``); raises ``ScriptError`` when it is not one."""
    from core.llm.scripted import ScriptedModel

    return ScriptedModel.from_file(path)


def endpoint_model(settings: Settings) -> ChatModel:
    """The configured main model on its own, to test the connection or probe it."""
    from core.llm.factory import make_model

    return make_model(settings)


async def endpoint_models(settings: Settings) -> list[str]:
    """The models the configured OpenAI-compatible endpoint lists (``GET /v1/models``);
    raises ``ModelError`` when it lists none."""
    from core.llm.factory import endpoint_models as listed

    return await listed(settings)


def create_engine(settings: Settings, workspace: Path, *, model: ChatModel | None = None,
                  memory: list[dict[str, Any]] | None = None,
                  run_id: str | None = None, thinking: ChatModel | None = None,
                  can_ask: bool = True) -> EngineBase:
    """The engine ``settings.use_phase_task`` selects, on ``model`` or the configured provider.

    ``thinking`` serves the thinking stages (the engine closes it when the run ends); without
    ``model`` both come from ``build_models``. ``can_ask``: someone can answer a
    clarification; without, the run goes on as written. Raises ``ValueError`` with a clear
    message when the workspace is not a folder or the thinking model is set up wrongly.
    """
    folder = Path(workspace).expanduser()
    if not folder.is_dir():
        raise ValueError(f"the workspace is not a folder: {folder}")
    if model is None and thinking is None:
        model, thinking = build_models(settings)
    elif model is None:
        model = _main_model(settings)
    if settings.use_phase_task:
        from core.engine.phase.engine import PhaseTaskExecutor as engine_class
    else:
        from core.engine.classic.engine import ClassicEngine as engine_class  # type: ignore[assignment]
    return engine_class(model, run_tools(settings, folder), settings, folder, run_id=run_id,
                        memory=format_memory(memory or []), thinking=thinking, can_ask=can_ask)


def offline_model_label(settings: Settings) -> tuple[str, bool]:
    """The offline model the settings choose: (its name, whether it is only the bundled demo
    model); ("", False) when there is none."""
    from core.llm.embedded_load import offline_model

    return offline_model(settings.gguf)
