"""Regenerate the screenshots under docs/screenshots/: the real window, driven through scripted
runs (no model, no network), each screenshot taken once its page shows what it is for.

    .venv/bin/python scripts/screenshots.py [OUT_DIR]

Writes succeeded-run.png, partial-run.png, candidates.png (the partial run's write and the
versions it weighed), write-approval.png and settings.png. Without a
display it draws offscreen (``QT_QPA_PLATFORM=offscreen``); under Xvfb it uses the X server.
It works in a throwaway app home and workspace: the person's history and settings are not
touched. The scripted replies come from ``tests/support/script.py``, so they follow the
engine's reply formats as the tests do.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
STUB = "def is_leap(year):\n    raise NotImplementedError\n"
LEAP = "def is_leap(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n"
WRONG = "def is_leap(year):\n    return year % 4 == 0\n"
LEAP_ASK = "Implement is_leap(year) in leap.py. is_leap(2000) is True, is_leap(1900) is False."
EXAMPLES = ("is_leap(2000) == True", "is_leap(1900) == False")
PORT_ASK = "Set PORT to 8080 in config.py."
SIZE = (1280, 1100)


def _scripts() -> list[list[dict[str, Any]]]:
    """The three runs' model replies: a verified change, a partly done one (the draft and its
    two candidates each miss an example), a write that waits for approval."""
    from tests.support.script import analysis, authored, reading, summary

    said = [{"requirement": f"{call} is {value}", "quote": f"{call} is {value}"}
            for call, value in (("is_leap(2000)", "True"), ("is_leap(1900)", "False"))]
    leap = analysis("Implement is_leap in leap.py", requirements=said, **reading(
        change=("leap.py",), examples=EXAMPLES,
        quotes={EXAMPLES[0]: "is_leap(2000) is True", EXAMPLES[1]: "is_leap(1900) is False"}))
    port = analysis("Set PORT to 8080 in config.py", requirements=[
        {"requirement": "PORT is 8080", "quote": "Set PORT to 8080"}],
        **reading(change=("config.py",)))
    return [[leap, authored(LEAP, "leap.py"),
             summary("## is_leap implemented\n\nis_leap in leap.py follows the Gregorian rule: "
                     "every 4th year, except centuries not divisible by 400.",
                     highlights=["Both examples of the request pass"])],
            [leap, authored(WRONG, "leap.py"), authored(WRONG, "leap.py"),
             authored("def is_leap(year):\n    return False\n", "leap.py"),
             summary("## is_leap partly done\n\nis_leap counts every 4th year but misses the "
                     "century rule, so is_leap(1900) is still True.",
                     highlights=["is_leap(2000) is right", "is_leap(1900) is still wrong"])],
            [port, authored("PORT = 8080\n", "config.py"),
             summary("## Port set\n\nconfig.py now sets PORT to 8080.",
                     highlights=["PORT is 8080"])]]


async def _page(window: Any, script: str, timeout_s: float = 30.0) -> Any:
    """Wait until the page expression ``script`` is truthy; returns its value."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while True:
        box: asyncio.Future[Any] = loop.create_future()
        window.page.runJavaScript(f"JSON.stringify(({script}))", 0,
                                  lambda value: box.done() or box.set_result(value))
        raw = await box
        value = json.loads(raw) if raw else None
        if value:
            return value
        if loop.time() > deadline:
            raise TimeoutError(f"the page never showed: {script}")
        await asyncio.sleep(0.2)


async def _shot(window: Any, path: Path, at: str, block: str = "start") -> None:
    """Scroll ``at`` (a selector) into view at ``block``, let the page paint, save the
    window."""
    await _page(window, f"(() => {{ const e = document.querySelector({json.dumps(at)});"
                        f" if (e) e.scrollIntoView({{block: {json.dumps(block)}}});"
                        " return 1; })()")
    await asyncio.sleep(0.8)
    window.view.update()
    await asyncio.sleep(0.8)
    if not window.grab().save(str(path)):
        raise OSError(f"could not write {path}")
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


async def _run(window: Any, request: str, approve: bool = False) -> None:
    """Submit ``request`` in a new conversation and wait for its summary (approving the write
    when asked)."""
    window.history_view.new()
    await _page(window, "document.querySelectorAll('.run').length === 0")
    if not window.submit(request):
        raise RuntimeError(f"the window refused the request: {request}")
    if approve:
        await _page(window, "document.querySelector('.approval .diff-box') !== null")
        return
    await _page(window, "document.querySelector('.run-footer') !== null")
    await _page(window, "document.body.dataset.state === 'idle'")


async def take(window: Any, out: Path, workspace: Path) -> None:
    """Take the five screenshots into ``out`` (the runs work in ``workspace``)."""
    from ui.settings_dialog import SettingsDialog

    while not window.bridge.is_ready:
        await asyncio.sleep(0.1)
    await _run(window, LEAP_ASK)
    await _shot(window, out / "succeeded-run.png", ".message-summarizer")
    (workspace / "leap.py").write_text(STUB, encoding="utf-8")
    await _run(window, LEAP_ASK)
    await _shot(window, out / "partial-run.png", ".message-summarizer")
    await _page(window, "(() => { document.querySelectorAll('.candidates details')"
                        ".forEach((d, n) => { d.open = n === 2; }); return 1; })()")
    await _shot(window, out / "candidates.png", ".task .candidates-line", "center")
    window.settings = dataclasses.replace(window.settings, write_approval="ask")
    await _run(window, PORT_ASK, approve=True)
    await _shot(window, out / "write-approval.png", ".approval")
    await _page(window, "(() => { document.querySelector('.approval [data-decision=\"once\"]')"
                        ".click(); return 1; })()")
    await _page(window, "document.querySelector('.run-footer') !== null")
    dialog = SettingsDialog(window.settings, window)
    dialog.resize(640, 900)
    dialog.show()
    await asyncio.sleep(0.8)
    path = out / "settings.png"
    if not dialog.grab().save(str(path)):
        raise OSError(f"could not write {path}")
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    dialog.close()


def main(argv: list[str]) -> int:
    out = Path(argv[0]).resolve() if argv else OUT
    out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="phasedesk-screenshots-"))
    os.environ["PHASEDESK_HOME"] = str(home)
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")
    sys.path.insert(0, str(ROOT))
    from ui.quiet_start import start_quietly

    start_quietly(verbose=False)
    import qasync
    from PySide6.QtWidgets import QApplication

    from core import config
    from core.llm.scripted import ScriptedModel
    from ui.main_window import MainWindow
    from ui.run_controller import DefaultEngineFactory

    scripts = _scripts()

    class Scripted(DefaultEngineFactory):
        def make_models(self, settings: Any) -> tuple[Any, None]:
            return ScriptedModel(scripts.pop(0)), None

    workspace = home / "workspace"
    workspace.mkdir()
    (workspace / "leap.py").write_text(STUB, encoding="utf-8")
    (workspace / "config.py").write_text("PORT = 8000\nDEBUG = False\n", encoding="utf-8")
    app = QApplication([sys.argv[0]])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    settings = config.from_mapping({"workspace": str(workspace), "think_stage": "never",
                                    "write_approval": "auto", "candidates": 2},
                                   config.Settings())
    window = MainWindow(settings, Scripted())
    window.resize(*SIZE)
    window.show()
    with loop:
        loop.run_until_complete(take(window, out, workspace))
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
