"""The JSON Schema of ``dominolog standings --format json`` (written to ``schemas/standings.schema.json``)."""

from __future__ import annotations

from typing import Any

from dominolog.knowledge.evidence import EVIDENCE_SCHEMA

COUNT = {"type": "integer", "minimum": 0}
NUMBER_OR_NULL = {"type": ["number", "null"]}


def _obj(properties: dict[str, Any], description: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "object",
        "required": list(properties),
        "properties": properties,
        "additionalProperties": False,
    }
    if description:
        out["description"] = description
    return out


def _optional(obj: dict[str, Any], optional: dict[str, Any]) -> dict[str, Any]:
    """``obj`` with more properties that may be left out (``standings --loss`` adds them)."""
    return {**obj, "properties": {**obj["properties"], **optional}}


def _analysis(description: str) -> dict[str, Any]:
    return _obj(
        {
            "counted": COUNT,
            "analysed": {**COUNT, "description": "Counted matches the store keeps an analysis of."},
            "partial": {**COUNT, "description": "Of those, analysed in part only (some hands or decisions)."},
        },
        description,
    )


LOSS = _obj(
    {
        "matches": {**COUNT, "description": "Analysed counted matches the player played."},
        "decisions": COUNT,
        "choices": {**COUNT, "description": "Decisions whose options are not all worth the same."},
        "points_lost": {"type": "number", "minimum": 0, "description": "Over the choices: best minus played."},
        "per_choice": NUMBER_OR_NULL,
        "best_move_rate": {**NUMBER_OR_NULL, "description": "Percent of choices where a best move was played."},
        "accuracy": {
            **NUMBER_OR_NULL,
            "description": "100 x mean over choices of (1 - loss / max(1, best - worst)); null: no choice.",
        },
        "unforced": {**COUNT, "description": "Decisions with more than one legal option."},
        "error_rate": {**NUMBER_OR_NULL, "description": "Mean points lost per non-forced decision."},
        "play_rating": {**NUMBER_OR_NULL, "description": "Points lost per 100 non-forced decisions; 0 is perfect."},
        "luck": _obj(
            {
                "matches": {**COUNT, "description": "Analysed matches with a luck figure."},
                "luck": {
                    "type": "number",
                    "description": "Sum of the luck: each deal's value less its mean over random deals (Ghost 13: "
                    "exact; the hidden games: sampled), and each draw's for the drawer less its mean over the tiles "
                    "that could have been drawn.",
                },
                "adjusted": {"type": "number", "description": "The points (theirs minus the others') less the luck."},
                "margin": {
                    **NUMBER_OR_NULL,
                    "description": "The 95% margin of the sampled part of the luck (the root of the matches' "
                    "margins squared); null: none of it sampled.",
                },
            },
            "Luck and the luck-adjusted result over the analysed hands (dominolog/analysis/luck.py, luck_hidden.py).",
        ),
    },
    "standings --loss: the player's points lost over the counted matches the store keeps an analysis of.",
)


FAIRPLAY = _obj(
    {
        "matches": {**COUNT, "description": "Matches weighed (every match of the table the player played)."},
        "season": {**EVIDENCE_SCHEMA, "description": "Over every match of the table (the season, as filtered)."},
        "events": {
            "type": "array",
            "items": {
                **EVIDENCE_SCHEMA,
                "required": ["event", *EVIDENCE_SCHEMA["required"]],
                "properties": {"event": {"type": "string"}, **EVIDENCE_SCHEMA["properties"]},
            },
            "description": 'By the matches\' meta.event ("" when none is given).',
        },
    },
    "standings --fairplay: the player's evidence of reneging (docs/audit.md, Evidence of reneging): not a finding.",
)


def _tally() -> dict[str, Any]:
    return {
        "record": _obj(
            {
                "played": COUNT,
                "won": COUNT,
                "lost": COUNT,
                "drawn": COUNT,
                "abandoned": COUNT,
                "invalid": COUNT,
                "in_progress": COUNT,
            },
            "played = won + lost + drawn (complete, no winner) + abandoned (a match_end saying abandoned): the "
            "counted matches. in_progress: matches with no match_end yet, counted in no other figure. "
            "invalid: matches with violations; counted in played only with --include-invalid.",
        ),
        "hands": _obj(
            {"played": COUNT, "won_domino": COUNT, "won_block": COUNT, "won_other": COUNT},
            "Hands played to an end (abandoned hands left out), and those the side won: by domino, by a block "
            "(ended block or stock-out), by another end.",
        ),
        "points": _obj(
            {
                "for": {"type": "integer"},
                "against": {"type": "integer"},
                "for_per_hand": NUMBER_OR_NULL,
                "against_per_hand": NUMBER_OR_NULL,
            },
            "for: the player's own points (a partnership's: the side's) over every hand of the counted matches; "
            "against: in those hands, each opposing side's points added up. Penalty points where the variant's "
            "higher_wins is false. Per hand: divided by hands.played (null when none).",
        ),
    }


def standings_schema(base_uri: str) -> dict[str, Any]:
    rating = {
        "anyOf": [
            _obj(
                {
                    "mu": {"type": "number"},
                    "sigma": {"type": "number"},
                    "ordinal": {"type": "number", "description": "mu - 3 sigma: what players are ordered by."},
                    "matches": COUNT,
                },
                "The OpenSkill (Plackett-Luce) rating after the rated matches of this variant.",
            ),
            {"type": "null", "description": "No rated match (only abandoned or uncounted ones)."},
        ]
    }
    history = _obj(
        {
            "match_id": {"type": "string"},
            "date": {"type": ["string", "null"]},
            "mu": {"type": "number"},
            "sigma": {"type": "number"},
            "ordinal": {"type": "number"},
        },
        "The rating just after one rated match.",
    )
    play = _obj(
        {
            "hands": COUNT,
            "block_hands": COUNT,
            "block_pips": COUNT,
            "block_pips_average": NUMBER_OR_NULL,
            "passes": COUNT,
            "draws": COUNT,
            "passes_per_hand": NUMBER_OR_NULL,
            "draws_per_hand": NUMBER_OR_NULL,
            "timed_moves": COUNT,
            "move_seconds": {"type": "number", "minimum": 0},
            "seconds_per_move": NUMBER_OR_NULL,
            "reneges": {**COUNT, "description": "Certain reneges, in every match played (invalid ones too)."},
            "possible_reneges": {
                **COUNT,
                "description": "Reneges hidden tiles leave open, in every match played (invalid ones too).",
            },
        },
        "How the player played over the counted matches (reneges: over every match).",
    )
    player = _optional(
        _obj(
            {
                "name": {"type": "string"},
                "place": {
                    "type": ["integer", "null"],
                    "minimum": 1,
                    "description": "By the ordinal; null: not rated.",
                },
                "rating": rating,
                **_tally(),
                "play": play,
                "history": {"type": "array", "items": history},
            }
        ),
        {"loss": LOSS, "fairplay": FAIRPLAY},
    )
    partnership = _obj(
        {
            "name": {"type": "string"},
            "players": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            **_tally(),
        }
    )
    match = _optional(
        _obj(
            {
                "id": {"type": "string"},
                "date": {"type": ["string", "null"]},
                "status": {"enum": ["complete", "abandoned", "in_progress", "invalid"]},
                "counted": {"type": "boolean"},
                "rated": {"type": "boolean"},
            }
        ),
        {"analysed": {"type": "boolean", "description": "standings --loss: counted and analysed."}},
    )
    variant = _optional(
        _obj(
            {
                "variant": {
                    "type": "string",
                    "description": "The variant's name; 'unknown' where it could not be read.",
                },
                "title": {"type": "string"},
                "higher_wins": {
                    "type": "boolean",
                    "description": "False: points are penalties, the lowest total wins.",
                },
                "counts": _obj(
                    {"matches": COUNT, "counted": COUNT, "invalid": COUNT, "in_progress": COUNT, "rated": COUNT}
                ),
                "players": {"type": "array", "items": player},
                "partnerships": {"type": "array", "items": partnership},
                "matches": {"type": "array", "items": match},
            },
            "The standings of one variant: one rating pool.",
        ),
        {"analysis": _analysis("standings --loss: how many of the variant's counted matches are analysed.")},
    )
    filters = _obj(
        {
            "variant": {"type": ["string", "null"]},
            "meta": {"type": "object", "additionalProperties": {"type": "string"}},
            "since": {"type": ["string", "null"], "format": "date"},
            "until": {"type": ["string", "null"], "format": "date"},
            "include_invalid": {"type": "boolean"},
        }
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{base_uri}standings.schema.json",
        "title": "dominolog standings --format json",
        "description": "Each player's and partnership's record, hands, points, play and rating, one group per "
        "variant, as `dominolog standings --format json` prints them.",
        **_optional(
            _obj(
                {
                    "generator": {"type": "string"},
                    "filters": filters,
                    "matches": _obj({"read": COUNT, "selected": COUNT}),
                    "variants": {"type": "array", "items": variant},
                    "legend": {"type": "array", "items": {"type": "string"}},
                }
            ),
            {"analysis": _analysis("standings --loss: how many of the counted matches are analysed.")},
        ),
    }
