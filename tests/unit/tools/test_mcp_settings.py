"""MCP servers as settings: the entry, the config file, the --mcp flag, the run snapshot,
and how a tool result becomes task text."""

from __future__ import annotations

import json

import mcp_types
import pytest

from core import config
from core.cli.headless import build_parser, resolve_settings
from core.shapes.mcp_server import McpServer
from core.store.history import public_settings
from core.tools.mcp_tools import cap, render


def test_a_flag_value_is_split_like_a_shell_would() -> None:
    server = McpServer.parse("files=npx -y '@scope/server files' --root \"/tmp/a b\"")
    assert (server.name, server.command) == ("files", "npx")
    assert server.args == ("-y", "@scope/server files", "--root", "/tmp/a b")
    assert (server.enabled, server.approval) == (True, "ask")
    assert server.command_line() == "npx -y '@scope/server files' --root '/tmp/a b'"
    assert not server.remote and McpServer.parse("web=https://example.org/mcp").remote


@pytest.mark.parametrize(("text", "problem"), [
    ("time", "expected NAME=COMMAND, got 'time'"),
    ("time=", "MCP server time: the command is empty"),
    ("a__b=x", "no '__'"),
    ("-x=cmd", "starting with a letter or digit"),
    ("t=cmd 'open", "cannot split the command (No closing quotation)"),
    ("web=https://example.org/mcp --flag", "MCP server web: a URL takes no arguments"),
])
def test_bad_flag_values_say_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(ValueError) as caught:
        McpServer.parse(text)
    assert problem in str(caught.value)


def test_servers_survive_the_config_file_and_bad_entries_are_reported() -> None:
    servers = (McpServer("time", "python", ("-m", "mcp_server_time")),
               McpServer("git", "uvx", ("mcp-server-git",), (("GIT_TOKEN", "s3cret-token"),),
                         enabled=False, approval="auto"))
    config.save(config.from_mapping({"mcp_servers": list(servers)}))
    written = json.loads(config.config_path().read_text())["mcp_servers"]
    assert written[1] == {"name": "git", "command": "uvx", "args": ["mcp-server-git"],
                          "env": {"GIT_TOKEN": "s3cret-token"}, "enabled": False,
                          "approval": "auto"}
    loaded, problems = config.load()
    assert problems == [] and loaded.mcp_servers == servers

    written.append({"name": "time", "command": "again"})
    config.config_path().write_text(json.dumps({"mcp_servers": written, "max_iterations": 7}))
    loaded, problems = config.load()
    assert loaded.mcp_servers == () and loaded.max_iterations == 7
    assert len(problems) == 1 and "the name time is used twice" in problems[0]


def test_the_mcp_flag_adds_servers_to_the_saved_ones() -> None:
    config.save(config.from_mapping({"mcp_servers": [
        {"name": "time", "command": "old-time"}, {"name": "git", "command": "git-server"}]}))
    args = build_parser().parse_args(["--headless", "--mcp", "time=python -m mcp_server_time",
                                      "--mcp", "fetch=uvx mcp-server-fetch", "hello"])
    settings = resolve_settings(args)
    assert [(s.name, s.command, s.args) for s in settings.mcp_servers] == [
        ("git", "git-server", ()), ("time", "python", ("-m", "mcp_server_time")),
        ("fetch", "uvx", ("mcp-server-fetch",))]


def test_a_bad_mcp_flag_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as leaving:
        build_parser().parse_args(["--headless", "--mcp", "nameonly", "hi"])
    assert leaving.value.code == 2
    assert "argument --mcp: expected NAME=COMMAND, got 'nameonly'" in capsys.readouterr().err


def test_the_run_snapshot_hides_server_environment_values() -> None:
    import dataclasses

    settings = config.from_mapping({"mcp_servers": [
        {"name": "gh", "command": "gh-mcp", "env": {"GITHUB_TOKEN": "ghp_abcdefgh12345"}}]})
    snapshot = json.dumps(public_settings(dataclasses.asdict(settings)))
    assert "ghp_abcdefgh12345" not in snapshot
    assert '"env": {"GITHUB_TOKEN": "(hidden)"}' in snapshot


def test_a_result_shows_text_once_and_structured_content_when_it_adds_something() -> None:
    same = mcp_types.CallToolResult(
        content=[mcp_types.TextContent(type="text", text='{"a": 1}')], structured_content={"a": 1})
    assert render(same) == '{"a": 1}'
    wrapped = mcp_types.CallToolResult(
        content=[mcp_types.TextContent(type="text", text="42")],
        structured_content={"result": 42})
    assert render(wrapped) == "42"
    more = mcp_types.CallToolResult(
        content=[mcp_types.TextContent(type="text", text="Two files."),
                 mcp_types.ImageContent(type="image", data="AAAA" * 30, mime_type="image/png")],
        structured_content={"files": ["a", "b"]})
    assert render(more) == ('Two files.\n\n[image: image/png, 90 bytes]\n\nStructured content:\n'
                            '{\n  "files": [\n    "a",\n    "b"\n  ]\n}')
    assert render(mcp_types.CallToolResult(content=[])) == "(no output)"


def test_long_results_keep_their_head_and_tail() -> None:
    text = "h" * 50_000 + "t" * 50_000
    capped = cap(text)
    assert capped.startswith("h" * 32_768) and capped.endswith("t" * 32_768)
    assert "[34,464 characters dropped; showing the first and last 32 KiB]" in capped
