"""The window shows how each command ran, says so when it cannot sandbox, and Settings can
turn the sandbox off."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QComboBox, QDialogButtonBox
from pytestqt.qtbot import QtBot

from tests.e2e.conftest import WindowMaker
from tests.e2e.pagetools import js, settle, submit, texts, wait_js
from tests.e2e.scripted_runs import ScriptedFactory
from tests.e2e.windowtools import open_settings
from tests.support.proc_tree import require_sandbox
from tests.support.script import analysis, phases, plan, summary, task

pytestmark = pytest.mark.gui
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
FOOTERS = "document.querySelectorAll('.run-footer').length === {n}"
MARKS = ("Array.from(document.querySelectorAll('.run')[{run}].querySelectorAll('.task'))"
         ".map(t => {{ const m = t.querySelector('.sandbox'); return m ? m.textContent + '|' + "
         "m.className + '|' + m.title : ''; }})")


def commands_run(*commands: str) -> list[dict]:
    """A round of commands that write files: every task succeeds and files changed, so the
    engine settles the round from the facts and no judge is asked."""
    tasks = [task(1, "list_files")]
    tasks += [task(n, "run_command", command=c) for n, c in enumerate(commands, start=2)]
    return [analysis("Run the commands", complexity="complex"), phases((1, "Run", [])),
            {"text": "The commands write their files when they run."},  # the draft: no file
            plan(*tasks), summary("## Ran\n\nThe commands ran.")]


def marks(qtbot: QtBot, window: object, run: int) -> list[list[str]]:
    found = wait_js(qtbot, window, MARKS.format(run=run))  # type: ignore[arg-type]
    return [m.split("|") if m else [] for m in found]


def test_cards_show_sandboxed_and_the_setting_turns_it_off(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path) -> None:
    require_sandbox()
    factory = ScriptedFactory(commands_run("echo one > one.txt", "echo escaped > ../out.txt"),
                              commands_run("echo two > two.txt"))
    window = make_window(factory)
    window.resize(1100, 760)
    dialog = open_settings(window)
    assert dialog.sandbox_label.text().startswith("Active on this machine: commands run in "
                                                  "bubblewrap (")
    ARTIFACTS.mkdir(exist_ok=True)
    safety = dialog.sandbox_label.parentWidget()
    assert safety.grab().save(str(ARTIFACTS / "settings-sandbox.png"))
    dialog.reject()
    submit(qtbot, window, "run the commands")
    wait_js(qtbot, window, FOOTERS.format(n=1))
    first = marks(qtbot, window, 0)
    assert first[0] == []  # list_files is not a command
    assert [m[:2] for m in first[1:]] == [["🔒 sandboxed", "meta sandbox sandbox-on"]] * 2
    assert "only the workspace and a private /tmp" in first[1][2]
    assert (workspace / "one.txt").exists() and not (workspace.parent / "out.txt").exists()
    assert not texts(qtbot, window, ".run .notice")

    dialog = open_settings(window)
    combo = dialog.widgets["command_sandbox"]
    assert isinstance(combo, QComboBox)
    combo.setCurrentText("off")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert window.settings.command_sandbox == "off"
    submit(qtbot, window, "again")
    wait_js(qtbot, window, FOOTERS.format(n=2))
    second = marks(qtbot, window, 1)
    assert [m[:2] for m in second[1:]] == [["⚠ not sandboxed", "meta sandbox sandbox-off"]]
    assert not texts(qtbot, window, ".run .notice")  # turned off on purpose: the mark says it
    ARTIFACTS.mkdir(exist_ok=True)
    js(qtbot, window, "(() => { document.querySelectorAll('.plan')[0].scrollIntoView(); "
                      "return 1; })()")
    settle(qtbot, window, ms=400, top=None)
    assert window.grab().save(str(ARTIFACTS / "window-sandbox-marks.png"))


def test_without_bwrap_the_page_says_so_once_and_marks_every_command(
        qtbot: QtBot, make_window: WindowMaker, workspace: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    factory = ScriptedFactory(commands_run("echo one > one.txt", "echo two > two.txt"))
    window = make_window(factory)
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "sh").symlink_to("/bin/sh")
    monkeypatch.setenv("PATH", str(folder))
    dialog = open_settings(window)
    assert dialog.sandbox_label.text() == (
        "Not available on this machine: bwrap was not found (install bubblewrap, e.g. "
        "apt-get install bubblewrap). Commands run unsandboxed.")
    dialog.reject()
    submit(qtbot, window, "run the commands")
    wait_js(qtbot, window, FOOTERS.format(n=1))
    notices = texts(qtbot, window, ".notice-warning .notice-text")
    assert len(notices) == 1
    assert notices[0].startswith("Commands run without a sandbox: bwrap was not found")
    assert [m[:1] for m in marks(qtbot, window, 0)[1:]] == [["⚠ not sandboxed"]] * 2
    assert (workspace / "one.txt").exists() and (workspace / "two.txt").exists()
    ARTIFACTS.mkdir(exist_ok=True)
    js(qtbot, window, "(() => { document.querySelector('.run .notice-warning').scrollIntoView("
                      "{block: 'center'}); return 1; })()")
    settle(qtbot, window, ms=400, top=None)
    assert window.grab().save(str(ARTIFACTS / "window-sandbox-unavailable.png"))
