"""The scoring of a hand worked out in words, one sentence a step, for an arbiter.

:func:`scoring_steps` reads the hand as the variant scored it (the reducer's :class:`HandState`
at the hand's end, after the reveals) and the :class:`HandResult` the variant gave. Every number
comes from the variant (``score_hand``'s ``detail``, the points of each play it recorded, its
ghost value, aggressor and bonus); the words only say how they add up, and the last sentence
ends with exactly ``result.points`` and the winner. :func:`fold_scored` folds a match and keeps
each hand as it was scored, with the table's claim.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dominolog.events import HandEnd
from dominolog.layouts.grid import GridLayout
from dominolog.log.reader import MatchLog
from dominolog.reducer import MatchReducer
from dominolog.reducer.claims import fmt_points, fmt_winner, same_winner
from dominolog.state import HandResult, HandState, MatchState, Placement, WinnerValue
from dominolog.variants import Variant, find_variant
from dominolog.variants.brettspielnetz import Brettspielnetz
from dominolog.variants.double_bergen import DoubleBergen, placement_score
from dominolog.variants.double_draw import DoubleDraw
from dominolog.variants.ghost13 import ZERO_SUIT, ZERO_ZERO, Ghost13
from dominolog.variants.thirty_nine import ThirtyNine


@dataclass(slots=True)
class ScoredHand:
    """A hand as the variant scored it: its final state, its result, and what its ``hand_end`` claimed
    (None when no ``hand_end`` closed it; ``winner`` is in the claim only when the table wrote one)."""

    hand: HandState
    result: HandResult
    claim: dict[str, Any] | None


class HandsScored:
    """A listener of the fold (:class:`~dominolog.reducer.context.FoldListener`) that keeps every
    hand it closes, as scored, in :attr:`scored`."""

    def __init__(self) -> None:
        self.scored: list[ScoredHand] = []

    def hand_closed(self, hand: HandState, result: HandResult, end: HandEnd | None) -> None:
        self.scored.append(ScoredHand(hand, result, claim_of(end) if end is not None else None))


def scoring_reducer(source: str = "<log>", line: int = 1) -> tuple[MatchReducer, HandsScored]:
    """A reducer whose closed hands are kept, as scored, by the listener returned with it."""
    reducer = MatchReducer(source, line)
    reducer.listener = hands = HandsScored()
    return reducer, hands


def claim_of(ev: HandEnd) -> dict[str, Any]:
    """What a ``hand_end`` claims: ``{"points": {...} | None}``, and ``"winner"`` when it names one (or null)."""
    claim: dict[str, Any] = {"points": dict(ev.points) if ev.points is not None else None}
    if "winner" in ev.given:
        claim["winner"] = ev.winner
    return claim


def fold_scored(log: MatchLog) -> tuple[MatchReducer, list[ScoredHand]]:
    """Fold one match: the reducer, and each hand as it was scored, in order."""
    reducer, hands = scoring_reducer(log.source, log.line)
    reducer.orphan = log.orphan
    for rec in log.records:
        reducer.feed(rec)
    return reducer, hands.scored


# -- words ---------------------------------------------------------------------------------------


def _tiles(tiles: Any) -> str:
    return ", ".join(str(t) for t in sorted(tiles))


def _expr(values: list[int]) -> str:
    """``2 + 2 + 0 - 1``."""
    out = str(values[0]) if values else "0"
    for v in values[1:]:
        out += f" - {-v}" if v < 0 else f" + {v}"
    return out


def _total(values: list[int], total: int) -> str:
    """``2 + 2 + 0 = 4``, or ``4`` alone."""
    return f"{_expr(values)} = {total}" if len(values) > 1 else str(total)


def _outcome(points: dict[str, int], winner: WinnerValue) -> str:
    return f"{fmt_points(points)}, {'no winner' if winner is None else 'winner ' + fmt_winner(winner)}"


def _by_seq(hand: HandState, seq: int | None) -> list[Placement]:
    return [p for p in hand.placements if p.seq == seq]


def _holding(hand: HandState, player: str, total: int | None = None, ghost: int = 0) -> str:
    """``Ben holds 0-0, 3-6: 9 pips.`` (a ghost [0-0] counted apart), or why the pips are unknown."""
    h = hand.holdings[player]
    if h.unknown:
        seen = f" ({_tiles(h.known)} known)" if h.known else ""
        return f"{player}'s {h.count} tiles{seen} were never revealed: {player}'s pips are unknown."
    if not h.known:
        return f"{player} holds no tiles: 0 pips."
    face = sum(t.pips for t in h.known)
    if ghost and ZERO_ZERO in h.known:
        return f"{player} holds {_tiles(h.known)}: {face} + {ghost} for the ghost = {face + ghost} pips."
    return f"{player} holds {_tiles(h.known)}: {total if total is not None else face} pips."


def _sums(what: str, state: MatchState, result: HandResult, hand: HandState, scored: list[tuple[str, int]]) -> str:
    """``Play points: Ana 0 - 1 = -1; Ben 4 = 4`` from the points of each play the variant recorded."""
    total = result.detail.get("play_points", hand.points)
    per = {p: [s for q, s in scored if q == p] for p in state.players}
    return f"{what}: " + "; ".join(f"{p} {_total(per[p], total.get(p, 0))}" for p in state.players)


def _ending(variant: Any, state: MatchState, hand: HandState, result: HandResult) -> str:
    """How the hand ended, and by which ruling (the variant's :attr:`~Variant.end_rulings`)."""
    end, seq = result.end, hand.over_seq
    rid = ", ".join(variant.end_rulings.get(end, ("C4",)))
    ghost13 = isinstance(variant, Ghost13)
    plays = _by_seq(hand, seq)
    at = f"at seq {seq}" if seq is not None else "when the table closed it"
    passes = [a for a in hand.actions if a[2] == "pass" and a[0] <= (seq or 0)]
    n = len(state.players)
    if end == "abandoned":
        kept = "the points made during play stand" if variant.scores_in_play else "no points"
        return f"Hand {hand.number} was closed before its end: it is abandoned, with no winner and {kept} (C4)."
    if end != "call" and seq not in (None, hand.deal_seq) and all(a[0] != seq for a in hand.actions) and not plays:
        return (
            f"The table closed the hand at seq {seq}, taken as a {end}: hidden tiles keep it from being checked (C4)."
        )
    if end == "domino" and plays:
        laid = f"the last tile in hand, {plays[0].tile},"
        if len(plays) == 2:
            laid = f"the last two tiles in hand, {plays[0].tile} and {plays[1].tile}, as a pair play"
        also = " (it also locked the line: the domino comes first)"
        also = also if ghost13 and variant.locked(hand) is True else ""
        return f"{plays[-1].player} laid {laid} at seq {seq}: a domino ends the hand{also} ({rid})."
    if ghost13 and end == "block" and hand.placements:
        last = hand.placements[-1]
        ends = hand.layout.open_values()
        if seq != last.seq:
            twice = ", ".join(str(a[0]) for a in passes[-2:])
            return f"Two passes in a row (seq {twice}) ended the hand; the last placement was {_play(last)} (G6)."
        k = hand.confirm_passes + sum(1 for a in hand.actions if a[0] > last.seq and a[2] == "pass")
        confirmed = f"; the table confirmed the lock with {k} pass{'es' * (k != 1)}" if k else ""
        return (
            f"{_play(last)} locked the line (ends {ends[0]} and {ends[-1]}): neither player could play, and the "
            f"hand ended{confirmed} (G6)."
        )
    if end == "stock-out":
        return (
            f"{at.capitalize()} the boneyard was down to {hand.boneyard.count} tiles and {hand.turn}, on move, could "
            f"not play: a stock-out ends the hand, and the tiles left in the boneyard count for nobody (B4, C5)."
        )
    if end == "target" and plays:
        p = plays[-1].player
        before = sum(r.points.get(p, 0) for r in state.results if r.number < hand.number)
        made = hand.points.get(p, 0)
        return (
            f"{_play(plays[-1])} brought {p}'s total to {before} + {made} = {before + made}, reaching the target "
            f"{state.options.get('target')}: the match ends in the middle of the hand (D8)."
        )
    if end == "call":
        dead = variant.dead_end(hand)
        side = next((e for e, v in hand.layout.ends().items() if v == dead), "an")
        return (
            f"A valid blocked-game call {at} ended the hand: the {side} end shows {dead} and all seven "
            f"tiles of {dead} lie on the line (E4, E5)."
        )
    if passes and passes[-1][0] == seq and len(passes) >= n:
        who = ", ".join(f"{p} at seq {s}" for s, p, _ in passes[-n:])
        return f"{'Every player' if n > 2 else 'Both players'} passed in a row ({who}): the hand is over ({rid})."
    if end == "block":
        return f"{at.capitalize()} no player could play or draw: the hand is blocked ({rid})."
    return f"The hand ended ({end}) {at} ({rid})."


def _play(p: Placement) -> str:
    return f"{p.player}'s {p.tile} at seq {p.seq}"


def _claim(result: HandResult, claim: dict[str, Any] | None, players: list[str]) -> str:
    """The last step: what the table wrote against what the rules give (``result.points`` last)."""
    rules = _outcome(result.points, result.winner)
    if claim is None:
        return f"No hand_end closed the hand; the rules give {rules}."
    parts, agree = [], True
    if claim.get("points") is not None:
        full = {p: claim["points"].get(p, 0) for p in players}  # a player left out claims 0
        parts.append(fmt_points(full))
        agree = full == result.points
    if "winner" in claim:
        parts.append("no winner" if claim["winner"] is None else "winner " + fmt_winner(claim["winner"]))
        agree = agree and same_winner(claim["winner"], result.winner)
    wrote = f"The table wrote {', '.join(parts)}" if parts else "The hand_end claimed no score"
    if not result.verified:
        return f"Hidden tiles keep the rules from scoring the hand, so the table's claim is taken: {rules}."
    return f"{wrote}{', as' if agree and parts else '; but' if parts else ';'} the rules give {rules}."


# -- the variants ---------------------------------------------------------------------------------


def _ghost13(v: Any, state: MatchState, hand: HandState, result: HandResult) -> list[str]:
    out: list[str] = []
    ghost = v.ghost_value(hand)
    holder = hand.holder_of(ZERO_ZERO)
    if holder is not None:
        missing = [t for t in ZERO_SUIT if t not in hand.layout.on_board]
        why = "0-1 to 0-6 all lie on the line and neither end shows 0, so it counts 13"
        if not ghost:
            why = f"{_tiles(missing)} {'is' if len(missing) == 1 else 'are'} not on the line, so it counts 0"
            why = why if missing else "an open end shows 0, so it counts 0"
        out.append(f"{holder} still holds the 0-0: {why} (G7).")
    pips = result.detail.get("pips", {})
    out += [_holding(hand, p, pips.get(p), ghost) for p in state.players]
    if not result.verified:
        return out
    w = result.winner
    if result.end == "domino":
        loser = next(p for p in state.players if p != w)
        return [*out, f"{w} went out and scores {loser}'s pips: {pips[loser]} (G9)."]
    aggressor = result.detail.get("aggressor")
    if aggressor is None:
        return [*out, "No tile was placed: there is no locking placement, no aggressor and no points (G8, G9)."]
    out.append(_aggressor(state, hand, aggressor, bool(result.detail.get("puppeteer"))))
    other = next(p for p in state.players if p != aggressor)
    pa, po = pips[aggressor], pips[other]
    if w == aggressor:
        won = f"{w} wins the block and scores twice {other}'s pips, 2 × {po} = {2 * po}"
        return [*out, f"The aggressor {w} has no more pips than {other} ({pa} <= {po}): {won} (G9)."]
    won = f"the block fails; {other} wins and scores both players' pips, {pa} + {po} = {pa + po}"
    return [*out, f"The aggressor {aggressor} has more pips than {other} ({pa} > {po}): {won} (G9)."]


def _aggressor(state: MatchState, hand: HandState, aggressor: str, puppeteer: bool) -> str:
    """G8 in words: who the aggressor is, and why (the variant's own tests, told back)."""
    last = hand.placements[-1]
    b, tile = last.player, last.tile
    before = [act for act in hand.actions if act[0] < last.seq]
    if puppeteer:
        prev = _by_seq(hand, before[-1][0])
        what = _play(prev[0]) if prev else f"a play by {aggressor}"
        return (
            f"{_play(last)} was the only tile {b} could play when the turn began, and every placement of it "
            f"locked the line; the play just before was {what}: {aggressor} is the aggressor, as Puppeteer (G8)."
        )
    ends = last.ends_before
    legal = sorted(t for t in hand.holdings[b].known | {tile} if t.has(ends[0]) or t.has(ends[-1]))
    why = f"another placement of {tile} would not have locked the line"
    if not before:
        why = f"nothing came before {b}'s turn"
    elif before[-1][1:] != (state.next_player(b), "play"):
        s, p, kind = before[-1]
        why = f"the event before {b}'s turn was a {kind} by {p} (seq {s})"
    elif legal != [tile]:
        why = f"{b} could also play {_tiles(t for t in legal if t is not tile)}"
    made = f"{b} made the locking placement, {tile} at seq {last.seq}, and is the aggressor"
    return f"{made}; the Puppeteer rule does not apply: {why} (G8)."


def _brettspielnetz(v: Any, state: MatchState, hand: HandState, result: HandResult) -> list[str]:
    pips = result.detail.get("pips", {})
    out = [_holding(hand, p, pips.get(p)) for p in state.players]
    w = result.winner
    if not result.verified:
        return out
    if result.end == "domino" and w is not None:
        out += [f"After a domino {p} gets 5 more: {pips[p]} + 5 = {result.points[p]} (B6)." for p in pips if p != w]
        return [*out, f"{w} went out and wins the hand; scores are penalties, lower is better (B6, B7)."]
    if w is None:
        return [*out, f"Equal penalties ({next(iter(pips.values()))} each): nobody wins the hand (B6)."]
    lower = f"({pips[w]} < {next(pips[p] for p in pips if p != w)})"
    return [*out, f"{w} has the lower penalty {lower} and wins the hand; there is no +5 after a stock-out (B6)."]


def _thirty_nine(v: Any, state: MatchState, hand: HandState, result: HandResult) -> list[str]:
    out = _t8_plays(state, hand, result)
    if not result.verified or result.end == "abandoned":
        return out
    bonus, play = result.detail.get("bonus", 0), result.detail.get("play_points", hand.points)
    w = next((p for p in state.players if hand.holdings[p].count == 0), None)
    if result.end == "domino" and w is not None:
        loser = next(p for p in state.players if p != w)
        out += [_bonus(hand, w, loser, bonus), f"{w}: play points {play[w]} + bonus {bonus} = {result.points[w]}."]
    elif result.end == "passes":
        out.append("Two passes earn no end bonus (T11).")
    a, b = state.players
    last = f"{result.winner} has more points and wins" if result.winner else "equal points, nobody wins"
    return [*out, f"{a} {result.points[a]} against {b} {result.points[b]}: {last} the hand (T12)."]


def _t8_plays(state: MatchState, hand: HandState, result: HandResult) -> list[str]:
    """T8 per play: what it scored under the preferred suit in force, and the declarations (T7)."""
    out: list[str] = []
    records = hand.extra.get("scores", ())
    by_seq = {p.seq: p for p in hand.placements}
    for i, (seq, player, score, made, suit) in enumerate(records):
        tile, suit = by_seq[seq].tile, str(suit).capitalize()
        if i == 0:
            out.append(
                f"Seq {seq}: {player} sets {tile}; the set scores nothing, and its {tile.pips} pips make {suit} the "
                f"preferred suit (T3, T6)."
            )
            continue
        force = str(records[i - 1][4]).capitalize()
        if tile.is_double and tile.lo == 0:
            words = f"the 0-0 scores {'the last doublet that scored' if force == 'Even' else 'nothing under Odd'}"
        elif tile.is_double:
            words = f"a doublet of the {'preferred' if score else 'penalty'} suit ({force} preferred)"
        else:
            placed = hand.layout.placed[tile]
            left = placed.halves[1] if placed.dir in ("S", "E") else placed.halves[0]
            kind = "preferred" if (left % 2 == 0) == (force == "Even") else "penalty"
            words = f"it leaves {left}, of the {kind} suit ({force} preferred)"
            words += ", and makes a match" + (", which saves the -1" if kind == "penalty" else "") if made else ""
        match = " (a match)" if made and tile.is_double else ""
        declared = f"; {player} then declares {suit} (T7)" if suit != force else ""
        out.append(f"Seq {seq}: {player} plays {tile}{match}: {words}; it scores {score} (T8){declared}.")
    return [*out, _sums("Play points", state, result, hand, [(r[1], r[2]) for r in records[1:]]) + " (T8)."]


def _bonus(hand: HandState, winner: str, loser: str, bonus: int) -> str:
    """T11: the bonus the one who went out takes from the tiles left in the other hand."""
    left = sorted(hand.holdings[loser].known)
    singles = [t for t in left if not t.is_double]
    doubles = [t for t in left if t.is_double and t.lo]
    parts, values = [], []
    if singles:
        parts.append(f"{len(singles)} singlet{'s' * (len(singles) != 1)}, 1 each ({len(singles)})")
        values.append(len(singles))
    if doubles:
        parts.append(f"doublets {_tiles(doubles)} ({_total([t.lo for t in doubles], sum(t.lo for t in doubles))})")
        values.append(sum(t.lo for t in doubles))
    if ZERO_ZERO in left:
        last = hand.extra.get("last_double")
        worth = f"the last doublet placed, {last}-{last}" if last is not None else "0: no doublet was placed"
        parts.append(f"the 0-0, worth {worth} ({last or 0})")
        values.append(last or 0)
    held = f"{loser} keeps {_tiles(left)}: " + ", ".join(parts) if left else f"{loser} keeps no tiles"
    return f"{held}: a bonus of {_total(values, bonus)} for {winner} (T11, C5)."


def _double_bergen(v: Any, state: MatchState, hand: HandState, result: HandResult) -> list[str]:
    recorded = {seq: (player, score) for seq, player, score in hand.extra.get("scores", ())}
    out = [
        *_d6_plays(hand, recorded),
        _sums("Placement points", state, result, hand, list(recorded.values())) + " (D6).",
    ]
    w, play, pips = str(result.winner), result.detail.get("play_points", hand.points), result.detail.get("pips", {})
    if result.end == "abandoned" or not result.verified:
        return out + [_holding(hand, p) for p in state.players if hand.holdings[p].unknown]
    if result.end == "target":
        return [*out, "The hand ends at the target: no winner and no +1; the points made during play stand (D8)."]
    if result.end == "domino" and result.winner is not None:
        return [*out, f"{w} went out, wins the hand and scores 1 more: {play[w]} + 1 = {result.points[w]} (D7)."]
    out += [_holding(hand, p, pips.get(p)) for p in state.players]
    if result.winner is None:
        return [*out, f"Several players share the lowest pip total ({min(pips.values())}): nobody gets the +1 (D7)."]
    won = f"wins the hand and scores 1 more: {play[w]} + 1 = {result.points[w]}"
    return [*out, f"{w} has the lowest pip total ({pips[w]}): {w} {won} (D7, C5)."]


def _d6_plays(hand: HandState, recorded: dict[int, tuple[str, int]]) -> list[str]:
    """D6 per placement: the open ends after it and what each value scores (the table laid again)."""
    out: list[str] = []
    layout: GridLayout | None = GridLayout(False)
    for pl in hand.placements:
        player, score = recorded.get(pl.seq, (pl.player, 0))
        side = layout.side(pl.end) if layout is not None and pl.end else None
        if layout is not None and pl.end == "":
            layout.place_first(*hand.layout.placed[pl.tile].halves, pl.tile)
        elif layout is not None and side is not None:
            layout.place(pl.tile, side)
        else:
            layout = None
        words = _d6_words(layout, score) if layout is not None and placement_score(layout) == score else ""
        on = f" on {pl.end}" if pl.end else ""
        out.append(f"Seq {pl.seq}: {player} places {pl.tile}{on}{words}; it scores {score} (D6).")
    return out


def _d6_words(layout: GridLayout, score: int) -> str:
    ends = [(s.value, s.double, False) for s in layout.open_sides() if not s.first]
    if layout.first is not None and any(s.first for s in layout.open_sides()):
        ends.append((layout.first.lo, True, True))
    shown = ", ".join(f"{v} (spinner)" if sp else f"{v} (double)" if d else str(v) for v, d, sp in ends)
    parts, total = [], 0
    for value in sorted({e[0] for e in ends}):
        group = [e for e in ends if e[0] == value]
        d = sum(1 for e in group if e[1])
        s, spinner = len(group) - d, any(e[2] for e in group)
        if d and (d + s >= 2 or spinner):
            parts.append(f"{value}s: 2 × {d}{f' + {s}' if s else ''} = {2 * d + s}")
            total += 2 * d + s
        elif s >= 2:
            parts.append(f"{value}s: {s} single ends = {s}")
            total += s
    if total != score:
        return ""
    return f"; open ends {shown}; {', '.join(parts) if parts else 'no value scores'}"


def _double_draw(v: Any, state: MatchState, hand: HandState, result: HandResult) -> list[str]:
    pips = result.detail.get("pips", {})
    out = [_holding(hand, p, pips.get(p)) for p in state.players]
    if not result.verified:
        return out
    sides = v.sides()
    totals = [sum(pips[p] for p in side) for side in sides]
    named = [" and ".join(side) for side in sides]
    if len(sides[0]) > 1:
        added = "; ".join(
            f"{n} {_expr([pips[p] for p in s])} = {t}" for n, s, t in zip(named, sides, totals, strict=True)
        )
        out.append(f"Partners add their pips: {added} (E6).")
    low = min(totals)
    if totals.count(low) > 1:
        tied = ", ".join(n for n, t in zip(named, totals, strict=True) if t == low)
        return [*out, f"{tied} share the lowest total ({low}): nobody scores (E6)."]
    i = totals.index(low)
    others = [t for j, t in enumerate(totals) if j != i]
    won = f"{_expr(others)} - {low} = {sum(others) - low}"
    if len(sides[i]) > 1:
        won += f", credited to both: {fmt_points({p: result.points[p] for p in sides[i]})}"
    has, score, own = ("have", "score", "their") if len(sides[i]) > 1 else ("has", "scores", named[i] + "'s")
    return [
        *out,
        f"{named[i]} {has} the lowest total ({low}) and {score} the others' pips minus {own} own: {won} (E6).",
    ]


#: the words of each variant's scoring, by its class (a variant with none: the ending and the claim alone)
VARIANT_STEPS: dict[type[Variant], Callable[[Any, MatchState, HandState, HandResult], list[str]]] = {
    Ghost13: _ghost13,
    Brettspielnetz: _brettspielnetz,
    ThirtyNine: _thirty_nine,
    DoubleBergen: _double_bergen,
    DoubleDraw: _double_draw,
}


def scoring_steps(state: MatchState, hand: HandState, result: HandResult, claim: dict[str, Any] | None) -> list[str]:
    """The hand's scoring in sentences: how it ended, the tiles and pips left, the points of the
    plays, the aggressor or the bonus, the arithmetic, and last what the table claimed against what
    the rules give (that sentence ends with ``result.points`` and the winner)."""
    variant = find_variant(state.variant)(state.players, state.options)
    out = [_ending(variant, state, hand, result)]
    steps = VARIANT_STEPS.get(type(variant))
    if steps is not None and (result.end != "abandoned" or variant.scores_in_play):
        out += steps(variant, state, hand, result)
    return [*out, _claim(result, claim, state.players)]


__all__ = ["HandsScored", "ScoredHand", "claim_of", "fold_scored", "scoring_reducer", "scoring_steps"]
