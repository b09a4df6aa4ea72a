"""SQL views of the store, for sqlite-utils, Datasette and any SQLite client: read-only, derived from
the projections (``matches``, ``hands``) and, for a date and an abandoned match, from ``events``. A
PostgreSQL store has the same views, written in its SQL (:mod:`dominolog.store.pgviews`).

``hand_scores``: one row per match, hand and player (long format), with the match's date, event,
table, variant, status and validity, the hand's end and winner, the player's seat, points, running
total and whether they won the hand. ``standings``: one row per variant and player, counted over the
complete, valid matches (``status = 'complete'``), with the player's invalid matches beside them (a
player whose matches are all still open has no row).

SQLite has no booleans: ``valid`` and ``won`` are integers, 1 or 0. A winner is text: ``Ana``, or the
partners joined with ``+`` (``Ben+Dev``). Points are as the rules give them (recomputed by the
reducer); in brettspielnetz they are penalties, and the lowest total wins. Ratings, rows per
partnership and play statistics (time per move, reneges, block pips) are not here: ``dominolog
standings`` computes them (the ratings with openskill, in Python).

The views are created with the store, and added to a store made before them the first time it is
opened writable (:func:`dominolog.store.opening.open_store`); they change no table, and the schema
version stays the same. Nothing in them may fail on a row edited behind the store's back: JSON that is
not valid reads as NULL.
"""

from __future__ import annotations

#: the views, in the order they are created
VIEW_NAMES = ("hand_scores", "standings")

_DATE = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"


def iso_time(x: str) -> str:
    """SQL: ``x`` when it is text holding an ISO 8601 date (``2026-09-03``) or date-time in the extended
    form (``2026-09-03T19:30:25Z``, ``2026-09-03T19:30+02:00``, a fraction of a second allowed), a real
    day and time; else NULL. What :func:`dominolog.club.summary.parse_time` reads, less the rare forms
    (basic ``20260903``, week dates, an hour alone, ``+0200``) SQLite's date functions cannot read.
    ``x`` is evaluated several times: a column or a parameter such as ``?1``."""
    day = f"substr({x}, 1, 10)"
    return (
        f"CASE WHEN typeof({x}) = 'text' AND {x} NOT GLOB '*[^0-9:.TZ+-]*' AND substr({x}, 1, 4) <> '0000' "
        f"AND date({day}, '+0 days') = {day} "
        f"AND ({x} GLOB '{_DATE}' OR ({x} GLOB '{_DATE}T[0-2][0-9]:[0-5][0-9]*' "
        f"AND substr({x}, 12, 2) < '24' AND datetime({x}) IS NOT NULL)) THEN {x} END"
    )


def _json(x: str, kind: str | None = None) -> str:
    """SQL: ``x`` when it is valid JSON (of the type ``kind``: 'object', 'array'), else NULL."""
    if kind is None:
        return f"CASE WHEN json_valid({x}) THEN {x} END"
    return f"CASE WHEN json_valid({x}) AND json_type({x}) = '{kind}' THEN {x} END"


def _winner_text(w: str) -> str:
    """SQL: a winner stored as JSON (``"Ana"``, ``["Ben","Dev"]``, NULL) as text: ``Ana``, ``Ben+Dev``."""
    return (
        f"CASE json_type({w}) WHEN 'text' THEN json_extract({w}, '$') "
        f"WHEN 'array' THEN (SELECT group_concat(w.value, '+') FROM json_each({w}) AS w) END"
    )


def _won(w: str, player: str) -> str:
    """SQL: 1 when ``player`` is (one of) the winner(s) ``w`` (JSON, valid or NULL), else 0."""
    return (
        f"CASE json_type({w}) WHEN 'text' THEN json_extract({w}, '$') = {player} "
        f"WHEN 'array' THEN EXISTS (SELECT 1 FROM json_each({w}) AS w WHERE w.value = {player}) ELSE 0 END"
    )


HAND_SCORES = f"""
CREATE VIEW IF NOT EXISTS hand_scores AS
-- one row per match, hand and player, from dominolog's projections (matches, hands).
-- date: meta.date when it is an ISO 8601 date, else the match's first event time (at).
-- valid, won: 1 or 0. winner: "Ana", or partners as "Ben+Dev". seat: from 1, in matches.players.
-- brettspielnetz points are penalties: the lowest total wins.
WITH m0 AS (
    SELECT
        id,
        variant,
        status,
        {_json("meta", "object")} AS meta,
        {_json("players", "array")} AS players,
        (SELECT e.at FROM events AS e WHERE e.match_id = matches.id AND e.at IS NOT NULL
         ORDER BY e.seq LIMIT 1) AS first_at
    FROM matches
),
m AS (
    SELECT
        m0.*,
        COALESCE({iso_time("json_extract(meta, '$.date')")}, {iso_time("first_at")}) AS date
    FROM m0
),
s AS (
    SELECT h.match_id, h.number, h."end", {_json("h.winner")} AS winner, p.key AS player, p.value AS points
    FROM hands AS h, json_each(COALESCE({_json("h.points", "object")}, '{{}}')) AS p
)
SELECT
    s.match_id,
    m.date,
    json_extract(m.meta, '$.event') AS event,
    json_extract(m.meta, '$.table') AS "table",
    m.variant,
    m.status,
    m.status <> 'invalid' AS valid,
    s.number AS hand,
    s."end",
    {_winner_text("s.winner")} AS winner,
    s.player,
    (SELECT seat.key + 1 FROM json_each(m.players) AS seat WHERE seat.value = s.player LIMIT 1) AS seat,
    s.points,
    SUM(s.points) OVER (PARTITION BY s.match_id, s.player ORDER BY s.number) AS running_total,
    {_won("s.winner", "s.player")} AS won
FROM s JOIN m ON m.id = s.match_id
ORDER BY s.match_id, s.number, seat, s.player;
"""

STANDINGS = f"""
CREATE VIEW IF NOT EXISTS standings AS
-- one row per variant and player, over the complete, valid matches (status = 'complete').
-- lost: the match has a winner and the player is not one of them. drawn: complete with no winner,
-- not abandoned. abandoned: ended by match_end reason abandoned. hands: hands played to an end
-- (not abandoned). points: the player's own hand points. invalid_matches: matches with violations.
-- A player whose matches are all still open has no row.
-- brettspielnetz points are penalties (lower is better). Ratings, partnerships and play statistics:
-- dominolog standings.
WITH seats AS (
    SELECT
        m.id,
        m.variant,
        m.status,
        {_json("m.winner")} AS winner,
        p.value AS player
    FROM matches AS m, json_each(COALESCE({_json("m.players", "array")}, '[]')) AS p
),
judged AS (
    SELECT
        seats.*,
        {_won("seats.winner", "seats.player")} AS won,
        CASE WHEN seats.status = 'complete' AND seats.winner IS NULL THEN
            COALESCE((SELECT CASE WHEN json_valid(e.json) THEN json_extract(e.json, '$.reason') END
                      FROM events AS e WHERE e.match_id = seats.id AND e.type = 'match_end'
                      ORDER BY e.seq DESC LIMIT 1) = 'abandoned', 0)
        ELSE 0 END AS abandoned
    FROM seats
),
hand_points AS (
    SELECT h.match_id, p.key AS player, SUM(h."end" <> 'abandoned') AS hands, SUM(p.value) AS points
    FROM hands AS h
    JOIN matches AS m ON m.id = h.match_id AND m.status = 'complete',
    json_each(COALESCE({_json("h.points", "object")}, '{{}}')) AS p
    GROUP BY h.match_id, p.key
)
SELECT
    j.variant,
    j.player,
    SUM(j.status = 'complete') AS matches,
    SUM(j.status = 'complete' AND j.won) AS won,
    SUM(j.status = 'complete' AND j.winner IS NOT NULL AND NOT j.won) AS lost,
    SUM(j.status = 'complete' AND j.winner IS NULL AND NOT j.abandoned) AS drawn,
    SUM(j.status = 'complete' AND j.abandoned) AS abandoned,
    COALESCE(SUM(hp.hands), 0) AS hands,
    COALESCE(SUM(hp.points), 0) AS points,
    ROUND(1.0 * SUM(hp.points) / NULLIF(SUM(hp.hands), 0), 2) AS points_per_hand,
    SUM(j.status = 'invalid') AS invalid_matches
FROM judged AS j
LEFT JOIN hand_points AS hp ON hp.match_id = j.id AND hp.player = j.player AND j.status = 'complete'
GROUP BY j.variant, j.player
HAVING SUM(j.status IN ('complete', 'invalid')) > 0
ORDER BY j.variant, j.player;
"""

#: the statements that create the views (each ``CREATE VIEW IF NOT EXISTS``)
VIEWS = (HAND_SCORES.strip(), STANDINGS.strip())
