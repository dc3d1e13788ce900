"""A deliberately broken MCP server for the failure paths (a real stdio process).

``python tests/support/mcp_faulty_server.py MODE`` (it writes ``$FAULTY_TOKEN`` to stderr
when set, as a careless server might):

- ``exit``: writes a line to stderr and exits with code 3 before answering anything;
- ``hang``: never answers (not even ``initialize``);
- ``tools [PORT]``: a working server (over streamable HTTP on 127.0.0.1:PORT when a port
  is given) whose tools misbehave on request — ``echo`` answers,
  ``crash`` kills the server mid-call (exit code 5), ``stall`` never answers, and
  ``spawn_child`` starts a long-lived child process and returns its pid.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

from mcp.server.mcpserver import MCPServer


def say(text: str) -> None:
    print(f"faulty server: {text}", file=sys.stderr, flush=True)


def serve_tools(port: int = 0) -> None:
    """Over stdio, or over streamable HTTP on 127.0.0.1:``port`` when one is given."""
    server = MCPServer("faulty")

    @server.tool(description="Say the text back.")
    def echo(text: str) -> str:
        return text

    @server.tool(description="Crash the whole server while answering.")
    def crash() -> str:
        say("crashing on purpose")
        os._exit(5)

    @server.tool(description="Never answer.")
    async def stall() -> str:
        await asyncio.sleep(3600)
        return "late"

    @server.tool(description="Start a child process that would outlive the server.")
    def spawn_child() -> str:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        return str(child.pid)

    if port:
        server.run("streamable-http", host="127.0.0.1", port=port)
    else:
        server.run()


def main(mode: str, port: int = 0) -> None:
    say(f"starting in mode {mode}")
    if os.environ.get("FAULTY_TOKEN"):
        say(f"using token {os.environ['FAULTY_TOKEN']}")
    if mode == "exit":
        sys.exit(3)
    if mode == "hang":
        time.sleep(3600)
        return
    serve_tools(port)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tools",
         int(sys.argv[2]) if len(sys.argv) > 2 else 0)
