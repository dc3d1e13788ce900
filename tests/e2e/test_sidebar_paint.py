"""The conversation list as painted: a long list scrolls without black regions."""

from __future__ import annotations

import time

import pytest
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from core.store.history import ConversationInfo
from ui.sidebar import Sidebar

pytestmark = pytest.mark.gui


def _conversations(n: int) -> list[ConversationInfo]:
    now = time.time()
    return [ConversationInfo(id=i, title=f"Request number {i} with a title long enough to wrap",
                             created_at=now, updated_at=now, run_count=1,
                             last_outcome="succeeded") for i in range(n, 0, -1)]


def _dark_share(image: QImage) -> float:
    """The share of pixels that are (nearly) black."""
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    dark = total = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            colour = image.pixelColor(x, y)
            total += 1
            dark += colour.red() + colour.green() + colour.blue() < 60
    return dark / max(total, 1)


def test_a_scrolling_conversation_list_has_no_black_region(qtbot: QtBot) -> None:
    sidebar = Sidebar()
    qtbot.addWidget(sidebar)
    sidebar.resize(250, 760)
    sidebar.show_conversations(_conversations(30), 30)
    sidebar.show()
    qtbot.waitExposed(sidebar)
    scrollbar = sidebar.conversations.verticalScrollBar()
    assert scrollbar.isVisible() and scrollbar.maximum() > 0
    image = sidebar.grab().toImage()  # as painted over the sidebar's own background
    lst = sidebar.conversations
    origin = lst.mapTo(sidebar, lst.rect().topLeft())
    shown = image.copy(origin.x(), origin.y(), lst.width(), lst.height())
    corner = scrollbar.mapTo(sidebar, scrollbar.rect().topLeft())
    bar = image.copy(corner.x(), corner.y(), scrollbar.width(), scrollbar.height())
    assert _dark_share(bar) < 0.05, f"{_dark_share(bar):.0%} of the scrollbar is black"
    assert _dark_share(shown) < 0.02
