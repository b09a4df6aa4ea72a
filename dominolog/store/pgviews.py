"""The SQL views of :mod:`dominolog.store.views`, ``hand_scores`` and ``standings``, in PostgreSQL's SQL:
the same columns, the same rows in the same order, for psql, Metabase, Grafana or any PostgreSQL client
(Datasette reads SQLite only). ``tests/test_store_contract.py`` holds them to SQLite's, row for row.

What differs is only how they are written: PostgreSQL's JSON functions (``jsonb``) in place of SQLite's,
and two functions of the store's own, created with the views: ``dominolog_json(text)``, the text as
``jsonb`` or NULL when it is not JSON (SQLite's ``json_valid``; a view must not fail on a row edited
behind the store's back), and ``dominolog_iso_time(text)``, :func:`dominolog.store.views.iso_time`.
The types are PostgreSQL's: ``valid`` and ``won`` are integers, 1 or 0, as in SQLite; ``seat``,
``points``, ``running_total`` and the counts are ``bigint``; ``points_per_hand`` is ``double
precision``, rounded half away from zero as SQLite's ``ROUND`` does; ``event`` and ``table`` are
text. Text is ordered by its bytes (``COLLATE "C"``, SQLite's order), NULLs first (SQLite's), whatever
the database's collation.

Three things a row edited behind the store's back can hold read otherwise than in SQLite: JSON that
PostgreSQL cannot hold (``\\u0000``, a lone surrogate escaped) reads as NULL, a hand's points that are
not whole numbers read as NULL, and a meta's ``event`` or ``table`` that is not a string reads as its
JSON text. The store never writes any of them.

The views are created with the store (:mod:`dominolog.store.pgschema`), and added to a store made
before them when a role that may create in its schema and insert events opens it; they change no
table, and the schema version stays the same.
"""

from __future__ import annotations

from dominolog.store.views import VIEW_NAMES

#: an ISO 8601 date, or date-time in the extended form, as SQLite's date functions read it: hours
#: 00-23, minutes and seconds 00-59, a fraction of a second after the seconds, a zone Z or +-HH:MM
#: (hours 00-14); whether the day is a real one is checked apart
ISO_PATTERN = (
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"(T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]+)?)?(Z|[+-](0[0-9]|1[0-4]):[0-5][0-9])?)?$"
)

#: the store's own functions the views use (``CREATE OR REPLACE``: made again with the views)
FUNCTIONS = r"""
CREATE OR REPLACE FUNCTION dominolog_json(x text) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
    RETURN x::jsonb;
EXCEPTION WHEN data_exception OR program_limit_exceeded THEN
    RETURN NULL;  -- not JSON, or JSON PostgreSQL cannot hold: as SQLite's json_valid says no
END
$$;
CREATE OR REPLACE FUNCTION dominolog_iso_time(x text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
-- x when it is an ISO 8601 date or date-time in the extended form, a real day and time (what
-- dominolog.store.views.iso_time keeps in SQLite), else NULL
DECLARE
    y integer;
    m integer;
    d integer;
BEGIN
    IF x !~ '@ISO_PATTERN@' THEN
        RETURN NULL;
    END IF;
    y := substr(x, 1, 4)::integer;
    m := substr(x, 6, 2)::integer;
    d := substr(x, 9, 2)::integer;
    IF y = 0 OR m < 1 OR m > 12 OR d < 1 THEN
        RETURN NULL;
    END IF;
    IF d > extract(day FROM make_date(y, m, 1) + interval '1 month' - interval '1 day') THEN
        RETURN NULL;
    END IF;
    RETURN x;
END
$$;
""".replace("@ISO_PATTERN@", ISO_PATTERN)


def _of_kind(x: str, kind: str) -> str:
    """SQL: the jsonb ``x`` when it is of the type ``kind`` ('object', 'array'), else NULL."""
    return f"CASE WHEN jsonb_typeof({x}) = '{kind}' THEN {x} END"


def _points(v: str) -> str:
    """SQL: a hand's points (jsonb) as a bigint, NULL when they are not a whole number."""
    return f"CASE WHEN jsonb_typeof({v}) = 'number' AND {v}::text ~ '^-?[0-9]{{1,18}}$' THEN {v}::text::bigint END"


def _winner_text(w: str) -> str:
    """SQL: a winner (jsonb: ``"Ana"``, ``["Ben","Dev"]``, NULL) as text: ``Ana``, ``Ben+Dev``."""
    return (
        f"CASE jsonb_typeof({w}) WHEN 'string' THEN {w} #>> '{{}}' "
        f"WHEN 'array' THEN (SELECT string_agg(x.value, '+' ORDER BY x.n) "
        f"FROM jsonb_array_elements_text({w}) WITH ORDINALITY AS x(value, n)) END"
    )


def _won(w: str, player: str) -> str:
    """SQL: 1 when ``player`` is (one of) the winner(s) ``w`` (jsonb or NULL), else 0."""
    return (
        f"CASE jsonb_typeof({w}) WHEN 'string' THEN (({w} #>> '{{}}') = {player})::integer "
        f"WHEN 'array' THEN (EXISTS (SELECT 1 FROM jsonb_array_elements_text({w}) AS x(value) "
        f"WHERE x.value = {player}))::integer ELSE 0 END"
    )


HAND_SCORES = f"""
CREATE VIEW hand_scores AS
-- one row per match, hand and player, from dominolog's projections (matches, hands).
-- date: meta.date when it is an ISO 8601 date, else the match's first event time (at).
-- valid, won: 1 or 0. winner: "Ana", or partners as "Ben+Dev". seat: from 1, in matches.players.
-- brettspielnetz points are penalties: the lowest total wins. The same rows as in a SQLite store.
WITH m0 AS (
    SELECT
        id,
        variant,
        status,
        dominolog_json(meta) AS meta,
        dominolog_json(players) AS players,
        (SELECT e.at FROM events AS e WHERE e.match_id = matches.id AND e.at IS NOT NULL
         ORDER BY e.seq LIMIT 1) AS first_at
    FROM matches
),
m AS (
    SELECT
        id,
        variant,
        status,
        {_of_kind("meta", "object")} AS meta,
        {_of_kind("players", "array")} AS players,
        first_at
    FROM m0
),
h AS (
    SELECT match_id, number, "end", dominolog_json(winner) AS winner, dominolog_json(points) AS points
    FROM hands
),
s AS (
    SELECT h.match_id, h.number, h."end", h.winner, p.key AS player, {_points("p.value")} AS points
    FROM h, jsonb_each(COALESCE({_of_kind("h.points", "object")}, '{{}}')) AS p
)
SELECT
    s.match_id,
    COALESCE(
        dominolog_iso_time(CASE WHEN jsonb_typeof(m.meta -> 'date') = 'string' THEN m.meta ->> 'date' END),
        dominolog_iso_time(m.first_at)
    ) AS date,
    m.meta ->> 'event' AS event,
    m.meta ->> 'table' AS "table",
    m.variant,
    m.status,
    (m.status <> 'invalid')::integer AS valid,
    s.number AS hand,
    s."end",
    {_winner_text("s.winner")} AS winner,
    s.player,
    (SELECT seat.n FROM jsonb_array_elements_text(m.players) WITH ORDINALITY AS seat(value, n)
     WHERE seat.value = s.player ORDER BY seat.n LIMIT 1) AS seat,
    s.points,
    (SUM(s.points) OVER (PARTITION BY s.match_id, s.player ORDER BY s.number))::bigint AS running_total,
    {_won("s.winner", "s.player")} AS won
FROM s JOIN m ON m.id = s.match_id
ORDER BY s.match_id COLLATE "C", s.number, seat NULLS FIRST, s.player COLLATE "C" NULLS FIRST;
"""

STANDINGS = f"""
CREATE VIEW standings AS
-- one row per variant and player, over the complete, valid matches (status = 'complete').
-- lost: the match has a winner and the player is not one of them. drawn: complete with no winner,
-- not abandoned. abandoned: ended by match_end reason abandoned. hands: hands played to an end
-- (not abandoned). points: the player's own hand points. invalid_matches: matches with violations.
-- A player whose matches are all still open has no row.
-- brettspielnetz points are penalties (lower is better). Ratings, partnerships and play statistics:
-- dominolog standings. The same rows as in a SQLite store.
WITH m AS (
    SELECT id, variant, status, dominolog_json(winner) AS winner, dominolog_json(players) AS players
    FROM matches
),
seats AS (
    SELECT m.id, m.variant, m.status, m.winner, p.value AS player
    FROM m, jsonb_array_elements_text(COALESCE({_of_kind("m.players", "array")}, '[]')) AS p(value)
),
judged AS (
    SELECT
        seats.*,
        {_won("seats.winner", "seats.player")} AS won,
        CASE WHEN seats.status = 'complete' AND seats.winner IS NULL THEN
            COALESCE((SELECT dominolog_json(e.json) ->> 'reason'
                      FROM events AS e WHERE e.match_id = seats.id AND e.type = 'match_end'
                      ORDER BY e.seq DESC LIMIT 1) = 'abandoned', false)::integer
        ELSE 0 END AS abandoned
    FROM seats
),
h AS (
    SELECT match_id, "end", dominolog_json(points) AS points FROM hands
),
hand_points AS (
    SELECT
        h.match_id,
        p.key AS player,
        count(*) FILTER (WHERE h."end" <> 'abandoned') AS hands,
        SUM({_points("p.value")}) AS points
    FROM h
    JOIN matches AS mm ON mm.id = h.match_id AND mm.status = 'complete',
    jsonb_each(COALESCE({_of_kind("h.points", "object")}, '{{}}')) AS p
    GROUP BY h.match_id, p.key
)
SELECT
    j.variant,
    j.player,
    count(*) FILTER (WHERE j.status = 'complete') AS matches,
    count(*) FILTER (WHERE j.status = 'complete' AND j.won = 1) AS won,
    count(*) FILTER (WHERE j.status = 'complete' AND j.winner IS NOT NULL AND j.won = 0) AS lost,
    count(*) FILTER (WHERE j.status = 'complete' AND j.winner IS NULL AND j.abandoned = 0) AS drawn,
    count(*) FILTER (WHERE j.status = 'complete' AND j.abandoned = 1) AS abandoned,
    COALESCE(SUM(hp.hands), 0)::bigint AS hands,
    COALESCE(SUM(hp.points), 0)::bigint AS points,
    round(SUM(hp.points) / NULLIF(SUM(hp.hands), 0), 2)::double precision AS points_per_hand,
    count(*) FILTER (WHERE j.status = 'invalid') AS invalid_matches
FROM judged AS j
LEFT JOIN hand_points AS hp ON hp.match_id = j.id AND hp.player = j.player AND j.status = 'complete'
GROUP BY j.variant, j.player
HAVING count(*) FILTER (WHERE j.status IN ('complete', 'invalid')) > 0
ORDER BY j.variant COLLATE "C" NULLS FIRST, j.player COLLATE "C" NULLS FIRST;
"""

#: the statements that create the views, in the order of :data:`VIEW_NAMES` (each needs :data:`FUNCTIONS`)
VIEWS = (HAND_SCORES.strip(), STANDINGS.strip())

__all__ = ["FUNCTIONS", "VIEWS", "VIEW_NAMES"]
