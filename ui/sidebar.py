"""The sidebar: the workspace, "New conversation" and the conversation list of the history."""

from __future__ import annotations

import time

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QTextLayout
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from core.shapes.wording import outcome_text
from core.store.history import ConversationInfo

SIDEBAR_STYLE = """
#sidebar { background: #f4f5fa; border-right: 1px solid #e4e6ef; }
#sidebar QLabel[role="heading"] { color: #6b6f85; font-weight: 600; font-size: 11px;
                                  margin-top: 10px; }
#sidebar QLabel#workspacePath { color: #23263a; font-size: 12px; }
#sidebar QLabel#emptyHistory { color: #8a8ea3; font-size: 12px; padding: 4px 2px; }
#sidebar QPushButton { background: #ffffff; border: 1px solid #d9dcea; border-radius: 7px;
                       padding: 6px 10px; color: #23263a; }
#sidebar QPushButton:hover { background: #eef0fb; border-color: #667eea; }
#sidebar QPushButton#newConversation { background: qlineargradient(x1:0, y1:0, x2:1, y2:1,
    stop:0 #667eea, stop:1 #764ba2); color: white; border: none; font-weight: 600; }
#sidebar QListWidget { border: none; background: transparent; font-size: 12px; outline: 0; }
#sidebar QListWidget::item { border-radius: 6px; margin-bottom: 2px; }
#sidebar QListWidget::item:selected { background: #e4e8fb; color: #23263a; }
#sidebar QListWidget::item:hover { background: #eceffa; }
#sidebar QScrollBar:vertical { background: transparent; width: 8px; margin: 0; border: none; }
#sidebar QScrollBar::handle:vertical { background: #c9cde0; border-radius: 4px; min-height: 28px; }
#sidebar QScrollBar::handle:vertical:hover { background: #a9afcc; }
#sidebar QScrollBar::add-line:vertical, #sidebar QScrollBar::sub-line:vertical { height: 0; }
#sidebar QScrollBar::add-page:vertical, #sidebar QScrollBar::sub-page:vertical {
    background: transparent; }
"""
# A styled list whose scrollbar is left to the platform style paints the scrollbar's pages
# black (QStyleSheetStyle under xcb and offscreen): the scrollbar is styled here in full.
ID_ROLE = Qt.ItemDataRole.UserRole
PAD_X, PAD_Y, GAP, TITLE_LINES = 8, 7, 2, 2
TITLE_COLOUR, META_COLOUR = QColor("#23263a"), QColor("#8a8ea3")
Index = QModelIndex | QPersistentModelIndex


def describe(conversation: ConversationInfo, now: float | None = None) -> str:
    """The list entry: the title, then what its last run achieved, "n runs · when" (a time
    today, else a date)."""
    now = time.time() if now is None else now
    runs = conversation["run_count"]
    updated = conversation["updated_at"]
    same_day = time.localtime(updated)[:3] == time.localtime(now)[:3]
    when = time.strftime("%H:%M" if same_day else "%d %b %Y", time.localtime(updated))
    count = f"{runs} run" + ("" if runs == 1 else "s")
    outcome = outcome_text(conversation.get("last_outcome", ""))
    return f"{conversation['title']}\n" + (f"{outcome} · " if outcome else "") + f"{count} · {when}"


def wrap(text: str, font: QFont, width: int, max_lines: int) -> list[str]:
    """``text`` broken into at most ``max_lines`` lines of ``width`` px, the last one elided."""
    layout = QTextLayout(text, font)
    spans: list[tuple[int, int]] = []
    layout.beginLayout()
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        spans.append((line.textStart(), line.textLength()))
    layout.endLayout()
    lines = [text[start:start + length].strip() for start, length in spans[:max_lines]]
    if len(spans) > max_lines:
        rest = text[spans[max_lines - 1][0]:]
        lines[-1] = QFontMetrics(font).elidedText(rest, Qt.TextElideMode.ElideRight, width)
    return lines or [""]


class ConversationDelegate(QStyledItemDelegate):
    """Paints an entry as its title (semibold, up to two lines) over a muted "runs · when"."""

    @staticmethod
    def _fonts(option: QStyleOptionViewItem) -> tuple[QFont, QFont]:
        title, meta = QFont(option.font), QFont(option.font)
        title.setWeight(QFont.Weight.DemiBold)
        meta.setPixelSize(11)
        return title, meta

    @staticmethod
    def _width(option: QStyleOptionViewItem) -> int:
        widget = option.widget
        full = widget.viewport().width() if isinstance(widget, QListView) else option.rect.width()
        return max(40, full - 2 * PAD_X - 4)

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        title_font, meta_font = self._fonts(option)
        title, _, _ = str(index.data()).partition("\n")
        lines = wrap(title, title_font, self._width(option), TITLE_LINES)
        height = (2 * PAD_Y + len(lines) * QFontMetrics(title_font).lineSpacing() + GAP
                  + QFontMetrics(meta_font).lineSpacing())
        return QSize(self._width(option), height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        title, _, meta = str(index.data()).partition("\n")
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        title_font, meta_font = self._fonts(opt)
        width = opt.rect.width() - 2 * PAD_X
        painter.save()
        painter.setPen(TITLE_COLOUR)
        painter.setFont(title_font)
        y = opt.rect.top() + PAD_Y
        spacing = QFontMetrics(title_font).lineSpacing()
        for line in wrap(title, title_font, width, TITLE_LINES):
            painter.drawText(QRect(opt.rect.left() + PAD_X, y, width, spacing),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, line)
            y += spacing
        painter.setPen(META_COLOUR)
        painter.setFont(meta_font)
        painter.drawText(QRect(opt.rect.left() + PAD_X, y + GAP, width,
                               QFontMetrics(meta_font).lineSpacing()),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, meta)
        painter.restore()


class ConversationList(QListWidget):
    """The history's conversations; a context menu renames, deletes and exports."""

    open_requested = Signal(int)
    rename_requested = Signal(int)
    delete_requested = Signal(int)
    export_requested = Signal(int, str)  # conversation id, "json" | "md"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conversations")
        self.setItemDelegate(ConversationDelegate(self))
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        self.itemClicked.connect(self._clicked)
        self.itemActivated.connect(self._clicked)

    def show_conversations(self, conversations: list[ConversationInfo],
                           current: int | None) -> None:
        """Replace the entries, keeping ``current`` selected (without reopening it)."""
        self.blockSignals(True)
        self.clear()
        for conversation in conversations:
            item = QListWidgetItem(describe(conversation))
            item.setToolTip(conversation["title"])
            item.setData(ID_ROLE, conversation["id"])
            self.addItem(item)
            if conversation["id"] == current:
                item.setSelected(True)
                self.setCurrentItem(item)
        if current is None:
            self.clearSelection()
        self.blockSignals(False)

    def select(self, conversation_id: int | None) -> None:
        """Mark ``conversation_id`` as the current entry without rebuilding the list (safe
        inside the list's own click handlers, which rebuilding would pull the items from)."""
        self.blockSignals(True)
        item = self.item_for(conversation_id) if conversation_id is not None else None
        if item is None:
            self.clearSelection()
        else:
            self.setCurrentItem(item)
        self.blockSignals(False)

    def conversation_ids(self) -> list[int]:
        return [int(self.item(row).data(ID_ROLE)) for row in range(self.count())]

    def item_for(self, conversation_id: int) -> QListWidgetItem | None:
        for row in range(self.count()):
            if self.item(row).data(ID_ROLE) == conversation_id:
                return self.item(row)
        return None

    def _clicked(self, item: QListWidgetItem) -> None:
        self.open_requested.emit(int(item.data(ID_ROLE)))

    def context_menu_for(self, item: QListWidgetItem) -> QMenu:
        """The menu of one entry (its actions emit the request signals)."""
        conversation_id = int(item.data(ID_ROLE))
        menu = QMenu(self)
        menu.addAction("Open", lambda: self.open_requested.emit(conversation_id))
        menu.addAction("Rename…", lambda: self.rename_requested.emit(conversation_id))
        menu.addSeparator()
        menu.addAction("Export last run as JSON…",
                       lambda: self.export_requested.emit(conversation_id, "json"))
        menu.addAction("Export last run as Markdown…",
                       lambda: self.export_requested.emit(conversation_id, "md"))
        menu.addSeparator()
        menu.addAction("Delete…", lambda: self.delete_requested.emit(conversation_id))
        return menu

    def _menu(self, position: QPoint) -> None:
        item = self.itemAt(position)
        if item is not None:
            menu = self.context_menu_for(item)
            menu.aboutToHide.connect(menu.deleteLater)
            menu.popup(self.viewport().mapToGlobal(position))


class Sidebar(QWidget):
    """Workspace label and picker, the "New conversation" button, the conversation list."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setMinimumWidth(200)
        self.setStyleSheet(SIDEBAR_STYLE)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 12)
        layout.setSpacing(6)
        self.workspace_label = QLabel()
        self.workspace_label.setObjectName("workspacePath")
        self.workspace_label.setWordWrap(True)
        self.workspace_button = QPushButton("Open workspace…")
        self.new_button = QPushButton("+  New conversation")
        self.new_button.setObjectName("newConversation")
        self.empty_label = QLabel("No conversations yet. Your requests and their runs are "
                                  "kept here.")
        self.empty_label.setObjectName("emptyHistory")
        self.empty_label.setWordWrap(True)
        self.conversations = ConversationList()
        for widget in (_heading("WORKSPACE"), self.workspace_label, self.workspace_button,
                       _heading("CONVERSATIONS"), self.new_button, self.empty_label):
            layout.addWidget(widget)
        layout.addWidget(self.conversations, 1)

    def show_workspace(self, path: str, missing: bool = False) -> None:
        """The chosen folder; one that no longer exists is named as missing."""
        text = path or "No folder chosen yet"
        self.workspace_label.setText(f"{text}\n⚠ This folder no longer exists." if missing
                                     else text)
        self.workspace_label.setToolTip(path)

    def show_conversations(self, conversations: list[ConversationInfo],
                           current: int | None) -> None:
        self.conversations.show_conversations(conversations, current)
        self.empty_label.setVisible(not conversations)


def _heading(text: str) -> QLabel:
    label = QLabel(text)
    label.setProperty("role", "heading")
    return label
