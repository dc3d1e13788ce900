"""The settings dialog, generated from the settings declared once in ``core.config``.

One row per field, grouped by its ``group``; the widget follows the field's type and
metadata (choices → combo box, bool → check box, int/float → spin box with low/high,
secret → password line edit, file filter → line edit with a "Browse…" file picker, a list
of MCP servers → ``McpServersEditor``, the model name → an editable combo box that
``ui.connection_test`` fills). Invalid values are refused with the reason and the dialog stays
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
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from core import config, secrets
from core.appdirs import models_dir
from core.config import Settings
from core.secrets import redact
from core.tools import sandbox
from ui.connection_test import ModelList, probe_line, stored_probe_line
from ui.mcp_editor import McpServersEditor

log = logging.getLogger(__name__)

FieldWidget = QCheckBox | QComboBox | QSpinBox | QDoubleSpinBox | QLineEdit | McpServersEditor
INT_LIMIT = 2_147_483_647


def _widget_for(f: dataclasses.Field[Any], value: Any) -> FieldWidget:
    meta = f.metadata
    low, high = meta["low"], meta["high"]
    widget: FieldWidget
    if isinstance(f.default, bool):
        widget = QCheckBox()
        widget.setChecked(bool(value))
    elif meta["choices"]:
        widget = QComboBox()
        widget.addItems(list(meta["choices"]))
        widget.setCurrentText(str(value))
    elif isinstance(f.default, int):
        widget = QSpinBox()
        widget.setRange(int(low) if low is not None else -INT_LIMIT,
                        int(high) if high is not None else INT_LIMIT)
        widget.setValue(int(value))
    elif meta["offers_models"]:
        widget = QComboBox()
        widget.setEditable(True)
        widget.setCurrentText(str(value))
        widget.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        widget.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    elif isinstance(f.default, float):
        widget = QDoubleSpinBox()
        widget.setDecimals(2)
        widget.setRange(low if low is not None else -1e9, high if high is not None else 1e9)
        widget.setSingleStep(0.05 if (high or 0) <= 1 else 0.1 if (high or 0) <= 2 else 1.0)
        widget.setValue(float(value))
    else:
        widget = QLineEdit(str(value))
        widget.setPlaceholderText(meta["placeholder"])
        if meta["secret"]:
            widget.setEchoMode(QLineEdit.EchoMode.Password)
    widget.setObjectName(f"setting_{f.name}")
    widget.setToolTip(meta["description"])
    return widget


def _value_of(widget: FieldWidget) -> Any:
    if isinstance(widget, McpServersEditor):
        return widget.servers()
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    if isinstance(widget, QComboBox):
        return widget.currentText().strip() if widget.isEditable() else widget.currentText()
    if isinstance(widget, (QSpinBox, QDoubleSpinBox)):
        return widget.value()
    return widget.text().strip()


class SettingsDialog(QDialog):
    """Edit and save ``Settings``; ``saved_settings`` and ``key_location`` are set on accept."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
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
        base_url = self.widgets["base_url"]
        if self.model_list is not None and isinstance(base_url, QLineEdit):
            base_url.textChanged.connect(self.model_list.forget)

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
                widget = _widget_for(f, getattr(settings, f.name))
            self.widgets[f.name] = widget
            label = QLabel(f.metadata["label"])
            label.setToolTip(f.metadata["description"])
            if f.metadata["file_filter"] and isinstance(widget, QLineEdit):
                groups[group].addRow(label, self._with_picker(f, widget))
            else:
                groups[group].addRow(label, widget)
            if f.metadata["offers_models"] and isinstance(widget, QComboBox):
                self.model_list = ModelList(widget, QLabel())
                groups[group].addRow("", self.model_list.warning)
            if f.metadata["offers_models"] and isinstance(widget, QComboBox):
                self.model_list = ModelList(widget, QLabel())
                groups[group].addRow("", self.model_list.warning)
            if f.metadata["secret"]:
                stored = QLabel(f"Stored in: {secrets.describe_store(f.name)}")
                stored.setWordWrap(True)
                stored.setObjectName(f"keyStore_{f.name}")
                self.key_store_labels[f.name] = stored
                groups[group].addRow("", stored)
            if f.name == "command_sandbox":
                self.sandbox_label = QLabel(sandbox.availability().describe())
                self.sandbox_label.setWordWrap(True)
                self.sandbox_label.setObjectName("sandboxStatus")
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
        edit.setPlaceholderText("bundled default")
        button = QPushButton("Browse…")
        button.setObjectName(f"browse_{f.name}")
        button.clicked.connect(lambda: self._pick_file(f, edit))
        layout.addWidget(edit, 1)
        layout.addWidget(button)
        return row

    def _pick_file(self, f: dataclasses.Field[Any], edit: QLineEdit) -> None:
        start = edit.text().strip() or str(models_dir())
        chosen, _ = QFileDialog.getOpenFileName(self, f.metadata["label"], start,
                                                f.metadata["file_filter"])
        if chosen:
            edit.setText(chosen)

    def _workspace(self) -> Path:
        """Where a tested MCP server runs: the workspace being edited, else the home folder."""
        folder = Path(str(_value_of(self.widgets["workspace"])) or "~").expanduser()
        return folder if folder.is_dir() else Path.home()

    def _start_timeout(self) -> float:
        return float(_value_of(self.widgets["mcp_start_timeout_s"]))

    def values(self) -> dict[str, Any]:
        return {name: _value_of(widget) for name, widget in self.widgets.items()}

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
            from core.engine.runner import endpoint_model

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
