"""Proofs that survive a contradiction (issue 25, part 1): a hand's facts that cannot all hold are set
aside by the documented order of trust (docs/format.md 8.6.11, docs/audit.md), each one set aside is a
``contradiction`` violation naming what it contradicts, and every other finding is judged on the facts
kept; a hand still being played is judged on its facts so far (8.6.10).

The property tests plant contradictions in hidden simulated matches (a reveal changed, a play's tile
swapped for one already on the table) and check every certain verdict of the knowledge engine against
the full-information log: the hand it says broke a rule really did.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dominolog.audit.engine import audit_match
from dominolog.audit.soundness import alongside, log_of, true_hands
from dominolog.log.hashchain import add_hashes
from dominolog.reducer import MatchReport, verify_match
from dominolog.simulate import hide_match, simulate_match
from dominolog.tiles import Tile

Events = list[dict[str, Any]]


def bare(events: Events) -> Events:
    return [{k: v for k, v in e.items() if k not in ("seq", "hash")} for e in events]


def numbered(events: Events) -> Events:
    return add_hashes(
        [{"type": e["type"], "seq": i, **{k: v for k, v in e.items() if k != "type"}} for i, e in enumerate(events, 1)]
    )


def report_of(events: Events) -> MatchReport:
    return verify_match(log_of(numbered(events)))


def found(report: MatchReport, code: str) -> list[tuple[int, str]]:
    return [(v.seq, v.message) for v in report.violations if v.code == code]


def on_table_before(events: Events, k: int) -> list[str]:
    """The tiles played (and placed) in the hand of event ``k`` before it, by a fresh fold."""
    log = log_of(numbered(events[: k + 1]))
    from dominolog.reducer.fold import reduce_match

    reducer = reduce_match(log, k)  # the state just before event k+1 (seq k+1)
    hand = reducer.state.hand if reducer.state else None
    return sorted(str(t) for t in hand.layout.on_board) if hand is not None else []


# -- the issue's case: a pass replaced a play ------------------------------------------------------
def pass_for_play(seed: int, nth: int = 2) -> tuple[Events, int]:
    """A hidden Ghost 13 match where Ben's ``nth`` play is recorded as a pass; the pass's seq."""
    events = bare(hide_match(simulate_match("ghost13", seed, 0, ["Ana", "Ben"])))
    k = [i for i, e in enumerate(events) if e["type"] == "play" and e["player"] == "Ben"][nth]
    events[k] = {"type": "pass", "player": "Ben", "at": events[k]["at"]}
    return events, k + 1


def test_a_pass_that_replaced_a_play_is_a_proven_renege_whatever_the_reveals_say() -> None:
    events, seq = pass_for_play(1)
    report = report_of(events)
    reneges = dict(found(report, "renege"))
    assert seq in reneges, report.unverified
    assert reneges[seq].startswith("Ben passes while holding a legal play (shown by the reveals: ")
    # the plays that follow are illegal, and it was recorded so; the pass is no longer "unsettled"
    assert not [u for u in report.unverified if u.seq == seq]


def test_a_play_not_placed_is_still_evidence_of_a_holding() -> None:
    """Brettspielnetz, open hand: Ana's pass at 4|5 is a renege because she played 0-4 at seq 6, which
    matched neither end then (illegal, not placed): the tile came from her hand all the same."""
    events = [
        {"type": "match_start", "variant": "brettspielnetz", "players": ["Ana", "Ben"], "id": "tried"},
        {"type": "deal", "leader": "Ana", "hands": None, "start_tile": "4-5"},
        {"type": "pass", "player": "Ana"},
        {"type": "play", "player": "Ben", "tile": "5-6", "end": "right"},
        {"type": "play", "player": "Ana", "tile": "3-4", "end": "left"},
        {"type": "play", "player": "Ben", "tile": "0-4", "end": "left"},
    ]
    report = report_of(events)
    assert (6, "0-4 matches neither end (left shows 3, right shows 6); not placed") in found(report, "illegal")
    assert [(s, m) for s, m in found(report, "renege")] == [
        (3, "Ana passes while holding a legal play (shown by the log so far: 3-4 fits)")
    ], report.unverified


# -- one test per rule of what is set aside ------------------------------------------------------
def reveal_index(events: Events, player: str, last: bool = True) -> int:
    ks = [i for i, e in enumerate(events) if e["type"] == "reveal" and e["player"] == player]
    return ks[-1] if last else ks[0]


def hidden_brett(seed: int) -> Events:
    return bare(hide_match(simulate_match("brettspielnetz", seed, 0, ["Ana", "Ben"])))


def first_hand(events: Events) -> Events:
    """The match cut after its first hand_end (one hand is enough here)."""
    k = next(i for i, e in enumerate(events) if e["type"] == "hand_end")
    return events[: k + 1]


def test_rule_a_reveal_yields_to_the_tiles_played() -> None:
    """Ana's reveal names a tile Ben laid: the reveal is set aside, and says why."""
    events = first_hand(hidden_brett(3))
    k = reveal_index(events, "Ana")
    ben_laid = next(e for e in events[:k] if e["type"] == "play" and e["player"] == "Ben" and "tile" in e)
    shown = list(events[k]["tiles"])
    assert shown
    shown[0] = ben_laid["tile"]
    events[k] = {**events[k], "tiles": shown}
    report = report_of(events)
    (contradiction,) = found(report, "contradiction")
    seq, message = contradiction
    assert seq == k + 1
    play_seq = events.index(ben_laid) + 1
    assert f"Ben played {Tile.parse(ben_laid['tile'])} at seq {play_seq}" in message
    assert f"Set aside: Ana's reveal at seq {k + 1} shows" in message
    assert "(a reveal yields to the tiles played)" in message
    assert [v.rules for v in report.violations if v.code == "contradiction"] == [("C1",)]


def test_rule_a_reveal_of_the_wrong_count_is_set_aside() -> None:
    events = first_hand(hidden_brett(5))
    k = reveal_index(events, "Ben")
    assert len(events[k]["tiles"]) >= 2
    events[k] = {**events[k], "tiles": events[k]["tiles"][1:]}
    report = report_of(events)
    messages = [m for s, m in found(report, "contradiction") if s == k + 1]
    assert len(messages) == 1, found(report, "contradiction")
    assert f"Set aside: Ben's reveal at seq {k + 1} shows" in messages[0]
    assert any(s == k + 1 for s, _ in found(report, "bad-reveal"))


def test_rule_a_play_not_placed_yields_to_the_tiles_placed() -> None:
    """Ben 'plays' a tile Ana laid earlier: it is not placed (illegal), and its evidence is set aside."""
    events = first_hand(hidden_brett(7))
    plays = [i for i, e in enumerate(events) if e["type"] == "play" and "tile" in e]
    ana = next(i for i in plays if events[i]["player"] == "Ana")
    ben = next(i for i in plays if events[i]["player"] == "Ben" and i > ana)
    events[ben] = {**events[ben], "tile": events[ana]["tile"]}
    report = report_of(events)
    assert any("already on the table; not placed" in m for s, m in found(report, "illegal") if s == ben + 1)
    message = next(m for s, m in found(report, "contradiction") if s == ben + 1)
    tile = Tile.parse(events[ana]["tile"])
    assert f"Ana played {tile} at seq {ana + 1}" in message
    assert f"Set aside: Ben played {tile} at seq {ben + 1} (not placed, but from Ben's hand)" in message
    assert "(a play the rules did not place yields to the tiles placed)" in message


def test_rule_a_play_yields_to_the_deal_shown() -> None:
    """Ana records her own game (her hand in the deal); Ben lays 4-5, which the deal put in Ana's hand.
    The reducer says so (illegal), and the knowledge engine sets aside that play's evidence that Ben
    held it; which tile left Ben's hand then is open, so nothing about his hand after it is certain."""
    ana = ["0-0", "0-1", "1-1", "1-2", "2-2", "4-5", "3-3"]
    events: Events = [
        {"type": "match_start", "variant": "brettspielnetz", "players": ["Ana", "Ben"], "id": "viewer"},
        {"type": "deal", "leader": "Ana", "hands": {"Ana": ana}, "start_tile": "5-6"},
    ]
    events = events[:2] + [
        {"type": "pass", "player": "Ana"},
        {"type": "play", "player": "Ben", "tile": "4-5", "end": "left"},
        {"type": "pass", "player": "Ana"},
        {"type": "pass", "player": "Ben"},
    ]
    report = report_of(events)
    assert (4, "Ben plays 4-5, which is in Ana's hand") in found(report, "illegal")
    (seq, message), *_ = found(report, "contradiction")
    assert seq == 4
    assert message.startswith(
        "Ben played 4-5 at seq 4: that cannot hold with the tiles each player was dealt and drew. Set aside: "
        "Ben played 4-5 at seq 4 (a play yields to the deal, the draws seen and the plays before it)"
    )
    audit = audit_match(log_of(numbered(events)))
    holds, may, _ = audit.hands[0].knowledge("Ben", 5)
    assert holds == frozenset() and len(may) > 0


def test_rule_a_play_of_the_start_tile_yields_to_the_deal() -> None:
    """Brettspielnetz turns up a start tile: a play of it (not placed) cannot have come from a hand. It
    is set aside, said against the deal, and the player's hand after it is left open (found by the
    property test below: a play swapped for the start tile had left the real tile 'in' the hand)."""
    events: Events = [
        {"type": "match_start", "variant": "brettspielnetz", "players": ["Ana", "Ben"], "id": "start"},
        {"type": "deal", "leader": "Ana", "hands": None, "start_tile": "5-6"},
        {"type": "play", "player": "Ana", "tile": "5-6", "end": "left"},
    ]
    report = report_of(events)
    assert (3, "5-6 is already on the table; not placed") in found(report, "illegal")
    assert found(report, "contradiction") == [
        (
            3,
            "Ana played 5-6 at seq 3 (not placed, but from Ana's hand), but 5-6 was on the table from the deal. "
            "Set aside: Ana played 5-6 at seq 3 (not placed, but from Ana's hand) (a play the rules did not "
            "place yields to the tiles placed); every other finding of the hand is judged without it",
        )
    ]
    holds, may, _ = audit_match(log_of(numbered(events))).hands[0].knowledge("Ana", 3)
    assert holds == frozenset() and len(may) == 27  # every tile but the start tile


# -- a hand still being played -------------------------------------------------------------------
#: a live Brettspielnetz hand: Ben draws one unseen tile at ends 5|6, then plays 1-5 and 3-6
LIVE_DRAW: Events = [
    {"type": "match_start", "variant": "brettspielnetz", "players": ["Ana", "Ben"], "id": "live"},
    {"type": "deal", "leader": "Ben", "hands": None, "start_tile": "5-6"},
    {"type": "draw", "player": "Ben"},
    {"type": "play", "player": "Ben", "tile": "1-5", "end": "left"},
    {"type": "play", "player": "Ana", "tile": "1-2", "end": "left"},
    {"type": "play", "player": "Ben", "tile": "3-6", "end": "right"},
]


def test_an_open_hand_with_a_proven_renege_says_so() -> None:
    """Brettspielnetz: Ben draws one unseen tile at ends 5|6, then plays 1-5 and 3-6: one of them was in
    his hand when he drew (drawing while holding a legal play)."""
    events = [dict(e) for e in LIVE_DRAW]
    report = report_of(events)
    assert found(report, "renege") == [
        (
            3,
            "Ben draws while holding a legal play (shown by the log so far: Ben must have held one of 1-5, 3-6, "
            "each seen later in Ben's hand)",
        )
    ]
    assert report.unverified == []
    assert not report.valid


def test_an_open_hand_drops_a_rule_its_facts_show_kept() -> None:
    """Double Draw, Ana recording her own game, cut before the first hand_end: Ben's unseen draws at
    seq 19 and 21 were judged unknowable ("cannot be checked yet"); the facts so far show he could hold
    no pair play then, so they disappear, and the full-information log agrees."""
    full = simulate_match("double-draw", 0, 0, ["Ana", "Ben"])
    events = bare(hide_match(full, "Ana"))
    k = next(i for i, e in enumerate(events) if e["type"] == "hand_end")
    log = log_of(numbered(events[:k]))
    from dominolog.reducer.fold import reduce_match

    reducer = reduce_match(log)
    raw = sorted(u.seq for u in reducer.findings.unverified)
    report = reducer.report()
    now = sorted(u.seq for u in report.unverified)
    dropped = sorted(set(raw) - set(now))
    assert 19 in dropped and 21 in dropped, (raw, now)
    assert report.violations == []
    truth = _truth(audit_match(log), full)
    for issue, check in reducer.findings.pending:
        if issue.seq in dropped:
            real = truth[(1, issue.seq - 1)][check.player]
            assert check.judge(real, real, len(real))[0] is False


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_no_honest_hidden_log_has_a_contradiction(seed: int) -> None:
    for variant, players in (
        ("ghost13", ["Ana", "Ben"]),
        ("double-draw", ["Ana", "Ben", "Cleo"]),
        ("brettspielnetz", ["Ana", "Ben"]),
        ("double-bergen", ["Ana", "Ben"]),
    ):
        report = report_of(bare(hide_match(simulate_match(variant, seed, 0, players))))
        assert found(report, "contradiction") == []


# -- the property: no certain verdict the full-information log contradicts -----------------------
CONFIGS: list[tuple[str, tuple[str, ...]]] = [
    ("ghost13", ("Ana", "Ben")),
    ("brettspielnetz", ("Ana", "Ben")),
    ("double-draw", ("Ana", "Ben")),
    ("double-draw", ("Ana", "Ben", "Cleo")),
    ("double-bergen", ("Ana", "Ben")),
    ("39", ("Ana", "Ben")),
]


#: the variants where a draw (boneyard left) or a pass (none left) instead of a play is only a renege
RENEGING = frozenset({"ghost13", "brettspielnetz", "double-draw"})


def reneging(seed: int) -> Any:
    """A policy for :func:`simulate_match` that now and then draws or passes instead of playing (a
    renege, so that the hidden logs have certain verdicts to check)."""
    import random

    rng = random.Random(seed)

    def policy(match: Any, hand: Any, player: str, actions: Events) -> dict[str, Any] | None:
        if not any(a["type"] == "play" for a in actions) or rng.random() > 0.2:
            return None
        if len(hand.boneyard.known) > 2:
            return {"type": "draw", "player": player} if hand.turn_draws == 0 else None
        return {"type": "pass", "player": player}

    return policy


def plant(events: Events, how: str, pick: int) -> Events | None:
    """``events`` (hidden, bare) with one contradiction planted, or None when the match has no place."""
    out = [dict(e) for e in events]
    if how.startswith("reveal"):
        ks = [i for i, e in enumerate(out) if e["type"] == "reveal" and e["tiles"]]
        if not ks:
            return None
        k = ks[pick % len(ks)]
        tiles = list(out[k]["tiles"])
        if how == "reveal-drop":
            tiles.pop(pick % len(tiles))
        else:
            board = on_table_before(out, k)
            if not board:
                return None
            tiles[pick % len(tiles)] = board[pick % len(board)]
        out[k]["tiles"] = tiles
        return out
    ks = [i for i, e in enumerate(out) if e["type"] == "play" and "tile" in e]
    ks = [k for k in ks if on_table_before(out, k)]
    if not ks:
        return None
    k = ks[pick % len(ks)]
    board = on_table_before(out, k)
    out[k]["tile"] = board[pick % len(board)]
    return out


def _truth(audit: Any, events: Events) -> dict[tuple[int, int], dict[str, frozenset[Tile]]]:
    out: dict[tuple[int, int], dict[str, frozenset[Tile]]] = {}
    for number, seq, p, tiles in alongside(audit, true_hands(events)):
        out.setdefault((number, seq), {})[p] = tiles
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(0, 10**6),
    how=st.sampled_from(["reveal-board", "reveal-drop", "play-board"]),
    pick=st.integers(0, 10**6),
)
def test_no_certain_verdict_is_contradicted_by_the_full_log(config: Any, seed: int, how: str, pick: int) -> None:
    variant, players = config
    policy = reneging(seed) if variant in RENEGING else None
    full = simulate_match(variant, seed, 0, list(players), policy=policy)
    # the truth must be a game that was played: reneges, nothing the rules would not take
    assert {v.code for v in verify_match(log_of(full)).violations} <= {"renege"}
    hidden = plant(bare(hide_match(full)), how, pick)
    assume(hidden is not None)
    assert hidden is not None
    audit = audit_match(log_of(numbered(hidden)))
    truth = _truth(audit, full)
    checked = 0
    for ha in audit.hands:
        for judged in ha.judged:
            if judged.decision is None or judged.decision[0] is not True:
                continue
            check = judged.check
            real = truth.get((ha.number, check.seq - 1), {}).get(check.player)
            if real is None:
                continue
            verdict, _, _ = check.judge(real, real, len(real))
            assert verdict is True, (ha.number, check.seq, check.message, sorted(map(str, real)))
            checked += 1
    assert all(v.code != "internal-error" for v in audit.report.violations)


# -- the recorder's marks ------------------------------------------------------------------------
def test_the_recorder_marks_a_renege_the_moment_a_play_proves_it(tmp_path: Any) -> None:
    """Recording the live Brettspielnetz hand above into a file: Ben's draw at seq 3 is unverified when
    written; his play of 3-6 at seq 6 proves it a renege, and that entry (legal in itself) is written
    and carries the mark."""
    from dominolog.log.writer import dump_line
    from dominolog.recording.journal import FileJournal

    journal = FileJournal(tmp_path / "live.jsonl")
    events = [dict(e) for e in LIVE_DRAW]
    done = [journal.append(dump_line(e).encode()) for e in events]
    assert [d.seq for d in done] == [1, 2, 3, 4, 5, 6]
    assert [(u.seq, u.code) for u in done[2].unverified] == [(3, "renege")]
    assert [(v.seq, v.code) for v in done[5].violations] == [(3, "renege")]
    assert [(v.seq, v.code) for d in done[:5] for v in d.violations] == []


def test_a_hand_end_that_shows_a_contradiction_is_written_not_refused(tmp_path: Any) -> None:
    """The reveal naming a tile already played is refused as it is entered (a reveal that does not fit);
    written anyway by a file's author, the hand_end that closes the hand is still taken, and the audit
    reports the contradiction."""
    from dominolog.recording.journal import FileJournal

    events = first_hand(hidden_brett(3))
    k = reveal_index(events, "Ana")
    events[k] = {**events[k], "tiles": ["0-2"]}
    path = tmp_path / "m.jsonl"
    lines = [dump for dump in (numbered_lines(events[:-1]))]
    path.write_bytes(b"".join(lines))
    journal = FileJournal(path)
    end = numbered(events)[-1]
    done = journal.append(json_line(end))
    assert done.seq == len(events)
    assert [(v.seq, v.code) for v in done.violations if v.code == "contradiction"] == [(k + 1, "contradiction")]


def numbered_lines(events: Events) -> list[bytes]:
    from dominolog.log.writer import dump_line

    return [dump_line(e).encode() + b"\n" for e in numbered(events)]


def json_line(event: dict[str, Any]) -> bytes:
    from dominolog.log.writer import dump_line

    return dump_line(event).encode()
