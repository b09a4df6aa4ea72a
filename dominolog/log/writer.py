"""Writing events as log lines: ``type`` first, ``hash`` last, UTF-8, no spaces."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

_FIRST = ("type", "seq")
_LAST = ("at", "hash")
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def ordered(event: Mapping[str, Any]) -> dict[str, Any]:
    """The event with ``type`` and ``seq`` first and ``at`` and ``hash`` last."""
    out = {k: event[k] for k in _FIRST if k in event}
    out.update((k, v) for k, v in event.items() if k not in _FIRST and k not in _LAST)
    out.update((k, event[k]) for k in _LAST if k in event)
    return out


def dump_line(event: Mapping[str, Any]) -> str:
    """One log line (without the newline)."""
    return _encode(ordered(event))
