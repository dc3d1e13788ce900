"""The main window: a sidebar (workspace, conversations) and the web page in the centre."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QCloseEvent, QDesktopServices, QKeySequence
from PySide6.QtWebChannel import QWebChannel
from PySide6.QtWebEngineCore import QWebEnginePage, QWebEngineSettings
from PySide6.QtWebEngineWidgets import QWebEngineView
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from core import config
from core.config import Settings
from ui.bridge import CHANNEL_NAME, Bridge
from ui.run_controller import EngineFactory, RunController
from ui.settings_dialog import SettingsDialog

log = logging.getLogger(__name__)
PAGE = Path(__file__).parent / "web" / "index.html"
SIDEBAR_STYLE = """
#sidebar { background: #f4f5fa; border-right: 1px solid #e4e6ef; }
#sidebar QLabel[role="heading"] { color: #6b6f85; font-weight: 600; font-size: 11px;
                                  margin-top: 10px; }
#sidebar QLabel#workspacePath { color: #23263a; font-size: 12px; }
#sidebar QPushButton { background: #ffffff; border: 1px solid #d9dcea; border-radius: 7px;
                       padding: 6px 10px; color: #23263a; }
#sidebar QPushButton:hover { background: #eef0fb; border-color: #667eea; }
#sidebar QPushButton#newConversation { background: qlineargradient(x1:0, y1:0, x2:1, y2:1,
    stop:0 #667eea, stop:1 #764ba2); color: white; border: none; font-weight: 600; }
#sidebar QListWidget { border: none; background: transparent; font-size: 12px; }
#sidebar QListWidget::item { padding: 7px 6px; border-radius: 6px; color: #3d4260; }
#sidebar QListWidget::item:selected { background: #e4e8fb; color: #23263a; }
#sidebar QListWidget::item:hover { background: #eceffa; }
"""


class WebPage(QWebEnginePage):
    """Logs console messages; never navigates away from the app page; no pop-up windows."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.console: list[str] = []
        self.open_external: Callable[[QUrl], object] = QDesktopServices.openUrl

    def javaScriptConsoleMessage(self, level: QWebEnginePage.JavaScriptConsoleMessageLevel,
                                 message: str, line: int, source: str) -> None:
        self.console.append(message)
        log.info("page console (%s:%d): %s", Path(QUrl(source).path()).name, line, message)

    def acceptNavigationRequest(self, url: QUrl | str, kind: QWebEnginePage.NavigationType,
                                is_main_frame: bool) -> bool:
        url = QUrl(url)
        if url.isLocalFile() and Path(url.toLocalFile()) == PAGE:
            return True
        if kind == QWebEnginePage.NavigationType.NavigationTypeLinkClicked and \
                url.scheme() in ("http", "https"):
            self.open_external(url)
        log.info("navigation to %s refused", url.toString()[:200])
        return False

    def createWindow(self, kind: QWebEnginePage.WebWindowType) -> None:
        return None


class MainWindow(QMainWindow):
    def __init__(self, settings: Settings | None = None,
                 engine_factory: EngineFactory | None = None) -> None:
        super().__init__()
        self.setWindowTitle("PhaseDesk")
        self.resize(1200, 820)
        problems: list[str] = []
        if settings is None:
            settings, problems = config.load()
        self.settings = settings
        self._problems = problems

        self.bridge = Bridge(self)
        self.controller = RunController(self.bridge, engine_factory, self)
        self.view = QWebEngineView()
        self.page = WebPage(self.view)
        for attribute in (QWebEngineSettings.WebAttribute.JavascriptCanOpenWindows,
                          QWebEngineSettings.WebAttribute.LocalContentCanAccessRemoteUrls,
                          QWebEngineSettings.WebAttribute.PluginsEnabled):
            self.page.settings().setAttribute(attribute, False)
        self.channel = QWebChannel(self.page)
        self.channel.registerObject(CHANNEL_NAME, self.bridge)
        self.page.setWebChannel(self.channel)
        self.view.setPage(self.page)

        splitter = QSplitter()
        splitter.addWidget(self._sidebar())
        splitter.addWidget(self.view)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([240, 960])
        self.setCentralWidget(splitter)
        self._menus()
        self._connect()
        self._show_workspace()
        self.view.load(QUrl.fromLocalFile(str(PAGE)))

    def _sidebar(self) -> QWidget:
        side = QWidget()
        side.setObjectName("sidebar")
        side.setMinimumWidth(200)
        side.setStyleSheet(SIDEBAR_STYLE)
        layout = QVBoxLayout(side)
        layout.setContentsMargins(12, 10, 12, 12)
        layout.setSpacing(6)
        heading = QLabel("WORKSPACE")
        heading.setProperty("role", "heading")
        self.workspace_label = QLabel()
        self.workspace_label.setObjectName("workspacePath")
        self.workspace_label.setWordWrap(True)
        self.workspace_button = QPushButton("Open workspace…")
        self.workspace_button.clicked.connect(self.pick_workspace)
        conversations = QLabel("CONVERSATIONS")
        conversations.setProperty("role", "heading")
        self.new_button = QPushButton("+  New conversation")
        self.new_button.setObjectName("newConversation")
        self.new_button.clicked.connect(self.new_conversation)
        self.conversations = QListWidget()
        self.conversations.setObjectName("conversations")
        self.conversations.setWordWrap(True)
        for widget in (heading, self.workspace_label, self.workspace_button, conversations,
                       self.new_button):
            layout.addWidget(widget)
        layout.addWidget(self.conversations, 1)
        return side

    def _menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        run_menu = self.menuBar().addMenu("&Run")
        entries = (
            (file_menu, "&Open workspace…", QKeySequence.StandardKey.Open, self.pick_workspace),
            (file_menu, "&Settings…", QKeySequence("Ctrl+,"), self.open_settings),
            (file_menu, "&Quit", QKeySequence.StandardKey.Quit, self.close),
            (run_menu, "&Send", QKeySequence("Ctrl+Return"), self.send_input),
            (run_menu, "S&top", QKeySequence("Esc"), self.controller.cancel),
        )
        self.actions: dict[str, QAction] = {}
        for menu, text, shortcut, slot in entries:
            action = QAction(text, self)
            action.setShortcut(shortcut)
            action.triggered.connect(slot)
            menu.addAction(action)
            self.actions[text.replace("&", "").rstrip("…")] = action

    def _connect(self) -> None:
        b = self.bridge
        b.page_ready.connect(self._page_ready)
        b.submitted.connect(self.submit)
        b.cancel_requested.connect(self.controller.cancel)
        b.approval_answered.connect(self.controller.answer_approval)
        b.settings_requested.connect(self.open_settings)
        b.workspace_requested.connect(self.pick_workspace)
        b.new_conversation_requested.connect(self.new_conversation)
        self.controller.run_ended.connect(self._run_ended)
        self.page.loadStarted.connect(b.reset)

    def _page_ready(self) -> None:
        self._send_context()
        for problem in self._problems:
            self.controller.message(problem, "warning")
        self._problems = []

    def _send_context(self) -> None:
        s = self.settings
        self.bridge.send({"kind": "ui_context", "workspace": s.workspace,
                          "provider": s.effective_provider(), "model": s.model,
                          "engine": "phase" if s.use_phase_task else "classic"})

    def _show_workspace(self) -> None:
        path = self.settings.workspace
        self.workspace_label.setText(path or "No folder chosen yet")
        self.workspace_label.setToolTip(path)

    def set_workspace(self, path: Path) -> None:
        """Use ``path`` as the workspace and remember it in the settings file."""
        self.settings = dataclasses.replace(self.settings, workspace=str(path))
        config.save(self.settings)
        self._show_workspace()
        self._send_context()

    def pick_workspace(self) -> None:
        start = self.settings.workspace or str(Path.home())
        chosen = QFileDialog.getExistingDirectory(self, "Open workspace", start)
        if chosen:
            self.set_workspace(Path(chosen))

    def open_settings(self) -> SettingsDialog:
        dialog = SettingsDialog(self.settings, self)
        dialog.accepted.connect(lambda: self._settings_saved(dialog))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def _settings_saved(self, dialog: SettingsDialog) -> None:
        if dialog.saved_settings is not None:
            self.settings = dialog.saved_settings
            self._show_workspace()
            self._send_context()
            self.controller.message(f"Settings saved. API key: {dialog.key_location}.")

    def send_input(self) -> None:
        self.bridge.send({"kind": "ui_command", "command": "send"})

    def submit(self, text: str, previous_analysis: dict[str, Any] | None = None) -> None:
        workspace = self.settings.workspace
        if not workspace or not Path(workspace).is_dir():
            self.controller.message("Choose a workspace folder first (File → Open workspace…).",
                                    "warning")
            return
        self.controller.start(self.settings, Path(workspace), text, previous_analysis)

    def new_conversation(self) -> None:
        if self.controller.running:
            self.controller.message("Stop the current run before starting a new conversation.",
                                    "warning")
            return
        self.conversations.clearSelection()
        self.bridge.send({"kind": "ui_clear"})

    def _run_ended(self, run_id: str, request: str, status: str) -> None:
        title = request if len(request) <= 60 else request[:57] + "…"
        item = QListWidgetItem(f"{title}\n{status.replace('_', ' ')}")
        item.setToolTip(request)
        item.setData(Qt.ItemDataRole.UserRole, run_id)
        self.conversations.insertItem(0, item)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.controller.abort()
        super().closeEvent(event)
