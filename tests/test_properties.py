"""Property tests (hypothesis) of the reader, the reducer, the hash chain and the simulator.

Every property runs on simulated matches of every implemented variant and
player count (the variant and the seed are drawn by hypothesis), in their
full-information and tabletop (hidden hands, unseen draws) forms, and on those
matches with garbage lines mixed in.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominolog.events import EVENT_TYPES
from dominolog.log.hashchain import head as chain_head
from dominolog.log.reader import decode_line, iter_matches
from dominolog.reducer import MatchReducer, MatchReport, reduce_match, verify_match
from dominolog.render import render_state
from dominolog.simulate import hide_match, simulate_lines, simulate_match
from dominolog.tiles import DOUBLE_SIX, Tile
from dominolog.variants import VARIANTS
from dominolog.verify import report_lines, verify_document
from tests.helpers import to_bytes

VARIANT = "ghost13"
PLAYERS = ("Ana", "Ben")
#: (variant, players, options): every variant and table size the simulator plays
CONFIGS: list[tuple[str, tuple[str, ...], dict[str, Any] | None]] = [
    ("ghost13", PLAYERS, None),
    ("brettspielnetz", PLAYERS, None),
    ("brettspielnetz", PLAYERS, {"draw_limit": None}),
    ("double-draw", PLAYERS, None),
    ("double-draw", ("Ana", "Ben", "Cleo"), None),
    ("double-draw", ("Ana", "Ben", "Cleo", "Dev"), None),
    ("double-draw", ("Ana", "Ben", "Cleo", "Dev"), {"partners": True}),
    ("39", PLAYERS, None),
    ("double-bergen", PLAYERS, None),
    ("double-bergen", ("Ana", "Ben", "Cleo"), None),
    ("double-bergen", ("Ana", "Ben", "Cleo", "Dev"), {"reserve": 2}),
]
SPINNER_CONFIGS = [c for c in CONFIGS if c[0] in ("39", "double-bergen")]
GHOST13 = CONFIGS[0]
configs = st.sampled_from(CONFIGS)
TILE_TEXTS = [f"{a}-{b}" for a in range(7) for b in range(7)]  # both ways round
SET = [str(t) for t in DOUBLE_SIX]

PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32)
indexes = st.integers(min_value=0, max_value=4)


def match_events(
    seed: int, index: int = 0, hidden: bool = False, config: tuple[str, tuple[str, ...], Any] = GHOST13
) -> list[dict[str, Any]]:
    variant, players, options = config
    events = simulate_match(variant, seed, index, list(players), options)
    return hide_match(events) if hidden else events


def verify_bytes(data: bytes, name: str = "prop.jsonl") -> list[MatchReport]:
    return [verify_match(log) for log in iter_matches(name, data)]


def verify_events(events: list[dict[str, Any]]) -> MatchReport:
    (report,) = verify_bytes(to_bytes(events))
    return report


def without(events: list[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k not in keys} for e in events]


def hands_of(report: MatchReport) -> list[dict[str, Any]]:
    return [h.as_dict() for h in report.hands]


def no_internal_errors(reports: list[MatchReport]) -> None:
    internal = [(r.source, v.line, v.message) for r in reports for v in r.violations if v.code == "internal-error"]
    assert internal == []


# -- tiles are conserved ------------------------------------------------------------------------


@PROPS
@given(seed=seeds, index=indexes, hidden=st.booleans(), config=configs)
def test_the_28_tiles_are_conserved_at_every_event(seed: int, index: int, hidden: bool, config: Any) -> None:
    events = match_events(seed, index, hidden, config)
    (log,) = iter_matches("sim.jsonl", to_bytes(events))
    reducer = MatchReducer(log.source, log.line)
    open_at = 0
    for rec in log.records:
        reducer.feed(rec)
        assert reducer.state is not None
        hand = reducer.state.hand
        if hand is None:
            continue
        open_at += 1
        assert hand.conserved(), f"seq {rec.seq}: tiles not conserved"
        held = sum(h.count for h in hand.holdings.values()) + hand.boneyard.count
        assert len(hand.layout.on_board) + held == len(DOUBLE_SIX), f"seq {rec.seq}"
    assert open_at > 0
    assert reducer.report().valid


# -- the 2-D table ------------------------------------------------------------------------------


def _anchor(rect: tuple[int, int, int, int], kind: str, d: str) -> tuple[int, int]:
    """Where a side of a tile lying at ``rect`` is: the middle of the edge a new tile would join
    (the first tile's E and W sides are beside its north and south halves)."""
    x0, y0, x1, y1 = rect
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    if kind == "first" and d in ("E", "W"):
        return (x1, cy + 1) if d == "E" else (x0, cy - 1)
    return {"N": (cx, y1), "S": (cx, y0), "E": (x1, cy), "W": (x0, cy)}[d]


def _brute_open_ends(layout: Any) -> dict[str, int]:
    """The open ends worked out again from where the tiles lie: every side a tile's shape gives it
    (the first tile four; a crosswise doublet its side straight on, and two more when doublets spin;
    a singlet its far end), less the sides a tile lies against, centred, with a matching half."""
    from dominolog.layouts.grid import PERPENDICULAR, VECTORS

    out: dict[str, int] = {}
    for tile in layout.order:
        p = layout.placed[tile]
        if p.kind == "first":
            a, b = p.halves
            sides = {"N": a, "E": a, "S": b, "W": b}
        elif p.kind == "cross":
            sides = {p.dir: tile.lo}
            if layout.spinning_doubles:
                sides.update({q: tile.lo for q in PERPENDICULAR[p.dir]})
        else:
            dx, dy = VECTORS[p.dir]
            far = p.halves[1] if (dx > 0 or dy < 0) else p.halves[0]  # halves are north/west first
            sides = {p.dir: far}
        for d, v in sides.items():
            ax, ay = _anchor(p.rect, p.kind, d)
            dx, dy = VECTORS[d]
            played_on = False
            for q in layout.placed.values():
                if q.parent is not tile:
                    continue
                qx0, qy0, qx1, qy1 = q.rect
                near = {"N": qy0 == ay, "S": qy1 == ay, "E": qx0 == ax, "W": qx1 == ax}[d]
                centred = (qx0 + qx1) == 2 * ax if dy else (qy0 + qy1) == 2 * ay
                if near and centred and q.tile.has(v):
                    played_on = True
            if not played_on:
                out[f"{tile}:{d}"] = v
    return out


@PROPS
@given(seed=seeds, index=indexes, config=st.sampled_from(SPINNER_CONFIGS), hidden=st.booleans())
def test_tiles_never_overlap_and_open_ends_follow_from_the_positions(
    seed: int, index: int, config: Any, hidden: bool
) -> None:
    from dominolog.layouts.grid import overlap

    events = match_events(seed, index, hidden, config)
    (log,) = iter_matches("sim.jsonl", to_bytes(events))
    reducer = MatchReducer(log.source, log.line)
    checked = 0
    for rec in log.records:
        reducer.feed(rec)
        hand = reducer.state.hand if reducer.state is not None else None
        if hand is None or rec.event is None or rec.event.type != "play":
            continue
        layout = hand.layout
        rects = [p.rect for p in layout.placed.values()]
        for i, a in enumerate(rects):
            assert not any(overlap(a, b) for b in rects[i + 1 :]), f"seq {rec.seq}: tiles overlap"
        assert layout.ends() == _brute_open_ends(layout), f"seq {rec.seq}"
        checked += 1
    assert checked > 0 and reducer.report().valid


# -- prefixes -------------------------------------------------------------------------------------


@PROPS
@given(seed=seeds, hidden=st.booleans(), config=configs, data=st.data())
def test_any_prefix_verifies_and_is_complete_only_with_match_end(
    seed: int, hidden: bool, config: Any, data: st.DataObject
) -> None:
    events = match_events(seed, 0, hidden, config)
    raw = to_bytes(events)
    lines = raw.split(b"\n")[:-1]
    full = verify_events(events)
    at_line_ends = [0, *(i + 1 for i, byte in enumerate(raw) if byte == ord("\n"))]
    cut = data.draw(st.sampled_from(at_line_ends) | st.integers(min_value=0, max_value=len(raw)), label="cut")
    prefix = raw[:cut]
    *whole, tail = prefix.split(b"\n")
    partial = tail not in (b"", lines[len(whole)] if len(whole) < len(lines) else b"")
    n_lines = len(whole) + (1 if tail and not partial else 0)
    reports = verify_bytes(prefix)
    no_internal_errors(reports)
    if n_lines == 0:
        if not partial:
            assert reports == []
            return
        # a torn first line is not JSON, and not part of any match
        (r,) = reports
        assert [(v.seq, v.line, v.code) for v in r.violations] == [(1, 1, "malformed")]
        assert r.complete is False and r.hands == []
        return
    (r,) = reports
    assert r.complete is (n_lines == len(lines))
    assert r.events == n_lines + partial
    expected = [(n_lines + 1, n_lines + 1, "malformed")] if partial else []
    assert [(v.seq, v.line, v.code) for v in r.violations] == expected
    if not hidden:
        assert r.unverified == []
    closed = sum(1 for e in events[:n_lines] if e["type"] == "hand_end")
    assert hands_of(r) == hands_of(full)[:closed]
    assert r.totals == {p: sum(h.points[p] for h in full.hands[:closed]) for p in config[1]}
    if partial:  # the head covers the torn line too
        assert r.head != events[n_lines - 1]["hash"]
    else:
        assert r.head == events[n_lines - 1]["hash"]


# -- simulated matches ------------------------------------------------------------------------------


@PROPS
@given(seed=seeds, index=indexes, config=configs)
def test_simulated_matches_verify_clean_and_their_claims_are_the_rules(seed: int, index: int, config: Any) -> None:
    variant, players, options = config
    events = match_events(seed, index, False, config)
    r = verify_events(events)
    assert (r.valid, r.complete, r.violations, r.unverified) == (True, True, [], [])
    assert r.variant == variant and r.players == list(players) and r.events == len(events)
    claims = [(e["points"], e["winner"]) for e in events if e["type"] == "hand_end"]
    assert [(h.points, h.winner) for h in r.hands] == claims
    end = events[-1]
    assert end["type"] == "match_end"
    assert (r.totals, r.winner) == (end["totals"], end["winner"])
    assert r.totals == {p: sum(h.points[p] for h in r.hands) for p in players}
    before_last = {p: r.totals[p] - r.hands[-1].points[p] for p in players}
    deals = [e for e in events if e["type"] == "deal"]
    leaders = [e["leader"] for e in deals]
    if variant == "ghost13":
        # G10: the match ends after the first hand at whose end someone has 100
        assert max(r.totals.values()) >= 100 > max(before_last.values())
        # G2: every later hand is led by the winner of the one before
        assert leaders[1:] == [h.winner for h in r.hands[:-1]]
    elif variant == "brettspielnetz":
        # B1, B2, B7: four hands, the first player alternates, the lower penalty total wins
        assert len(r.hands) == 4 and leaders[1:] == [players[(players.index(x) + 1) % 2] for x in leaders[:-1]]
        low = min(r.totals.values())
        assert r.winner == (
            next(p for p in players if r.totals[p] == low) if list(r.totals.values()).count(low) == 1 else None
        )
        assert all(not Tile.parse(e["start_tile"]).is_double for e in deals)
    elif variant == "39":
        # T1: five hands, the higher total wins
        assert len(r.hands) == 5
        best = max(r.totals.values())
        top = [p for p in players if r.totals[p] == best]
        assert r.winner == (top[0] if len(top) == 1 else None)
    elif variant == "double-bergen":
        # D8: the match ends the moment someone reaches the target; D2: the lead rotates
        assert max(r.totals.values()) >= 100 > max(before_last.values())
        assert leaders[1:] == [players[(players.index(x) + 1) % len(players)] for x in leaders[:-1]]
    else:
        # E2: the player after the dealer leads and deals the next hand; E7: the target ends the match
        target = 100 if len(players) == 2 or options else 61
        assert max(r.totals.values()) >= target > max(before_last.values())
        for d, nxt in itertools.pairwise(deals):
            assert nxt["dealer"] == d["leader"]
        assert all(d["leader"] == players[(players.index(d["dealer"]) + 1) % len(players)] for d in deals)
    assert r.head == end["hash"] == chain_head(events)


@PROPS
@given(seed=seeds, index=indexes, config=configs, viewer=st.booleans())
def test_the_hidden_version_scores_exactly_like_the_full_match(
    seed: int, index: int, config: Any, viewer: bool
) -> None:
    events = match_events(seed, index, False, config)
    seen = config[1][0] if viewer else None
    hidden = hide_match(events, seen)
    assert all(e["hands"] is None or list(e["hands"]) == [seen] for e in hidden if e["type"] == "deal")
    assert all(e.get("tile") is None for e in hidden if e["type"] == "draw" and e["player"] != seen)
    if seen is None:  # (the viewer's own tiles are known: when the other player always goes out, no reveal)
        assert any(e["type"] == "reveal" for e in hidden)
    full, tabletop = verify_events(events), verify_events(hidden)
    assert tabletop.violations == []
    if config[0] == "ghost13":
        assert tabletop.unverified == []
    # what stays unverified is whether a hidden player who drew or passed could have played
    assert {v.code for v in tabletop.unverified} <= {"renege"}
    assert not any(v.message.startswith(f"{seen} ") for v in tabletop.unverified)
    assert tabletop.valid and tabletop.complete
    assert hands_of(tabletop) == hands_of(full)
    assert tabletop.totals == full.totals
    assert tabletop.winner == full.winner


@PROPS
@given(seed=seeds, index=indexes, hidden=st.booleans(), config=configs)
def test_the_head_does_not_depend_on_stored_hashes(seed: int, index: int, hidden: bool, config: Any) -> None:
    events = match_events(seed, index, hidden, config)
    stripped = without(events, "hash")
    with_hashes, bare = verify_events(events), verify_events(stripped)
    assert bare.valid and with_hashes.valid
    assert bare.head == with_hashes.head == events[-1]["hash"]


def _edited(key: str, value: Any, draw: Any, players: tuple[str, ...]) -> Any:
    """A different value for one field of a simulated event."""
    other = {p: players[(i + 1) % len(players)] for i, p in enumerate(players)}
    if key in ("tile", "start_tile"):
        return draw(st.sampled_from([t for t in TILE_TEXTS if t != value]), label="tile")
    if key == "winner" and isinstance(value, list):
        return list(reversed(value))
    if key in ("dealer", "chooser"):
        return other[value]
    if key == "options":
        return {**value, "target": 7}
    if key in ("points", "totals"):
        who = draw(st.sampled_from(sorted(value)), label="who")
        return {**value, who: value[who] + draw(st.integers(min_value=1, max_value=50), label="bump")}
    if key in ("player", "leader", "winner"):
        return other[value]
    if key == "end":
        return "right" if value == "left" else "left"
    if key == "hands":
        ana, ben = value[players[0]], value[players[1]]
        return {**value, players[0]: [ben[0], *ana[1:]], players[1]: [ana[0], *ben[1:]]}
    if key == "players":
        return list(reversed(value))
    if key == "tiles":  # a reveal
        return value[1:]
    if key == "seq":
        return value + draw(st.integers(min_value=1, max_value=5), label="seq bump")
    if key == "at":
        return "2031-02-03T04:05:06Z"
    if key == "meta":
        return {**value, "event": "edited"}
    if key in ("id", "variant"):
        return value + "x"
    if key == "suit":  # a 39 declaration
        return "even" if value == "odd" else "odd"
    raise AssertionError(f"no edit for {key}")


@PROPS
@given(seed=seeds, hidden=st.booleans(), config=configs, data=st.data())
def test_editing_one_event_gives_exactly_one_hash_mismatch_there(
    seed: int, hidden: bool, config: Any, data: st.DataObject
) -> None:
    events = match_events(seed, 0, hidden, config)
    i = data.draw(st.integers(min_value=0, max_value=len(events) - 1), label="event")
    keys = sorted(k for k, v in events[i].items() if k not in ("type", "hash") and v is not None)
    key = data.draw(st.sampled_from(keys), label="field")
    edited = [dict(e) for e in events]
    edited[i][key] = _edited(key, events[i][key], data.draw, config[1])
    (r,) = verify_bytes(to_bytes(edited))
    no_internal_errors([r])
    mismatches = [(v.seq, v.line) for v in r.violations if v.code == "hash-mismatch"]
    assert mismatches == [(i + 1, i + 1)]
    assert r.head != events[-1]["hash"]  # the head is recomputed over what was read


# -- garbage ----------------------------------------------------------------------------------------

FIELD_NAMES = sorted(
    {
        "seq",
        "at",
        "hash",
        "variant",
        "players",
        "options",
        "id",
        "meta",
        "leader",
        "dealer",
        "hands",
        "start_tile",
        "chooser",
        "player",
        "tile",
        "end",
        "tiles",
        "suit",
        "points",
        "winner",
        "totals",
        "reason",
        "text",
    }
)

huge_ints = st.integers(min_value=2**63, max_value=10**80) | st.integers(min_value=-(10**80), max_value=-(2**63))
json_leaves = (
    st.none()
    | st.booleans()
    | st.integers()
    | huge_ints
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["\ud800", "a\udfff", "Ana", "Ben", "0-0", "6-6", "7-1", "left"])
)
json_values = st.recursive(
    json_leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=16,
)


def _dump(value: Any, ensure_ascii: bool) -> bytes:
    # ensure_ascii=False with a lone surrogate gives bytes that are not UTF-8: garbage too
    return json.dumps(value, ensure_ascii=ensure_ascii).encode("utf-8", "surrogatepass")


def _nest(depth: int, kind: str) -> bytes:
    inner = b"[" * depth + b"]" * depth
    if kind == "list":
        return inner
    if kind == "dict":
        return b'{"a":' * depth + b"1" + b"}" * depth
    return b'{"type":"note","text":"deep","player":' + inner + b"}"


names = st.sampled_from(PLAYERS) | st.text(min_size=1, max_size=5)
tiles = st.sampled_from(TILE_TEXTS)
points = st.dictionaries(names, st.integers() | huge_ints, max_size=3)
winners = st.none() | names | st.lists(names, min_size=1, max_size=3)
common = {
    "seq": st.integers(min_value=1, max_value=10**30),
    "at": st.sampled_from(["2026-11-21T19:04:11Z", "2026-01-01 18:00:00.25+01:00"]),
    "hash": st.text("0123456789abcdef", min_size=64, max_size=64),
}


def _event(kind: str, required: dict[str, Any], optional: dict[str, Any] | None = None) -> st.SearchStrategy:
    return st.fixed_dictionaries({"type": st.just(kind), **required}, optional={**common, **(optional or {})})


valid_events = st.one_of(
    _event(
        "match_start",
        {
            "variant": st.sampled_from(tuple(VARIANTS)),
            "players": st.lists(names, min_size=2, max_size=4, unique=True),
        },
        {
            "options": st.dictionaries(st.sampled_from(["target", "hands", "x"]), json_leaves, max_size=2),
            "id": st.text(min_size=1, max_size=5),
        },
    ),
    _event(
        "deal",
        {"leader": names},
        {
            "hands": st.none()
            | st.dictionaries(names, st.none() | st.lists(tiles, max_size=15), max_size=3)
            | st.just({"Ana": SET[:14], "Ben": SET[14:]}),
            "dealer": names,
            "start_tile": tiles,
            "chooser": names,
        },
    ),
    _event("play", {"player": names, "tile": tiles}, {"end": st.sampled_from(["left", "right", "3-4:N", "2-2"])}),
    _event("play", {"player": names, "tiles": st.lists(tiles, min_size=2, max_size=2)}),
    _event("draw", {"player": names}, {"tile": tiles}),
    _event("pass", {"player": names}),
    _event("declare", {"player": names, "suit": st.sampled_from(["even", "odd"])}),
    _event("block_call", {"player": names}),
    _event("reveal", {"player": names, "tiles": st.lists(tiles, max_size=15)}),
    _event("hand_end", {}, {"points": points, "winner": winners}),
    _event("match_end", {}, {"totals": points, "winner": winners, "reason": st.just("abandoned")}),
    _event("note", {"text": st.text(max_size=20)}, {"player": names}),
    _event("undo", {}, {"reason": st.text(max_size=10)}),
)

typed_dicts = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.sampled_from(sorted(EVENT_TYPES)),
    st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=6), json_values, max_size=5),
)

garbage_lines = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=200).map(lambda s: s.encode("utf-8")),
    st.builds(_dump, json_values, st.booleans()),
    st.builds(_dump, typed_dicts, st.booleans()),
    st.builds(_dump, valid_events, st.booleans()),
    huge_ints.map(lambda n: str(n).encode()),
    st.just(b"9" * 5000),
    st.builds(_nest, st.sampled_from([1, 2, 50, 500, 1100, 5000, 100_000]), st.sampled_from(["list", "dict", "note"])),
    st.sampled_from(
        [b"\xff\xfe\xfd", b'{"type":"note","text":"\xe9"}', b"NaN", b"[1, 2", b'"\\ud800"', b"{}", b"null"]
    ),
).map(lambda b: b.replace(b"\n", b" ").replace(b"\r", b" "))


def _splice(base: list[bytes], garbage: list[tuple[int, bytes]], first: int) -> tuple[list[bytes], list[int]]:
    """Insert garbage lines into ``base`` (at positions >= ``first``); the line numbers they get."""
    tagged: list[tuple[bytes, bool]] = [(line, False) for line in base]
    for pos, g in garbage:
        tagged.insert(first + pos % (len(tagged) + 1 - first), (g + b"\n", True))
    return [line for line, _ in tagged], [n for n, (_, is_g) in enumerate(tagged, 1) if is_g]


def _is_bad(line: bytes, lineno: int) -> bool:
    stripped = line.strip()
    if lineno == 1 and stripped.startswith(b"\xef\xbb\xbf"):  # the reader skips a leading byte order mark
        stripped = stripped[3:].strip()
    return bool(stripped) and decode_line(stripped, lineno, lineno).error is not None


def _outputs_are_printable(reports: list[MatchReport], data: bytes) -> None:
    """What ``verify`` and ``show`` would print can be written out as UTF-8."""
    for r in reports:
        "\n".join(report_lines(r)).encode("utf-8")
    json.dumps(verify_document(reports), ensure_ascii=False).encode("utf-8")
    logs = list(iter_matches("prop.jsonl", data))
    for k, log in enumerate(logs, 1):
        last = log.records[-1].seq
        render_state(reduce_match(log, last), log, last, k, len(logs)).encode("utf-8")


@FUZZ
@given(
    seed=seeds,
    hidden=st.booleans(),
    config=configs,
    garbage=st.lists(st.tuples(st.integers(min_value=0, max_value=10**6), garbage_lines), min_size=1, max_size=6),
)
def test_garbage_lines_never_raise_and_the_rest_of_the_file_is_checked(
    seed: int, hidden: bool, config: Any, garbage: list[tuple[int, bytes]]
) -> None:
    first = to_bytes(match_events(seed, 0, hidden, config)).splitlines(keepends=True)
    second_events = match_events(seed, 1, hidden, config)
    lines, bad_at = _splice(first, garbage, 0)
    data = b"".join(lines) + to_bytes(second_events)
    reports = verify_bytes(data)
    no_internal_errors(reports)
    named = {v.line for r in reports for v in r.violations}
    for lineno in bad_at:
        if _is_bad(lines[lineno - 1], lineno):
            assert lineno in named, f"garbage line {lineno} {lines[lineno - 1][:80]!r} has no violation"
        elif not lines[lineno - 1].strip():
            assert lineno not in named  # blank lines are ignored
    last = reports[-1]
    clean = verify_events(second_events)
    assert last.line == len(lines) + 1
    assert (last.valid, last.complete, last.violations) == (True, True, [])
    assert hands_of(last) == hands_of(clean) and last.totals == clean.totals and last.head == clean.head
    _outputs_are_printable(reports, data)


@FUZZ
@given(
    seed=seeds,
    hidden=st.booleans(),
    config=configs,
    noise=st.lists(
        st.tuples(st.integers(min_value=0, max_value=10**6), st.builds(_dump, valid_events, st.just(True))),
        min_size=1,
        max_size=10,
    ),
)
def test_tiles_stay_conserved_when_wrong_events_are_mixed_in(
    seed: int, hidden: bool, config: Any, noise: list[tuple[int, bytes]]
) -> None:
    lines, _ = _splice(to_bytes(match_events(seed, 0, hidden, config)).splitlines(keepends=True), noise, 1)
    for log in iter_matches("noise.jsonl", b"".join(lines)):
        reducer = MatchReducer(log.source, log.line)
        reducer.orphan = log.orphan
        for rec in log.records:
            reducer.feed(rec)
            no_internal_errors([reducer.report()])
            hand = reducer.state.hand if reducer.state is not None else None
            if hand is not None and not any(v.code == "bad-deal" for v in reducer.violations):
                assert hand.conserved(), f"line {rec.line}: {rec.raw[:120]}"


bad_lines = garbage_lines.filter(lambda b: b'"match_start"' not in b and _is_bad(b, 1))


@FUZZ
@given(
    seed=seeds,
    hidden=st.booleans(),
    config=configs,
    garbage=st.lists(st.tuples(st.integers(min_value=0, max_value=10**6), bad_lines), min_size=1, max_size=5),
)
def test_a_bad_line_inside_a_match_is_one_malformed_and_the_match_is_still_scored(
    seed: int, hidden: bool, config: Any, garbage: list[tuple[int, bytes]]
) -> None:
    # without seq and hash fields, the inserted lines shift nothing that is checked
    events = without(match_events(seed, 0, hidden, config), "seq", "hash")
    lines, bad_at = _splice(to_bytes(events).splitlines(keepends=True), garbage, 1)
    (r,) = verify_bytes(b"".join(lines))
    clean = verify_events(events)
    assert [(v.line, v.code) for v in r.violations if v.code != "hash-mismatch"] == [(n, "malformed") for n in bad_at]
    # a garbage object that carries a `hash` key when the match has none: also named at its line
    assert {v.line for v in r.violations if v.code == "hash-mismatch"} <= set(bad_at)
    assert [v.seq for v in r.violations if v.code == "malformed"] == bad_at  # one record per non-blank line
    assert hands_of(r) == hands_of(clean) and r.totals == clean.totals and r.winner == clean.winner
    assert r.complete


def test_a_deeply_nested_line_is_malformed_and_the_match_goes_on() -> None:
    events = without(match_events(7), "seq", "hash")
    lines = to_bytes(events).splitlines(keepends=True)
    deep = _nest(1000, "note") + b"\n"
    (r,) = verify_bytes(b"".join([*lines[:3], deep, *lines[3:]]))
    clean = verify_events(events)
    assert [(v.seq, v.line, v.code) for v in r.violations] == [(4, 4, "malformed")]
    assert hands_of(r) == hands_of(clean) and r.totals == clean.totals and r.complete


def test_reading_bytes_and_reading_the_file_give_the_same_records(tmp_path: Any) -> None:
    events = without(match_events(7), "seq", "hash")
    lines = to_bytes(events).splitlines(keepends=True)
    data = b"".join([*lines[:3], b"torn\rline\n", *lines[3:]])
    path = tmp_path / "cr.jsonl"
    path.write_bytes(data)

    def records(logs: Any) -> list[tuple[int, int, bool]]:
        return [(rec.line, rec.seq, rec.error is None) for log in logs for rec in log.records]

    assert records(iter_matches(path, data)) == records(iter_matches(path))


# -- determinism --------------------------------------------------------------------------------------


@PROPS
@given(seed=seeds, matches=st.integers(min_value=1, max_value=3), config=configs)
def test_simulate_is_deterministic(seed: int, matches: int, config: Any) -> None:
    variant, players, options = config
    once = "\n".join(simulate_lines(variant, matches, seed, list(players), options, hide=True))
    again = "\n".join(simulate_lines(variant, matches, seed, list(players), options, hide=True))
    assert once == again
    assert match_events(seed, matches - 1, False, config) == match_events(seed, matches - 1, False, config)
    reports = verify_bytes(once.encode() + b"\n")
    assert len(reports) == matches and all(r.valid and r.complete for r in reports)
    assert len({r.head for r in reports}) == matches
