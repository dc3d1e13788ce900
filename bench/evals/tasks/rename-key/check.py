"""The setting is listen_port (8000) in config.json, server.py and README.md; nothing else."""

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import main, require, run_python, text  # noqa: E402


def check(workspace: Path, summary: str, original: Path) -> None:
    try:
        config = json.loads(text(workspace, "config.json"))
    except ValueError as exc:
        raise SystemExit(f"FAIL: config.json is not JSON ({exc})") from None
    require(config == {"host": "0.0.0.0", "listen_port": 8000, "debug": False},
            f"config.json holds {config}")
    server = text(workspace, "server.py")
    require(not re.search(r"[\"']port[\"']", server), "server.py still reads 'port'")
    require("listen_port" in server, "server.py does not read listen_port")
    done = run_python(workspace, "server.py")
    require(done.stdout.strip() == "would listen on 0.0.0.0:8000",
            f"python server.py printed {done.stdout.strip()!r} {done.stderr.strip()[-200:]}")
    readme = text(workspace, "README.md")
    require("listen_port" in readme and "`port`" not in readme, "README.md not renamed")
    for name in ("config.json", "server.py", "README.md"):
        require("listen_listen" not in text(workspace, name), f"{name}: renamed twice")


main(check)
