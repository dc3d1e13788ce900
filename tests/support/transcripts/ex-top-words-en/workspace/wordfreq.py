"""The most frequent words of a text."""


def top_words(text, n):
    """The ``n`` most frequent words of ``text`` with their counts."""
    raise NotImplementedError
