"""A small JSON-schema checker for model output and tool arguments.

It understands the subset of JSON Schema our stage and tool schemas use (object,
array, string, integer, number, boolean, enum, anyOf-free) and is deliberately
forgiving where forgiveness is safe and strict where it is not:

- integers and numbers out of range are clamped (small models ignore ranges);
- strings longer than ``maxLength`` are cut with an ellipsis;
- a wrong type, a missing required field, an unknown enum value, or an array
  with more than ``maxItems`` items is an error the model is told about.

``coerce`` never raises anything but ``SchemaError``.
"""

from __future__ import annotations

import math
from typing import Any

JSON = Any


class SchemaError(ValueError):
    """A value does not fit its schema; the message names the path and the rule."""


def coerce(value: JSON, schema: dict[str, Any], path: str = "$") -> JSON:
    """Return ``value`` checked against ``schema``, with ranges clamped and long strings cut."""
    if "enum" in schema:
        if value not in schema["enum"]:
            allowed = ", ".join(repr(v) for v in schema["enum"])
            raise SchemaError(f"{path}: {value!r} is not one of {allowed}")
        return value
    kind = schema.get("type")
    if kind == "object":
        return _coerce_object(value, schema, path)
    if kind == "array":
        return _coerce_array(value, schema, path)
    if kind == "string":
        return _coerce_string(value, schema, path)
    if kind == "integer":
        return _coerce_integer(value, schema, path)
    if kind == "number":
        return _coerce_number(value, schema, path)
    if kind == "boolean":
        if not isinstance(value, bool):
            raise SchemaError(f"{path}: expected true or false, got {_type_name(value)}")
        return value
    if isinstance(kind, list):
        if value is None and "null" in kind:
            return None
        for alternative in kind:
            if alternative == "null":
                continue
            try:
                return coerce(value, {**schema, "type": alternative}, path)
            except SchemaError:
                continue
        raise SchemaError(f"{path}: expected {' or '.join(kind)}, got {_type_name(value)}")
    return value


def _coerce_object(value: JSON, schema: dict[str, Any], path: str) -> dict[str, JSON]:
    if not isinstance(value, dict):
        raise SchemaError(f"{path}: expected an object, got {_type_name(value)}")
    properties: dict[str, Any] = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in value or value[name] is None:
            raise SchemaError(f"{path}: missing required field '{name}'")
    limit = schema.get("maxProperties")
    if limit is not None and len(value) > limit:
        raise SchemaError(f"{path}: at most {limit} fields allowed, got {len(value)}")
    result: dict[str, JSON] = {}
    for name, item in value.items():
        if name in properties:
            if item is None and name not in schema.get("required", []):
                continue
            result[name] = coerce(item, properties[name], f"{path}.{name}")
        elif schema.get("additionalProperties", True) is not False:
            result[name] = item
        else:
            raise SchemaError(f"{path}: unknown field '{name}'")
    return result


def _coerce_array(value: JSON, schema: dict[str, Any], path: str) -> list[JSON]:
    if not isinstance(value, list):
        raise SchemaError(f"{path}: expected an array, got {_type_name(value)}")
    most = schema.get("maxItems")
    if most is not None and len(value) > most:
        raise SchemaError(f"{path}: at most {most} items allowed, got {len(value)}")
    least = schema.get("minItems")
    if least is not None and len(value) < least:
        raise SchemaError(f"{path}: at least {least} items required, got {len(value)}")
    items = schema.get("items", {})
    return [coerce(item, items, f"{path}[{i}]") for i, item in enumerate(value)]


def _coerce_string(value: JSON, schema: dict[str, Any], path: str) -> str:
    if not isinstance(value, str):
        raise SchemaError(f"{path}: expected a string, got {_type_name(value)}")
    least = schema.get("minLength")
    if least is not None and len(value.strip()) < least:
        raise SchemaError(f"{path}: must have at least {least} characters")
    most = schema.get("maxLength")
    if most is not None and len(value) > most:
        return value[: max(most - 1, 0)] + "…"
    return value


def _coerce_integer(value: JSON, schema: dict[str, Any], path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        if not (isinstance(value, str) and value.strip().lstrip("-").isdecimal()):
            raise SchemaError(f"{path}: expected an integer, got {_type_name(value)}")
        try:
            value = int(value.strip())
        except ValueError:  # "--5", or more digits than Python converts
            raise SchemaError(f"{path}: expected an integer, got the string "
                              f"{value[:20]!r}{'…' if len(value) > 20 else ''}") from None
    if isinstance(value, float):
        if not math.isfinite(value):
            raise SchemaError(f"{path}: expected an integer, got {value}")
        value = round(value)
    return int(_clamp(value, schema))


def _coerce_number(value: JSON, schema: dict[str, Any], path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SchemaError(f"{path}: expected a number, got {_type_name(value)}")
    if not math.isfinite(value):
        raise SchemaError(f"{path}: expected a finite number, got {value}")
    return float(_clamp(value, schema))


def _clamp(value: float, schema: dict[str, Any]) -> float:
    low = schema.get("minimum")
    high = schema.get("maximum")
    if low is not None and value < low:
        return low
    if high is not None and value > high:
        return high
    return value


def _type_name(value: JSON) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
