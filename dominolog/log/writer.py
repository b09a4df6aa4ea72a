"""Writing events as log lines: ``type`` first, ``hash`` last, UTF-8, no spaces."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from dominolog.log.hashchain import event_hash

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


def like_the_match(start: Mapping[str, Any] | None, event: Mapping[str, Any], seq: int, prev: str) -> dict[str, Any]:
    """``event`` written like the rest of its match: with its ``seq`` and its chain ``hash`` (after
    ``prev``, the head before it) when the match's ``start`` (its first event) has them and the event
    does not. Appending such events keeps a match whose events carry them valid."""
    body = dict(event)
    if start is None:
        return body
    if "seq" in start and "seq" not in body:
        body["seq"] = seq
    if isinstance(start.get("hash"), str) and "hash" not in body:
        body["hash"] = event_hash(prev, body)
    return body
