"""The most frequent words of a text."""

import re
from collections import Counter


def top_words(text, n):
    """The ``n`` most frequent words of ``text`` with their counts."""
    if n < 0:
        raise ValueError("n must not be negative")
    counts = Counter(re.findall(r"[a-z]+(?:'[a-z]+)*", text.lower()))
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return ranked[:n]
