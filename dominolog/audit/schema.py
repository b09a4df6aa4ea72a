"""The JSON Schema of ``dominolog audit --format json`` (written to ``schemas/audit.schema.json``)."""

from __future__ import annotations

from typing import Any

from dominolog.knowledge.evidence import EVIDENCE_SCHEMA

_STR_LIST = {"type": "array", "items": {"type": "string"}}
_TILES = {"type": "array", "items": {"type": "string", "pattern": "^[0-6]-[0-6]$"}}
_WINNER = {"anyOf": [{"type": "string"}, _STR_LIST, {"type": "null"}]}
_POINTS = {"type": "object", "additionalProperties": {"type": "integer"}}
_KNOWN = {
    "type": "object",
    "description": "What one player could hold: `holds` for certain, `may_hold` perhaps (never in `holds`), "
    "`count` tiles in hand.",
    "required": ["holds", "may_hold", "count"],
    "properties": {"holds": _TILES, "may_hold": _TILES, "count": {"type": "integer", "minimum": 0}},
    "additionalProperties": False,
}
_KNOWLEDGE = {"type": "object", "additionalProperties": {"$ref": "#/$defs/knowledge"}}


def _verdict() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["valid", "violations", "possible", "unsettled", "text"],
        "properties": {
            "valid": {"type": "boolean", "description": "No certain violation."},
            "violations": {"type": "integer", "minimum": 0, "description": "Violations the log proves."},
            "possible": {
                "type": "integer",
                "minimum": 0,
                "description": "Rules some hand consistent with the log breaks and some keeps.",
            },
            "unsettled": {"type": "integer", "minimum": 0, "description": "Points hidden tiles keep open."},
            "text": {"type": "string"},
            "hidden": {
                "type": "integer",
                "minimum": 0,
                "description": "With --min-likelihood only: the possible violations left out, less likely than that.",
            },
        },
        "additionalProperties": False,
    }


FINDING = {
    "type": "object",
    "required": ["seq", "line", "code", "certainty", "message", "rules", "proof", "tiles", "before"],
    "properties": {
        "seq": {"type": "integer", "description": "The event's position in the match (1 = match_start)."},
        "line": {"type": "integer"},
        "code": {"type": "string"},
        "certainty": {"enum": ["certain", "possible", "unverifiable"]},
        "message": {"type": "string"},
        "rules": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "text"],
                "properties": {"id": {"type": "string"}, "text": {"type": "string"}},
                "additionalProperties": False,
            },
        },
        "proof": _STR_LIST,
        "tiles": {**_TILES, "description": "The tiles that make it (or would make it) a violation."},
        "before": {**_KNOWLEDGE, "description": "What each player could hold just before, by the facts alone."},
        "likelihood": {"$ref": "#/$defs/likelihood"},
        "others_honest": {"$ref": "#/$defs/others_honest"},
    },
    "additionalProperties": False,
}

OTHERS_HONEST = {
    "type": "object",
    "description": "A possible renege only: the share of the hands the log allows in which it is a renege, among "
    "those in which every other pass and draw of the player's was honest (docs/audit.md, Evidence of reneging). "
    "Counted: `broken` of `worlds` (integers, of the part of the hand that can reach the player's tiles); "
    "sampled: `margin` (95%) and `samples`.",
    "required": ["share", "exact"],
    "properties": {
        "share": {"type": "number", "minimum": 0, "maximum": 1},
        "exact": {"type": "boolean"},
        "broken": {"type": "integer", "minimum": 0},
        "worlds": {"type": "integer", "minimum": 1},
        "margin": {"type": "number", "minimum": 0},
        "samples": {"type": "integer", "minimum": 1},
    },
    "additionalProperties": False,
}

FAIRPLAY = {
    "type": "object",
    "description": "Each player's evidence of reneging over the match and by hand (docs/audit.md, Evidence of "
    "reneging): evidence, never a finding.",
    "required": ["model", "players"],
    "properties": {
        "model": {"type": "string"},
        "players": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["player", "evidence", "words", "hands"],
                "properties": {
                    "player": {"type": "string"},
                    "evidence": {"$ref": "#/$defs/evidence"},
                    "words": {"type": "string", "description": "What the figure means, in a sentence."},
                    "hands": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["hand", "weighed"],
                            "properties": {
                                "hand": {"type": "integer"},
                                "weighed": {
                                    "type": "boolean",
                                    "description": "False: the facts leave no world, or a play was set aside.",
                                },
                                "evidence": {"$ref": "#/$defs/evidence"},
                                "plays": {"type": "integer", "minimum": 0},
                                "passes_and_draws": {"type": "integer", "minimum": 0},
                                "open": {"type": "integer", "minimum": 0},
                                "worlds_by_reneges": {
                                    "type": "array",
                                    "items": {"type": "integer", "minimum": 0},
                                    "description": "Counted: the worlds with 0, 1, 2, ... of the player's passes "
                                    "and draws reneges.",
                                },
                                "share_by_reneges": {
                                    "type": "array",
                                    "items": {"type": "number", "minimum": 0},
                                    "description": "Sampled: the share of the sampled worlds with 0, 1, 2, ... "
                                    "reneges.",
                                },
                                "samples": {"type": "integer", "minimum": 1},
                            },
                            "additionalProperties": False,
                        },
                    },
                },
                "additionalProperties": False,
            },
        },
    },
    "additionalProperties": False,
}

LIKELIHOOD = {
    "type": "object",
    "description": "A possible violation only: the share of the hands the log allows (all equally likely) in which "
    "it is a violation (docs/audit.md). Counted exactly (`exact` true), or estimated from `samples` sampled hands, "
    "within `margin` of the share with 95% confidence.",
    "required": ["share", "exact"],
    "properties": {
        "share": {"type": "number", "minimum": 0, "maximum": 1},
        "exact": {"type": "boolean"},
        "margin": {"type": "number", "minimum": 0},
        "samples": {"type": "integer", "minimum": 1},
    },
    "additionalProperties": False,
}

EVENT = {
    "type": "object",
    "required": ["seq", "line", "type", "player", "text", "retracted", "ends", "turn", "boneyard", "knowledge"],
    "properties": {
        "seq": {"type": "integer"},
        "line": {"type": "integer"},
        "type": {"type": ["string", "null"], "description": "null for a line that is not an event."},
        "player": {"type": ["string", "null"]},
        "text": {"type": "string"},
        "retracted": {"type": "boolean", "description": "Withdrawn by an undo."},
        "ends": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 6}},
        "turn": {"type": ["string", "null"]},
        "boneyard": {"type": ["integer", "null"]},
        "knowledge": {**_KNOWLEDGE, "description": "What each player could hold after this event."},
        "findings": {"type": "array", "items": {"type": "integer"}, "description": "Indexes into the hand's findings."},
    },
    "additionalProperties": False,
}

HAND = {
    "type": "object",
    "required": [
        "number",
        "deal_seq",
        "end_seq",
        "leader",
        "verdict",
        "result",
        "claim",
        "scoring",
        "findings",
        "events",
    ],
    "properties": {
        "number": {"type": "integer", "minimum": 1},
        "deal_seq": {"type": "integer"},
        "end_seq": {"type": ["integer", "null"]},
        "leader": {"type": ["string", "null"]},
        "verdict": {"$ref": "#/$defs/verdict"},
        "result": {
            "anyOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["end", "winner", "points", "verified"],
                    "properties": {
                        "end": {"type": "string"},
                        "winner": _WINNER,
                        "points": _POINTS,
                        "verified": {"type": "boolean"},
                    },
                    "additionalProperties": False,
                },
            ]
        },
        "claim": {
            "anyOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "properties": {"points": {"anyOf": [_POINTS, {"type": "null"}]}, "winner": _WINNER},
                    "additionalProperties": False,
                },
            ]
        },
        "scoring": {**_STR_LIST, "description": "The scoring worked out, one step a sentence."},
        "findings": {"type": "array", "items": {"$ref": "#/$defs/finding"}},
        "events": {"type": "array", "items": {"$ref": "#/$defs/event"}},
    },
    "additionalProperties": False,
}


def audit_schema(base_uri: str) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{base_uri}audit.schema.json",
        "title": "dominolog audit document",
        "description": "What `dominolog audit --format json` prints for one match (docs/audit.md).",
        "type": "object",
        "required": [
            "schema",
            "source",
            "line",
            "match_id",
            "variant",
            "variant_title",
            "players",
            "meta",
            "notes",
            "verdict",
            "totals",
            "winner",
            "complete",
            "chain",
            "findings",
            "hands",
        ],
        "properties": {
            "schema": {"const": "dominolog-audit/1"},
            "source": {"type": "string"},
            "line": {"type": "integer"},
            "match_id": {"type": ["string", "null"]},
            "variant": {"type": ["string", "null"]},
            "variant_title": {"type": "string"},
            "players": _STR_LIST,
            "meta": {"type": "object", "additionalProperties": {"type": "string"}},
            "notes": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["seq", "text"],
                    "properties": {"seq": {"type": "integer"}, "text": {"type": "string"}},
                },
            },
            "verdict": {"$ref": "#/$defs/verdict"},
            "totals": _POINTS,
            "winner": _WINNER,
            "complete": {"type": "boolean"},
            "chain": {
                "type": "object",
                "required": ["status", "head", "fingerprint", "hands", "expect"],
                "properties": {
                    "status": {"enum": ["ok", "broken", "absent"]},
                    "head": {"type": "string"},
                    "fingerprint": {"type": "string", "description": "The first 10 characters of the head."},
                    "hands": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["hand", "seq", "fingerprint"],
                            "properties": {
                                "hand": {"type": "integer"},
                                "seq": {"type": "integer"},
                                "fingerprint": {"type": "string"},
                            },
                        },
                    },
                    "expect": {
                        "anyOf": [
                            {"type": "null"},
                            {
                                "type": "object",
                                "required": ["given", "ok", "message"],
                                "properties": {
                                    "given": {"type": "string"},
                                    "ok": {"type": "boolean"},
                                    "message": {"type": "string"},
                                },
                            },
                        ]
                    },
                },
                "additionalProperties": False,
            },
            "findings": {"type": "array", "items": {"$ref": "#/$defs/finding"}},
            "hands": {"type": "array", "items": {"$ref": "#/$defs/hand"}},
            "fairplay": {"$ref": "#/$defs/fairplay"},
            "min_likelihood": {
                "type": "number",
                "minimum": 0,
                "maximum": 1,
                "description": "With --min-likelihood only: possible violations less likely than this are left out.",
            },
        },
        "additionalProperties": False,
        "$defs": {
            "verdict": _verdict(),
            "knowledge": _KNOWN,
            "likelihood": LIKELIHOOD,
            "others_honest": OTHERS_HONEST,
            "evidence": EVIDENCE_SCHEMA,
            "fairplay": FAIRPLAY,
            "finding": FINDING,
            "event": EVENT,
            "hand": HAND,
        },
    }
