"""Where a shell command runs: inside a bubblewrap sandbox when it can, and how it is started.

In the sandbox (``bwrap``) the whole machine is mounted read-only, the workspace read-write
on top of it, and ``/tmp`` and ``/dev/shm`` are private and empty (gone when the command
ends); writing anywhere else fails with "Read-only file system", which shows in the command's
output like any error. The options, and why each is there:

- ``--tmpfs /tmp`` comes before ``--bind WS WS``, so a workspace under /tmp is the real one;
  a Python installed under /tmp (or /run) stays readable (``--ro-bind`` again after).
- ``--unshare-net`` unless the network is allowed: only a loopback of its own; and an empty
  ``/run``, which holds the Unix sockets of the machine's services (Docker, D-Bus, databases)
  that a read-only mount would still let a command connect to.
- ``--unshare-pid``: the command sees and signals only its own processes, not the app (whose
  memory holds the API key); everything it started ends with it.
- ``--cap-drop ALL``: bwrap run as root keeps every capability, and a command could simply
  remount / read-write (measured with bubblewrap 0.8).
- ``--die-with-parent``: the sandbox ends if the app dies.
- No ``--new-session``: ``shell.py`` starts bwrap in a session of its own (no controlling
  terminal to inject keystrokes into), and every process in the sandbox stays in bwrap's
  process group, so Stop's ``killpg`` still ends the whole tree.

Whether the sandbox works is found out once per process (per bwrap found on PATH) by
really running bwrap. The environment of every command, sandboxed or not, is stripped of
API keys: variables named like keys, tokens, secrets or passwords, and any holding a key the
settings know.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from core import secrets
from core.events import Notice, SandboxMark
from core.tools import paths
from core.tools.base import ToolContext

SHELL = "/bin/sh"
PROBE_TIMEOUT_S = 10.0
SECRET_NAME = re.compile(
    r"(?:^|_)(?:[A-Z]*KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)(?:_|$)", re.IGNORECASE)
SYSTEMS = {"darwin": "macOS", "win32": "Windows", "cygwin": "Windows"}
COMMAND_ENV = {"PAGER": "cat", "GIT_PAGER": "cat", "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}


@dataclass(frozen=True)
class Availability:
    """Whether commands can be sandboxed here: ``bwrap`` is the program when they can,
    ``reason`` says why not when they cannot."""

    active: bool
    bwrap: str = ""
    reason: str = ""

    def describe(self) -> str:
        if self.active:
            return f"Active on this machine: commands run in bubblewrap ({self.bwrap})."
        return f"Not available on this machine: {self.reason}. Commands run unsandboxed."


@dataclass(frozen=True)
class Launch:
    """How to start one command: its argv and environment, the mark its card shows, and why
    the sandbox could not be used although the setting asked for it ("" otherwise)."""

    argv: list[str]
    env: dict[str, str]
    mark: SandboxMark
    why_not: str = ""


def availability() -> Availability:
    """Whether this machine can sandbox commands (probed once per bwrap program)."""
    if not sys.platform.startswith("linux"):
        system = SYSTEMS.get(sys.platform, sys.platform)
        return Availability(False, reason=f"this is {system}, not Linux (the sandbox uses "
                                          "Linux namespaces)")
    found = shutil.which("bwrap")
    if found is None:
        return Availability(False, reason="bwrap was not found (install bubblewrap, e.g. "
                                          "apt-get install bubblewrap)")
    return _probe(os.path.realpath(found))


@functools.cache
def _probe(bwrap: str) -> Availability:
    try:
        done = subprocess.run([bwrap, *_isolation(None, network=False), "--", "true"],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=PROBE_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError) as exc:
        return Availability(False, reason=f"{bwrap} could not be run ({exc})")
    if done.returncode == 0:
        return Availability(True, bwrap=bwrap)
    said = " ".join(done.stderr.split())[:300] or f"exit code {done.returncode}"
    if re.search(r"namespace|uid map|setting up uid|operation not permitted", said, re.I):
        return Availability(False, reason=f"user namespaces are not available to bwrap "
                                          f"({said})")
    return Availability(False, reason=f"bwrap does not work here ({said})")


def launch(command: str, workspace: Path, mode: str, network: bool,
           read_only: tuple[Path, ...] = ()) -> Launch:
    """How to run ``command`` in ``workspace`` under the setting ``mode`` (auto | off);
    ``read_only``: folders the command may read that the sandbox would hide (under /tmp)."""
    env = command_environment()
    plain = [SHELL, "-c", command]
    if mode == "off":
        return Launch(plain, env, "unsandboxed")
    found = availability()
    if not found.active:
        return Launch(plain, env, "unsandboxed", found.reason)
    env["TMPDIR"] = "/tmp"
    shown = [arg for folder in read_only for arg in ("--ro-bind", str(folder), str(folder))]
    argv = [found.bwrap, *_isolation(workspace, network=network), *shown,
            "--chdir", str(workspace), "--", *plain]
    return Launch(argv, env, "sandboxed_network" if network else "sandboxed")


def _isolation(workspace: Path | None, *, network: bool) -> list[str]:
    emptied = ["/tmp"] if network else ["/tmp", "/run"]
    args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for folder in emptied:
        args += ["--tmpfs", folder]
    for place in _python_hidden_by(emptied):
        args += ["--ro-bind", place, place]
    if workspace is not None:
        args += ["--bind", str(workspace), str(workspace)]
    if not network:
        args.append("--unshare-net")
    return args + ["--unshare-pid", "--die-with-parent", "--cap-drop", "ALL"]


def _python_hidden_by(emptied: list[str]) -> list[str]:
    """The running Python's folders that the emptied ones would hide."""
    places = {os.path.realpath(place) for place in (sys.prefix, sys.base_prefix)}
    return sorted(place for place in places if os.path.isdir(place) and any(
        place != folder and paths.inside(place, folder) for folder in emptied))


def command_environment() -> dict[str, str]:
    """The app's environment without API keys, tokens or passwords, plus quiet pagers."""
    env = {name: value for name, value in os.environ.items()
           if not SECRET_NAME.search(name) and not secrets.holds_key(value)}
    env.update(COMMAND_ENV)
    return env


def announce(ctx: ToolContext, start: Launch) -> None:
    """Tell the person, once per run, that commands run unsandboxed although the setting
    asked for the sandbox."""
    if not start.why_not or "sandbox" in ctx.run.noticed:
        return
    ctx.run.noticed.add("sandbox")
    ctx.emit(Notice(level="warning", stage="execute", message=(
        f"Commands run without a sandbox: {start.why_not}. They can change files outside "
        "the workspace and use the network.")))
