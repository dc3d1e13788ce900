"""What Settings' "Test connection" finds out about an endpoint beyond its reply: the models
it lists, and how its stage calls are forced (the probe).

"Test connection" asks an OpenAI-compatible endpoint for its models (``GET /v1/models``,
``core.llm.factory.endpoint_models``) and offers them in the model field, an editable combo
box: any name can still be typed. A name the server does not list gets a warning under the
field, never a refusal (servers accept aliases they do not list). When the listing fails or
the endpoint has no such route, the field stays free text and the result line says so.
Changing the base URL forgets the list (it belonged to the other endpoint).
"""

from __future__ import annotations

import asyncio
import dataclasses

from PySide6.QtWidgets import QComboBox, QLabel, QSizePolicy

from core.config import Settings

LIST_TIMEOUT_S = 20.0
SHOWN = 8


class ModelList:
    """Keeps ``combo``'s items to the endpoint's models and ``warning`` to the typed name."""

    def __init__(self, combo: QComboBox, warning: QLabel) -> None:
        self.combo = combo
        self.warning = warning
        self.listed: list[str] | None = None
        warning.setObjectName("modelWarning")
        warning.setWordWrap(True)
        warning.setStyleSheet("color: #a15c00;")
        warning.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        warning.hide()
        combo.editTextChanged.connect(self._check)

    def offer(self, models: list[str]) -> None:
        """Put ``models`` in the drop-down, keeping what the field holds."""
        current = self.combo.currentText()
        self.listed = list(models)
        self.combo.clear()
        self.combo.addItems(self.listed)
        self.combo.setCurrentText(current)
        self._check(current)

    def forget(self) -> None:
        """The endpoint changed: no list, no warning, the typed name stays."""
        if self.listed is None:
            return
        current = self.combo.currentText()
        self.listed = None
        self.combo.clear()
        self.combo.setCurrentText(current)
        self._check(current)

    def _check(self, text: str) -> None:
        name = text.strip()
        unlisted = self.listed is not None and bool(name) and name not in self.listed
        self.warning.setVisible(unlisted)
        self.warning.setText(
            f"⚠ The server does not list “{name}”. It is kept as typed; the server may still "
            "refuse it." if unlisted else "")

    async def fetch(self, settings: Settings) -> str:
        """Ask the endpoint for its models and offer them; returns the line for the test
        result. Never raises (but ``asyncio.CancelledError``)."""
        from core.llm.base import ModelError
        from core.engine.build import endpoint_models

        try:
            models = await asyncio.wait_for(endpoint_models(settings),
                                            timeout=min(settings.request_timeout_s,
                                                        LIST_TIMEOUT_S))
        except TimeoutError:
            return (f"Models: the server did not list them within {LIST_TIMEOUT_S:g} s; type "
                    "the model's name.")
        except ModelError as exc:
            if exc.status == 404:
                return ("Models: this server does not list its models (no /models route); "
                        "type the model's name.")
            return f"Models: the server did not list them ({exc.message}); type the model's name."
        self.offer(models)
        if not models:
            return "Models: the server lists none; type the model's name."
        names = ", ".join(models[:SHOWN]) + (", …" if len(models) > SHOWN else "")
        return f"Models: the server lists {len(models)} ({names}); pick one in the Model field."


async def probe_line(settings: Settings) -> str:
    """The probe's result for an OpenAI-compatible endpoint, as a second line ("" else)."""
    if settings.effective_provider() != "openai":
        return ""
    from core.engine.build import endpoint_model
    from core.llm.base import ModelError
    from core.llm.probe import probe_stored

    model = endpoint_model(dataclasses.replace(settings, forcing="auto"))
    try:
        result = await probe_stored(model)
    except ModelError as exc:
        return f"\nThe probe failed: {exc.message}"
    finally:
        await model.aclose()
    chosen = "" if settings.forcing == "auto" else f"; the setting uses '{settings.forcing}'"
    when = f" ({result.when()})" if result.when() else ""
    return f"\nProbe{when}: {result.describe()}{chosen}."


def stored_probe_line(settings: Settings) -> str:
    """What the last probe of the configured endpoint and model found ("" when there is none,
    or the model is not an OpenAI-compatible endpoint)."""
    if settings.effective_provider() != "openai":
        return ""
    from core.llm.probe import stored

    result = stored(settings.base_url, settings.model)
    if result is None:
        return (f"{settings.model or 'This model'} at this endpoint has not been probed yet: "
                "Test connection (or the first run) finds how its stage calls are forced.")
    chosen = "" if settings.forcing == "auto" else f"; the setting uses '{settings.forcing}'"
    when = f", {result.when()}" if result.when() else ""
    return f"Last probe of this endpoint{when}: {result.describe()}{chosen}."
