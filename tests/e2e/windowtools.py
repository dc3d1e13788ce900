"""Helpers for driving the window's widgets as a person does: its menus, its settings dialog,
its list of conversations (the page has its own, in ``pagetools``)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from pytestqt.qtbot import QtBot

from ui.main_window import MainWindow
from ui.settings_dialog import SettingsDialog


def menu_action(window: MainWindow, text: str) -> QAction:
    """The window's menu entry that reads ``text`` (without its ``&`` and ``…``)."""
    found = [a for a in window.findChildren(QAction)
             if a.text().replace("&", "").rstrip("…") == text]
    assert len(found) == 1, f"menu entries reading {text!r}: {len(found)}"
    return found[0]


def open_settings(window: MainWindow) -> SettingsDialog:
    """Choose File → Settings… and return the dialog that opened."""
    before = set(window.findChildren(SettingsDialog))
    menu_action(window, "Settings").trigger()
    opened = [d for d in window.findChildren(SettingsDialog) if d not in before and d.isVisible()]
    assert len(opened) == 1, "File → Settings… opened no dialog"
    return opened[0]


def open_conversation(qtbot: QtBot, window: MainWindow, row: int) -> None:
    """Click the ``row``-th conversation of the sidebar's list."""
    conversations = window.sidebar.conversations
    item = conversations.item(row)
    conversations.scrollToItem(item)
    qtbot.mouseClick(conversations.viewport(), Qt.MouseButton.LeftButton,
                     pos=conversations.visualItemRect(item).center())
