"""The gate on real folders: git's ignore rules (nested files, negation, folders, the repository's
own exclude file), ``.phasedeskignore`` always, the setting that turns ``.gitignore`` off;
secrets by name and by ``detect-secrets``; files read within a bound; the ledger of what went
out."""

from __future__ import annotations

from pathlib import Path

import pytest
from tool_harness import Harness

from core.tools.base import ToolError
from core.tools.gate import Gate
from core.tools.secret_files import found_secret, named_secret

GITHUB_TOKEN = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12345"


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    return tree(tmp_path, {
        ".gitignore": "*.log\n!keep.log\nbuild/\n/top.txt\n",
        "src/.gitignore": "generated.py\n!important.log\n",
        ".git/info/exclude": "scratch.md\n",
        ".phasedeskignore": "private/\n",
        "a.log": "x", "keep.log": "x", "build/out.o": "x", "src/build/x.c": "x",
        "top.txt": "x", "src/top.txt": "x", "src/generated.py": "x", "src/app.py": "x",
        "src/important.log": "x", "scratch.md": "x", "private/notes.md": "x", "README.md": "x"})


def test_gitignore_rules_nested_negated_and_by_folder(repo: Path) -> None:
    gate = Gate(repo)
    assert [e.rel for e in gate.files()] == [
        ".gitignore", ".phasedeskignore", "README.md", "keep.log", "src/.gitignore",
        "src/app.py", "src/important.log", "src/top.txt"]
    assert gate.ignored("a.log") == "ignored by .gitignore"
    assert gate.ignored("build", is_dir=True) == "ignored by .gitignore"
    assert gate.ignored("src/build/x.c") == "ignored by .gitignore"  # under an ignored folder
    assert gate.ignored("top.txt") and not gate.ignored("src/top.txt")  # anchored at its file
    assert gate.ignored("src/generated.py") == "ignored by .gitignore"  # the nested file
    assert gate.ignored("src/important.log") == ""  # the deeper file's negation wins
    assert gate.ignored("scratch.md") == "ignored by .gitignore"  # .git/info/exclude
    assert gate.ignored("private/notes.md") == "ignored by .phasedeskignore"


def test_turning_gitignore_off_keeps_phasedeskignore(repo: Path) -> None:
    gate = Gate(repo, honour_gitignore=False)
    seen = [e.rel for e in gate.files()]
    assert "a.log" in seen and "build/out.o" in seen and "src/generated.py" in seen
    assert "private/notes.md" not in seen
    with pytest.raises(ToolError, match="private/notes.md is ignored by .phasedeskignore"):
        gate.refuse_ignored("private/notes.md")


@pytest.mark.parametrize(("name", "why"), [
    (".env", "named like .env"), ("config/.env.production", "named like .env.*"),
    ("keys/server.pem", "named like *.pem"), ("id_ed25519.pub", "named like id_ed25519*"),
    ("credentials-prod.json", "named like credentials*.json"), (".netrc", "named like .netrc"),
    ("app.py", ""), (".envrc", ""), ("environment.py", "")])
def test_secret_names(name: str, why: str) -> None:
    assert named_secret(name) == why


def test_credentials_in_text_are_found_by_detect_secrets() -> None:
    assert found_secret("config.py", f'API_TOKEN = "{GITHUB_TOKEN}"\n') == "GitHub Token"
    assert found_secret("db.ini", "[db]\npassword = Tr0ub4dor3xQ\n") == "Secret Keyword"
    key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n"
    assert found_secret("notes.txt", key) == "Private Key"
    assert found_secret("app.py", 'PORT = 8000\nNAME = "abc123def"\nHOST = "8.8.8.8"\n') == ""
    # a hash or a hex id in code is no credential (HumanEval's string_to_md5, hex_key)
    assert found_secret("md5.py", ">>> string_to_md5('Hello world') == "
                                  "'3e25960a79dbc69b674cd4ec67a72c62'\n") == ""
    assert found_secret("hex_key.py", 'For num = "123456789ABCDEF0" the output is 6.\n') == ""


def test_an_approved_secret_is_let_out_and_the_ledger_names_what_went(tmp_path: Path) -> None:
    gate = Gate(tree(tmp_path, {"config.py": f'API_TOKEN = "{GITHUB_TOKEN}"\n'}))
    text = (tmp_path / "config.py").read_text()
    held = gate.shown("config.py", text)
    assert held == "config.py (held back: looks like a secret (GitHub Token))"
    assert gate.carried([{"role": "user", "content": f"see {held}"}]) == ([], [held])
    gate.allow("config.py")
    assert gate.shown("config.py", text) == text
    messages = [{"role": "system", "content": "x"}, {"role": "tool", "content": text}]
    assert gate.carried(messages) == (["config.py"], [])
    assert gate.carried([{"role": "user", "content": "config.py"}]) == ([], [])


def test_files_are_read_within_the_bound(tmp_path: Path) -> None:
    gate = Gate(tree(tmp_path, {"small.txt": "hello\n", "big.txt": "y" * 5000,
                                "bin.dat": "a\x00b"}))
    small = gate.read_bounded("small.txt", 100)
    assert (small.text, small.whole) == ("hello\n", True)
    big = gate.read_bounded("big.txt", 100)
    assert (big.text, big.whole) == ("y" * 100, False)
    assert gate.read_bounded("bin.dat", 100).text is None


def test_a_file_is_named_by_its_path_or_its_name_not_inside_a_longer_one(tmp_path: Path
                                                                          ) -> None:
    gate = Gate(tmp_path)
    rels = [".env", "config/.env", "app.py", "my_app.py", ".env.local"]
    assert gate.named("Read .env and app.py.", rels) == [".env", "config/.env", "app.py"]
    assert gate.named("look at config/.env", rels) == [".env", "config/.env"]
    assert gate.named("nothing named here", rels) == []


def test_the_file_tools_refuse_what_the_gate_keeps_out(harness: Harness) -> None:
    tree(harness.workspace, {".gitignore": "build/\n", "build/out.txt": "artifact\n",
                             "config.py": f'API_TOKEN = "{GITHUB_TOKEN}"\nPORT = 1\n',
                             ".env": "KEY=x\n", "app.py": "PORT = 1\n"})
    held = "config.py (held back: looks like a secret (GitHub Token))"
    for name, arguments in (("read_file", {"path": "config.py"}),
                            ("edit_file", {"path": "config.py", "old_text": "PORT = 2",
                                           "new_text": "PORT = 3"}),
                            ("write_file", {"path": "config.py", "content": "X = 1\n",
                                            "overwrite": True})):
        result = harness.call(name, **arguments)
        assert not result.ok and result.error.startswith(held), name
        assert GITHUB_TOKEN not in result.error
    for name, arguments in (("read_file", {"path": "build/out.txt"}),
                            ("list_files", {"path": "build"}),
                            ("search_code", {"pattern": "artifact", "path": "build"}),
                            ("edit_file", {"path": "build/out.txt", "old_text": "artifact",
                                           "new_text": "x"})):
        result = harness.call(name, **arguments)
        assert result.error == ("build/out.txt" if "out" in str(arguments) else "build") + \
            " is ignored by .gitignore: PhaseDesk does not read, search or send it", name
    listed = harness.call("list_files", recursive=True).output.splitlines()
    assert listed == [".env  (6 bytes; held back: looks like a secret (named like .env))",
                      ".gitignore  (7 bytes)", "app.py  (9 bytes)", "config.py  (65 bytes)"]
    found = harness.call("search_code", pattern="PORT|KEY").output.splitlines()
    assert found == ["app.py:1:PORT = 1", "config.py:2:PORT = 1",  # the lines shown hold none
                     "(2 matching lines in 2 files)",
                     "Not shown: .env (held back: looks like a secret (named like .env))."]
    found = harness.call("search_code", pattern="TOKEN|PORT").output.splitlines()
    assert found == ["app.py:1:PORT = 1", "(1 matching line in 1 file)", f"Not shown: {held}."]
    assert (harness.workspace / "config.py").read_text().startswith("API_TOKEN")
