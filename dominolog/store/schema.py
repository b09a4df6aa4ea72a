"""The JSON Schema of ``dominolog list --json`` (written to ``schemas/list.schema.json``)."""

from __future__ import annotations

from typing import Any


def list_schema(base_uri: str) -> dict[str, Any]:
    points = {"type": "object", "additionalProperties": {"type": "integer"}}
    match = {
        "type": "object",
        "required": [
            "id",
            "variant",
            "players",
            "meta",
            "status",
            "complete",
            "head",
            "totals",
            "winner",
            "hands",
            "events",
            "violations",
            "unverified",
            "date",
        ],
        "properties": {
            "id": {"type": "string"},
            "variant": {"type": ["string", "null"]},
            "players": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
            "meta": {"anyOf": [{"type": "object", "additionalProperties": {"type": "string"}}, {"type": "null"}]},
            "status": {"enum": ["complete", "open", "invalid"]},
            "complete": {"type": "boolean", "description": "A match_end was read."},
            "head": {"type": "string", "description": "The head hash; its first 10 characters are the fingerprint."},
            "totals": {"anyOf": [points, {"type": "null"}]},
            "winner": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
            "hands": {"type": "integer", "minimum": 0},
            "events": {"type": "integer", "minimum": 0},
            "violations": {"type": "integer", "minimum": 0},
            "unverified": {"type": "integer", "minimum": 0},
            "date": {
                "type": ["string", "null"],
                "description": "ISO 8601: meta.date when it is an ISO date, else the first event's `at`, else null.",
            },
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{base_uri}list.schema.json",
        "title": "dominolog list --json",
        "description": "The stored matches, as `dominolog list --json` prints them.",
        "type": "object",
        "required": ["matches"],
        "properties": {"matches": {"type": "array", "items": match}},
        "additionalProperties": False,
    }
