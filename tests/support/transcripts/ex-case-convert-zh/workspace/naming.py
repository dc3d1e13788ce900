"""Converting identifiers between camelCase and snake_case."""


def to_snake_case(name):
    """``name`` (camelCase or PascalCase) in snake_case."""
    raise NotImplementedError


def to_camel_case(name):
    """``name`` (snake_case) in camelCase."""
    raise NotImplementedError
