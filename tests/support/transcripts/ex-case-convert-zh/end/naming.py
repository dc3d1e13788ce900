"""Converting identifiers between camelCase and snake_case."""


def to_snake_case(name):
    """``name`` (camelCase or PascalCase) in snake_case."""
    if not name:
        return ""
    if name[0].islower():
        return name
    result = name[0].lower()
    for char in name[1:]:
        if char.isupper():
            result += "_" + char.lower()
        else:
            result += char
    return result


def to_camel_case(name):
    """``name`` (snake_case) in camelCase."""
    if not name:
        return ""
    if name[0].islower():
        return name
    result = name[0].lower()
    for char in name[1:]:
        if char.isupper():
            result += char.upper()
        else:
            result += char
    return result
