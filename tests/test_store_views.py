"""The store's SQL views (issue 14, part 3): ``hand_scores`` and ``standings`` read with sqlite3,
sqlite-utils and Datasette, against what ``dominolog verify --json`` says of the same logs; a store made
before the views gets them when opened writable, a read-only one is left as it was.

The same views on PostgreSQL (issue 25, :mod:`dominolog.store.pgviews`): the tests that read the views
run on both backends (``target``), the Datasette queries through psycopg too, and ``dominolog_iso_time``
is held to SQLite's ``iso_time``. (``tests/test_store_contract.py`` compares the two backends' rows.)"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import shutil
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
import sqlite_utils

from dominolog.cli.common import read_matches
from dominolog.club.summary import match_date
from dominolog.store import StoreError, open_store
from dominolog.store.views import iso_time
from tests.conftest import ROOT, run_cli

REPLAYS = ROOT / "replays"
#: one complete match of two, four of two to four players (one of partners), penalty points, two invalid
FILES = ("ghost13-simulated.jsonl", "double-draw-simulated.jsonl", "brettspielnetz-simulated.jsonl")
INVALID = "ghost13-disputed.jsonl"
HAND_SCORES = [
    *("match_id", "date", "event", "table", "variant", "status", "valid"),
    *("hand", "end", "winner", "player", "seat", "points", "running_total", "won"),
]
STANDINGS = [
    *("variant", "player", "matches", "won", "lost", "drawn", "abandoned"),
    *("hands", "points", "points_per_hand", "invalid_matches"),
]


@dataclass
class Built:
    db: Path
    files: list[Path]
    #: each match as ``dominolog verify --json`` reports it, by id
    verified: dict[str, dict[str, Any]]
    #: the reason of each match's match_end, read from the logs
    reasons: dict[str, str | None]


def _abandoned_log(path: Path) -> Path:
    """Ghost 13, two hands and part of a third, then ``match_end`` reason ``abandoned``: complete, valid,
    no winner; its meta has an ISO date, a table and markup."""
    lines = [json.loads(line) for line in (REPLAYS / "ghost13-simulated.jsonl").read_text().splitlines()[:60]]
    for obj in lines:
        obj.pop("hash", None)
    lines[0]["id"] = "abandoned-3"
    lines[0]["meta"] = {"event": "<b>club</b> night", "date": "2026-09-03", "table": "7"}
    lines.append({"type": "match_end", "seq": 61, "reason": "abandoned", "at": "2026-01-01T18:30:00Z"})
    path.write_text("".join(json.dumps(o, separators=(",", ":")) + "\n" for o in lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    work = tmp_path_factory.mktemp("views")
    files = [REPLAYS / f for f in (*FILES, INVALID)] + [_abandoned_log(work / "abandoned.jsonl")]
    db = work / "dominolog.db"
    with open_store(db) as store:
        for f in files:
            assert all(r.status == "imported" for r in store.import_matches(read_matches(f)))
    done = run_cli("verify", "--json", *files, cwd=work).no_traceback()
    assert done.code == 1, done.err  # the disputed ones are invalid
    verified = {m["id"]: m for m in json.loads(done.out)["matches"]}
    reasons: dict[str, str | None] = {}
    for f in files:
        mid = None
        for line in f.read_text(encoding="utf-8").splitlines():
            obj = json.loads(line)
            mid = obj["id"] if obj["type"] == "match_start" else mid
            if obj["type"] == "match_end":
                reasons[mid] = obj.get("reason")
    return Built(db, files, verified, reasons)


@pytest.fixture(scope="module")
def built_pg(built: Built, pg_cluster: Any) -> str:
    """The same logs imported into a PostgreSQL store (a database whose collation is ICU en-US)."""
    url = str(pg_cluster.linguistic_database())
    with open_store(url) as store:
        for f in built.files:
            assert all(r.status == "imported" for r in store.import_matches(read_matches(f)))
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, built: Built) -> Path | str:
    """The store the views are read from: the SQLite file, or the PostgreSQL database."""
    return built.db if request.param == "sqlite" else str(request.getfixturevalue("built_pg"))


def _rows(db: Path | str, sql: str, *args: Any) -> list[dict[str, Any]]:
    """The rows of ``sql`` (``?`` parameters) on a SQLite file, or through psycopg on a PostgreSQL URL."""
    if isinstance(db, str):
        import psycopg
        from psycopg.rows import dict_row

        with psycopg.connect(db, row_factory=dict_row) as pg:
            return pg.execute(sql.replace("?", "%s"), args).fetchall()  # type: ignore[arg-type]
    with closing(sqlite3.connect(db)) as conn:
        cur = conn.execute(sql, args)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def _winner_text(winner: str | list[str] | None) -> str | None:
    return "+".join(winner) if isinstance(winner, list) else winner


def _winners(winner: str | list[str] | None) -> list[str]:
    return winner if isinstance(winner, list) else [winner] if winner else []


def test_hand_scores_hold_every_hand_of_every_player_as_verify_gives_it(built: Built, target: Path | str) -> None:
    """Proves that ``hand_scores`` has one row per match, hand and player, each with the hand's points,
    end and winner as ``verify --json`` gives them, the player's seat, a running total that ends at the
    match's totals, and ``won``; that sqlite-utils reads the same rows; and the exact rows of one match
    (on SQLite and on PostgreSQL)."""
    rows = _rows(target, "SELECT * FROM hand_scores")
    assert list(rows[0]) == HAND_SCORES
    if isinstance(target, Path):
        assert sqlite_utils.Database(target).view("hand_scores").columns_dict.keys() == set(HAND_SCORES)
        assert list(sqlite_utils.Database(target).view("hand_scores").rows) == rows
    assert len(built.verified) == 9
    assert len(rows) == sum(len(m["hands"]) * len(m["players"]) for m in built.verified.values()) == 94
    for mid, m in built.verified.items():
        mine = [r for r in rows if r["match_id"] == mid]
        assert len(mine) == len(m["hands"]) * len(m["players"]), mid
        status = "invalid" if not m["valid"] else "complete" if m["complete"] else "open"
        assert {(r["variant"], r["status"], r["valid"]) for r in mine} == {(m["variant"], status, int(m["valid"]))}
        for r in mine:
            hand = m["hands"][r["hand"] - 1]
            assert (r["end"], r["winner"], r["points"]) == (
                hand["end"],
                _winner_text(hand["winner"]),
                hand["points"][r["player"]],
            ), (mid, r)
            assert r["seat"] == m["players"].index(r["player"]) + 1
            assert r["won"] == int(r["player"] in _winners(hand["winner"]))
        last = {r["player"]: r["running_total"] for r in mine if r["hand"] == len(m["hands"])}
        assert last == m["totals"], mid
    ghost = [
        (r["hand"], r["player"], r["points"], r["running_total"], r["won"])
        for r in rows
        if r["match_id"] == "sim-ghost13-7-1"
    ]
    assert ghost == [
        (1, "Ana", 0, 0, 0), (1, "Ben", 18, 18, 1),
        (2, "Ana", 82, 82, 1), (2, "Ben", 0, 18, 0),
        (3, "Ana", 0, 82, 0), (3, "Ben", 12, 30, 1),
        (4, "Ana", 0, 82, 0), (4, "Ben", 20, 50, 1),
        (5, "Ana", 17, 99, 1), (5, "Ben", 0, 50, 0),
        (6, "Ana", 72, 171, 1), (6, "Ben", 0, 50, 0),
    ]  # fmt: skip
    partners = [r for r in rows if r["match_id"] == "sim-double-draw-7-4" and r["hand"] == 2]
    assert [(r["seat"], r["player"], r["winner"], r["points"], r["won"]) for r in partners] == [
        (1, "Ana", "Ben+Dev", 0, 0),
        (2, "Ben", "Ben+Dev", 54, 1),
        (3, "Cleo", "Ben+Dev", 0, 0),
        (4, "Dev", "Ben+Dev", 54, 1),
    ]


def test_hand_scores_date_event_and_table_come_from_the_match(target: Path | str) -> None:
    """Proves that ``date`` is meta.date when it is an ISO date, else the first event's time, as
    ``match_date`` gives it, and that event and table are the meta's, as written (markup and all: a
    view holds data, whoever shows it escapes it)."""
    got = {
        r["match_id"]: (r["date"], r["event"], r["table"])
        for r in _rows(target, 'SELECT DISTINCT match_id, date, event, "table" FROM hand_scores')
    }
    assert got["abandoned-3"] == ("2026-09-03", "<b>club</b> night", "7")
    assert got["sim-ghost13-7-1"] == ("2026-01-01T18:00:15Z", "simulated", None)
    assert got["disputed-2026-11-20"] == ("2026-11-20T21:05:25Z", "Thursday club night", "1")
    for mid, (date, _, _) in got.items():
        (row,) = _rows(
            target,
            "SELECT meta, (SELECT at FROM events WHERE match_id = id AND at IS NOT NULL ORDER BY seq LIMIT 1) AS at "
            "FROM matches WHERE id = ?",
            mid,
        )
        assert date == match_date(json.loads(row["meta"]) if row["meta"] else None, row["at"]), mid


@pytest.mark.parametrize(
    "text",
    [
        "2026-09-03",
        "2024-02-29",
        "2026-02-29",
        "2026-02-30",
        "2026-13-01",
        "0000-01-01",
        "2026-9-3",
        "2026-09-03T19:30:25Z",
        "2026-09-03T19:30:25+02:00",
        "2026-09-03T19:30:25.123456-05:00",
        "2026-09-03T19:30",
        "2026-09-03T24:00:00Z",
        "2026-09-03T23:60:00Z",
        "2026-09-03 19:30:25Z",
        "2026-09-03t19:30:25z",
        "2026-09-03T19:30:25Z ",
        "2026-09-03T19:30:25+02:00junk",
        "Sept 3",
        "2460000.5",
        "now",
        "",
    ],
)
def test_iso_time_reads_dates_as_match_date_does(text: str, target: Path | str) -> None:
    """Proves that the view's ISO test keeps what ``match_date`` keeps, for the forms the format writes
    and the near misses (a day past the month's end, hour 24, a space or lowercase ``t``, SQLite's own
    ``now`` and Julian days); on PostgreSQL, ``dominolog_iso_time`` the same."""
    if isinstance(target, str):
        (row,) = _rows(target, "SELECT dominolog_iso_time(?) AS got", text)
        got = row["got"]
    else:
        with closing(sqlite3.connect(":memory:")) as conn:
            got = conn.execute(f"SELECT {iso_time('?1')}", (text,)).fetchone()[0]
    assert got == match_date({"date": text}, None)


def _near_times(n: int) -> list[str]:
    """``n`` texts near ISO dates and times (seeded): digits, separators and zones in and out of range,
    cut short, a part doubled, a character swapped; and every day of a leap and a common year."""
    rng = random.Random(25)
    days = [f"{y:04d}-{m:02d}-{d:02d}" for y in (2024, 2026, 1900, 2000, 0) for m in range(0, 14) for d in range(0, 33)]
    out = list(days)
    alphabet = "0123456789:.TZ+-zt "
    for _ in range(n):
        day = rng.choice(days)
        time = f"T{rng.randint(0, 25):02d}:{rng.randint(0, 61):02d}"
        if rng.random() < 0.6:
            time += f":{rng.randint(0, 61):02d}"
            if rng.random() < 0.4:
                time += "." + "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 7)))
        zone = rng.choice(["", "Z", "z", f"+{rng.randint(0, 16):02d}:{rng.randint(0, 61):02d}", "-05:00", "+0200"])
        text = day + (time + zone if rng.random() < 0.8 else "")
        if rng.random() < 0.3:
            i = rng.randrange(len(text))
            text = text[:i] + rng.choice(alphabet) + text[i + 1 :]
        if rng.random() < 0.1:
            text = text[: rng.randrange(len(text) + 1)]
        out.append(text)
    return out


def test_postgresqls_iso_time_keeps_what_sqlites_keeps(built_pg: str) -> None:
    """Proves that ``dominolog_iso_time`` (PostgreSQL) and ``iso_time`` (SQLite, the view's) keep the same
    texts, over 4,000 seeded near misses and every day (0 to 32) of every month (0 to 13) of five years."""
    import psycopg

    texts = _near_times(2_000)
    with closing(sqlite3.connect(":memory:")) as conn:
        sqlite_kept = [conn.execute(f"SELECT {iso_time('?1')}", (t,)).fetchone()[0] for t in texts]
    with psycopg.connect(built_pg) as pg:
        pg_kept = [
            r[0]
            for r in pg.execute(
                "SELECT dominolog_iso_time(x) FROM unnest(%s::text[]) WITH ORDINALITY AS t(x, n) ORDER BY n", (texts,)
            )
        ]
    assert sum(k is not None for k in sqlite_kept) > 1_000
    assert [(t, k) for t, k, g in zip(texts, sqlite_kept, pg_kept, strict=True) if k != g] == []


def _expected_standings(built: Built) -> list[dict[str, Any]]:
    """``standings`` counted here from ``verify --json`` and the logs' match_end reasons."""
    table: dict[tuple[str, str], dict[str, Any]] = {}
    for mid, m in built.verified.items():
        for p in m["players"]:
            row = table.setdefault(
                (m["variant"], p),
                dict.fromkeys(
                    ("matches", "won", "lost", "drawn", "abandoned", "hands", "points", "invalid_matches"), 0
                ),
            )
            if not m["valid"]:
                row["invalid_matches"] += 1
                continue
            if not m["complete"]:
                continue
            won = p in _winners(m["winner"])
            row["matches"] += 1
            row["won"] += won
            row["lost"] += m["winner"] is not None and not won
            row["abandoned"] += m["winner"] is None and built.reasons[mid] == "abandoned"
            row["drawn"] += m["winner"] is None and built.reasons[mid] != "abandoned"
            row["hands"] += sum(h["end"] != "abandoned" for h in m["hands"])
            row["points"] += sum(h["points"][p] for h in m["hands"])
    out = []
    for (variant, player), row in sorted(table.items()):
        # SQLite's ROUND takes a half away from zero (31.625 is 31.63), Python's round to even
        exact = Decimal(row["points"]) / Decimal(row["hands"]) if row["hands"] else None
        per_hand = float(exact.quantize(Decimal("0.01"), ROUND_HALF_UP)) if exact is not None else None
        out.append({"variant": variant, "player": player, **row, "points_per_hand": per_hand})
    return out


def test_standings_count_the_complete_valid_matches_of_each_player(built: Built, target: Path | str) -> None:
    """Proves that ``standings`` holds, per variant and player, the counts done here from the logs:
    complete valid matches, won, lost, drawn, abandoned, hands played to an end, own points, points per
    hand, and invalid matches apart; with sqlite-utils reading the same rows (on SQLite and on
    PostgreSQL)."""
    rows = _rows(target, "SELECT * FROM standings")
    assert list(rows[0]) == STANDINGS
    expected = [{k: e[k] for k in STANDINGS} for e in _expected_standings(built)]
    assert rows == expected
    if isinstance(target, Path):
        assert list(sqlite_utils.Database(target).view("standings").rows) == rows
    by = {(r["variant"], r["player"]): tuple(r[k] for k in STANDINGS[2:]) for r in rows}
    # Ghost 13, Ana: the simulated match won (171 in 6 hands), the abandoned one (82 in 2 hands played
    # to an end), two invalid disputes apart
    assert by["ghost13", "Ana"] == (2, 1, 0, 0, 1, 8, 253, 31.63, 2)
    assert by["ghost13", "Ben"] == (2, 0, 1, 0, 1, 8, 68, 8.5, 2)
    # brettspielnetz: penalty points, the lowest total (Ben's 34) wins
    assert by["brettspielnetz", "Ben"] == (1, 1, 0, 0, 0, 4, 34, 8.5, 0)
    assert by["brettspielnetz", "Ana"] == (1, 0, 1, 0, 0, 4, 69, 17.25, 0)
    # Dev: lost the four-handed match Ben won alone (0 points, 1 hand), won the next with Ben as partners
    assert by["double-draw", "Dev"] == (2, 1, 1, 0, 0, 8, 108, 13.5, 0)


# -- old stores, read-only stores ------------------------------------------------------------------------------


def _views(db: Path) -> list[str]:
    with closing(sqlite3.connect(f"{db.resolve().as_uri()}?immutable=1", uri=True)) as conn:
        return [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")]


def _old_store(db: Path) -> Path:
    """A store as made before the views and the analysis cache: the same tables, no views."""
    with open_store(db) as store:
        assert all(r.status == "imported" for r in store.import_matches(read_matches(REPLAYS / FILES[0])))
        store.conn.execute("DROP VIEW hand_scores")
        store.conn.execute("DROP VIEW standings")
        store.conn.execute("DROP TABLE analyses")
        store.conn.execute("DROP TABLE tokens")  # (issue 26's tables, newer still)
        store.conn.execute("DROP TABLE idempotency")
        store.conn.execute("DROP TABLE private_events")
        store.conn.execute("DROP TABLE club_log")  # (issue 35's, newer still)
    assert _views(db) == []
    return db


@pytest.fixture
def read_only_dir(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "ro"
    folder.mkdir()
    yield folder
    folder.chmod(0o755)
    for f in folder.iterdir():
        f.chmod(0o644)


def test_an_old_store_gets_the_views_when_opened_writable(tmp_path: Path, read_only_dir: Path) -> None:
    """Proves that a store made before the views gets both when opened writable (a reading command
    too), keeps its tables and rows, survives a reindex, and that a read-only copy opens, reads and is
    left byte for byte as it was, with no views and nothing beside it."""
    old = _old_store(tmp_path / "old.db")
    copy = read_only_dir / "old.db"
    shutil.copyfile(old, copy)
    copy.chmod(0o444)
    before = hashlib.sha256(copy.read_bytes()).hexdigest()
    with open_store(old, create=False, write=False) as store:
        assert not store.read_only
        projections = store.projections()
        assert store.db.view_names() == ["hand_scores", "standings"]
        assert store.db.table_names() == [
            "dominolog_meta",
            "events",
            "matches",
            "hands",
            "imports",
            "analyses",
            "tokens",  # (and the tables of issue 26, added likewise)
            "idempotency",
            "private_events",
            "club_log",  # (issue 35's club events' logs, added likewise)
        ]
        assert store.conn.execute("SELECT value FROM dominolog_meta WHERE key = 'schema_version'").fetchone() == ("1",)
        assert store.conn.execute("SELECT count(*), sum(points) FROM hand_scores").fetchone() == (12, 221)
        assert store.reindex() == 1
        assert store.projections() == projections
        assert store.conn.execute("SELECT player, points FROM standings").fetchall() == [("Ana", 171), ("Ben", 50)]
    assert _views(old) == ["hand_scores", "standings"]
    with open_store(copy, create=False, write=False) as store:
        assert store.read_only
        assert [m["id"] for m in store.list_matches()] == ["sim-ghost13-7-1"]
        assert store.db.view_names() == []
    read_only_dir.chmod(0o555)
    with open_store(copy, create=False, write=False) as store:
        assert store.read_only and store.db.view_names() == []
    assert hashlib.sha256(copy.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in read_only_dir.iterdir()) == ["old.db"]
    assert stat.S_IMODE(os.stat(copy).st_mode) == 0o444


def test_a_name_of_the_users_is_left_alone_and_views_alone_are_not_a_store(tmp_path: Path) -> None:
    """Proves that a table of the user's named like a view (``standings``) is kept and the store opens
    (the other view is added), and that a database holding views and no table is another program's."""
    old = _old_store(tmp_path / "old.db")
    with closing(sqlite3.connect(old, isolation_level=None)) as conn:
        conn.execute("CREATE TABLE standings (note TEXT)")
        conn.execute("INSERT INTO standings VALUES ('mine')")
    with open_store(old, create=False, write=False) as store:
        assert store.conn.execute("SELECT * FROM standings").fetchall() == [("mine",)]
        assert store.db.view_names() == ["hand_scores"]
        assert "standings" in store.db.table_names()
    only_views = tmp_path / "views.db"
    with closing(sqlite3.connect(only_views, isolation_level=None)) as conn:
        conn.execute("CREATE VIEW hand_scores AS SELECT 1 AS x")
    before = only_views.read_bytes()
    with pytest.raises(
        StoreError, match=r"a database of another program \(views: hand_scores\), not a dominolog store"
    ):
        open_store(only_views)
    assert only_views.read_bytes() == before


# -- Datasette ------------------------------------------------------------------------------------------------------


#: the Datasette test's SQL query over a view
DATASETTE_SQL = (
    "SELECT player, max(running_total) AS total, sum(won) AS hands_won FROM hand_scores "
    "WHERE match_id = 'sim-double-draw-7-4' GROUP BY player ORDER BY player"
)
#: what the Datasette test asks of the SQLite store, and the same in SQL (for PostgreSQL)
DATASETTE_QUERIES = {
    "/dominolog/hand_scores.json?_shape=array&match_id=sim-ghost13-7-1": (
        "SELECT * FROM hand_scores WHERE match_id = 'sim-ghost13-7-1'"
    ),
    "/dominolog/standings.json?_shape=array": "SELECT * FROM standings",
    "/dominolog.json?" + urlencode({"sql": DATASETTE_SQL, "_shape": "array"}): DATASETTE_SQL,
}


@pytest.fixture(scope="module")
def served(built: Built) -> list[Any]:
    """What Datasette (its own test client, the database named after the file: ``dominolog``) serves for
    each of :data:`DATASETTE_QUERIES`, from the SQLite store."""
    from datasette.app import Datasette

    ds = Datasette([str(built.db)])

    async def get(path: str) -> Any:
        response = await ds.client.get(path)
        assert response.status_code == 200, (path, response.text[:500])
        return response.json()

    async def run() -> list[Any]:
        return list(await asyncio.gather(*(get(path) for path in DATASETTE_QUERIES)))

    return asyncio.run(run())


def test_datasette_serves_both_views_and_queries_on_them(built: Built, served: list[Any]) -> None:
    """Proves that Datasette serves ``hand_scores`` filtered by a column, ``standings``, and a SQL query
    over a view, with the rows sqlite3 reads."""
    hands, standings, query = served
    assert hands == _rows(built.db, "SELECT * FROM hand_scores WHERE match_id = 'sim-ghost13-7-1'")
    assert [(r["hand"], r["player"], r["running_total"]) for r in hands][-2:] == [(6, "Ana", 171), (6, "Ben", 50)]
    assert standings == _rows(built.db, "SELECT * FROM standings")
    assert query == [
        {"player": "Ana", "total": 17, "hands_won": 1},
        {"player": "Ben", "total": 108, "hands_won": 5},
        {"player": "Cleo", "total": 17, "hands_won": 1},
        {"player": "Dev", "total": 108, "hands_won": 5},
    ]


def test_the_datasette_queries_give_the_same_on_postgresql(built_pg: str, served: list[Any]) -> None:
    """Proves that the Datasette test's queries (the filtered ``hand_scores`` table, ``standings``, the
    SQL over a view), run through psycopg on the PostgreSQL store, give what Datasette served from the
    SQLite one: the same columns, rows, values and order (Datasette reads SQLite only)."""
    for sql, rows in zip(DATASETTE_QUERIES.values(), served, strict=True):
        assert _rows(built_pg, sql) == rows, sql
