"""Pick the models a run talks to from the settings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.config import Settings
from core.llm.base import ChatModel


def make_model(settings: Settings,
               tool_parameters: Mapping[str, dict[str, Any]] | None = None) -> ChatModel:
    """The embedded offline model when no endpoint is configured (or it is chosen explicitly),
    else the OpenAI-compatible client. Neither loads or connects anything here.

    The embedded model is told ``tool_parameters`` (workspace tool name → its parameters'
    schema): a small model needs its plans' task arguments held to them by the grammar."""
    if settings.effective_provider() == "embedded":
        from core.llm.embedded import EmbeddedModel

        return EmbeddedModel(choice=settings.gguf, max_context=settings.context_window,
                             tool_parameters=dict(tool_parameters or {}))
    from core.llm.openai_client import OpenAIModel

    return OpenAIModel(base_url=settings.base_url, model=settings.model,
                       api_key=settings.api_key, timeout_s=settings.request_timeout_s,
                       max_retries=settings.max_retries,
                       forcing=None if settings.forcing == "auto" else settings.forcing,
                       temperature=settings.temperature)


def make_thinking_model(settings: Settings) -> ChatModel | None:
    """The separate model of the thinking stages, or None when both thinking fields are empty
    (every stage then uses the main model). Connects nothing here.

    An empty base URL means the main endpoint, an empty name the main model's name. The main
    API key is used only on the main endpoint: it is never sent to another host. Raises
    ``ValueError`` when only a name is set and the main model is the offline one (there is no
    endpoint to ask)."""
    if not settings.thinking_base_url and not settings.thinking_model:
        return None
    main_endpoint = settings.effective_provider() == "openai"
    if not settings.thinking_base_url and not main_endpoint:
        raise ValueError("Thinking model: set its base URL too; the main model is the offline "
                         "one, so there is no endpoint to ask for "
                         f"{settings.thinking_model!r}")
    base_url = settings.thinking_base_url or settings.base_url
    same_endpoint = main_endpoint and base_url.rstrip("/") == settings.base_url.rstrip("/")
    from core.llm.openai_client import OpenAIModel

    return OpenAIModel(base_url=base_url, model=settings.thinking_model or settings.model,
                       api_key=settings.thinking_api_key or
                       (settings.api_key if same_endpoint else ""),
                       timeout_s=settings.request_timeout_s, max_retries=settings.max_retries,
                       forcing=None if settings.forcing == "auto" else settings.forcing,
                       temperature=settings.temperature)


async def endpoint_models(settings: Settings) -> list[str]:
    """The models the configured OpenAI-compatible endpoint lists (``GET /v1/models``);
    raises ``ModelError`` when it lists none (no such route, an error, not a list)."""
    from core.llm.openai_client import OpenAIModel

    model = OpenAIModel(base_url=settings.base_url, model=settings.model,
                        api_key=settings.api_key, timeout_s=settings.request_timeout_s,
                        max_retries=0)
    try:
        return await model.list_models()
    finally:
        await model.aclose()
