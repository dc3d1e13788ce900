"""run_command in the bubblewrap sandbox, through the real tool and real bwrap.

The workspace is writable, the rest of the machine is not (outside /tmp a write fails with
"Read-only file system"; /tmp is private, so a write there never reaches the real one), the
network is gone unless allowed, the app's processes are out of reach, and no API key is in
the environment.
"""

from __future__ import annotations

import os
import shutil
import socket
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from tool_harness import Harness

from core.events import Notice
from core.tools import default_registry, sandbox
from core.tools.base import RunState
from tests.support.proc_tree import require_sandbox

OUTSIDE = "original\n"


@pytest.fixture
def sandbox_here() -> None:
    require_sandbox()


@pytest.fixture
def var_tmp() -> Iterator[Path]:
    """A folder of this test outside /tmp (the sandbox's /tmp is private, not read-only)."""
    folder = Path("/var/tmp") / f"phasedesk-sandbox-{uuid.uuid4().hex}"
    folder.mkdir()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["under-tmp", "outside-tmp"])
def boxed(request: pytest.FixtureRequest, tmp_path: Path, var_tmp: Path) -> Harness:
    """A harness whose workspace lies under /tmp (as tmp_path does) or outside it."""
    require_sandbox()
    base = tmp_path if request.param == "under-tmp" else var_tmp
    workspace = base / "ws"
    workspace.mkdir()
    (base / "outside.txt").write_text(OUTSIDE, encoding="utf-8")
    return Harness(workspace, RunState(workspace=workspace, run_id="run-1"), default_registry())


def test_a_write_outside_fails_and_a_write_inside_succeeds(boxed: Harness,
                                                           var_tmp: Path) -> None:
    target = var_tmp / "outside.txt"
    target.write_text(OUTSIDE, encoding="utf-8")
    result = boxed.call("run_command", command=(
        f"echo escaped > ../outside.txt; echo escaped > ../new.txt; echo escaped > {target}; "
        f"echo escaped > {var_tmp}/created.txt; mkdir -p sub && echo inside > sub/in.txt"))
    assert result.ok, result.error  # the last command, inside, succeeded
    assert result.sandbox == "sandboxed"
    assert result.output.count("Read-only file system") >= 2
    assert target.read_text(encoding="utf-8") == OUTSIDE
    assert not (var_tmp / "created.txt").exists()
    parent = boxed.workspace.parent
    assert (parent / "outside.txt").read_text(encoding="utf-8") == OUTSIDE
    assert sorted(p.name for p in parent.iterdir()) == ["outside.txt", "ws"]
    assert (boxed.workspace / "sub" / "in.txt").read_text(encoding="utf-8") == "inside\n"


def test_a_failed_write_outside_fails_the_command_with_the_reason(boxed: Harness) -> None:
    result = boxed.call("run_command", command="echo escaped > /etc/phasedesk-escape.txt")
    assert not result.ok
    assert "Read-only file system" in result.error and "exit code" in result.error
    assert not Path("/etc/phasedesk-escape.txt").exists()


def test_tmp_is_private_and_gone_after_the_command(boxed: Harness) -> None:
    name = f"/tmp/phasedesk-private-{uuid.uuid4().hex}"
    result = boxed.call("run_command", command=f"echo mine > {name} && cat {name}")
    assert result.ok, result.error
    assert "\nmine\n" in result.output
    assert not Path(name).exists()
    again = boxed.call("run_command", command=f"cat {name}")
    assert not again.ok and "No such file" in again.output


def test_root_cannot_be_remounted_writable(boxed: Harness, var_tmp: Path) -> None:
    """bwrap run as root keeps every capability unless told to drop them."""
    boxed.call("run_command", command=(f"mount -o remount,rw,bind / ; mount -o remount,rw / ; "
                                       f"echo escaped > {var_tmp}/remounted.txt"))
    assert not (var_tmp / "remounted.txt").exists()


@pytest.mark.usefixtures("sandbox_here")
def test_the_app_is_out_of_reach(harness: Harness) -> None:
    result = harness.call("run_command", command=f"kill -0 {os.getpid()}")
    assert not result.ok and "No such process" in result.output
    harness.run.command_sandbox = "off"
    assert harness.call("run_command", command=f"kill -0 {os.getpid()}").ok


class Listener:
    """A TCP server on 127.0.0.1 (or a Unix socket at ``path``) that counts the connections
    it accepts."""

    def __init__(self, path: Path | None = None) -> None:
        if path is None:
            self.server = socket.create_server(("127.0.0.1", 0))
            self.port = self.server.getsockname()[1]
        else:
            self.server = socket.socket(socket.AF_UNIX)
            self.server.bind(str(path))
            self.server.listen()
        self.accepted = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self.server.close()
        self.thread.join(5)


@pytest.fixture
def listener() -> Iterator[Listener]:
    server = Listener()
    yield server
    server.close()


def connect_command(port: int) -> str:
    return (f"{sys.executable} -c \"import socket; socket.create_connection(('127.0.0.1', "
            f"{port}), timeout=5); print('connected')\"")


@pytest.mark.usefixtures("sandbox_here")
def test_the_network_is_off_unless_allowed(harness: Harness, listener: Listener) -> None:
    refused = harness.call("run_command", command=connect_command(listener.port))
    assert not refused.ok and "connected" not in refused.output.split("\n", 1)[1]
    assert "Connection refused" in refused.output
    assert listener.accepted == 0
    harness.run.command_network = True
    allowed = harness.call("run_command", command=connect_command(listener.port))
    assert allowed.ok, allowed.error
    assert "\nconnected\n" in allowed.output and allowed.sandbox == "sandboxed_network"
    assert listener.accepted == 1


def socket_folder() -> Path:
    """Where local services keep their Unix sockets and this test may put one: /run/user/UID
    in a desktop session, /run as root."""
    for folder in (Path(f"/run/user/{os.getuid()}"), Path("/run")):
        if folder.is_dir() and os.access(folder, os.W_OK):
            return folder
    pytest.fail("no folder under /run where this test may create a Unix socket")


@pytest.mark.usefixtures("sandbox_here")
def test_local_services_unix_sockets_are_out_of_reach_unless_the_network_is_allowed(
        harness: Harness) -> None:
    path = socket_folder() / f"phasedesk-test-{uuid.uuid4().hex[:12]}.sock"
    server = Listener(path)
    command = (f"{sys.executable} -c \"import socket; s = socket.socket(socket.AF_UNIX); "
               f"s.connect('{path}'); print('connected')\"")
    try:
        refused = harness.call("run_command", command=command)
        harness.run.command_network = True
        allowed = harness.call("run_command", command=command)
    finally:
        server.close()
        path.unlink(missing_ok=True)
    assert not refused.ok and "FileNotFoundError" in refused.output
    assert allowed.ok and "\nconnected\n" in allowed.output
    assert server.accepted == 1


@pytest.mark.usefixtures("sandbox_here")
def test_api_keys_are_not_in_the_environment(harness: Harness,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from core import secrets

    known = f"pd-known-{uuid.uuid4().hex}"
    secrets.remember(known)
    hidden = {"OPENAI_API_KEY": "sk-openai-secret-value", "GITHUB_TOKEN": "ghp-token-value",
              "MY_SERVICE_API_KEY": "service-key-value", "AWS_SECRET_ACCESS_KEY": "aws-value",
              "DB_PASSWORD": "hunter2-value", "INNOCENT_LOOKING": known}
    for name, value in {**hidden, "PHASEDESK_VISIBLE": "shown-value"}.items():
        monkeypatch.setenv(name, value)
    for mode in ("auto", "off"):
        harness.run.command_sandbox = mode
        result = harness.call("run_command", command="env")
        assert result.ok, result.error
        assert "PHASEDESK_VISIBLE=shown-value" in result.output
        for name, value in hidden.items():
            assert name not in result.output and value not in result.output, (mode, name)


@pytest.mark.usefixtures("sandbox_here")
def test_the_python_running_the_app_works_inside(harness: Harness) -> None:
    result = harness.call("run_command", command=f"{sys.executable} -c \"print(6 * 7)\"")
    assert result.ok, result.error
    assert "\n42\n" in result.output


def fake_bin(folder: Path, bwrap: str | None = None) -> str:
    """A PATH with only a shell (and a ``bwrap`` script, when given)."""
    folder.mkdir()
    (folder / "sh").symlink_to("/bin/sh")
    if bwrap is not None:
        (folder / "bwrap").write_text(f"#!/bin/sh\n{bwrap}\n", encoding="utf-8")
        (folder / "bwrap").chmod(0o755)
    return str(folder)


def test_without_bwrap_commands_run_unsandboxed_and_a_notice_says_so_once_per_run(
        harness: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", fake_bin(tmp_path / "bin"))
    first = harness.call("run_command", command="echo ran > out.txt")
    second = harness.call("run_command", command="echo again >> out.txt")
    assert first.ok and second.ok
    assert (first.sandbox, second.sandbox) == ("unsandboxed", "unsandboxed")
    assert (harness.workspace / "out.txt").read_text(encoding="utf-8") == "ran\nagain\n"
    notices = [e for e in harness.events if isinstance(e, Notice)]
    assert len(notices) == 1 and notices[0].level == "warning"
    assert notices[0].message.startswith("Commands run without a sandbox: bwrap was not found")
    harness.new_run("run-2")
    harness.call("run_command", command="true")
    assert len([e for e in harness.events if isinstance(e, Notice)]) == 2


def test_turned_off_runs_unsandboxed_without_a_notice(harness: Harness, var_tmp: Path) -> None:
    harness.run.command_sandbox = "off"
    result = harness.call("run_command", command=f"echo written > {var_tmp}/off.txt")
    assert result.ok and result.sandbox == "unsandboxed"
    assert (var_tmp / "off.txt").read_text(encoding="utf-8") == "written\n"
    assert not [e for e in harness.events if isinstance(e, Notice)]


def test_bwrap_without_user_namespaces_falls_back_with_the_reason(
        harness: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    said = ("bwrap: No permissions to creating new namespace, likely because the kernel does "
            "not allow non-privileged user namespaces.")
    monkeypatch.setenv("PATH", fake_bin(tmp_path / "bin", f"echo '{said}' >&2; exit 1"))
    result = harness.call("run_command", command="echo ran")
    assert result.ok and result.sandbox == "unsandboxed"
    [notice] = [e for e in harness.events if isinstance(e, Notice)]
    assert "user namespaces are not available to bwrap" in notice.message
    assert said in notice.message


def test_elsewhere_than_linux_commands_run_unsandboxed(harness: Harness,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    found = sandbox.availability()
    assert not found.active
    assert found.describe() == ("Not available on this machine: this is macOS, not Linux (the "
                                "sandbox uses Linux namespaces). Commands run unsandboxed.")
    result = harness.call("run_command", command="echo ran")
    assert result.ok and result.sandbox == "unsandboxed"
    [notice] = [e for e in harness.events if isinstance(e, Notice)]
    assert "this is macOS, not Linux" in notice.message
