"""The main window: a sidebar (workspace, conversations) and the web page in the centre."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from PySide6.QtCore import QUrl
from PySide6.QtGui import QAction, QCloseEvent, QDesktopServices, QKeySequence
from PySide6.QtWebChannel import QWebChannel
from PySide6.QtWebEngineCore import QWebEnginePage, QWebEngineSettings
from PySide6.QtWebEngineWidgets import QWebEngineView
from PySide6.QtWidgets import QFileDialog, QMainWindow, QSplitter

from core import config
from core.config import Settings
from core.engine.build import offline_model_label
from ui.bridge import CHANNEL_NAME, Bridge
from ui.conversations import Conversations
from ui.history import History
from ui.marks import Marks
from ui.page_messages import UiCommand, UiContext, UiSubmitted
from ui.run_controller import EngineFactory, RunController
from ui.settings_dialog import SettingsDialog
from ui.sidebar import Sidebar
from ui.undo import Undo

log = logging.getLogger(__name__)
PAGE = Path(__file__).parent / "web" / "index.html"
_CONSOLE = QWebEnginePage.JavaScriptConsoleMessageLevel
CONSOLE_LEVELS = {_CONSOLE.InfoMessageLevel: logging.INFO,
                  _CONSOLE.WarningMessageLevel: logging.WARNING,
                  _CONSOLE.ErrorMessageLevel: logging.ERROR}


class WebPage(QWebEnginePage):
    """Logs console messages (the page's warnings and errors as such); never navigates away
    from the app page, opens http(s) links the person clicks in their browser; no pop-up
    windows."""

    def javaScriptConsoleMessage(self, level: QWebEnginePage.JavaScriptConsoleMessageLevel,
                                 message: str, line: int, source: str) -> None:
        log.log(CONSOLE_LEVELS.get(level, logging.INFO), "page console (%s:%d): %s",
                Path(QUrl(source).path()).name, line, message)

    def acceptNavigationRequest(self, url: QUrl | str, kind: QWebEnginePage.NavigationType,
                                is_main_frame: bool) -> bool:
        url = QUrl(url)
        if url.isLocalFile() and Path(url.toLocalFile()) == PAGE:
            return True
        if kind == QWebEnginePage.NavigationType.NavigationTypeLinkClicked and \
                url.scheme() in ("http", "https"):
            QDesktopServices.openUrl(url)
        log.info("navigation to %s refused", url.toString()[:200])
        return False

    def createWindow(self, kind: QWebEnginePage.WebWindowType) -> None:
        return None


class MainWindow(QMainWindow):
    """The window: sidebar (workspace, conversations), the page, menus; one run at a time."""

    def __init__(self, settings: Settings | None = None,
                 engine_factory: EngineFactory | None = None, *,
                 problems: list[str] | None = None, saved_workspace: str | None = None) -> None:
        """``settings`` default to the saved ones; ``problems`` (reading them) are shown;
        ``saved_workspace``: the workspace the settings file holds when ``settings`` carry
        another one for this session only (``--workspace``)."""
        super().__init__()
        self.setWindowTitle("PhaseDesk")
        self.resize(1200, 820)
        problems = list(problems or [])
        if settings is None:
            settings, problems = config.load()
        self.settings = settings
        self.saved_workspace = settings.workspace if saved_workspace is None else saved_workspace
        self._problems = problems
        self.model_label: tuple[str, str] | None = None  # (provider, model) when not from settings
        self._shown_missing = False  # the header says the workspace folder is missing

        self.bridge = Bridge(self)
        self.history = History.open()
        if self.history.problem:
            self._problems.append(self.history.problem)
        self.controller = RunController(self.bridge, self.history, engine_factory, self)
        self.undo = Undo(self, self.bridge, self.controller, self.history.store.record_undo)
        self.marks = Marks(self, self.bridge, self.history)
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

        self.sidebar = Sidebar()
        self.history_view = Conversations(self, self.history, self.sidebar, self.bridge,
                                          self.controller)
        splitter = QSplitter()
        splitter.addWidget(self.sidebar)
        splitter.addWidget(self.view)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([250, 950])
        self.setCentralWidget(splitter)
        self._menus()
        self._connect()
        self._show_workspace()
        self.view.load(QUrl.fromLocalFile(str(PAGE)))

    def _menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        run_menu = self.menuBar().addMenu("&Run")
        export = self.history_view.export_current
        entries = (
            (file_menu, "&New conversation", QKeySequence.StandardKey.New, self.new_conversation),
            (file_menu, "&Open workspace…", QKeySequence.StandardKey.Open, self.pick_workspace),
            (file_menu, "Export last run as &JSON…", QKeySequence(), lambda: export("json")),
            (file_menu, "Export last run as &Markdown…", QKeySequence(), lambda: export("md")),
            (file_menu, "&Settings…", QKeySequence("Ctrl+,"), self.open_settings),
            (file_menu, "&Quit", QKeySequence.StandardKey.Quit, self.close),
            (run_menu, "&Send", QKeySequence("Ctrl+Return"), self.send_input),
            (run_menu, "S&top", QKeySequence("Esc"), self.controller.cancel),
        )
        for menu, text, shortcut, slot in entries:
            action = QAction(text, self)
            action.setShortcut(shortcut)
            action.triggered.connect(slot)
            menu.addAction(action)
            if text.startswith(("&Settings", "Export last run as &M")):
                menu.addSeparator()

    def _connect(self) -> None:
        b = self.bridge
        b.page_ready.connect(self._page_ready)
        b.submitted.connect(self._submit_from_page)
        b.retry_requested.connect(self.retry)
        b.cancel_requested.connect(self.controller.cancel)
        b.approval_answered.connect(self.controller.answer_approval)
        b.settings_requested.connect(self.open_settings)
        b.workspace_requested.connect(self.pick_workspace)
        b.new_conversation_requested.connect(self.new_conversation)
        self.sidebar.workspace_button.clicked.connect(self.pick_workspace)
        self.page.loadStarted.connect(b.reset)

    def _page_ready(self) -> None:
        self._send_context()
        for problem in self._problems:
            self.controller.message(problem, "warning")
        self._problems = []

    def _send_context(self) -> None:
        s = self.settings
        provider, model = self.model_label or (s.effective_provider(), s.model)
        demo = False
        if provider == "embedded" and not self.model_label:
            model, demo = offline_model_label(s)
        thinking = "" if self.model_label else thinking_label(s)
        self._shown_missing = self._workspace_missing()
        self.bridge.send(UiContext(workspace=s.workspace, provider=provider, model=model,
                                   engine="phase" if s.use_phase_task else "classic",
                                   thinking=thinking, demo=demo,
                                   workspace_missing=self._shown_missing))

    def _workspace_missing(self) -> bool:
        """A workspace is chosen but that folder no longer exists."""
        return bool(self.settings.workspace) and not Path(self.settings.workspace).is_dir()

    def _show_workspace(self) -> None:
        self.sidebar.show_workspace(self.settings.workspace, self._workspace_missing())

    def set_workspace(self, path: Path) -> None:
        """Use ``path`` as the workspace and remember it in the settings file."""
        self.settings = dataclasses.replace(self.settings, workspace=str(path))
        self.saved_workspace = str(path)
        config.save(self.settings)
        self._show_workspace()
        self._send_context()

    def pick_workspace(self) -> None:
        start = self.settings.workspace or str(Path.home())
        chosen = QFileDialog.getExistingDirectory(self, "Open workspace", start)
        if chosen:
            self.set_workspace(Path(chosen))

    @property
    def _session_workspace(self) -> str:
        """The workspace of this session when it is not the saved one (``--workspace``)."""
        workspace = self.settings.workspace
        return workspace if workspace != self.saved_workspace else ""

    def open_settings(self) -> None:
        """The settings dialog on the saved settings: a ``--workspace`` of this session is
        said under the Workspace field and saved only if the person enters it there."""
        shown = dataclasses.replace(self.settings, workspace=self.saved_workspace)
        dialog = SettingsDialog(shown, self, session_workspace=self._session_workspace)
        dialog.accepted.connect(lambda: self._settings_saved(dialog, shown))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def _settings_saved(self, dialog: SettingsDialog, shown: Settings) -> None:
        saved = dialog.saved_settings
        if saved is None:
            return
        session = self._session_workspace
        self.saved_workspace = saved.workspace
        keep_session = session and saved.workspace == shown.workspace
        self.settings = dataclasses.replace(saved, workspace=session) if keep_session else saved
        self._show_workspace()
        self._send_context()
        keys = [f.name for f in config.fields() if f.metadata["secret"]]
        changed = any(getattr(saved, name) != getattr(shown, name) for name in keys)
        self.controller.message("Settings saved." + (
            f" API key: {dialog.key_location}." if changed else ""))

    def send_input(self) -> None:
        self.bridge.send(UiCommand("send"))

    def _submit_from_page(self, text: str, previous_analysis: dict[str, Any] | None) -> None:
        """A request from the page; it keeps the text in its input unless the run started."""
        self.bridge.send(UiSubmitted(self.submit(text, previous_analysis), text))

    def retry(self, run_id: str) -> bool:
        """Start a finished run's request again: a new run in that run's conversation."""
        run = self.history.run(run_id)
        if run is None or run["status"] == "running":
            self.controller.message("That run cannot be retried: it is not a finished run of "
                                    "the history.", "warning")
            self.bridge.send(UiSubmitted(False, ""))
            return False
        accepted = self.submit(run["request"], conversation_id=run["conversation_id"])
        self.bridge.send(UiSubmitted(accepted, run["request"]))
        return accepted

    def submit(self, text: str, previous_analysis: dict[str, Any] | None = None, *,
               conversation_id: int | None = None) -> bool:
        """Start a run of ``text`` in ``conversation_id``, else the current conversation (a new
        one when none is open)."""
        workspace = self.settings.workspace
        if self._shown_missing != self._workspace_missing():  # gone, or back, since shown
            self._show_workspace()
            self._send_context()
        if not workspace or not Path(workspace).is_dir():
            self._refuse_workspace(workspace)
            return False
        if self.history_view.replaying:
            self.controller.message("Still loading the conversation; send again in a moment.",
                                    "warning")
            return False
        if self.undo.busy:
            self.controller.message("Still undoing file changes; send again in a moment.",
                                    "warning")
            return False
        if conversation_id is None:
            conversation_id = self.history_view.current
        return self.controller.start(self.settings, Path(workspace), text, previous_analysis,
                                     conversation_id)

    def _refuse_workspace(self, workspace: str) -> None:
        """Say why a request cannot run without a workspace folder."""
        if workspace:
            self.controller.message(f"The workspace folder {workspace} no longer exists: choose "
                                    "a folder (File → Open workspace…).", "warning")
        else:
            self.controller.message("Choose a workspace folder first (File → Open workspace…).",
                                    "warning")

    def new_conversation(self) -> None:
        self.history_view.new()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.controller.abort()
        self.undo.abort()
        self.history_view.close_when_idle()
        super().closeEvent(event)


def thinking_label(settings: Settings) -> str:
    """The separate thinking model as the header names it ("judge @ host"); empty without one."""
    if not settings.thinking_base_url and not settings.thinking_model:
        return ""
    name = settings.thinking_model or settings.model
    host = urlsplit(settings.thinking_base_url).netloc
    return f"{name} @ {host}" if name and host else name or host
