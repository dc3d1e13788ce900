"""The Settings dialog adds, tests (start, list tools, stop) and removes MCP servers."""

from __future__ import annotations

import json
import os
import shlex
import sys

import pytest
from PySide6.QtWidgets import QComboBox, QDialogButtonBox
from pytestqt.qtbot import QtBot

from core import config
from tests.e2e.conftest import WindowMaker
from tests.e2e.windowtools import open_settings
from tests.support.mcp_servers import guards_of
from ui.mcp_editor import APPROVAL, COMMAND, ENV, NAME, McpServersEditor

pytestmark = pytest.mark.gui
TIME_COMMAND = f"{shlex.quote(sys.executable)} -m mcp_server_time --local-timezone UTC"


def fill(editor: McpServersEditor, row: int, name: str, command: str, env: str = "") -> None:
    editor.table.item(row, NAME).setText(name)
    editor.table.item(row, COMMAND).setText(command)
    editor.table.item(row, ENV).setText(env)


def test_add_test_remove_and_save_mcp_servers(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window()
    dialog = open_settings(window)
    editor = dialog.widgets["mcp_servers"]
    assert isinstance(editor, McpServersEditor) and editor.table.rowCount() == 0

    editor.add_button.click()
    fill(editor, 0, "time", TIME_COMMAND, "TZ_HINT='far east'")
    editor.test_button.click()
    qtbot.waitUntil(lambda: editor.result.text().startswith(("✓", "✗")), timeout=30000)
    assert editor.result.text() == ("✓ time started and offers 2 tool(s): get_current_time, "
                                    "convert_time. Stopped.")
    assert guards_of(os.getpid()) == []

    editor.add_button.click()
    fill(editor, 1, "ghost", "no-such-mcp-server --flag")
    editor.test_button.click()
    qtbot.waitUntil(lambda: editor.result.text().startswith(("✓", "✗")), timeout=30000)
    assert editor.result.text() == ("✗ MCP server 'ghost' could not be started: command not "
                                    "found or not executable: no-such-mcp-server")
    editor.remove_button.click()
    assert editor.table.rowCount() == 1

    approval = editor.table.cellWidget(0, APPROVAL)
    assert isinstance(approval, QComboBox)
    approval.setCurrentText("auto")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert not dialog.isVisible()
    saved = json.loads(config.config_path().read_text())["mcp_servers"]
    assert saved == [{"name": "time", "command": sys.executable,
                      "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"],
                      "env": {"TZ_HINT": "far east"}, "enabled": True, "approval": "auto"}]

    again = open_settings(window).widgets["mcp_servers"]
    assert isinstance(again, McpServersEditor)
    assert again.servers() == config.load()[0].mcp_servers


def test_a_bad_server_row_keeps_the_dialog_open_with_the_reason(
        qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window()
    dialog = open_settings(window)
    editor = dialog.widgets["mcp_servers"]
    assert isinstance(editor, McpServersEditor)
    editor.add_button.click()
    fill(editor, 0, "two__parts", "server")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
    assert dialog.isVisible()
    assert "MCP server name 'two__parts'" in dialog.error_label.text()
    fill(editor, 0, "ok", "")
    editor.test_button.click()
    assert editor.result.text() == "Cannot test: MCP server ok: the command is empty"
    dialog.reject()
