"""The hash chain of FORMAT.md: ``hash = sha256(prev + canonical(e))``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

import orjson

_dumps = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode


def canonical_bytes(event: Mapping[str, Any], fast: bool = False) -> bytes:
    """The canonical form of the event as UTF-8 bytes (see :func:`canonical`).

    It is exactly ``json.dumps(e, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``.
    ``fast=True`` may be passed for events that validated against the models other than
    ``match_start``: they hold only strings, 64-bit integers, booleans, nulls, lists and
    objects, for which orjson writes the same text several times faster (no floats, whose
    spelling differs). Anything orjson refuses falls back to ``json``; a property test
    checks that the two agree.
    """
    event = _without_hash(event)
    if fast:
        try:
            return orjson.dumps(event, option=orjson.OPT_SORT_KEYS)
        except (TypeError, orjson.JSONEncodeError):
            pass
    return _utf8(_dumps(event))


def canonical(event: Mapping[str, Any]) -> str:
    """The event without its ``hash`` key, keys sorted, no spaces, non-ASCII kept."""
    return _dumps(_without_hash(event))


def _without_hash(event: Mapping[str, Any]) -> Mapping[str, Any]:
    if "hash" not in event:
        return event
    body = dict(event)
    del body["hash"]
    return body


def _utf8(text: str) -> bytes:
    # Lone surrogates (from a \\ud800 escape) cannot be UTF-8; keep them as the bytes
    # Python would write, so a broken event still gets a stable fingerprint.
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


#: (looked up once: the chain hashes every event of every log read)
_SHA256: Final = hashlib.sha256


def chain_hash_bytes(prev: str, canonical_utf8: bytes) -> str:
    return _SHA256(prev.encode("ascii") + canonical_utf8).hexdigest()


def chain_hash(prev: str, canonical_text: str) -> str:
    return chain_hash_bytes(prev, _utf8(canonical_text))


def event_hash(prev: str, event: Mapping[str, Any]) -> str:
    return chain_hash_bytes(prev, canonical_bytes(event))


def add_hashes(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Copies of one match's events, each carrying its chain hash (last key)."""
    prev = ""
    out = []
    for e in events:
        body = dict(_without_hash(e))
        prev = chain_hash_bytes(prev, canonical_bytes(body))
        body["hash"] = prev
        out.append(body)
    return out


def head(events: Iterable[Mapping[str, Any]]) -> str:
    """The head (hash of the last event) of one match's events."""
    prev = ""
    for e in events:
        prev = event_hash(prev, e)
    return prev
