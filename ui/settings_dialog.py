"""The settings dialog, generated from the settings declared once in ``core.config``.

One row per field, grouped by its ``group``, with the first sentence of its description
under it (the whole description is its tooltip); the widget follows the field's type and
metadata (``ui.settings_fields``; a file filter adds a "Browse…" file picker, a list of MCP
servers is a ``McpServersEditor``, the model name's combo box is filled by
``ui.connection_check``; the offline model file names the model it means, as the window's
header does, and an empty Model field shows the offline model's name when that is the model
in use). Invalid values are refused with the reason and the dialog stays
open. "Test connection" asks an OpenAI-compatible endpoint for its models, makes one tiny
model request without freezing the UI, then probes the endpoint for how its stage calls
can be forced.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from core import config, secrets
from core.appdirs import models_dir
from core.config import Settings
from core.engine.build import offline_model_label
from core.secrets import redact
from core.tools import sandbox
from ui.connection_check import ModelList, probe_line, stored_probe_line
from ui.mcp_editor import McpServersEditor
from ui.settings_fields import (FieldWidget, described, description_label, note_label, value_of,
                                widget_for)

log = logging.getLogger(__name__)

DEMO_NOTE = " (the bundled demo model)"


class SettingsDialog(QDialog):
    """Edit and save ``Settings``; ``saved_settings`` and ``key_location`` are set on accept.
    ``session_workspace``: the folder this session works in when it is not the saved one
    (``--workspace``); said under the Workspace field, never saved from there."""

    def __init__(self, settings: Settings, parent: QWidget | None = None, *,
                 session_workspace: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("PhaseDesk settings")
        self.setObjectName("settingsDialog")
        self.resize(560, 640)
        self._settings = settings
        self.saved_settings: Settings | None = None
        self.key_location = ""
        self.widgets: dict[str, FieldWidget] = {}
        self.key_store_labels: dict[str, QLabel] = {}
        self._test_task: asyncio.Task[None] | None = None
        self.model_list: ModelList | None = None
        self._session_workspace = session_workspace
        body = self._fields_body(settings)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)

        self.error_label = QLabel()
        self.error_label.setObjectName("settingsError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #c0392b;")
        self.test_label = QLabel()
        self.test_label.setObjectName("testResult")
        self.test_label.setWordWrap(True)
        self.test_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.test_button = QPushButton("Test connection")
        self.test_button.clicked.connect(self.test_connection)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.addButton(self.test_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        self.test_label.setText(stored_probe_line(settings))
        base_url, provider = self.widgets["base_url"], self.widgets["provider"]
        if self.model_list is not None and isinstance(base_url, QLineEdit):
            base_url.textChanged.connect(self.model_list.forget)
        if isinstance(base_url, QLineEdit) and isinstance(provider, QComboBox):
            base_url.textChanged.connect(self._show_offline_model)
            provider.currentTextChanged.connect(self._show_offline_model)
        self._show_offline_model()

        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.test_label)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)

    def _fields_body(self, settings: Settings) -> QWidget:
        """One row per setting, in a box per group; a status line under the key and sandbox
        settings (where the key is stored, whether the sandbox works here)."""
        body = QWidget()
        body_layout = QVBoxLayout(body)
        groups: dict[str, QFormLayout] = {}
        for f in config.fields():
            group = f.metadata["group"]
            if group not in groups:
                box = QGroupBox(group)
                groups[group] = QFormLayout(box)
                groups[group].setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
                body_layout.addWidget(box)
            if isinstance(f.default, tuple):
                widget = McpServersEditor(getattr(settings, f.name), self._workspace,
                                          self._start_timeout)
                widget.setObjectName(f"setting_{f.name}")
            else:
                widget = widget_for(f, getattr(settings, f.name))
            self.widgets[f.name] = widget
            label = QLabel(f.metadata["label"])
            label.setToolTip(f.metadata["description"])
            shown = self._with_picker(f, widget) if f.metadata["file_filter"] and \
                isinstance(widget, QLineEdit) else widget
            groups[group].addRow(label, described(shown, description_label(f)))
            if f.name == "workspace" and self._session_workspace:
                groups[group].addRow("", note_label(
                    f"This session works in {self._session_workspace} (from --workspace): "
                    "not saved unless you enter it here.", "sessionWorkspace"))
            if f.metadata["offers_models"] and isinstance(widget, QComboBox):
                self.model_list = ModelList(widget, QLabel())
                groups[group].addRow("", self.model_list.warning)
            if f.name == "gguf" and isinstance(widget, QLineEdit):
                groups[group].addRow("", self._offline_model_line(settings, widget))
            if f.metadata["secret"]:
                stored = note_label(f"Stored in: {secrets.describe_store(f.name)}",
                                    f"keyStore_{f.name}")
                self.key_store_labels[f.name] = stored
                groups[group].addRow("", stored)
            if f.name == "command_sandbox":
                self.sandbox_label = note_label(sandbox.availability().describe(),
                                                "sandboxStatus")
                groups[group].addRow("", self.sandbox_label)
        body_layout.addStretch(1)
        return body

    @property
    def key_store_label(self) -> QLabel:
        """Where the main API key is stored."""
        return self.key_store_labels["api_key"]

    def _with_picker(self, f: dataclasses.Field[Any], edit: QLineEdit) -> QWidget:
        """``edit`` beside a "Browse…" button that fills it with a file the person picks."""
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        button = QPushButton("Browse…")
        button.setObjectName(f"browse_{f.name}")
        button.clicked.connect(lambda: self._pick_file(f, edit))
        layout.addWidget(edit, 1)
        layout.addWidget(button)
        return row

    def _offline_model_line(self, settings: Settings, edit: QLineEdit) -> QLabel:
        """Under the offline model file: the model it names, as the window's header names it;
        the placeholder names the model an empty field means."""
        default, _ = offline_model_label(dataclasses.replace(settings, gguf=""))
        edit.setPlaceholderText(f"Empty: {default}" if default
                                else "Empty: no offline model is installed")
        self.offline_model_line = note_label("", "offlineModelInUse")
        edit.textChanged.connect(self._show_offline_model)
        return self.offline_model_line

    def _show_offline_model(self) -> None:
        """Name the model of the offline model field, and whether the provider uses it."""
        values = {name: value_of(self.widgets[name]) for name in ("provider", "base_url", "gguf")}
        name, demo = offline_model_label(dataclasses.replace(self._settings, gguf=values["gguf"]))
        provider = values["provider"] if values["provider"] != "auto" else \
            "openai" if values["base_url"] else "embedded"
        model = self.widgets["model"]
        if isinstance(model, QComboBox) and model.lineEdit() is not None:
            in_use = provider == "embedded" and name
            model.lineEdit().setPlaceholderText(
                f"{name}{DEMO_NOTE if demo else ''} · offline, in use" if in_use else "")
        if not name:
            text = "No model file found there: give a .gguf file or an installed model's name."
        elif provider == "embedded":
            text = f"In use: {name}{DEMO_NOTE if demo else ''}"
        else:
            text = f"Offline model: {name}{DEMO_NOTE if demo else ''} (not in use: the " \
                   "provider is an OpenAI-compatible endpoint)"
        self.offline_model_line.setText(text)

    def _pick_file(self, f: dataclasses.Field[Any], edit: QLineEdit) -> None:
        start = edit.text().strip() or str(models_dir())
        chosen, _ = QFileDialog.getOpenFileName(self, f.metadata["label"], start,
                                                f.metadata["file_filter"])
        if chosen:
            edit.setText(chosen)

    def _workspace(self) -> Path:
        """Where a tested MCP server runs: the workspace being edited, else the home folder."""
        folder = Path(str(value_of(self.widgets["workspace"])) or "~").expanduser()
        return folder if folder.is_dir() else Path.home()

    def _start_timeout(self) -> float:
        return float(value_of(self.widgets["mcp_start_timeout_s"]))

    def values(self) -> dict[str, Any]:
        return {name: value_of(widget) for name, widget in self.widgets.items()}

    def current_settings(self) -> Settings:
        """The values in the dialog as ``Settings``; raises ``ValueError`` with the reason."""
        return config.from_mapping(self.values(), self._settings).validated()

    def accept(self) -> None:
        try:
            settings = self.current_settings()
            self.key_location = config.save(settings)
        except (ValueError, OSError) as exc:
            self.error_label.setText(redact(str(exc)))
            return
        self.saved_settings = settings
        super().accept()

    def test_connection(self) -> None:
        if self._test_task is not None and not self._test_task.done():
            return
        try:
            settings = self.current_settings()
        except ValueError as exc:
            self.test_label.setText(f"Cannot test: {exc}")
            return
        self.error_label.clear()
        self.test_label.setText("Testing the connection…")
        self.test_button.setEnabled(False)
        self._test_task = asyncio.get_running_loop().create_task(self._test(settings))

    async def _test(self, settings: Settings) -> None:
        listing = ""
        if settings.effective_provider() == "openai" and self.model_list is not None:
            listing = "\n" + await self.model_list.fetch(settings)
        model = None
        try:
            from core.engine.build import endpoint_model

            model = endpoint_model(settings)
            reply = await asyncio.wait_for(
                model.complete([{"role": "user", "content": "ping"}], [], None),
                timeout=settings.request_timeout_s)
            said = (reply.text or "").strip().replace("\n", " ")[:80]
            text = f"Connected to {model.provider} · {model.name}: replied “{said}”."
            text += await asyncio.wait_for(probe_line(settings),
                                           timeout=settings.request_timeout_s * 4)
        except TimeoutError:
            text = f"No reply within {settings.request_timeout_s:g} s."
        except Exception as exc:  # noqa: BLE001 (every failure is shown to the person)
            text = f"Connection failed: {getattr(exc, 'message', None) or exc}"
        finally:
            if model is not None:
                try:
                    await model.aclose()
                except Exception as exc:  # noqa: BLE001 (closing must not hide the result)
                    log.debug("closing the test model failed: %s", exc)
        self.test_label.setText(redact(text + listing))
        self.test_button.setEnabled(True)

    def done(self, result: int) -> None:
        if self._test_task is not None and not self._test_task.done():
            self._test_task.cancel()
        for widget in self.widgets.values():
            if isinstance(widget, McpServersEditor):
                widget.cancel_test()
        super().done(result)
