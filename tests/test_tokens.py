"""Tokens for writing over HTTP (issue 26): stored as hashes only, on both backends, added to a store
made before them; ``dominolog token create/list/revoke``."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from dominolog.store import Store, open_store
from dominolog.store.access import KEY_SECONDS, ReusedKey, TakenKey, WriteView, fingerprint
from tests.conftest import Ran, statements_of


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "t.db")
    return str(request.getfixturevalue("pg_url"))


def _all_text(store: Store) -> str:
    rows = store.conn.execute("SELECT * FROM tokens").fetchall()
    return json.dumps([[str(c) for c in r] for r in rows])


def test_a_token_is_stored_as_its_hash_only_and_found_by_it(target: str) -> None:
    with open_store(target) as store:
        row, token = store.create_token("table", "m1", who="table 3")
        assert len(token) >= 43  # 256 bits, URL-safe base64
        assert token not in _all_text(store)
        assert hashlib.sha256(token.encode()).hexdigest() in _all_text(store)
        found = store.find_token(token)
        assert found is not None and (found.id, found.role, found.match_id, found.who) == (
            row.id,
            "table",
            "m1",
            "table 3",
        )
        assert store.find_token(token + "x") is None and store.find_token("") is None
        assert not store.has_organiser()
        store.create_token("organiser")
        assert store.has_organiser()


def test_a_revoked_token_stays_known_but_inactive(target: str) -> None:
    with open_store(target) as store:
        row, token = store.create_token("table", "m1")
        assert store.revoke_token(row.id) is not None
        found = store.find_token(token)
        assert found is not None and not found.active
        assert store.revoke_token("no-such") is None
        _, other = store.create_token("organiser")
        assert store.revoke_token(other) is not None  # by the token itself
        assert not store.has_organiser()
    with open_store(target) as again:  # it survives a reopening
        assert [t.active for t in again.tokens()] == [False, False]


START = '{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"m1"}'
NOTE = '{"type":"note","text":"%s"}'


def test_an_idempotency_key_keeps_its_first_answer(target: str) -> None:
    with open_store(target) as store:
        assert store.answer_of("t-1", "k") is None
        with store.transaction():
            store.lock_key("t-1", "k")
            store.keep_answer("t-1", "k", 201, '{"seqs": [2]}')
        assert store.answer_of("t-1", "k") == (201, '{"seqs": [2]}')
        assert store.answer_of("t-2", "k") is None  # another token's key is another key
        with store.transaction():
            store.conn.execute(
                "INSERT INTO idempotency (token_id, key, created_at) VALUES (?, ?, ?)", ("t-3", "k", "9999-then")
            )
        with pytest.raises(TakenKey):  # a row without an answer (an older server cut short): told so
            store.answer_of("t-3", "k")
    with open_store(target) as again:
        assert again.answer_of("t-1", "k") == (201, '{"seqs": [2]}')


def test_the_key_and_the_events_are_committed_together_or_not_at_all(target: str) -> None:
    """A transaction holding appends and the key's answer: a failure before its commit leaves neither
    (and the next append gets the seq the store has, not one the undone fold had counted)."""
    with open_store(target) as store:
        store.append("m1", START.encode())
        with pytest.raises(RuntimeError), store.transaction():
            store.append("m1", (NOTE % "a").encode())
            store.append("m1", (NOTE % "b").encode())
            store.keep_answer("t-1", "k", 201, '{"seqs": [2, 3]}')
            raise RuntimeError("the commit fails")
        assert store.answer_of("t-1", "k") is None and store.fold_of("m1").seq == 1
        with store.transaction():
            assert store.append("m1", (NOTE % "c").encode()).seq == 2
            with pytest.raises(RuntimeError), store.transaction():  # a savepoint: undone alone
                store.append("m1", (NOTE % "d").encode())
                store.keep_answer("t-1", "k2", 201, "{}")
                raise RuntimeError("this write fails")
            assert store.append("m1", (NOTE % "e").encode()).seq == 3
            store.keep_answer("t-1", "k", 201, '{"seqs": [2, 3]}')
    with open_store(target) as again:
        assert [json.loads(line).get("text") for line in again.lines("m1")] == [None, "c", "e"]
        assert again.answer_of("t-1", "k") == (201, '{"seqs": [2, 3]}')
        assert again.answer_of("t-1", "k2") is None


def test_private_events_and_viewing_keys_are_kept(target: str) -> None:
    with open_store(target) as store:
        assert store.private_events() == set()
        assert store.set_private("Club night", True, "me") is True
        assert store.set_private("Club night", True) is False
        assert store.set_private("*", True) is True
        assert store.set_private("*", False) is True
        row, key = store.create_token("viewer", "Club night", "a parent")
        every, _ = store.create_token("viewer", "*")  # every event
        assert (row.event, row.as_dict()["match"], every.event) == ("Club night", None, None)
        assert key not in _all_text(store)
        with pytest.raises(ValueError):
            store.set_private("", True)
    with open_store(target) as again:
        assert again.private_events() == {"Club night"}
        found = again.find_token(key)
        assert found is not None and (found.role, found.event) == ("viewer", "Club night")


def test_a_sqlite_store_made_before_tokens_gets_the_tables_when_opened_writable(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with open_store(db) as store:
        store.conn.execute("DROP TABLE tokens")
        store.conn.execute("DROP TABLE idempotency")
        store.conn.execute("DROP TABLE private_events")
    with open_store(db, create=False, write=False) as reading:
        assert reading.tokens() == [] and reading.find_token("x") is None and not reading.has_organiser()
        assert reading.private_events() == set()
    with open_store(db) as store:
        store.create_token("organiser")
    names = {r[0] for r in sqlite3.connect(db).execute("SELECT name FROM sqlite_master")}
    assert {"tokens", "idempotency", "private_events"} <= names


def test_a_postgres_store_made_before_tokens_gets_the_tables(pg_url: str) -> None:
    with open_store(pg_url) as store:
        store.conn.execute("DROP TABLE tokens, idempotency, private_events")
    with open_store(pg_url) as store:
        store.create_token("organiser")
        assert store.has_organiser()
        assert store.set_private("x", True) and store.private_events() == {"x"}


def test_token_commands(cli: Callable[..., Ran]) -> None:
    # a match the store does not hold is refused (a typo makes no token), unless --new says it is begun later
    refused = cli("token", "create", "--match", "m1", "--who", "table 1", "--db", "c.db")
    assert (refused.code, refused.out) == (2, "")
    assert refused.err == (
        "dominolog: no match m1 is stored (dominolog list --db c.db lists them; --new: a token for a match "
        "the organiser begins later)\n"
    )
    assert cli("token", "create", "--organiser", "--new", "--db", "c.db").code == 2  # --new goes with --match
    made = cli("token", "create", "--match", "m1", "--new", "--who", "table 1", "--db", "c.db")
    assert made.code == 0, made.err
    token = made.out.strip()
    assert made.out == token + "\n" and len(token) >= 43  # the token alone on standard output
    assert "no match m1 is stored yet" in made.err
    organiser = cli("token", "create", "--organiser", "--db", "c.db")
    assert organiser.code == 0
    listed = json.loads(cli("token", "list", "--json", "--db", "c.db").out)["tokens"]
    assert [(t["role"], t["match"], t["who"]) for t in listed] == [("table", "m1", "table 1"), ("organiser", None, "")]
    assert token not in cli("token", "list", "--db", "c.db").out
    assert cli("token", "revoke", token, "--db", "c.db").code == 0
    again = cli("token", "revoke", listed[0]["id"], "--db", "c.db")
    assert again.code == 0 and "revoked already" in again.out
    assert cli("token", "revoke", "nope", "--db", "c.db").code == 1
    assert cli("token", "create", "--db", "c.db").code == 2  # neither --match nor --organiser
    assert cli("token", "create", "--organiser", "--match", "m", "--db", "c.db").code == 2


def test_a_key_sent_with_another_request_is_refused_and_a_day_old_one_forgotten(target: str) -> None:
    """The key's answer is given to the same request only (its method, target, body: the fingerprint);
    a key older than KEY_SECONDS is forgotten (the first answer and the fingerprint with it)."""
    first = fingerprint("POST", "/api/matches/m1/events", b"deal")
    with open_store(target) as store:
        with store.transaction():
            store.keep_answer("t-1", "k", 201, '{"seqs": [2]}', first)
        assert store.answer_of("t-1", "k", first) == (201, '{"seqs": [2]}')
        for other in (
            fingerprint("POST", "/api/matches/m2/events", b"deal"),
            fingerprint("POST", "/api/matches/m1/events", b"pass"),
            fingerprint("POST", "/api/matches", b"deal"),
            fingerprint("POST", "/api/matches/m1/events?seq=3", b"deal"),
        ):
            with pytest.raises(ReusedKey):
                store.answer_of("t-1", "k", other)
        with store.transaction():  # a day and a second ago
            store.conn.execute("UPDATE idempotency SET created_at = ?", ("2000-01-01T00:00:00.000000Z",))
        assert KEY_SECONDS == 24 * 3600
        assert store.answer_of("t-1", "k", first) is None
        with store.transaction():
            store.keep_answer("t-1", "k2", 201, '{"seqs": [3]}', first)  # (the token's old keys forgotten)
        assert store.conn.execute("SELECT key FROM idempotency").fetchall() == [("k2",)]


def _old_idempotency(store: Store) -> None:
    """The table as stores made before the fingerprint have it, with a key kept."""
    store.conn.execute("DROP TABLE idempotency")
    store.conn.execute(
        "CREATE TABLE idempotency (token_id TEXT NOT NULL, key TEXT NOT NULL, status INTEGER, body TEXT, "
        "created_at TEXT NOT NULL, PRIMARY KEY (token_id, key))"
    )
    store.conn.execute("INSERT INTO idempotency VALUES ('t-1', 'old', 201, '{}', '9999-12-31T00:00:00.000000Z')")


def test_a_store_made_before_the_fingerprint_gets_its_column(target: str) -> None:
    with open_store(target) as store, store.transaction():
        _old_idempotency(store)
    with open_store(target, create=False, write=False) as reading:  # read-only: read as it is
        assert reading.answer_of("t-1", "old", "POST / x") == (201, "{}")
    with open_store(target) as store:
        names = [d[0] for d in store.conn.execute("SELECT * FROM idempotency LIMIT 0").description]
        assert names[-1] == "fingerprint"
        assert store.answer_of("t-1", "old", "POST / x") == (201, "{}")  # kept before: taken as the same
        with store.transaction():
            store.keep_answer("t-1", "new", 201, "{}", "POST / y")
        with pytest.raises(ReusedKey):
            store.answer_of("t-1", "new", "POST / x")


# -- table cards (issue 35) --------------------------------------------------------------------------


def _begun(store: Store, match_id: str, meta: dict[str, str], *more: dict[str, object]) -> None:
    start = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "<b>Ben</b>"], "id": match_id}
    for event in ({**start, "meta": meta}, *more):
        store.append(match_id, json.dumps(event).encode())


def test_a_card_names_the_round_the_table_the_players_and_who_leads_first(tmp_path: Path) -> None:
    from dominolog.club.cards import card_html, make_cards

    with open_store(tmp_path / "c.db") as store:
        _begun(store, "r2-t3", {"event": "Club night", "round": "2", "table": "3", "leads": "<b>Ben</b>"})
        _begun(store, "dealt", {"table": "4"}, {"type": "deal", "leader": "Ana", "hands": None})
        _begun(store, "bare", {})
        cards = {c.match_id: c for c in make_cards(store, "http://192.168.1.20:8000/")}
    assert {m: (c.round, c.table, c.players, c.leads) for m, c in cards.items()} == {
        "r2-t3": ("2", "3", ["Ana", "<b>Ben</b>"], "<b>Ben</b>"),  # meta.leads
        "dealt": (None, "4", ["Ana", "<b>Ben</b>"], "Ana"),  # the first deal's leader
        "bare": (None, None, ["Ana", "<b>Ben</b>"], None),  # what is unknown is left out
    }
    page = card_html(cards["r2-t3"])
    assert "<h2>Round 2 · Table 3</h2>" in page and '<p class="leads">&lt;b&gt;Ben&lt;/b&gt; leads first</p>' in page
    assert "<h2>Table 4</h2>" in card_html(cards["dealt"]) and '<p class="leads">Ana leads first</p>' in card_html(
        cards["dealt"]
    )
    bare = card_html(cards["bare"])
    assert "<h2>Table</h2>" in bare and "leads first" not in bare and "Round" not in bare


def test_the_address_of_the_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    from dominolog.club import cards

    assert [cards.is_loopback(u) for u in ("http://127.0.0.1:8000/", "http://localhost/", "http://[::1]:80/")] == [
        True,
        True,
        True,
    ]
    assert not cards.is_loopback("http://192.168.1.20:8000/") and not cards.is_loopback("https://club.example/")
    assert not cards.is_loopback("http://[nope:8000/")  # not an address: no traceback
    assert cards.served_url("192.168.1.20", 8123) == "http://192.168.1.20:8123/"  # serve's own host and port
    assert cards.served_url("::1", 8123) == "http://[::1]:8123/"
    monkeypatch.setattr(cards, "room_address", lambda: "10.0.0.7")
    assert cards.served_url("0.0.0.0", 8123) == "http://10.0.0.7:8123/"  # every address: the room's
    monkeypatch.setattr(cards, "room_address", lambda: None)
    assert cards.served_url("::", 8123) == "http://127.0.0.1:8123/"  # none found: loopback, which cards refuse
    monkeypatch.undo()
    found = cards.room_address()  # this machine's, read without sending anything
    assert found is None or not cards.is_loopback(f"http://{found}/")


def test_loopback_cards_are_refused_before_any_token_is_made(tmp_path: Path) -> None:
    from dominolog.club.cards import LoopbackURL, make_cards

    with open_store(tmp_path / "c.db") as store:
        _begun(store, "m1", {"table": "1"})
        with pytest.raises(LoopbackURL, match="is an address of this machine only"):
            make_cards(store, "http://127.0.0.1:8000/")
        assert store.tokens() == []
        assert len(make_cards(store, "http://127.0.0.1:8000/", allow_loopback=True)) == 1
        kept = store.create_token("table", "m1", "table 1")[0]  # a token made otherwise: kept by a reprint
        (again,) = make_cards(store, "http://192.168.1.20:8000/")
        assert len(again.revoked) == 1 and kept.id not in again.revoked
        assert {t.id: t.active for t in store.tokens()} == {
            again.revoked[0]: False,
            kept.id: True,
            again.token_id: True,
        }


def test_what_a_write_is_checked_against_is_read_at_once(target: str) -> None:
    """``write_view`` (one statement with PostgreSQL): the match stored or not, the token as
    ``find_token`` finds it (revoked or not; an unknown, empty or missing one is None), the private
    events, and the match's club event only when some event is private."""
    club = START.replace('"id":"m1"', '"id":"m2","meta":{"event":"Club night"}')
    with open_store(target) as store:
        store.append("m1", START.encode())
        store.append("m2", club.encode())
        row, token = store.create_token("table", "m1", "table 1")
        gone, revoked = store.create_token("table", "m2")
        store.revoke_token(gone.id)
        seen = store.write_view("m1", token)
        assert (seen.stored, seen.token, seen.private, seen.event) == (True, row, frozenset(), None)
        assert store.write_view("m1", token) == store.write_view("m1", token)
        assert store.write_view("m3", token).stored is False
        for wrong in (token + "x", "", None):
            assert store.write_view("m1", wrong).token is None
        assert store.write_view("m2", None).event is None  # (nothing private: not read)
        store.set_private("Club night", True)
        seen = store.write_view("m2", revoked)
        assert seen.token is not None and (seen.token.id, seen.token.active) == (gone.id, False)
        assert (seen.private, seen.event) == (frozenset({"Club night"}), "Club night")
        assert store.write_view("m1", None).event is None
        assert store.write_view("m3", None) == WriteView(False, None, frozenset({"Club night"}), None)


def test_a_postgres_writes_checks_read_the_matchs_last_event_for_the_fold_that_follows(pg_url: str) -> None:
    """With PostgreSQL, ``write_view`` in a write transaction reads the match's last event too, and the
    ``fold_of`` that follows in the same savepoint takes it without a read of its own; once taken, or
    once the savepoint has ended, ``fold_of`` reads again (never an old last event carried along)."""
    with open_store(pg_url) as store:
        head = store.append("m1", START.encode()).head
        _, token = store.create_token("organiser")

        def reads(fold_of: Callable[[], object]) -> int:
            with statements_of(store) as sent:
                fold_of()
            return len(sent)

        with store.transaction():
            with store.transaction():
                store.write_view("m1", token)
                assert reads(lambda: store.fold_of("m1")) == 0
                assert (store.fold_of("m1").seq, store.fold_of("m1").head) == (1, head)
                assert reads(lambda: store.fold_of("m1")) == 1
            with store.transaction():
                store.write_view("m1", token)
            assert reads(lambda: store.fold_of("m1")) == 1
            with store.transaction():
                store.write_view("m1", token)
                done = store.append("m1", (NOTE % "x").encode())
                assert reads(lambda: store.fold_of("m1")) == 1 and store.fold_of("m1").seq == done.seq == 2
        store.write_view("m1", token)  # (no transaction: nothing kept)
        assert reads(lambda: store.fold_of("m1")) == 1
