"""The settings dialog's field widgets: one per declared setting, chosen by its type and
metadata (``core.config``), and the value each one holds.

choices → combo box, bool → check box, int/float → spin box with low/high, the model name →
an editable combo box, secret → password line edit, a text whose default is long (a list such
as the allowed commands) → a box that wraps it, so none of it is cut off; other text → a line
edit.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ui.mcp_editor import McpServersEditor

INT_LIMIT = 2_147_483_647
LONG_TEXT_CHARS = 40  # a text setting whose default is longer gets a box that wraps
WRAPPED_LINES = 3
SENTENCE_END = re.compile(r"(?<=\.)\s+(?=[A-Z$])")  # "e.g. qwen" does not end one


class WrappedText(QPlainTextEdit):
    """A one-value text field that wraps its whole value over a few lines (no line breaks of
    its own: whitespace, newlines included, is collapsed to single spaces)."""

    def __init__(self, text: str = "") -> None:
        super().__init__(text)
        self.setTabChangesFocus(True)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        lines = self.fontMetrics().lineSpacing() * WRAPPED_LINES
        self.setFixedHeight(lines + 2 * int(self.document().documentMargin()) + 6)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def text(self) -> str:
        return " ".join(self.toPlainText().split())

    def setText(self, text: str) -> None:  # noqa: N802 (as QLineEdit names it)
        self.setPlainText(text)


FieldWidget = (QCheckBox | QComboBox | QSpinBox | QDoubleSpinBox | QLineEdit | WrappedText
               | McpServersEditor)


def _number_widget(f: dataclasses.Field[Any], value: Any) -> QSpinBox | QDoubleSpinBox:
    low, high = f.metadata["low"], f.metadata["high"]
    if isinstance(f.default, int):
        spin = QSpinBox()
        spin.setRange(int(low) if low is not None else -INT_LIMIT,
                      int(high) if high is not None else INT_LIMIT)
        spin.setValue(int(value))
        return spin
    double = QDoubleSpinBox()
    double.setDecimals(2)
    double.setRange(low if low is not None else -1e9, high if high is not None else 1e9)
    double.setSingleStep(0.05 if (high or 0) <= 1 else 0.1 if (high or 0) <= 2 else 1.0)
    double.setValue(float(value))
    return double


def _text_widget(f: dataclasses.Field[Any], value: Any) -> QLineEdit | WrappedText:
    meta = f.metadata
    if len(str(f.default)) > LONG_TEXT_CHARS and not meta["secret"] and not meta["file_filter"]:
        wrapped = WrappedText(str(value))
        wrapped.setPlaceholderText(meta["placeholder"])
        return wrapped
    edit = QLineEdit(str(value))
    edit.setPlaceholderText(meta["placeholder"])
    if meta["secret"]:
        edit.setEchoMode(QLineEdit.EchoMode.Password)
    return edit


def widget_for(f: dataclasses.Field[Any], value: Any) -> FieldWidget:
    """The widget that edits setting ``f``, holding ``value``."""
    meta = f.metadata
    widget: FieldWidget
    if isinstance(f.default, bool):
        widget = QCheckBox()
        widget.setChecked(bool(value))
    elif meta["choices"]:
        widget = QComboBox()
        widget.addItems(list(meta["choices"]))
        widget.setCurrentText(str(value))
    elif meta["offers_models"]:
        widget = QComboBox()
        widget.setEditable(True)
        widget.setCurrentText(str(value))
        widget.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        widget.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    elif isinstance(f.default, (int, float)):
        widget = _number_widget(f, value)
    else:
        widget = _text_widget(f, value)
    widget.setObjectName(f"setting_{f.name}")
    widget.setToolTip(meta["description"])
    return widget


def description_label(f: dataclasses.Field[Any]) -> QLabel:
    """The first sentence of setting ``f``'s description, small and grey under its field."""
    text = str(f.metadata["description"])
    first = SENTENCE_END.split(text, 1)[0]
    label = note_label(first, f"description_{f.name}")
    label.setStyleSheet("color: #6b7080; font-size: 11px;")
    return label


def described(field: QWidget, description: QLabel) -> QWidget:
    """``field`` with its one-line ``description`` right under it, as one form cell."""
    cell = QWidget()
    layout = QVBoxLayout(cell)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    layout.addWidget(field)
    layout.addWidget(description)
    return cell


def note_label(text: str, name: str) -> QLabel:
    """A line of explanation under a field, wrapped across the field's whole width (a
    wrapping label otherwise keeps to a narrow guess of its own)."""
    label = QLabel(text)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    return label


def value_of(widget: FieldWidget) -> Any:
    """What the widget holds, as the setting takes it."""
    if isinstance(widget, McpServersEditor):
        return widget.servers()
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    if isinstance(widget, QComboBox):
        return widget.currentText().strip() if widget.isEditable() else widget.currentText()
    if isinstance(widget, (QSpinBox, QDoubleSpinBox)):
        return widget.value()
    return widget.text().strip()
