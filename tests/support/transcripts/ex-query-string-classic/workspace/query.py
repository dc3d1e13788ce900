"""URL query strings such as "q=red+shoes&page=2"."""


def parse_query(text):
    """Key -> list of values of the query string ``text``."""
    raise NotImplementedError


def build_query(params):
    """The query string for ``params`` (key -> a string or a list of strings)."""
    raise NotImplementedError
