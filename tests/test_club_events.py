"""Club events (issue 35): a director runs an evening from an empty store with ``dominolog event``:
players and teams registered, a 3-round Swiss, a 4-player partner round, the tables played, late
entry, withdrawal, forfeits, a pairing undone, and the standings with their tie-breaks. The console
script is run as a user runs it; the matches are played by ``dominolog append`` with simulated,
legal events (the same seed, the same bytes: the figures below are exact)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dominolog.simulate import simulate_match
from dominolog.store import open_store
from dominolog.tournament.director import (
    DirectorError,
    add_player,
    create_event,
    forfeit,
    load,
    pair_next_round,
    undo_round,
    withdraw,
)
from tests.conftest import Ran

PLAYERS = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]


def play_lines(db: Path, match_id: str, seed: str | None = None) -> bytes:
    """The events after its match_start that play the stored match out (simulated, legal, seeded by
    the match id), as JSON Lines for ``dominolog append``."""
    with open_store(db, create=False, write=False) as store:
        start = store.start_of(match_id)
        assert start is not None
        obj: dict[str, Any] = start.obj
    events = simulate_match(obj["variant"], seed or match_id, players=obj["players"], options=obj.get("options"))
    body = [{k: v for k, v in e.items() if k not in ("seq", "hash")} for e in events[1:]]
    return b"".join(json.dumps(e).encode() + b"\n" for e in body)


def play_round(cli: Callable[..., Ran], db: Path, event: str) -> list[dict[str, Any]]:
    doc = json.loads(cli("event", "round", event, "--db", db, "--json").out)
    for t in doc["tables"]:
        if t["match"] is not None:
            ran = cli("append", t["match"], "--db", db, input=play_lines(db, t["match"]))
            assert ran.code == 0, ran.err
    return json.loads(cli("event", "round", event, "--db", db, "--json").out)["tables"]


def standings(cli: Callable[..., Ran], db: Path, event: str, *extra: str) -> list[tuple[Any, ...]]:
    doc = json.loads(cli("event", "standings", event, "--db", db, "--json", *extra).out)
    return [
        (
            r["place"],
            r["entrant"],
            r["wins"],
            r["losses"],
            r["byes"],
            r["match_points"],
            r["points_for"],
            r["difference"],
        )
        for r in doc["rows"]
    ]


def test_a_director_runs_a_swiss_evening_and_a_partner_round_from_the_terminal(
    cli: Callable[..., Ran], tmp_path: Path
) -> None:
    db = tmp_path / "club.db"
    made = cli(
        "event", "create", "Club night", "--rounds", "3", "--variant", "ghost13", "--date", "2026-12-06", "--db", db
    )
    assert made.code == 0 and made.out == "event Club night: swiss, 3 rounds, ghost13, 0 players, 0 rounds paired\n"
    assert cli("event", "add", "Club night", *PLAYERS, "--club", "Oaks", "--db", db).code == 0
    paired = cli("event", "pair", "Club night", "--db", db)
    assert paired.code == 0
    assert paired.out.splitlines()[:3] == [
        "round 1",
        "  table 1: Ana - Gus  (match club-night-r1-t1; Ana leads)  not started",
        "  table 2: Ben - Hal  (match club-night-r1-t2; Ben leads)  not started",
    ]
    # the round is open: the next one waits, and says for what
    early = cli("event", "pair", "Club night", "--db", db)
    assert early.code == 1 and "round 1 is not complete (table 1: not started" in early.err
    for number in (1, 2, 3):
        tables = play_round(cli, db, "Club night")
        assert {t["state"] for t in tables} == {"ended"}, tables
        if number < 3:
            assert cli("event", "pair", "Club night", "--db", db).code == 0
    over = cli("event", "pair", "Club night", "--db", db)
    assert over.code == 1 and over.err == "dominolog: every round of the event is paired (3)\n"
    rows = standings(cli, db, "Club night")
    assert rows == EXPECTED_SWISS
    # no pair met twice, and the standings after round 1 are those of round 1's results alone
    doc = json.loads(cli("event", "show", "Club night", "--db", db, "--json").out)
    met = [frozenset((t["first"], t["second"])) for r in doc["rounds"] for t in r["tables"]]
    assert len(met) == len(set(met)) == 18
    after_one = standings(cli, db, "Club night", "--round", "1")
    assert sum(r[2] for r in after_one) == 6 and all(r[2] + r[3] == 1 for r in after_one)
    # after round 1, Ana and Lou are level on wins and difference (+30): points for (118 to 111) part them
    assert after_one[4:6] == [(5, "Ana", 1, 0, 0, 1.0, 118, 30), (6, "Lou", 1, 0, 0, 1.0, 111, 30)]

    # the partner round: 3 teams of two from the same players, Double Draw partnerships
    assert cli("event", "create", "Pairs", "--teams", "--variant", "double-draw", "--rounds", "1", "--db", db).code == 0
    assert cli("event", "add", "Pairs", *PLAYERS[:6], "--db", db).code == 0
    for team, a, b in (("Oaks", "Ana", "Ben"), ("Elms", "Cy", "Dee"), ("Pines", "Eve", "Fay")):
        assert cli("event", "team", "Pairs", team, a, b, "--db", db).code == 0
    taken = cli("event", "team", "Pairs", "Ashes", "Ana", "Gus", "--db", db)
    assert taken.code == 1 and taken.err == "dominolog: Ana plays in team Oaks already\n"
    paired = json.loads(cli("event", "pair", "Pairs", "--db", db, "--json").out)
    assert [(t["table"], t["first"], t["second"], t["players"], t["leads"]) for t in paired["tables"]] == [
        (1, "Oaks", "Elms", ["Ana", "Cy", "Ben", "Dee"], "Ana"),
        (2, "Pines", None, ["Eve", "Fay"], "Eve"),
    ]
    with open_store(db, create=False, write=False) as store:
        start = store.start_of("pairs-r1-t1")
        assert start is not None and start.obj["options"] == {"partners": True}
    tables = play_round(cli, db, "Pairs")
    assert [t["state"] for t in tables] == ["ended", "bye"]
    assert standings(cli, db, "Pairs") == EXPECTED_PAIRS
    listed = cli("event", "list", "--db", db)
    assert listed.out.splitlines() == [
        "Pairs: swiss, 1 round, double-draw, 3 teams of 2, 1 round paired",
        "Club night: swiss, 3 rounds, ghost13, 12 players, 3 rounds paired",
        "2 events",
    ]
    # the event's history: every step a record, replayable
    log = [json.loads(line) for line in cli("event", "log", "Club night", "--db", db).out.splitlines()]
    assert [r["type"] for r in log] == ["event_create"] + ["player_add"] * 12 + ["round_pair"] * 3
    assert [r["seq"] for r in log] == list(range(1, 17))


#: the Swiss's standings after its 3 rounds: place, entrant, wins, losses, byes, match points, points
#: for, difference (the simulated matches seeded by their ids). Ties broken by the difference: Hal is
#: third on +200 ahead of Eve (+69) and Kim (+50) on 2 wins each.
EXPECTED_SWISS = [
    (1, "Cy", 3, 0, 0, 3.0, 405, 272),
    (2, "Ana", 3, 0, 0, 3.0, 395, 181),
    (3, "Hal", 2, 1, 0, 2.0, 399, 200),
    (4, "Eve", 2, 1, 0, 2.0, 299, 69),
    (5, "Kim", 2, 1, 0, 2.0, 277, 50),
    (6, "Ivy", 1, 2, 0, 1.0, 280, 49),
    (7, "Gus", 1, 2, 0, 1.0, 286, -12),
    (8, "Dee", 1, 2, 0, 1.0, 164, -95),
    (9, "Lou", 1, 2, 0, 1.0, 215, -97),
    (10, "Ben", 1, 2, 0, 1.0, 202, -150),
    (11, "Jon", 1, 2, 0, 1.0, 141, -220),
    (12, "Fay", 0, 3, 0, 0.0, 139, -247),
]
#: the partner round: Oaks (Ana and Ben) against Elms (Cy and Dee), Pines the bye (a win, 0 for and 0
#: against). Double Draw partnerships credit both partners the side's points: the side scores one of them.
EXPECTED_PAIRS = [
    (1, "Elms", 1, 0, 0, 1.0, 109, 109),
    (2, "Pines", 1, 0, 1, 1.0, 0, 0),
    (3, "Oaks", 0, 1, 0, 0.0, 0, -109),
]


def test_refusals_say_why_and_exit_as_documented(cli: Callable[..., Ran], tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    missing = cli("event", "show", "Nowhere", "--db", db)
    assert missing.code == 2 and missing.err.endswith("club.db: no such database (import something first)\n")
    assert cli("event", "create", "Night", "--db", db).code == 0
    assert cli("event", "create", "Night", "--db", db).err == "dominolog: an event 'Night' exists already\n"
    bad_variant = cli("event", "create", "X", "--variant", "chess", "--db", db)
    assert bad_variant.code == 1 and "unknown or not yet supported variant 'chess'" in bad_variant.err
    no_teams = cli("event", "create", "Y", "--teams", "--variant", "ghost13", "--db", db)
    assert no_teams.err == "dominolog: ghost13 is not played by 4 players: a table is two sides of 2\n"
    assert cli("event", "create", "Z", "--option", "target=-5", "--db", db).code == 1
    assert cli("event", "show", "Nowhere", "--db", db).err == "dominolog: no club event 'Nowhere' is stored\n"
    long = cli("event", "add", "Night", "A" * 41, "--db", db)
    assert long.code == 1 and long.err == "dominolog: a player's name is longer than 40 characters\n"
    control = cli("event", "add", "Night", "Ana\x1b[31m", "--db", db)
    assert control.code == 1 and control.err == "dominolog: a player's name holds a control character\n"
    assert cli("event", "add", "Night", "<script>alert(1)</script>", "--db", db).code == 0
    twice = cli("event", "add", "Night", "<script>alert(1)</script>", "--db", db)
    assert twice.err == "dominolog: <script>alert(1)</script> is registered already\n"
    alone = cli("event", "pair", "Night", "--db", db)
    assert alone.code == 1 and alone.err == "dominolog: at least two entrants are needed to pair a round\n"
    assert cli("event", "forfeit", "Night", "m", "--db", db).err == "dominolog: give --winner ENTRANT or --both-lose\n"
    assert cli("event", "team", "Night", "T", "a", "b", "--db", db).err == (
        "dominolog: this event pairs players, not teams\n"
    )


def test_late_entry_withdrawal_forfeit_and_an_undone_pairing(tmp_path: Path) -> None:
    with open_store(tmp_path / "s.db") as store:
        create_event(store, "Night", rounds=3, variant="ghost13", date="2026-12-06")
        for p in ("Ana", "Ben", "Cy", "Dee"):
            add_player(store, "Night", p)
        first = pair_next_round(store, "Night")
        assert [(t.first, t.second) for t in first.tables] == [("Ana", "Cy"), ("Ben", "Dee")]
        # undone before its first deal: its matches closed as abandoned, with a note saying why
        undone = undo_round(store, "Night")
        assert undone.number == 1
        lines = [json.loads(line) for line in store.lines("night-r1-t1")]
        assert [(e["type"], e.get("text"), e.get("reason")) for e in lines[1:]] == [
            ("note", "the pairing of round 1 was undone by the director", None),
            ("match_end", None, "abandoned"),
        ]
        again = pair_next_round(store, "Night")
        assert [t.match for t in again.tables] == ["night-r1-t1-2", "night-r1-t2-2"]
        # a table that has dealt cannot be unpaired
        deal = {"type": "deal", "leader": "Ana", "hands": None}
        store.append("night-r1-t1-2", json.dumps(deal).encode())
        with pytest.raises(DirectorError, match=r"round 1 has begun \(match night-r1-t1-2 has a deal\)"):
            undo_round(store, "Night")
        # the director ends both matches: a forfeit won, a double forfeit
        forfeit(store, "Night", "night-r1-t1-2", "Cy", "Ana left early")
        forfeit(store, "Night", "night-r1-t2-2", None)
        with pytest.raises(DirectorError, match="was ended already"):
            forfeit(store, "Night", "night-r1-t2-2", "Ben")
        ended = [json.loads(line) for line in store.lines("night-r1-t1-2")][-2:]
        assert ended[0]["text"] == "ended by the director: won by Cy by forfeit (Ana left early)"
        assert ended[1]["reason"] == "abandoned"
        # a late entry (no points) and a withdrawal, then round 2
        add_player(store, "Night", "Eve")
        withdraw(store, "Night", "Dee")
        second = pair_next_round(store, "Night")
        ev = load(store, "Night")
        assert ev.entrants["Eve"].entered_after == 1 and ev.entrants["Dee"].withdrawn_after == 1
        pairs = {(t.first, t.second) for t in second.tables}
        assert "Dee" not in {p for pair in pairs for p in pair}
        assert ("Eve", None) in pairs or any("Eve" in pair for pair in pairs)
        from dominolog.tournament.director import event_document

        rows = {r["entrant"]: r for r in event_document(store, ev, 1)["standings"]["rows"]}
        assert (rows["Cy"]["wins"], rows["Cy"]["forfeits"], rows["Cy"]["points_for"]) == (1, 0, 0)
        assert (rows["Ana"]["losses"], rows["Ana"]["forfeits"]) == (1, 1)
        assert (rows["Ben"]["losses"], rows["Dee"]["losses"]) == (1, 1)
        assert rows["Dee"]["withdrawn"] is True and rows["Eve"]["played"] == 0


def test_a_round_robin_follows_fidés_berger_table(tmp_path: Path) -> None:
    """FIDE's Berger table for 3 or 4 players: round 1 1-4, 2-3; round 2 4-3, 1-2; round 3 2-4, 3-1 (the
    first named leads first). With 3, start number 4 is the bye."""
    with open_store(tmp_path / "s.db") as store:
        create_event(store, "RR", format="round-robin", variant="ghost13")
        for p in ("Ana", "Ben", "Cy"):
            add_player(store, "RR", p)
        seen = []
        for _ in range(3):
            rnd = pair_next_round(store, "RR")
            seen.append([(t.first, t.second) for t in rnd.tables])
            for t in rnd.tables:
                if t.match is not None:
                    forfeit(store, "RR", t.match, t.first)
        assert seen == [[("Ben", "Cy"), ("Ana", None)], [("Ana", "Ben"), ("Cy", None)], [("Cy", "Ana"), ("Ben", None)]]
        with pytest.raises(DirectorError, match=r"every round of the event is paired \(3\)"):
            pair_next_round(store, "RR")
        with pytest.raises(DirectorError, match="takes no late entry"):
            add_player(store, "RR", "Dee")


def test_a_record_that_does_not_fit_is_named_and_the_rest_is_read(tmp_path: Path) -> None:
    """A log written by another tool (or by hand): the record that does not fit is left out and named."""
    from dominolog.tournament.event import fold

    records = [
        {"type": "event_create", "seq": 1, "name": "N", "format": "swiss", "rounds": 2, "variant": "ghost13"},
        {"type": "player_add", "seq": 2, "name": "Ana"},
        {"type": "player_add", "seq": 3, "name": "Ana"},
        {"type": "withdraw", "seq": 4, "entrant": "Zed"},
        {"type": "round_pair", "seq": 5, "round": 2, "tables": []},
        {"type": "player_add", "seq": 6, "name": "Ben"},
    ]
    ev = fold("N", records)
    assert ev is not None
    assert list(ev.players) == ["Ana", "Ben"]
    assert ev.problems == [
        "record 3: Ana is registered already",
        "record 4: no entrant 'Zed' in the event",
        "record 5: the next round is 1, not 2",
    ]


def test_a_double_bergen_team_scores_the_sum_of_its_two_players(tmp_path: Path) -> None:
    """Double Bergen has no partnerships (its rulings score each player): in a team event two teams of two
    sit crosswise (seats 1 and 3 against 2 and 4), each player scores alone, and a team's points are the
    sum of its players' totals; the higher sum wins the match for the team."""
    from dominolog.log.writer import dump_line
    from dominolog.tournament.director import add_team, event_document

    with open_store(tmp_path / "s.db") as store:
        create_event(store, "Bergen", rounds=1, variant="double-bergen", team_size=2)
        for p in ("Ana", "Ben", "Cy", "Dee"):
            add_player(store, "Bergen", p)
        add_team(store, "Bergen", "North", ["Ana", "Ben"])
        add_team(store, "Bergen", "South", ["Cy", "Dee"])
        [table] = pair_next_round(store, "Bergen").tables
        assert table.match is not None
        start = store.start_of(table.match)
        assert start is not None and start.obj["players"] == ["Ana", "Cy", "Ben", "Dee"]
        assert "options" not in start.obj  # (no partners option: Double Bergen has none)
        for e in simulate_match("double-bergen", "bergen", players=start.obj["players"])[1:]:
            store.append(table.match, dump_line({k: v for k, v in e.items() if k not in ("seq", "hash")}).encode())
        totals = json.loads(store.match_rows([table.match])[table.match]["totals"])
        north, south = totals["Ana"] + totals["Ben"], totals["Cy"] + totals["Dee"]
        rows = {r["entrant"]: r for r in event_document(store, load(store, "Bergen"))["standings"]["rows"]}
        assert (rows["North"]["points_for"], rows["North"]["points_against"]) == (north, south)
        assert (rows["South"]["points_for"], rows["South"]["points_against"]) == (south, north)
        winner = "North" if north > south else "South"
        assert rows[winner]["wins"] == 1 and rows[winner]["place"] == 1 and north != south


def test_the_event_document_and_its_log_fit_their_schemas(cli: Callable[..., Ran], tmp_path: Path) -> None:
    """``event show --json`` fits schemas/club-event.schema.json; every record of ``event log``,
    schemas/club-record.schema.json (a forfeit, a bye, a late entry, a withdrawal, an undone round)."""
    import jsonschema

    from tests.conftest import ROOT

    db = tmp_path / "club.db"
    for args in (
        ("create", "N", "--rounds", "2"),
        ("add", "N", "Ana", "Ben", "Cy", "--club", "Oaks"),
        ("pair", "N"),
        ("unpair", "N"),
        ("pair", "N"),
        ("forfeit", "N", "n-r1-t1-2", "--winner", "Ana", "--reason", "late"),
        ("add", "N", "Dee"),
        ("withdraw", "N", "Cy"),
        ("pair", "N"),
        ("end", "N"),
    ):
        ran = cli("event", *args, "--db", db)
        assert ran.code == 0, (args, ran.err)
    schemas = ROOT / "schemas"
    event = json.loads((schemas / "club-event.schema.json").read_text(encoding="utf-8"))
    record = json.loads((schemas / "club-record.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(cli("event", "show", "N", "--db", db, "--json").out), event)
    lines = cli("event", "log", "N", "--db", db).out.splitlines()
    kinds = []
    for line in lines:
        jsonschema.validate(json.loads(line), record)
        kinds.append(json.loads(line)["type"])
    assert kinds == ["event_create"] + ["player_add"] * 3 + ["round_pair", "round_undo", "round_pair", "forfeit"] + [
        "player_add",
        "withdraw",
        "round_pair",
        "event_end",
    ]
