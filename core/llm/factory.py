"""Pick the model a run talks to from the settings."""

from __future__ import annotations

from core.config import Settings
from core.llm.base import ChatModel


def make_model(settings: Settings) -> ChatModel:
    """The embedded offline model when no endpoint is configured (or it is chosen explicitly),
    else the OpenAI-compatible client. Neither loads or connects anything here.

    The embedded model is told the workspace tools' parameters: a small model needs its
    plans' task arguments held to them by the grammar."""
    if settings.effective_provider() == "embedded":
        from core.llm.embedded import EmbeddedModel
        from core.tools import default_registry

        registry = default_registry()
        return EmbeddedModel(choice=settings.gguf, max_context=settings.context_window,
                             tool_parameters={name: registry.parameters(name)
                                              for name in registry.names()})
    from core.llm.openai_client import OpenAIModel

    return OpenAIModel(base_url=settings.base_url, model=settings.model,
                       api_key=settings.api_key, timeout_s=settings.request_timeout_s,
                       max_retries=settings.max_retries,
                       forcing=None if settings.forcing == "auto" else settings.forcing)
