"""``dominolog append`` and the journals under it: durable appends with the recorder's checks, at a
cost that does not grow with the match; and the incremental fold (attempt, rollback, undo by saved
states) that makes that possible, checked against the plain fold."""

from __future__ import annotations

import json
import random
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominolog.log.hashchain import event_hash
from dominolog.log.reader import decode_line, iter_matches
from dominolog.log.writer import dump_line
from dominolog.recording.journal import FileJournal, StoreJournal
from dominolog.recording.session import Session
from dominolog.reducer import MatchReducer, verify_match
from dominolog.simulate import hide_match, simulate_match
from dominolog.store import ConflictError, open_store
from tests.conftest import ROOT, Ran, clean_env, console_script, run_cli

START = '{"type":"match_start","seq":1,"variant":"ghost13","players":["Ana","Ben"],"id":"t1"}'
VARIANTS = [
    ("ghost13", None, None),
    ("brettspielnetz", None, None),
    ("39", None, None),
    ("double-bergen", ["Ana", "Ben", "Cleo"], {"reserve": 2}),
    ("double-draw", ["Ana", "Ben", "Cleo", "Dan"], {"partners": True}),
]


def _bare(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events without seq and hash (the writer adds them)."""
    return [{k: v for k, v in e.items() if k not in ("seq", "hash")} for e in events]


def _feed_all(lines: list[bytes]) -> MatchReducer:
    reducer = MatchReducer()
    for n, line in enumerate(lines, 1):
        reducer.feed(decode_line(line, n, n))
    return reducer


# -- the command --------------------------------------------------------------------------------------


def test_append_from_standard_input_reports_refused_lines_by_number(cli: Any, tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    lines = [
        START,
        '{"type":"deal","leader":"Ana","hands":null}',
        '{"type":"play","player":"Ana","tile":"6-6"}',
        "not json",
        '{"type":"play","player":"Zed","tile":"6-5"}',
        '{"type":"play","player":"Ben","tile":"6-5","end":"right"}',
        "",
        '{"type":"play","player":"Ana","tile":"4-5","end":"left"}',
    ]
    done: Ran = cli("append", "--db", db, "-", input="\n".join(lines).encode())
    assert done.code == 1
    assert done.out == "t1: 4 events stored (seq 1-4), 3 refused; head " + done.out.split("head ")[1]
    err = done.err.splitlines()
    assert err[0].startswith("dominolog: line 4: refused: not an event of the format: not JSON")
    assert err[1] == (
        "dominolog: line 5: refused: seq 4: malformed: play: unknown player 'Zed' (players: Ana, Ben); "
        "event ignored; nothing was written"
    )
    assert err[2] == (
        "dominolog: line 8: refused: seq 5: illegal: 4-5 does not match the left end (it shows 6); "
        "placed on the right end, where it fits; nothing was written"
    )
    verified = cli("verify", "--db", db, "--json")
    (match,) = json.loads(verified.out)["matches"]
    assert (match["valid"], match["events"]) == (True, 4)
    assert done.out.split("head ")[1].strip() == match["head"][:10]


def test_append_in_notation_creates_the_match_from_a_header_and_fills_in_who_is_on_move(cli: Any) -> None:
    text = '[Variant "ghost13"] [Players "Ana" "Ben"] [Id "dn-1"] [Log "seq" "hash"]\ndeal Ana [?]\n66 65R - 54R\n'
    done = cli("append", "--format", "dn", "-", input=text.encode())
    assert done.code == 0, done.err
    assert done.out.startswith("dn-1: 6 events stored (seq 1-6), 0 refused; head ")
    exported = cli("export", "dn-1", "--format", "jsonl")
    events = [json.loads(line) for line in exported.out.splitlines()]
    assert [(e["type"], e.get("player"), e.get("tile"), e.get("end")) for e in events[2:]] == [
        ("play", "Ana", "6-6", None),
        ("play", "Ben", "6-5", "right"),
        ("pass", "Ana", None, None),
        ("play", "Ben", "5-4", "right"),
    ]
    assert [e["seq"] for e in events] == [1, 2, 3, 4, 5, 6]
    assert cli("verify", "--db", "dominolog.db").code == 0


def test_a_taken_seq_is_a_conflict_exit_4_and_nothing_more_is_written(cli: Any) -> None:
    assert cli("append", "t1", START).code == 0
    assert cli("append", "t1", '{"type":"note","text":"a"}', "--seq", "2").code == 0
    late = cli("append", "t1", "-", "--seq", "2", input=b'{"type":"note","text":"b"}\n{"type":"note","text":"c"}\n')
    assert late.code == 4
    assert "conflict: match t1: seq 2 is taken (the match has 2 events); nothing was written" in late.err
    assert cli("verify", "--db", "dominolog.db", "--json").out.count('"events": 2') == 1


def test_an_illegal_play_is_written_as_played_only_when_asked(cli: Any) -> None:
    cli("append", "t1", START)
    cli("append", "t1", '{"type":"deal","leader":"Ana","hands":null}')
    refused = cli("append", "t1", '{"type":"play","player":"Ben","tile":"6-6"}')
    assert refused.code == 1 and "illegal: not Ben's turn (Ana is on move)" in refused.err
    played = cli("append", "t1", '{"type":"play","player":"Ben","tile":"6-6"}', "--as-played")
    assert played.code == 0
    assert played.out == "t1: seq 3 stored; illegal: not Ben's turn (Ana is on move)\n"


def test_append_to_a_file_is_durable_and_chained(cli: Any, tmp_path: Path) -> None:
    log = tmp_path / "work" / "live.jsonl"
    text = '[Variant "ghost13"] [Players "Ana" "Ben"] [Log "seq" "hash"]\ndeal Ana [?]\n66 65R\n'
    done = cli("append", "--file", log, "--format", "dn", "-", input=text.encode())
    assert done.code == 0, done.err
    more = cli("append", "--file", log, '{"type":"pass","player":"Ana"}')
    assert more.code == 0 and more.out == f"{log}: seq 5 stored\n"
    verified = json.loads(cli("verify", log, "--json").out)["matches"][0]
    assert (verified["valid"], verified["events"]) == (True, 5)
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert all("hash" in e and e["seq"] == i for i, e in enumerate(events, 1))


def test_nothing_to_append_and_too_many_arguments_are_usage_errors(cli: Any) -> None:
    assert cli("append", "t1", "-", input=b"\n\n").code == 2
    assert cli("append", "a", "b", "c").code == 2
    first = cli("append", '{"type":"note","text":"x"}')
    assert first.code == 2 and "which match?" in first.err


# -- issue 25: one rule for a new match, reasons before the summary, standard input as it comes -------------

BARE_START = '{"type":"match_start","variant":"ghost13","players":["Ana","Ben"]}'


def _merged(*args: object, input: bytes, cwd: Path) -> tuple[int, str]:
    """``dominolog ARGS`` with standard error and output into one pipe: what a terminal shows, in order."""
    done = subprocess.run(
        [console_script(), *map(str, args)],
        input=input,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=cwd,
        env=clean_env(),
        timeout=60,
        check=False,
    )
    text = done.stdout.decode()
    assert "Traceback" not in text, text
    return done.returncode, text


def test_a_match_start_or_a_header_without_id_creates_the_match_named_after_its_hash(cli: Any) -> None:
    """The first line creates the match when it is a match_start (JSON) or a header (the notation), with
    or without an id: without one, both are named head-<the chain hash of that first event>, the name
    ``import`` would give the same match_start alone, and the name is said at once."""
    name = "head-" + event_hash("", json.loads(BARE_START))[:16]
    by_json = cli("append", "--db", "j.db", "-", input=f"{BARE_START}\n{DEAL}\n".encode())
    assert by_json.code == 0, by_json.err
    assert by_json.out.splitlines() == [
        f"{name}: a new match, named after the hash of its match_start (which gives no id)",
        f"{name}: 2 events stored (seq 1-2), 0 refused; head {_head(cli, 'j.db', name)}",
    ]
    header = '[Variant "ghost13"] [Players "Ana" "Ben"]'
    by_dn = cli("append", "--format", "dn", "--db", "n.db", "-", input=f"{header}\ndeal Ana [?]\n".encode())
    assert by_dn.code == 0, by_dn.err
    assert by_dn.out.splitlines() == [
        f"{name}: a new match, named after the hash of its header (which gives no id)",
        f"{name}: 2 events stored (seq 1-2), 0 refused; head {_head(cli, 'n.db', name)}",
    ]
    for db in ("j.db", "n.db"):
        assert cli("export", name, "--db", db).stdout.splitlines() == [BARE_START.encode(), DEAL.encode()]
    one = cli("append", "--db", "one.db", BARE_START)  # one event given as an argument
    assert (one.code, one.out) == (
        0,
        f"{name}: a new match, named after the hash of its match_start (which gives no id)\n{name}: seq 1 stored\n",
    )
    hashed = cli("append", "--format", "dn", "--db", "h.db", f'{header} [Log "seq" "hash"]')
    assert hashed.code == 0, hashed.err
    (row,) = json.loads(cli("list", "--db", "h.db", "--json").out)["matches"]
    stored = {"type": "match_start", "seq": 1, "variant": "ghost13", "players": ["Ana", "Ben"]}
    assert row["id"] == "head-" + event_hash("", stored)[:16]  # the hash of the event as stored (with its seq)
    assert hashed.out.startswith(f"{row['id']}: a new match, named after the hash of its header")
    named = cli("append", "--format", "dn", "--db", "i.db", f'{header} [Id "dn-7"]')
    assert (named.code, named.out) == (0, "dn-7: seq 1 stored\n")  # an id given: no name made


def test_a_header_over_several_lines_is_one_header(cli: Any, tmp_path: Path) -> None:
    """``export --format dn`` wraps a long header at 100 columns: appended back, its lines are one header
    (the [Id] on its second line names the match), and the match is the one exported."""
    source = ROOT / "replays" / "ghost13-tabletop-hidden.jsonl"
    text = cli("export", source, "--format", "dn").stdout
    assert text.splitlines()[0].startswith(b"[Variant") and text.splitlines()[1].startswith(b"[")
    done = cli("append", "--format", "dn", "--db", "dn.db", "-", input=text)
    assert done.code == 0, done.err
    from_file = json.loads(cli("verify", "--json", source).out)["matches"][0]
    assert (
        done.out
        == f"club-2026-11-20-table-3: 151 events stored (seq 1-151), 0 refused; head {from_file['head'][:10]}\n"
    )
    stored = json.loads(cli("verify", "--db", "dn.db", "--json").out)["matches"][0]
    assert (stored["valid"], stored["head"]) == (True, from_file["head"])  # the same match, hash for hash


def test_without_a_match_a_broken_first_line_is_refused_and_another_line_asks_which_match(
    cli: Any, tmp_path: Path
) -> None:
    header = cli("append", "--format", "dn", "--db", "x.db", "-", input=b'[Variant "ghost13"]\n')
    assert header.code == 1 and header.out == ""
    assert header.err == (
        'dominolog: line 1: refused: column 1: expected a [Players "..." "..."] tag in the match header, got a '
        "header without one (tags Variant); nothing was written\n"
    )
    start = cli("append", "--db", "x.db", '{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"x":1}')
    assert start.code == 1
    assert (
        start.err
        == "dominolog: refused: not an event of the format: match_start: x: unknown field; nothing was written\n"
    )
    for line in ('{"type":"note","text":"x"}', "deal Ana [?]"):
        which = cli("append", "--db", "x.db", "--format", "dn" if "deal" in line else "json", "-", input=line.encode())
        assert which.code == 2
        assert which.err == "dominolog: which match? give its ID, or begin with a match_start (or a header)\n"
    assert not (tmp_path / "work" / "x.db").exists()  # no store was opened, nothing written


def test_the_reason_comes_before_the_summary_which_never_shows_an_empty_head(cli: Any, tmp_path: Path) -> None:
    work = tmp_path / "work"
    code, text = _merged("append", "m1", DEAL, input=b"", cwd=work)
    assert code == 1
    assert text.splitlines() == [
        "dominolog: refused: match m1 has no events: a match begins with match_start, not deal; nothing was written",
        "m1: 0 events stored, 1 refused; the match has no event yet",
    ]
    assert cli("append", "t1", START).code == 0
    code, text = _merged("append", "t1", "-", input=f"{DEAL}\nnot json\n".encode(), cwd=work)
    assert code == 1
    head = _head(cli, "dominolog.db", "t1")
    assert text.splitlines() == [
        "dominolog: line 2: refused: not an event of the format: not JSON: invalid literal, expected 'null'; "
        "nothing was written",
        f"t1: 1 event stored (seq 2), 1 refused; head {head}",
    ]
    code, text = _merged("append", "t1", '{"type":"play","player":"Zed","tile":"6-6"}', input=b"", cwd=work)
    assert code == 1
    assert text.splitlines()[1] == f"t1: 0 events stored, 1 refused; head {head}"


def _head(cli: Any, db: str, match_id: str) -> str:
    (m,) = json.loads(cli("verify", "--db", db, match_id, "--json").out)["matches"]
    return str(m["head"][:10])


DEAL = '{"type":"deal","leader":"Ana","hands":null}'
STREAM = [
    '{"type":"match_start","variant":"ghost13","players":["Ana","Ben"],"id":"club-1"}',
    DEAL,
    '{"type":"play","player":"Ana","tile":"6-6"}',
    "not json",
    '{"type":"play","player":"Ben","tile":"6-5","end":"right"}',
]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_standard_input_is_stored_line_by_line_while_the_pipe_stays_open(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """``my-scorer | dominolog append club-1 -``: each line is stored (committed) before the next is read,
    so while the writer still runs, its input open, a second ``dominolog`` process exports the events
    written so far; a refused line is reported and the rest goes on."""
    db = str(tmp_path / "live.db") if backend == "sqlite" else request.getfixturevalue("pg_url")
    writer = subprocess.Popen(
        [console_script(), "append", "club-1", "-", "--db", db],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=clean_env(),
    )
    assert writer.stdin is not None
    try:
        stored: list[bytes] = []
        for line in STREAM:
            writer.stdin.write(line.encode() + b"\n")
            writer.stdin.flush()
            if line.startswith("{"):
                stored.append(line.encode())
            deadline = time.monotonic() + 30
            while True:  # the line is stored without the writer's input being closed
                exported = run_cli("export", "club-1", "--db", db, cwd=tmp_path).no_traceback()
                if exported.code == 0 and exported.stdout.splitlines() == stored:
                    break
                assert writer.poll() is None, writer.communicate()
                assert time.monotonic() < deadline, (line, exported.code, exported.err, exported.stdout)
                time.sleep(0.05)
            assert writer.poll() is None  # still running, still reading
        listed = run_cli("list", "--db", db, "--json", cwd=tmp_path)
        (row,) = json.loads(listed.out)["matches"]
        assert (row["id"], row["events"]) == ("club-1", 4)
        out, err = writer.communicate(b"", timeout=60)
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.communicate()
    assert writer.returncode == 1  # a line was refused
    assert err.decode() == (
        "dominolog: line 4: refused: not an event of the format: not JSON: invalid literal, expected 'null'; "
        "nothing was written\n"
    )
    head = json.loads(run_cli("verify", "--db", db, "--json", cwd=tmp_path).out)["matches"][0]["head"][:10]
    assert out.decode() == f"club-1: 4 events stored (seq 1-4), 1 refused; head {head}\n"


# -- the journals -------------------------------------------------------------------------------------


def test_a_store_journal_refuses_then_reloads_after_another_writer(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    with open_store(db, create=True, write=True) as a, open_store(db, create=True, write=True) as b:
        one, two = Session(StoreJournal(a, "m"), now=None), Session(StoreJournal(b, "m"), now=None)
        assert one.enter('[Variant "ghost13"] [Players "Ana" "Ben"] [Id "m"]').ok
        assert two.refresh() == 1
        assert one.enter("deal Ana [?] 66").ok
        late = two.enter("{a note typed on the second screen}")
        assert late.conflict and "seq 2 is taken" in (late.stopped or "")
        assert two.reducer.events == 3  # the second screen now shows the first one's events
        assert two.enter("{now it goes}").ok
        assert [r.seq for r, _ in a.records("m")] == [1, 2, 3, 4]


def test_a_file_journal_sees_another_writer_as_a_conflict(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    one = Session(FileJournal(path), now=None)
    assert one.enter('[Variant "ghost13"] [Players "Ana" "Ben"] [Log "seq" "hash"] deal Ana [?]').ok
    two = Session(FileJournal(path), now=None)
    assert one.enter("66").ok
    late = two.enter("66")
    assert late.conflict and not late.written
    assert two.enter("65R").ok  # reloaded: Ben is on move
    (log,) = list(iter_matches(path))
    assert verify_match(log).valid and len(log.records) == 4


def test_a_file_whose_last_line_was_cut_short_gets_a_line_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_bytes(START.encode() + b"\n" + b'{"type":"deal","lea')
    journal = FileJournal(path)
    done = journal.append(b'{"type":"deal","leader":"Ana","hands":null}')  # the cut line is not this one's fault
    assert done.seq == 3
    assert path.read_bytes().splitlines()[1:] == [
        b'{"type":"deal","lea',
        dump_line({"type": "deal", "seq": 3, "leader": "Ana", "hands": None}).encode(),
    ]


def test_a_store_append_with_the_wrong_own_hash_is_refused(tmp_path: Path) -> None:
    with open_store(tmp_path / "h.db", create=True, write=True) as store:
        store.append("t1", START.encode())
        with pytest.raises(ConflictError):
            store.append("t1", b'{"type":"note","text":"x"}', expected_seq=5)
        assert store.fold_of("t1").reducer.events == 1


# -- the incremental fold -----------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players", "options"), VARIANTS)
@pytest.mark.parametrize("hidden", [False, True])
def test_appending_through_the_store_folds_like_verify(
    variant: str, players: list[str] | None, options: dict[str, Any] | None, hidden: bool, tmp_path: Path
) -> None:
    events = simulate_match(variant, "append", players=players, options=options)
    if hidden:
        events = hide_match(events)
    lines = [dump_line(e).encode() for e in events]
    with open_store(tmp_path / "s.db", create=True, write=True) as store:
        mid = events[0]["id"]
        for line in lines:
            store.append(mid, line, check=True)
        stored = store.projections()
        fold = store.fold_of(mid).reducer.report()
        store.reindex()
        assert store.projections() == stored  # the incremental projection is the one reindex builds
    plain = _feed_all(lines).report()
    assert fold.as_dict() | {"source": ""} == plain.as_dict() | {"source": ""}
    assert plain.valid


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    hidden=st.booleans(),
    tries=st.lists(st.integers(0, 10_000), min_size=1, max_size=40),
)
def test_an_event_tried_and_rolled_back_leaves_no_trace(
    case: tuple[str, list[str] | None, dict[str, Any] | None], seed: int, hidden: bool, tries: list[int]
) -> None:
    """At random points, an event (any of the match, so often illegal) is tried and rolled back:
    the fold ends exactly as the plain fold."""
    variant, players, options = case
    events = simulate_match(variant, seed, players=players, options=options)
    if hidden:
        events = hide_match(events)
    lines = [dump_line(e).encode() for e in _bare(events)]
    at = {t % len(lines): t for t in tries}
    reducer = MatchReducer()
    for n, line in enumerate(lines, 1):
        if n - 1 in at:
            k = at[n - 1]
            mark, _, _ = reducer.attempt(decode_line(lines[k % len(lines)], n, n))
            reducer.rollback(mark)
        reducer.feed(decode_line(line, n, n))
    assert reducer.report().as_dict() == _feed_all(lines).report().as_dict()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(VARIANTS), seed=st.integers(0, 10_000), hidden=st.booleans(), data=st.data())
def test_slips_undone_at_once_change_no_result(
    case: tuple[str, list[str] | None, dict[str, Any] | None], seed: int, hidden: bool, data: st.DataObject
) -> None:
    """A recorder's slips (any turn event of the match, typed at the wrong moment) each followed by
    an undo change nothing the match scores: hands, totals, winner and validity are those of the
    match without them (undo goes back to a saved state, never re-folds)."""
    variant, players, options = case
    events = _bare(simulate_match(variant, seed, players=players, options=options))
    if hidden:
        events = _bare(hide_match(simulate_match(variant, seed, players=players, options=options)))
    turns = [e for e in events if e["type"] in ("play", "draw", "pass")]
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    plain = _feed_all([dump_line(e).encode() for e in events]).report()
    got = _feed_all([dump_line(e).encode() for e in _with_undone_slips(events, rng, turns)]).report()
    assert [h.as_dict() for h in got.hands] == [h.as_dict() for h in plain.hands]
    assert (got.totals, got.winner, got.valid, got.complete) == (
        plain.totals,
        plain.winner,
        plain.valid,
        plain.complete,
    )


def _with_undone_slips(events: list[dict[str, Any]], rng: random.Random, turns: list[dict[str, Any]]) -> list[Any]:
    """The match with, after some turn events, one to three wrong turn events and as many undos."""
    out: list[dict[str, Any]] = []
    for e in events:
        out.append(e)
        if e["type"] in ("play", "draw", "pass") and rng.random() < 0.3:
            n = rng.randint(1, 3)
            out.extend(rng.choice(turns) for _ in range(n))
            out.extend({"type": "undo", "reason": "slip"} for _ in range(n))
    return out


def test_ten_thousand_play_undo_pairs_stay_valid() -> None:
    events = _bare(simulate_match("ghost13", 3))
    first_plays = [e for e in events if e["type"] == "play"][:2]
    lines = [dump_line(e).encode() for e in [events[0], events[1], first_plays[0]]]
    lines += [dump_line(first_plays[1]).encode(), b'{"type":"undo"}'] * 10_000
    report = _feed_all(lines).report()
    assert report.valid and report.events == 20_003


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(VARIANTS), seed=st.integers(0, 10_000), hidden=st.booleans(), cuts=st.data())
def test_a_timeline_extended_piece_by_piece_is_the_timeline_built_at_once(
    case: tuple[str, list[str] | None, dict[str, Any] | None], seed: int, hidden: bool, cuts: st.DataObject
) -> None:
    """What a recorder and ``replay --follow`` show, extending their timeline with each new event, is
    what the replay viewer shows for the whole match."""
    from dominolog.log.reader import MatchLog
    from dominolog.tui.timeline import Timeline

    variant, players, options = case
    events = simulate_match(variant, seed, players=players, options=options)
    if hidden:
        events = hide_match(events)
    records = [decode_line(dump_line(e).encode(), n, n) for n, e in enumerate(events, 1)]
    whole = Timeline(MatchLog("m", 1, records))
    sizes = cuts.draw(st.lists(st.integers(1, 30), min_size=1, max_size=60))
    grown = Timeline(MatchLog("m", 1, []))
    at = 0
    for size in sizes + [len(records)]:
        changed = grown.extend(records[at : at + size])
        assert set(range(at, min(len(records), at + size))) <= set(changed)
        at += size
        if at >= len(records):
            break
    assert grown.rows == whole.rows
    assert grown.marks == whole.marks
    assert grown.report.as_dict() == whole.report.as_dict()
    assert grown.deal_indexes == whole.deal_indexes and grown.violation_indexes == whole.violation_indexes
    assert [(f.seq, f.closed, f.totals, f.results, f.ended) for f in grown.frames] == [
        (f.seq, f.closed, f.totals, f.results, f.ended) for f in whole.frames
    ]
    assert all(grown.legal(i) == whole.legal(i) for i in range(0, len(records), 7))


@pytest.mark.parametrize(("variant", "players", "options"), VARIANTS)
def test_a_whole_hand_undone_and_entered_again_scores_as_entered_once(
    variant: str, players: list[str] | None, options: dict[str, Any] | None
) -> None:
    """Undo walks back over several saved states (one every 16 events) to the deal; entering the
    hand again gives the match the plain fold gives, violation for violation."""
    events = _bare(simulate_match(variant, "undo-all", players=players, options=options))
    deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
    ends = [i for i, e in enumerate(events) if e["type"] == "hand_end"]
    deal, end = max(zip(deals, ends, strict=True), key=lambda d: d[1] - d[0])  # the longest hand
    turns = events[deal + 1 : end]
    assert len(turns) > 16
    again = [*events[:end], *({"type": "undo"} for _ in turns), *turns, *events[end:]]
    plain = _feed_all([dump_line(e).encode() for e in events]).report()
    got = _feed_all([dump_line(e).encode() for e in again]).report()
    assert [h.as_dict() for h in got.hands] == [h.as_dict() for h in plain.hands]
    assert (got.totals, got.winner, got.valid) == (plain.totals, plain.winner, plain.valid)
    assert [(i.code, i.message) for i in got.unverified] == [(i.code, i.message) for i in plain.unverified]
