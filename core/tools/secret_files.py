"""Whether a workspace file looks like it holds a secret: by its name, or by what
``detect-secrets``' plugins find in its text (provider key formats, private-key blocks,
secret-looking assignments, high-entropy strings).

``named_secret`` matches the file's name against ``SECRET_NAMES`` (gitignore patterns);
``found_secret`` scans a text as ``detect-secrets scan`` scans a file (config formats read
as keys and values first, then line by line). Both return the
reason a person reads — ``named like *.pem``, ``GitHub Token`` — or "".
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict

from pathspec import GitIgnoreSpec

from core import secrets

SECRET_NAMES = ("*.env", ".env", ".env.*", "*.pem", "*.key", "id_rsa*", "id_dsa*",
                "id_ecdsa*", "id_ed25519*", "*.p12", "*.pfx", "*.jks", "*.keystore",
                "credentials*.json", "client_secret*.json", "service-account*.json",
                ".netrc", "_netrc", ".npmrc", ".pypirc", ".pgpass", ".git-credentials",
                ".htpasswd", ".dockercfg", "*.kdbx", "secrets.yaml", "secrets.yml",
                "secrets.json", "secrets.toml")
# An address is not a credential; a quoted hex string in code is far more often a hash, a
# colour or an id than a key (HumanEval's string_to_md5 and hex_key docstrings were held back
# as secrets, so the model never saw the files it was asked to complete): the providers' hex
# keys have plugins of their own, and a key assigned to a secret's name is KeywordDetector's.
LEFT_OUT_PLUGINS = frozenset({"IPPublicDetector", "HexHighEntropyString"})
PLUGIN_OPTIONS: dict[str, dict[str, float]] = {}
CACHED = 4096

_NAMES = GitIgnoreSpec.from_lines(SECRET_NAMES)
_lock = threading.Lock()
_configured = False
_found: OrderedDict[tuple[str, int], str] = OrderedDict()


def named_secret(rel: str) -> str:
    """``named like PATTERN`` when the file name marks a secret, else ""."""
    result = _NAMES.check_file(rel.rsplit("/", 1)[-1])
    if not result.include or result.index is None:
        return ""
    return f"named like {SECRET_NAMES[result.index]}"


def found_secret(name: str, text: str) -> str:
    """The kind of the first credential ``detect-secrets`` finds in ``text`` (the content of
    the file ``name``, whose extension decides how it is parsed), or "" when it finds none."""
    key = (name, hash(text))
    with _lock:
        if key in _found:
            _found.move_to_end(key)
            return _found[key]
        _configure()
        kind = _scan(name, text)
        _found[key] = kind
        if len(_found) > CACHED:
            _found.popitem(last=False)
    return kind


def held_lines(text: str, name: str = "output.txt") -> str:
    """``text`` (a command's or a tool's output) with every API key redacted in place
    (``core.secrets``: a known one, or the shape of one), then every line on which
    ``detect-secrets`` finds a credential replaced by a line saying it was held back, and its
    kind."""
    text = secrets.redact(text)
    if not text.strip():
        return text
    from detect_secrets.core.scan import _process_line_based_plugins

    with _lock:
        _configure()
        lines = text.splitlines()
        found = {secret.line_number: secret.type for secret in _process_line_based_plugins(
            lines=list(enumerate(lines, start=1)), filename=name)}
    if not found:
        return text
    held = [f"[held back: looks like a secret ({found[number]})]" if number in found else line
            for number, line in enumerate(lines, start=1)]
    return "\n".join(held) + ("\n" if text.endswith("\n") else "")


def _scan(name: str, text: str) -> str:
    from detect_secrets.core.scan import _process_line_based_plugins
    from detect_secrets.transformers import get_transformed_file

    for eager in (False, True):
        handle = io.StringIO(text)
        handle.name = name  # type: ignore[misc]  # the transformers pick a parser by name
        lines = get_transformed_file(handle, use_eager_transformers=eager)  # type: ignore[arg-type]
        if lines is None:
            if eager:
                return ""
            lines = text.splitlines()
        found = _process_line_based_plugins(lines=list(enumerate(lines, start=1)),
                                            filename=name)
        kind = next((secret.type for secret in found), "")
        if kind:
            return kind
    return ""


def _configure() -> None:
    """Turn on every plugin ``detect-secrets`` ships but ``LEFT_OUT_PLUGINS`` (with
    ``PLUGIN_OPTIONS``), once."""
    global _configured
    if _configured:
        return
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.settings import get_settings

    plugins = [{"name": cls.__name__, **PLUGIN_OPTIONS.get(cls.__name__, {})}
               for cls in get_mapping_from_secret_type_to_class().values()
               if cls.__name__ not in LEFT_OUT_PLUGINS]
    get_settings().configure_plugins(plugins)
    _configured = True
