"""JSON text the tool writes for people and tools: no control character left raw.

``json.dumps(..., ensure_ascii=False)`` and orjson escape the C0 controls (``\\u001b``) but write
the C1 controls (U+0080-U+009F) as they are, and a terminal may act on them: U+009B is the
one-character CSI that begins an escape sequence, as ESC ``[`` does. Every JSON document the tool
writes for a reader (``verify --json``, ``export --format json``, ``audit --format json``,
``analyze --format json``, ``list --json``, ``standings --format json``, ``schema``) goes through
:func:`c1_escaped`, so a name or a message holding one shows up as ``\\u009b``.

In valid JSON text a character other than ASCII can only stand inside a string, where ``\\u00XX``
means that same character: :func:`c1_escaped` changes the text and never the value
(``json.loads`` gives the same), and leaves any other text exactly as ``json.dumps`` wrote it.

Event logs are not changed: a stored line, and ``export --format jsonl`` of it, stays byte for
byte as it was written (its hash chain does not depend on it either way).
"""

from __future__ import annotations

import json
import re
from typing import Any

_C1 = re.compile("[\x80-\x9f]")


def _escape(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def c1_escaped(text: str) -> str:
    """JSON ``text`` with every C1 control character written as ``\\u0080``-``\\u009f``."""
    return _C1.sub(_escape, text)


def dumps(value: Any, indent: int | None = None) -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=False)``, the C1 controls escaped."""
    return c1_escaped(json.dumps(value, indent=indent, ensure_ascii=False))
