"""textutils.slugify exists and behaves as asked; shout is unchanged."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from checklib import expect, main  # noqa: E402


def check(workspace: Path, summary: str, original: Path) -> None:
    expect(workspace, "textutils", {
        "textutils.slugify('Hello World')": "hello-world",
        "textutils.slugify('  Hello,   World!  ')": "hello-world",
        "textutils.slugify('Rock & Roll 2024')": "rock-roll-2024",
        "textutils.slugify('already-a-slug')": "already-a-slug",
        "textutils.slugify('')": "",
        "textutils.shout('hi')": "HI!",
    })


main(check)
