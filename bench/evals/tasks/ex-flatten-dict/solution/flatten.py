"""Flattening nested dicts into dotted keys and back."""


def flatten(data, sep="."):
    """``data`` with nested dicts turned into keys joined by ``sep``."""
    result = {}

    def walk(prefix, nested):
        for key, value in nested.items():
            if sep in key:
                raise ValueError(f"key {key!r} contains the separator {sep!r}")
            path = key if prefix is None else f"{prefix}{sep}{key}"
            if isinstance(value, dict) and value:
                walk(path, value)
            else:
                result[path] = value

    walk(None, data)
    return result


def unflatten(data, sep="."):
    """The nested dict whose flattened form is ``data``."""
    result = {}
    for key, value in data.items():
        *parents, last = key.split(sep)
        node = result
        for part in parents:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise ValueError(f"{part!r} is both a value and a dict")
            node = child
        if last in node:
            raise ValueError(f"{key!r} is both a value and a dict")
        node[last] = value
    return result
