"""One MCP server entry of the settings: what it is, how it is written and checked.

The ``mcp_servers`` setting (declared in ``core.config``) holds a tuple of these. The
config file keeps each as a JSON object; headless adds servers with
``--mcp NAME=COMMAND`` (the command split like a shell would). Tools of a server are
offered to the model as ``NAME__TOOL``, so a name holds letters, digits, ``-`` and
single ``_`` only.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

APPROVALS: tuple[str, ...] = ("ask", "auto")
SEPARATOR = "__"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,23}$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_HEADER = re.compile(r"^[A-Za-z0-9!#$%&'*+.^_`|~-]+$")


@dataclass(frozen=True)
class McpServer:
    """``approval``: 'ask' asks before every call of its tools, 'auto' never asks."""

    name: str
    command: str
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    enabled: bool = True
    approval: str = "ask"

    @property
    def remote(self) -> bool:
        """A server reached over streamable HTTP: ``command`` is its URL and ``env`` holds
        HTTP headers (e.g. ``Authorization``) instead of environment variables."""
        return self.command.startswith(("http://", "https://"))

    def command_line(self) -> str:
        return shlex.join([self.command, *self.args])

    def checked(self) -> "McpServer":
        """Return self if every field is valid, else raise ``ValueError`` naming the problem."""
        if not _NAME.match(self.name) or SEPARATOR in self.name:
            raise ValueError(f"MCP server name {self.name!r}: use 1-24 letters, digits, '-' "
                             "or single '_' (no '__'), starting with a letter or digit")
        if not self.command.strip():
            raise ValueError(f"MCP server {self.name}: the command is empty")
        if self.approval not in APPROVALS:
            raise ValueError(f"MCP server {self.name}: approval must be one of "
                             f"{', '.join(APPROVALS)}")
        if self.remote and self.args:
            raise ValueError(f"MCP server {self.name}: a URL takes no arguments")
        for key, _ in self.env:
            if not (_HEADER if self.remote else _ENV_NAME).match(key):
                raise ValueError(f"MCP server {self.name}: {key!r} is not a "
                                 f"{'header' if self.remote else 'variable'} name")
        return self

    def to_plain(self) -> dict[str, Any]:
        """The JSON object the config file holds."""
        return {"name": self.name, "command": self.command, "args": list(self.args),
                "env": dict(self.env), "enabled": self.enabled, "approval": self.approval}

    @classmethod
    def from_plain(cls, data: Any) -> "McpServer":
        """From a config-file object (or an ``McpServer``); raises ``ValueError`` when malformed."""
        if isinstance(data, McpServer):
            return data.checked()
        if not isinstance(data, dict):
            raise ValueError(f"an MCP server must be an object, got {data!r}")
        args, env = data.get("args", []), data.get("env", {})
        if not isinstance(args, (list, tuple)) or not all(isinstance(a, str) for a in args):
            raise ValueError(f"MCP server {data.get('name')!r}: args must be a list of strings")
        if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
            raise ValueError(f"MCP server {data.get('name')!r}: env must map names to strings")
        name, command = data.get("name"), data.get("command")
        enabled, approval = data.get("enabled", True), data.get("approval", "ask")
        if not isinstance(name, str) or not isinstance(command, str):
            raise ValueError(f"an MCP server needs a name and a command, got {data!r}")
        if not isinstance(enabled, bool) or not isinstance(approval, str):
            raise ValueError(f"MCP server {name}: enabled must be true/false, approval a word")
        return cls(name=name, command=command, args=tuple(args),
                   env=tuple(sorted((str(k), v) for k, v in env.items())), enabled=enabled,
                   approval=approval).checked()

    @classmethod
    def parse(cls, text: str, approval: str = "ask") -> "McpServer":
        """``NAME=COMMAND [ARGS…]`` as a shell would split it; raises ``ValueError``."""
        name, sep, command_line = text.partition("=")
        if not sep:
            raise ValueError(f"expected NAME=COMMAND, got {text!r}")
        try:
            words = shlex.split(command_line)
        except ValueError as exc:
            raise ValueError(f"MCP server {name.strip()}: cannot split the command ({exc})"
                             ) from None
        if not words:
            raise ValueError(f"MCP server {name.strip()}: the command is empty")
        return cls(name=name.strip(), command=words[0], args=tuple(words[1:]),
                   approval=approval).checked()


def servers_value(value: Any) -> tuple[McpServer, ...]:
    """A list of servers from the config file or the dialog; names must be unique."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"MCP servers: expected a list, got {value!r}")
    servers = tuple(McpServer.from_plain(item) for item in value)
    names = [s.name for s in servers]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise ValueError(f"MCP servers: the name {', '.join(duplicated)} is used twice")
    return servers


def merged(saved: tuple[McpServer, ...], added: list[McpServer]) -> tuple[McpServer, ...]:
    """``saved`` with ``added`` appended; an added server replaces a saved one of its name."""
    names = {s.name for s in added}
    return tuple(s for s in saved if s.name not in names) + tuple(added)


def hidden_env(value: Any) -> list[Any]:
    """Servers as a settings snapshot shows them: the values of ``env`` hidden (tokens
    often live there)."""
    shown = []
    for item in value if isinstance(value, (list, tuple)) else []:
        if isinstance(item, dict):
            env = item.get("env") or {}
            names = [pair[0] for pair in env] if isinstance(env, (list, tuple)) else list(env)
            item = {**item, "env": {str(name): "(hidden)" for name in names}}
        shown.append(item)
    return shown
