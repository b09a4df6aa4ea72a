"""The dominolog notation (.dn, docs/notation.md): JSONL -> .dn -> JSONL gives back every event
field for field (the replays, simulated matches of every variant, full and hidden, with violations
and damage injected), the golden files of tests/data/notation, error messages, hostile input, and
the recorder's entry point ``resolve``."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominolog.events import parse_event
from dominolog.log.hashchain import add_hashes
from dominolog.log.notation import Action, Clock, NotationError, parse
from dominolog.log.notation_write import format_event
from dominolog.log.reader import MAX_LINE_BYTES, MatchLog, Record, iter_matches
from dominolog.log.writer import dump_line
from dominolog.recording.notation import (
    DnMatchLog,
    NotationWriteError,
    dn_to_jsonl,
    iter_matches_any,
    read_dn,
    resolve,
    same_record,
    write_dn,
)
from dominolog.reducer import MatchReducer, verify_match
from dominolog.simulate import hide_match, simulate_match
from tests.conftest import ROOT

REPLAYS = ROOT / "replays"
DATA = ROOT / "tests" / "data" / "notation"


def _typed(value: Any) -> str:
    """A value as canonical JSON: equal only for the same values of the same JSON types."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _report(log: MatchLog) -> dict[str, Any]:
    """What verify says of a match, without where it was read from."""
    d = verify_match(log).as_dict()
    del d["source"], d["line"]
    for issue in d["violations"] + d["unverified"]:
        del issue["line"]
    return d


def round_trip(data: bytes) -> tuple[str, list[DnMatchLog]]:
    """JSONL -> .dn -> records, checked: every record as the JSONL reader read it, the same verify
    reports, and the writer's text written again the same."""
    logs = list(iter_matches("in.jsonl", data))
    text = write_dn(logs)
    back = read_dn(text, "out.dn")
    assert [e for log in back for e in log.errors] == []
    before = [r for log in logs for r in log.records]
    after = [r for log in back for r in log.records]
    assert len(before) == len(after)
    for a, b in zip(before, after, strict=True):
        assert same_record(a, b), (a.raw, b.raw)
        if a.obj is not None and not a.raw_only:
            assert _typed(b.obj) == _typed(a.obj)  # field for field: seq, hash, at, end, unknown fields
        assert b.error == a.error
    assert [log.orphan for log in back] == [log.orphan for log in logs]
    assert [_report(log) for log in back] == [_report(log) for log in logs]
    assert write_dn(back) == text
    return text, back


# -- the replays ---------------------------------------------------------------------------------
@pytest.mark.parametrize("path", sorted(REPLAYS.glob("*.jsonl")), ids=lambda p: p.name)
def test_every_replay_round_trips(path: Path) -> None:
    text, back = round_trip(path.read_bytes())
    assert "$" not in text  # nothing in the replays needs an escape
    originals = [r.obj for log in iter_matches(path) for r in log.records]
    for original, rec in zip(originals, (r for log in back for r in log.records), strict=True):
        assert original is not None and rec.obj is not None
        assert rec.obj.get("seq") == original.get("seq") and rec.obj.get("hash") == original.get("hash")


def test_the_replays_read_in_about_three_lines_a_ghost13_hand() -> None:
    text = write_dn(iter_matches(REPLAYS / "ghost13-tabletop-hidden.jsonl"))
    paragraphs = text.split("\n\n")
    assert paragraphs[1].startswith("deal Ana [?](19:31:15)\n43(19:31:40) 44L(19:32:05)")
    assert paragraphs[1].splitlines()[-1] == "Ben=[33](19:43:45) * Ana 6 Ben 0 >Ana(19:44:10)"
    assert max(len(line) for line in text.splitlines() if not line.startswith("deal")) <= 100


# -- simulated matches, with violations and damage --------------------------------------------------
CONFIGS: list[tuple[str, int, dict[str, Any] | None]] = [
    ("ghost13", 2, None),
    ("brettspielnetz", 2, None),
    ("39", 2, None),
    *[("double-bergen", n, {"reserve": r}) for n in (2, 3, 4) for r in (0, 4)],
    *[("double-draw", n, None) for n in (2, 3, 4)],
    ("double-draw", 4, {"partners": True}),
]
NAMES = [
    ["Ana", "Ben", "Cleo", "Dev"],
    ["Ana Maria", "deal", "O'Brien", "Zoë"],
    ["[bold]x[/]", '"q"', "L", "_x"],
    ["7up", "a:b", "x=y", "abandoned"],
]
TEXTS = [
    "plain",
    "{braces} and \\ back",
    "ctl \x1b[31m red \x07",
    "line\nbreak\ttab\r",
    "\u202eevil",
    "😀",
    "}",
    "\x85",
]
MUTATIONS = [
    None,
    "out-of-turn",
    "illegal-tile",
    "fits-nowhere",
    "undo",
    "claim",
    "unknown-field",
    "wrong-type",
    "note",
    "line",
    "no-at",
    "odd-at",
    "end",
    "leader",
    "tampered-hash",
    "edited",
    "wrong-seq",
    "no-seq-no-hash",
]
LINES = [
    b"not json",
    b"\xff\xfe not UTF-8",
    b"[1, 2]",
    b'"a string"',
    b'{"type":"play","tile":"1-2","tile":"6-6"}',
    b'{"type":"note","text":"\\ud800"}',
    b"{}",
    b'{"type":"match_end" ',
    b"\x1b[2J",
]


@cache
def _simulated(config: int, seed: int, names: int) -> list[dict[str, Any]]:
    variant, n, options = CONFIGS[config]
    return simulate_match(variant, seed, 0, NAMES[names][:n], options)


def _indexes(events: list[dict[str, Any]], kind: str, with_tile: bool = False) -> list[int]:
    return [k for k, e in enumerate(events) if e["type"] == kind and (not with_tile or "tile" in e)]


def damaged(events: list[dict[str, Any]], rng: random.Random, mutation: str | None) -> bytes:
    """The match as JSON lines, with one violation or piece of damage of the kind named."""
    evs = [{k: v for k, v in e.items() if k not in ("seq", "hash")} for e in events]
    players = evs[0]["players"]
    lines: list[tuple[int, bytes]] = []
    i = rng.randrange(1, len(evs))
    plays = _indexes(evs, "play", with_tile=True)
    if mutation == "out-of-turn" and plays:
        evs[rng.choice(plays)]["player"] = rng.choice(players)
    elif mutation == "illegal-tile" and plays:
        evs[rng.choice(plays)]["tile"] = f"{rng.randrange(7)}-{rng.randrange(7)}"
    elif mutation == "fits-nowhere":
        end = rng.choice(["left", "right", "6-6:N", "1-2", None])
        evs.insert(i, {"type": "play", "player": rng.choice(players), "tile": "0-0", **({"end": end} if end else {})})
    elif mutation == "undo":
        evs.insert(i, {"type": "undo", **({"reason": rng.choice(TEXTS)} if rng.random() < 0.5 else {})})
    elif mutation == "claim":
        k = rng.choice(_indexes(evs, "hand_end") + _indexes(evs, "match_end"))
        key = "points" if evs[k]["type"] == "hand_end" else "totals"
        claim = dict(evs[k].get(key) or {players[0]: 0})
        claim[players[0]] += rng.choice([-7, 1, 1000])
        evs[k][key] = claim if rng.random() < 0.7 else {}
        evs[k]["winner"] = rng.choice([None, players[0], players[:2], [], [players[0]]])
    elif mutation == "unknown-field":
        evs[i]["foo"] = rng.choice([1, None, "x", [1], {"a": 1.5}])
    elif mutation == "wrong-type":
        evs[i][rng.choice(list(evs[i]))] = rng.choice([1, True, None, 1.0, "3", [], {}])
    elif mutation == "note":
        note = {"type": "note", "text": rng.choice(TEXTS)}
        if rng.random() < 0.5:
            note["player"] = rng.choice([*players, "Zed", "bad\x00name"])
        evs.insert(i, note)
    elif mutation == "line":
        lines.append((i, rng.choice(LINES)))
    elif mutation == "no-at":
        evs[i].pop("at", None)
    elif mutation == "odd-at":
        evs[i]["at"] = rng.choice(
            ["2026-01-02T00:00:01Z", "2026-01-01 18:00:00+01:00", "2026-01-01t18:00:00.123z", "late", "19:00:00", "x)"]
        )
    elif mutation == "end" and plays:
        k = rng.choice(plays)
        if "end" in evs[k] and rng.random() < 0.5:
            del evs[k]["end"]
        else:
            evs[k]["end"] = rng.choice(["left", "right", "6-6:N", "1-2", "0-0:W", None, "up"])
    elif mutation == "leader":
        evs[rng.choice(_indexes(evs, "deal"))]["leader"] = rng.choice(players)
    evs = [{"type": e["type"], "seq": n, **{k: v for k, v in e.items() if k != "type"}} for n, e in enumerate(evs, 1)]
    evs = add_hashes(evs)
    k = rng.randrange(len(evs))
    if mutation == "tampered-hash":
        evs[k]["hash"] = "0" * 64
    elif mutation == "edited":  # changed after it was written: its hash no longer fits
        evs[max(k, 1)]["at"] = "2030-01-01T00:00:00Z"
    elif mutation == "wrong-seq":
        evs[k]["seq"] += 5
    elif mutation == "no-seq-no-hash":
        evs = [{key: v for key, v in e.items() if key not in ("seq", "hash")} for e in evs]
    out = [dump_line(e).encode("utf-8", "surrogatepass") for e in evs]
    for k, raw in lines:
        out.insert(k, raw)
    return b"".join(line + b"\n" for line in out)


def _check(config: int, seed: int, names: int, seen: str, mutation: str | None, rng: random.Random) -> None:
    events = _simulated(config, seed, names)
    players = events[0]["players"]
    if seen == "hidden":
        events = hide_match(events)
    elif seen == "viewer":
        events = hide_match(events, players[seed % len(players)])
    text, _ = round_trip(damaged(events, rng, mutation))
    if mutation is None:
        assert "$" not in text  # a match as the rules play it needs no escape


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    config=st.integers(0, len(CONFIGS) - 1),
    seed=st.integers(0, 5),
    names=st.integers(0, len(NAMES) - 1),
    seen=st.sampled_from(["full", "hidden", "viewer"]),
    mutation=st.sampled_from(MUTATIONS),
    rng=st.randoms(use_true_random=False),
)
def test_simulated_matches_round_trip(
    config: int, seed: int, names: int, seen: str, mutation: str | None, rng: random.Random
) -> None:
    _check(config, seed, names, seen, mutation, rng)


@pytest.mark.parametrize("mutation", MUTATIONS)
def test_each_kind_of_damage_round_trips(mutation: str | None) -> None:
    """Every mutation, on a line game and on a spinner game, hidden or not (hypothesis may miss one)."""
    for k, config in enumerate((0, 4, 9, 12)):
        _check(config, k, k, ["full", "hidden", "viewer"][k % 3], mutation, random.Random(f"{mutation}{k}"))


def test_what_the_compact_form_cannot_say_is_escaped() -> None:
    start = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"]}
    events = [
        start,
        {"type": "deal", "leader": "Ana", "hands": None},
        {"type": "play", "player": "Ana", "tile": "6-6", "end": None},
        {"type": "pass", "player": "Ben", "foo": 1},
        {"type": "hand_end", "points": {}},
        {"type": "hand_end", "points": {"Ana": 1.0}},
    ]
    text, _ = round_trip(b"".join(dump_line(e).encode() + b"\n" for e in events))
    assert text.count("$") == 4
    assert '${"type":"pass","player":"Ben","foo":1}' in text


def test_a_tampered_hash_survives_and_is_still_reported() -> None:
    events = add_hashes(_simulated(0, 1, 0))
    events[5]["hash"] = "f" * 64
    data = b"".join(dump_line(e).encode() + b"\n" for e in events)
    text, back = round_trip(data)
    assert text.count("$") == 1
    violations = verify_match(back[0]).violations
    assert {v.code for v in violations} == {"hash-mismatch"} and 6 in {v.seq for v in violations}


def test_lines_before_the_first_match_and_bad_bytes_round_trip() -> None:
    data = b"\xef\xbb\xbfgarbage \xff\n" + dump_line(_simulated(0, 2, 0)[0]).encode() + b"\n"
    text, back = round_trip(data)
    assert back[0].orphan and not back[1].orphan
    assert text.startswith('$"garbage \\udcff"\n')


def test_what_the_notation_cannot_hold_is_refused() -> None:
    long_line = b'{"type":"note","text":"' + b"x" * MAX_LINE_BYTES + b'"}'
    start = dump_line({"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"]}).encode()
    with pytest.raises(NotationWriteError, match="1 MiB"):
        write_dn(iter_matches("x.jsonl", start + b"\n" + long_line + b"\n"))
    orphan = list(iter_matches("y.jsonl", b"garbage\n"))
    match = list(iter_matches("x.jsonl", start + b"\n"))
    with pytest.raises(NotationWriteError, match="before any match_start"):
        write_dn(match + orphan)


# -- golden files ----------------------------------------------------------------------------------
#: what verify gives each golden match: totals, winner, and each hand's end and points
GOLDEN: dict[str, tuple[dict[str, int], Any, list[tuple[str, dict[str, int]]]]] = {
    "ghost13": ({"Ana": 0, "Ben": 120}, "Ben", [("block", {"Ana": 0, "Ben": 120})]),
    "brettspielnetz": ({"Ana": 0, "Ben": 11}, "Ana", [("domino", {"Ana": 0, "Ben": 11})]),
    "39": ({"Ana": -3, "Ben": 6}, "Ben", [("passes", {"Ana": -3, "Ben": 6})]),
    "double-bergen": (
        {"Ana": 2, "Ben": 2, "Cleo": 6},
        "Cleo",
        [("target", {"Ana": 2, "Ben": 2, "Cleo": 6})],
    ),
    "double-draw": (
        {"Ana": 13, "Ben": 0, "Cleo": 13, "Dev": 0},
        ["Ana", "Cleo"],
        [("domino", {"Ana": 13, "Ben": 0, "Cleo": 13, "Dev": 0})],
    ),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_file_reads_to_its_events_and_scores(name: str) -> None:
    expected = [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
    (log,) = list(iter_matches_any(DATA / f"{name}.dn"))
    assert isinstance(log, DnMatchLog) and log.errors == []
    assert [_typed(r.obj) for r in log.records] == [_typed(e) for e in expected]
    if "hash" in expected[0]:  # the reader's hashes are the chain of docs/format.md, section 6
        assert add_hashes([{k: v for k, v in e.items() if k != "hash"} for e in expected]) == expected
    report = verify_match(log)
    totals, winner, hands = GOLDEN[name]
    assert report.valid and report.complete and report.unverified == []
    assert report.totals == totals and report.winner == winner
    assert [(h.end, h.points) for h in report.hands] == hands


def test_golden_records_carry_their_dn_lines() -> None:
    (log,) = list(iter_matches_any(DATA / "ghost13.dn"))
    by_seq = {r.seq: r.line for r in log.records}
    assert (by_seq[1], by_seq[2], by_seq[3], by_seq[4], by_seq[8], by_seq[15], by_seq[18], by_seq[19]) == (
        1,
        3,
        5,
        6,
        6,
        7,
        8,
        10,
    )


# -- errors ----------------------------------------------------------------------------------------
HEADER = '[Variant "ghost13"] [Players "Ana" "Ben"]\n'


def _errors(text: str) -> list[str]:
    return [str(e) for log in read_dn(text) for e in log.errors]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            HEADER + "deal Ana [?]\n66 65R x9 54L\n",
            "line 3, column 8: expected a tile, a pass (-), a draw (+), !odd or !even, a block call (#), a note "
            "({...}), an undo (~), a reveal (Name=[...]), deal, * or **, a tag ([...]), an escape ($) or a player "
            "name and ':', got 'x9'",
        ),
        (HEADER + "65R\n", "line 2, column 1: expected a player name (nobody is on move), got '65R'"),
        (
            HEADER + "deal [?]\n",
            "line 2, column 1: expected a leader after deal (the rules do not say who leads this hand), got 'deal [?]'",
        ),
        (
            HEADER + "deal Ana [?] 66(19:31:40)\n",
            "line 2, column 14: expected a full time stamp earlier in the match (a short one takes its date and "
            "zone from it), got '(19:31:40)'",
        ),
        (
            HEADER + "deal Ana [Ana 07 12]\n",
            "line 2, column 15: expected a tile (two digits 0 to 6: 53 or 5-3), got '07'",
        ),
        (
            HEADER + "deal Ana\n53X\n",
            "line 3, column 3: expected a play (53, 5-3, 53L, 53R, 53@66N, 53@64 or 53&61) "
            "followed by white space, got 'X'",
        ),
        (HEADER + "{a note\n", "line 2, column 1: expected '}' to close the note before the end of the line, got '{a'"),
        (
            HEADER + "{a \\q}\n",
            "line 2, column 4: expected an escape in the note (\\\\, \\{, \\}, \\n, \\r, \\t or \\uXXXX), got '\\q}'",
        ),
        (
            HEADER + "Ana:~\n",
            "line 2, column 1: expected an undo (~ or ~{reason}) without a player name (it has none), got 'Ana:~'",
        ),
        (
            '[Variant "ghost13"]\n',
            'line 1, column 1: expected a [Players "..." "..."] tag in the match header, got a '
            "header without one (tags Variant)",
        ),
        (
            HEADER + "[Varient 1]",
            "line 2, column 1: expected a tag name (Variant, Players, Id, Option, At, Log, Event, "
            "Site, Date, Round, Table, Recorder, Meta), got '[Varient'",
        ),
        (HEADER + '[Id "a"] [Id "b"]', "line 2, column 10: expected one [Id] tag in a header, got '[Id'"),
        (
            HEADER + "* Ana 1 Ana 2",
            "line 2, column 9: expected each player once in the points ('Ana' is given twice), got 'Ana'",
        ),
        (
            HEADER + '${"a":1,"a":2}',
            "line 2, column 2: expected each key once in a JSON object ('a' is written twice), got '{\"a\":1,\"a\":2}'",
        ),
        (
            HEADER + "$[1]",
            "line 2, column 2: expected a JSON object (an event) or a JSON string (a line of the log) "
            "after $, got '[1]'",
        ),
        (
            HEADER + "deal Ana [?] (19:00",
            "line 2, column 14: expected ')' to close the time stamp on its line, got '(19:00'",
        ),
    ],
)
def test_error_messages(text: str, message: str) -> None:
    assert _errors(text) == [message]


def test_errors_are_malformed_records_and_the_rest_is_read() -> None:
    text = HEADER + "deal Ana [?]\n66 65R x9 54L\n* >Ana\n\n" + HEADER + "deal Ben [?] 77 {ok}\n"
    first, second = read_dn(text, "g.dn")
    assert [(r.seq, r.line, r.type) for r in first.records] == [
        (1, 1, "match_start"),
        (2, 2, "deal"),
        (3, 3, "play"),
        (4, 3, "play"),
        (5, 3, None),
        (6, 3, "play"),
        (7, 4, "hand_end"),
    ]
    assert first.records[4].error == str(first.errors[0])
    report = verify_match(first)
    assert ("malformed", 3, 5) in [(v.code, v.line, v.seq) for v in report.violations]
    assert second.line == 6 and [r.type for r in second.records] == ["match_start", "deal", None, "note"]
    assert [str(e)[:23] for e in second.errors] == ["line 7, column 14: expe"]


def test_a_byte_that_is_not_utf8_is_named_with_its_column() -> None:
    data = (HEADER + "deal Ana [?]\n66 {caf").encode() + b"\xe9}" + b" 65R\n"
    (log,) = read_dn(data)
    assert [str(e) for e in log.errors] == ["line 3, column 8: expected UTF-8 text, got the byte 0xe9"]
    assert [r.type for r in log.records][-1] == "play"


# -- hostile input ---------------------------------------------------------------------------------
_RAW_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def test_hostile_names_and_notes_are_written_escaped_and_read_back() -> None:
    players = ["[bold red]A[/]", "\x1b[2J"]
    events = [
        {"type": "match_start", "variant": "ghost13", "players": players, "meta": {"k\x07": "\u202ev"}},
        {"type": "note", "text": "\x1b]0;title\x07 {x} \\ \n\u2028", "player": players[1]},
        {"type": "deal", "leader": players[0], "hands": None},
        {"type": "play", "player": players[0], "tile": "6-6"},
        {"type": "undo", "reason": "\x00\t}"},
    ]
    text, _ = round_trip(b"".join(dump_line(e).encode() + b"\n" for e in events))
    assert not _RAW_UNSAFE.search(text)
    assert '"\\u001b[2J":{\\u001b]0;title\\u0007 \\{x\\} \\\\ \\n\\u2028}' in text


def test_a_huge_token_is_one_short_error() -> None:
    text = HEADER + "deal Ana [?] " + "x" * 3_000_000 + " 66 {" + "y" * 100_000 + "\n"
    (log,) = read_dn(text)  # (its speed is not asserted here: a quadratic scan would show in the suite's time)
    assert len(log.errors) == 2 and all(len(str(e)) < 400 for e in log.errors)
    assert "...(3000000 chars)" in str(log.errors[0])


@pytest.mark.parametrize(
    "text",
    [
        "$" + "[" * 100_000,
        "${" + '"a":{' * 50_000,
        "\x00\x01\x02",
        "* Ana " + "9" * 5000,
        '"' * 1000,
        "[" * 10_000,
        "deal " + "[Ana 01 " * 1000,
        "\ud800",
        "((((((((",
        "Ana:" * 1000,
    ],
)
def test_garbage_gives_errors_never_an_exception(text: str) -> None:
    logs = read_dn(HEADER + text)
    assert logs and all(isinstance(e, NotationError) for log in logs for e in log.errors)
    assert logs[0].errors or text.startswith("deal")
    for log in logs:
        verify_match(log)


def test_bom_and_crlf_are_read() -> None:
    data = b"\xef\xbb\xbf" + (HEADER + "deal Ana [?]\r\n66 65R\r\n").encode()
    (log,) = read_dn(data)
    assert log.errors == [] and [r.type for r in log.records] == ["match_start", "deal", "play", "play"]
    assert dn_to_jsonl(b"") == b"" and read_dn("  \n ") == []


# -- the pieces: resolve (the recorder's entry point) and format_event -------------------------------
def test_resolve_gives_the_event_of_each_typed_action() -> None:
    reducer, clock = MatchReducer("<recorder>"), Clock()
    events = []
    for typed in [
        '[Variant "ghost13"] [Players "Ana" "Ben"] [At "2026-11-20T19:30:25Z"]',
        "deal Ana [?]",
        "66(19:31:00)",
        "-",
        "65R",
        "Ana:{hmm}",
    ]:
        (action,) = parse(typed).actions
        event = resolve(action, reducer, clock)
        events.append(event)
        n = reducer.events + 1
        reducer.feed(Record(n, n, b"", value=event, event=parse_event(event)))
    assert events[2:] == [
        {"type": "play", "player": "Ana", "tile": "6-6", "at": "2026-11-20T19:31:00Z"},
        {"type": "pass", "player": "Ben"},
        {"type": "play", "player": "Ana", "tile": "6-5", "end": "right"},
        {"type": "note", "player": "Ana", "text": "hmm"},
    ]
    with pytest.raises(NotationError, match="nobody is on move"):
        resolve(Action("pass", context=True, line=9, column=1, text="-"), MatchReducer(), Clock())


@pytest.mark.parametrize(
    ("event", "token"),
    [
        ({"type": "play", "player": "Ana", "tile": "5-3"}, "53"),
        ({"type": "play", "player": "Ben", "tile": "5-3", "end": "6-6:N"}, "Ben:53@66N"),
        ({"type": "play", "player": "Ana", "tiles": ["5-3", "6-1"]}, "53&61"),
        ({"type": "draw", "player": "Ana", "tile": None}, "+?"),
        ({"type": "draw", "player": "Ana"}, "+"),
        (
            {"type": "deal", "leader": "Ana", "hands": {"Ana": [], "Ben": None}, "start_tile": "1-5"},
            "deal [Ana] [Ben ?] start=15",
        ),
        ({"type": "deal", "leader": "Ana Maria", "hands": {}}, 'deal "Ana Maria" []'),
        ({"type": "hand_end", "points": {"Ana": -3}, "winner": ["Ana", "Cleo"]}, "* Ana -3 >Ana+Cleo"),
        ({"type": "match_end", "winner": None, "reason": "abandoned"}, "** >- abandoned"),
        ({"type": "note", "text": "a}b"}, "{a\\}b}"),
        ({"type": "play", "player": "Ana", "tile": "5-3", "end": None}, None),
        ({"type": "hand_end", "points": {}}, None),
        ({"type": "hand_end", "winner": ["Ana"]}, None),
        ({"type": "pass", "player": "Ana", "foo": 1}, None),
        ({"type": "play", "player": "Ana", "tile": "7-3"}, None),
    ],
)
def test_format_event(event: dict[str, Any], token: str | None) -> None:
    assert format_event(event, on_move="Ana", leader="Ana") == token


def test_an_escaped_match_start_keeps_the_log_tag() -> None:
    events = [
        {"type": "match_start", "seq": 1, "variant": "ghost13", "players": ["Ana", "Ben"], "x": 1},
        {"type": "deal", "seq": 2, "leader": "Ana", "hands": None},
        {"type": "play", "seq": 3, "player": "Ana", "tile": "6-6"},
    ]
    text, back = round_trip(b"".join(dump_line(e).encode() + b"\n" for e in events))
    assert text.startswith('[Log "seq"] ${"type":"match_start","seq":1,')
    assert text.endswith("\n\ndeal Ana [?]\nAna:66\n")  # a broken match_start: nobody is on move
    assert [r.obj["seq"] for r in back[0].records if r.obj] == [1, 2, 3]
