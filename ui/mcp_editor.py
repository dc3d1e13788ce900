"""The Settings dialog's editor of the ``mcp_servers`` setting: add, test and remove servers.

One table row per server: enabled, name, command line (split like a shell would),
environment (``KEY=VALUE`` words) and approval. "Test" starts the selected server, lists
its tools and stops it again, without freezing the dialog.
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.shapes.mcp_server import APPROVALS, McpServer
from core.secrets import redact

COLUMNS = ("On", "Name", "Command", "Environment", "Approval")
ENABLED, NAME, COMMAND, ENV, APPROVAL = range(len(COLUMNS))


class McpServersEditor(QWidget):
    def __init__(self, servers: tuple[McpServer, ...], workspace: Callable[[], Path],
                 start_timeout: Callable[[], float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._workspace = workspace
        self._start_timeout = start_timeout
        self._test_task: asyncio.Task[None] | None = None
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("mcpServers")
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.table.horizontalHeader()
        for column in (ENABLED, NAME, APPROVAL):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COMMAND, QHeaderView.ResizeMode.Stretch)
        self.table.setColumnWidth(ENV, 110)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.setMinimumHeight(120)
        self.add_button = QPushButton("Add")
        self.test_button = QPushButton("Test")
        self.remove_button = QPushButton("Remove")
        self.add_button.clicked.connect(lambda: self.add_row(None))
        self.test_button.clicked.connect(self.test_selected)
        self.remove_button.clicked.connect(self.remove_selected)
        self.result = QLabel()
        self.result.setObjectName("mcpTestResult")
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QHBoxLayout()
        for button in (self.add_button, self.test_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        layout.addWidget(self.result)
        for server in servers:
            self.add_row(server)

    def add_row(self, server: McpServer | None) -> int:
        """Append a row (empty, named ``serverN``, when ``server`` is None) and select it."""
        row = self.table.rowCount()
        self.table.insertRow(row)
        server = server or McpServer(f"server{row + 1}", "")
        enabled = QTableWidgetItem()
        enabled.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled
                         | Qt.ItemFlag.ItemIsSelectable)
        enabled.setCheckState(Qt.CheckState.Checked if server.enabled else Qt.CheckState.Unchecked)
        self.table.setItem(row, ENABLED, enabled)
        self.table.setItem(row, NAME, QTableWidgetItem(server.name))
        command = server.command_line() if server.command else ""
        self.table.setItem(row, COMMAND, QTableWidgetItem(command))
        env = " ".join(shlex.quote(f"{key}={value}") for key, value in server.env)
        self.table.setItem(row, ENV, QTableWidgetItem(env))
        approval = QComboBox()
        approval.addItems(list(APPROVALS))
        approval.setCurrentText(server.approval)
        self.table.setCellWidget(row, APPROVAL, approval)
        self.table.selectRow(row)
        return row

    def remove_selected(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            self.table.removeRow(row)

    def servers(self) -> tuple[McpServer, ...]:
        """The rows as servers; raises ``ValueError`` naming the first bad row."""
        return tuple(self.server_at(row) for row in range(self.table.rowCount()))

    def server_at(self, row: int) -> McpServer:
        name = self._text(row, NAME)
        try:
            words = shlex.split(self._text(row, COMMAND))
            pairs = [word.partition("=") for word in shlex.split(self._text(row, ENV))]
        except ValueError as exc:
            raise ValueError(f"MCP server {name}: {exc}") from None
        if not words:
            raise ValueError(f"MCP server {name}: the command is empty")
        if any(not sep for _, sep, _ in pairs):
            raise ValueError(f"MCP server {name}: write the environment as KEY=VALUE words")
        approval = self.table.cellWidget(row, APPROVAL)
        enabled = self.table.item(row, ENABLED)
        return McpServer(
            name=name, command=words[0], args=tuple(words[1:]),
            env=tuple(sorted((key, value) for key, _, value in pairs)),
            enabled=enabled is not None and enabled.checkState() == Qt.CheckState.Checked,
            approval=approval.currentText() if isinstance(approval, QComboBox) else "ask",
        ).checked()

    def test_selected(self) -> None:
        """Start the selected server, list its tools and stop it; the answer goes in ``result``."""
        if self._test_task is not None and not self._test_task.done():
            return
        row = self.table.currentRow()
        if row < 0:
            self.result.setText("Select a server to test.")
            return
        try:
            server = self.server_at(row)
        except ValueError as exc:
            self.result.setText(f"Cannot test: {exc}")
            return
        self.result.setText(f"Starting {server.name}…")
        self.test_button.setEnabled(False)
        self._test_task = asyncio.get_running_loop().create_task(self._test(server))

    async def _test(self, server: McpServer) -> None:
        from core.tools.mcp_client import McpFailure, probe

        try:
            tools = await probe(server, self._workspace(), self._start_timeout())
            names = ", ".join(tool.name for tool in tools) or "no tools"
            text = f"✓ {server.name} started and offers {len(tools)} tool(s): {names}. Stopped."
        except McpFailure as exc:
            text = f"✗ {exc}"
        finally:
            self.test_button.setEnabled(True)
        self.result.setText(redact(text))

    def cancel_test(self) -> None:
        if self._test_task is not None and not self._test_task.done():
            self._test_task.cancel()

    def _text(self, row: int, column: int) -> str:
        item = self.table.item(row, column)
        return item.text().strip() if item is not None else ""
