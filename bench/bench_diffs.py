"""How long a write's diff takes, and how large it is on its way to the page.

For each case: the time to compute the bounded unified diff (``core.tools.diffs``), the time
to render its page HTML (``ui.diff_html``: pygments and nh3), the +/- counts, and the
characters of the diff text and of its HTML (what the event and the page message carry).

Run: .venv/bin/python bench/bench_diffs.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench.isolation  # noqa: E402,F401  (its own app home, never the person's)

from core.tools.diffs import file_diff  # noqa: E402
from ui.diff_html import diff_to_html  # noqa: E402


def lines(count: int, word: str = "line") -> list[str]:
    rng = random.Random(count)
    return [f"    value_{n} = compute({word}, {rng.random():.6f})  # {word} {n}"
            for n in range(count)]


def text(items: list[str]) -> bytes:
    return "".join(item + "\n" for item in items).encode()


def cases() -> list[tuple[str, str, bytes, bytes]]:
    small = lines(300)
    edited = list(small)
    edited[150] = "    value_150 = 0  # reset"
    scattered = lines(10_000)
    every = [("changed = 1" if n % 100 == 0 else line) for n, line in enumerate(scattered)]
    big = lines(100_000)
    big_every = [("changed = 1" if n % 97 == 0 else line) for n, line in enumerate(big)]
    one = list(big)
    one[50_000] = "changed = 1"
    return [
        ("one-line edit, 300 lines", "app.py", text(small), text(edited)),
        ("new file, 300 lines", "new.py", b"", text(small)),
        ("every 100th of 10,000 lines", "mod.py", text(scattered), text(every)),
        ("one line of 100,000 (6 MB)", "big.py", text(big), text(one)),
        ("every 97th of 100,000 lines", "big.py", text(big), text(big_every)),
        ("rewrite 100,000 → 60,000 lines", "big.py", text(big), text(lines(60_000, "new"))),
    ]


def main() -> None:
    print(f"{'case':34} {'diff ms':>8} {'html ms':>8} {'+':>7} {'−':>7} {'diff chars':>11}"
          f" {'html chars':>11}")
    for name, path, before, after in cases():
        started = time.perf_counter()
        diff = file_diff(path, before, after)
        diffed = time.perf_counter()
        html = diff_to_html(path, diff.text)
        rendered = time.perf_counter()
        print(f"{name:34} {(diffed - started) * 1000:8.1f} {(rendered - diffed) * 1000:8.1f}"
              f" {diff.added:7,} {diff.removed:7,} {len(diff.text):11,} {len(html):11,}")


if __name__ == "__main__":
    main()
