"""Where the API keys live: the system keyring when one works, else a user-only file.

Each key has an account name (the main model's ``api_key``, the thinking model's
``thinking_api_key``): the keyring entry and the file are named after it.

``describe_store()`` says which, so the settings dialog can tell the person.
The key itself is never logged; ``redact`` scrubs it from any text, ``scrub_event`` from an
event, and once a key is known every log record is redacted too.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import threading
from pathlib import Path
from typing import Any, TypeVar

from core.appdirs import app_home

SERVICE = "PhaseDesk"
ACCOUNT = "api_key"
log = logging.getLogger(__name__)

_known_keys: set[str] = set()
_log_lock = threading.Lock()
_logs_redacted = False
E = TypeVar("E")


def _keyring_usable() -> bool:
    if os.environ.get("PHASEDESK_HOME"):
        return False  # an isolated home (tests, portable use) never touches the user's keyring
    try:
        import keyring
        from keyring.backends import fail

        return not isinstance(keyring.get_keyring(), fail.Keyring)
    except Exception:  # any import or backend problem means: no keyring
        return False


def _key_file(account: str = ACCOUNT) -> Path:
    return app_home()[0] / account


def describe_store(account: str = ACCOUNT) -> str:
    if _keyring_usable():
        return "system keyring"
    return f"file readable only by you ({_key_file(account)})"


def remember(key: str) -> None:
    """Register a key so ``redact`` scrubs it everywhere, whatever its source; from then on
    every log record is redacted as well."""
    if key:
        _known_keys.add(key)
        _redact_logs()


def holds_key(text: str) -> bool:
    """Whether ``text`` contains one of the API keys registered with ``remember``."""
    return any(len(key) >= 4 and key in text for key in tuple(_known_keys))


def _redact_logs() -> None:
    """Make every new log record carry its message (and traceback) already redacted."""
    global _logs_redacted
    with _log_lock:
        if _logs_redacted:
            return
        _logs_redacted = True
        previous = logging.getLogRecordFactory()

        def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
            record = previous(*args, **kwargs)
            try:
                record.msg, record.args = redact(record.getMessage()), None
            except Exception:  # a malformed call: logging reports it when it formats it
                return record
            if record.exc_info and record.exc_info[0] is not None:
                record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
            if record.stack_info:
                record.stack_info = redact(record.stack_info)
            return record

        logging.setLogRecordFactory(factory)


def load_api_key(account: str = ACCOUNT) -> str:
    key = ""
    if _keyring_usable():
        try:
            import keyring

            key = keyring.get_password(SERVICE, account) or ""
        except Exception as exc:
            log.warning("keyring read failed: %s", type(exc).__name__)
    else:
        path = _key_file(account)
        if path.exists():
            key = path.read_text(encoding="utf-8").strip()
    remember(key)
    return key


def store_api_key(key: str, account: str = ACCOUNT) -> str:
    """Store (or clear, when empty) the key of ``account``; returns a description of where
    it went."""
    remember(key)
    if _keyring_usable():
        import keyring

        if key:
            keyring.set_password(SERVICE, account, key)
        else:
            try:
                keyring.delete_password(SERVICE, account)
            except Exception:
                pass
        return describe_store(account)
    path = _key_file(account)
    if not key:
        path.unlink(missing_ok=True)
        return describe_store(account)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(key)
    os.chmod(path, 0o600)
    return describe_store(account)


KEY_SHAPES = re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_\-]{16,}|\bBearer\s+[A-Za-z0-9._\-]{16,}")


def redact(text: str) -> str:
    """``text`` with every known API key, and anything shaped like one, replaced."""
    for key in tuple(_known_keys):
        if key and len(key) >= 4:
            text = text.replace(key, "[redacted]")
    return KEY_SHAPES.sub("[redacted]", text)


def scrub(value: Any) -> Any:
    """``value`` with ``redact`` applied to every string in it (keys of dicts too)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {scrub(key): scrub(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrub(item) for item in value]
    return value


def scrub_event(event: E) -> E:
    """``event`` itself when it holds no secret, else a copy with every secret redacted."""
    changes = {}
    for item in dataclasses.fields(event):  # type: ignore[arg-type]
        value = getattr(event, item.name)
        clean = scrub(value)
        if clean != value:
            changes[item.name] = clean
    return dataclasses.replace(event, **changes) if changes else event  # type: ignore[type-var]
