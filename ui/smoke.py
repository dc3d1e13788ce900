"""Smoke runs of the real window, for checking a packaged build without a person.

``main_qt.py --model-script FILE --run "request" --workspace DIR --exit-after-run
[--screenshot PNG]`` opens the window, submits the request (answered by a scripted model
when ``--model-script`` is given), waits until the summary panel is in the page and the
run has ended, optionally saves a screenshot of the window, and exits with 0. When no
summary appears within ``--timeout`` seconds it exits with 1 and says why on stderr.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication

from core.config import Settings
from core.engine.build import scripted_model
from core.llm.base import ChatModel
from ui.main_window import MainWindow
from ui.run_controller import DefaultEngineFactory

POLL_MS = 250
SETTLE_MS = 400
SUMMARY_SHOWN = ("document.querySelector('.message-summarizer') !== null && "
                 "document.querySelector('.run-footer') !== null")
RUN_STATUS = ("(() => { const run = document.querySelector('.run:last-of-type');"
              " const chip = run && run.querySelector('.run-footer .outcome');"
              " return (run ? run.dataset.status : '') + (chip ? ' · ' + chip.textContent : '');"
              " })()")
TO_BOTTOM = "(() => { const t = document.getElementById('timeline'); t.scrollTop = t.scrollHeight;" \
            " return 1; })()"


class ScriptFileFactory(DefaultEngineFactory):
    """Every run is answered by a fresh scripted model read from ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        scripted_model(path)  # a broken script is reported before the window opens

    def make_models(self, settings: Settings) -> tuple[ChatModel, None]:
        """The script answers every call, the thinking stages' too."""
        return scripted_model(self.path), None


class SmokeRun(QObject):
    """Drives one request through ``window`` and records the outcome in ``exit_code``."""

    def __init__(self, window: MainWindow, request: str, *, exit_after_run: bool,
                 screenshot: Path | None, timeout_s: float) -> None:
        super().__init__(window)
        self.window = window
        self.request = request
        self.exit_after_run = exit_after_run
        self.screenshot = screenshot
        self.exit_code: int | None = None
        self._started = False
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._check)
        self._deadline = QTimer(self)
        self._deadline.setSingleShot(True)
        self._deadline.timeout.connect(self._timed_out)
        if exit_after_run:
            self._deadline.start(int(timeout_s * 1000))
        self.timeout_s = timeout_s
        if window.bridge.is_ready:
            self._start()
        else:
            window.bridge.page_ready.connect(self._start)

    def _start(self) -> None:
        if self._started:
            return
        self._started = True
        if not self.window.submit(self.request):
            self._fail("the request was refused before the run started "
                       "(no workspace folder, or the model could not be set up)")
            return
        self._poll.start()

    def _check(self) -> None:
        if self.window.controller.running or self.exit_code is not None:
            return
        self.window.page.runJavaScript(SUMMARY_SHOWN, 0, self._checked)

    def _checked(self, shown: Any) -> None:
        if shown is True and self.exit_code is None and self._poll.isActive():
            self._poll.stop()
            self.window.page.runJavaScript(TO_BOTTOM, 0, lambda _: None)
            QTimer.singleShot(SETTLE_MS, self.window.view.update)
            QTimer.singleShot(2 * SETTLE_MS, self._succeed)

    def _succeed(self) -> None:
        self.window.page.runJavaScript(RUN_STATUS, 0, self._report)

    def _report(self, status: Any) -> None:
        if self.screenshot is not None:
            self.screenshot.parent.mkdir(parents=True, exist_ok=True)
            if not self.window.grab().save(str(self.screenshot)):
                self._fail(f"could not write the screenshot {self.screenshot}")
                return
        saved = f"; screenshot saved to {self.screenshot}" if self.screenshot else ""
        print(f"PhaseDesk smoke run: summary shown, run {status or 'ended'}{saved}", flush=True)
        self._end(0)

    def _timed_out(self) -> None:
        self._fail(f"no summary appeared within {self.timeout_s:g} s")

    def _fail(self, reason: str) -> None:
        print(f"PhaseDesk smoke run failed: {reason}", file=sys.stderr, flush=True)
        self._end(1)

    def _end(self, code: int) -> None:
        if self.exit_code is not None:
            return
        self.exit_code = code
        self._poll.stop()
        self._deadline.stop()
        if self.exit_after_run:
            self.window.controller.abort()
            QApplication.exit(code)
