"""Ghost 13 (``ghost13``): rulings C1-C5 and G1-G10 of RULINGS.md.

Two players, 14 tiles each, no boneyard; blocks are scored through an
aggressor (direct, or the Puppeteer of a forced locking play); a [0-0] left in
a hand can be worth 13 ("the ghost").
"""

from __future__ import annotations

from typing import Any, ClassVar

from dominolog.events import Pass, Play
from dominolog.state import HandResult, HandState, MatchState, PendingCheck, Placement
from dominolog.tiles import Tile, suit
from dominolog.variants.base import Ctx, VariantError
from dominolog.variants.judges import judge_fit
from dominolog.variants.line import LineVariant, can_play_line
from dominolog.variants.rulings import TURN, ids, renege

ZERO_ZERO = Tile(0, 0)
ZERO_SUIT = tuple(Tile(0, v) for v in range(1, 7))
SUITS = tuple(suit(v) for v in range(7))


class Ghost13(LineVariant):
    name = "ghost13"
    title = "Ghost 13"
    #: the rulings of docs/rulings.md behind each way a hand ends, and behind each part of the rules
    end_rulings: ClassVar[dict[str, tuple[str, ...]]] = {"domino": ("G5",), "block": ("G6",)}
    rulings: ClassVar[dict[str, tuple[str, ...]]] = {
        "deal": ("G1",),
        "leader": ("G2",),
        "turn": ("G3", "G4"),
        "order": ("G3",),
        "renege": ("G4",),
        "place": ("C2",),
        "score": ("C5", "G7", "G9"),
        "winner": ("G9",),
        "match": ("G10",),
    }
    min_players = 2
    max_players = 2
    option_specs: ClassVar[dict[str, tuple[Any, tuple[type, ...], str]]] = {
        "target": (100, (int,), "the score that ends the match at the end of a hand (G10)")
    }

    def check_options(self) -> None:
        if self.options["target"] < 1:
            raise VariantError("option 'target' must be at least 1")

    def hand_size(self, n_players: int) -> int:  # G1
        return 14

    def expected_leader(self, match: MatchState) -> str | None:  # G2
        if not match.results:
            return None
        winner = match.results[-1].winner
        return winner if isinstance(winner, str) else None

    # -- play --------------------------------------------------------------
    def on_play(self, match: MatchState, hand: HandState, ev: Play, ctx: Ctx) -> None:
        if ev.tiles is not None:
            ctx.violation("illegal", "pair plays belong to double-draw", ids(TURN, self.name), (), (ev.player,))
            return
        placement = self.place(match, hand, ev, ctx)  # G3, C2
        if placement is not None:
            self._after_placement(hand, placement)

    def _after_placement(self, hand: HandState, placement: Placement) -> None:
        if hand.holdings[placement.player].count == 0:  # G5: domino, even if it also locks
            hand.over, hand.over_seq = "domino", placement.seq
        elif self.locked(hand) is True:  # G6: immediate lock
            hand.over, hand.over_seq = "block", placement.seq

    def locked(self, hand: HandState) -> bool | None:
        """Neither player can play: True, False, or None when hidden tiles keep it open."""
        layout = hand.line
        if layout.empty:
            return False
        if not hand.unaccounted:
            # Every tile is on the table or known in a hand (all 28 are dealt): the line is
            # locked exactly when both end suits are all on the table.
            board = layout.on_board
            return SUITS[layout.left] <= board and SUITS[layout.right] <= board  # type: ignore[index]
        unsure = False
        for p in hand.holdings:
            can = can_play_line(hand, p)
            if can is True:
                return False
            unsure = unsure or can is None
        return None if unsure else True

    def on_pass(self, match: MatchState, hand: HandState, ev: Pass, ctx: Ctx) -> None:
        player = ev.player
        self.check_turn(match, hand, player, ctx)
        if hand.over is not None:  # a confirming pass of a lock recorded with hidden hands (G6)
            hand.confirm_passes += 1
            hand.turn = match.next_player(player)
            return
        can = can_play_line(hand, player)
        if can is True:  # C3, G4
            legal = self.legal_placements(hand, player)[:4]
            options = ", ".join(f"{t} {e}".strip() for t, e in legal)
            tiles = tuple(sorted({str(t) for t, _ in legal}))
            ctx.violation(
                "renege", f"{player} passes while holding a legal play ({options})", renege(self.name), tiles, (player,)
            )
        elif can is None:  # judged again, in every world the hand's facts allow, as the facts come in
            h = hand.holdings[player]
            check = PendingCheck(
                ctx.seq,
                player,
                h.count,
                frozenset(h.known),
                hand.possible(player),
                judge_fit(hand.layout.open_values()),
                f"{player} passes while holding a legal play",
                f"{player} passes",
                renege(self.name),
            )
            ctx.unverified(
                "renege",
                f"{player} passes; {player}'s hand is hidden, so the pass cannot be checked yet",
                check,
                renege(self.name),
                (player,),
            )
        hand.actions.append((ctx.seq, player, "pass"))
        hand.consecutive_passes += 1
        hand.turn = match.next_player(player)
        if hand.consecutive_passes >= 2:  # G6: confirmed lock (pass-pass)
            hand.over, hand.over_seq = "block", ctx.seq

    def accepts_after_over(self, hand: HandState, kind: str) -> bool:
        # G6: recorded with hidden hands, a lock is confirmed by two passes after it.
        return (
            kind == "pass"
            and hand.hidden
            and hand.over == "block"
            and hand.consecutive_passes + hand.confirm_passes < 2
        )

    def may_be_over(self, hand: HandState) -> bool | None:
        return self.locked(hand)

    # -- scoring -----------------------------------------------------------
    def ghost_value(self, hand: HandState) -> int:
        """G7: what a [0-0] left in a hand counts."""
        board = hand.layout.on_board
        if all(t in board for t in ZERO_SUIT) and 0 not in hand.layout.open_values():
            return 13
        return 0

    def pips_left(self, hand: HandState, player: str) -> int:
        ghost = self.ghost_value(hand)
        return sum(ghost if t is ZERO_ZERO else t.pips for t in hand.holdings[player].known)

    def aggressor(self, match: MatchState, hand: HandState) -> tuple[str, bool]:
        """G8: the aggressor of a block, and whether the Puppeteer rule made them so."""
        last = hand.placements[-1]
        b = last.player
        a = match.next_player(b)
        before = [act for act in hand.actions if act[0] < last.seq]
        if not before or before[-1] != (before[-1][0], a, "play"):
            return b, False
        ends = last.ends_before
        hand_b = hand.holdings[b].known | {last.tile}
        legal = {t for t in hand_b if t.has(ends[0]) or t.has(ends[-1])}
        if legal != {last.tile}:
            return b, False
        rest = (hand_b - {last.tile}) | hand.holdings[a].known
        if not hand_b - {last.tile}:
            return b, False  # that play is a domino, not a block
        for end in ("left", "right"):
            value = ends[0] if end == "left" else ends[-1]
            if not last.tile.has(value):
                continue
            left, right = (last.tile.other(value), ends[-1]) if end == "left" else (ends[0], last.tile.other(value))
            if any(t.has(left) or t.has(right) for t in rest):
                return b, False
        return a, True

    def score_hand(self, match: MatchState, hand: HandState, ctx: Ctx) -> HandResult | None:
        if not hand.fully_known:
            return None
        p, q = self.players
        pips = {p: self.pips_left(hand, p), q: self.pips_left(hand, q)}
        points = {p: 0, q: 0}
        detail: dict[str, Any] = {"pips": dict(pips)}
        if hand.over == "domino":  # G9 domino
            winner = p if hand.holdings[p].count == 0 else q
            loser = q if winner == p else p
            points[winner] = pips[loser]
        elif not hand.placements:
            # Both players passed before any tile was set (reneges, flagged at the passes):
            # there is no locking placement, hence no aggressor, winner or points.
            return HandResult(hand.number, "block", None, points, {**detail, "aggressor": None, "puppeteer": False})
        else:  # G9 block
            aggressor, puppeteer = self.aggressor(match, hand)
            other = q if aggressor == p else p
            detail["aggressor"] = aggressor
            detail["puppeteer"] = puppeteer
            if pips[aggressor] <= pips[other]:
                winner = aggressor
                points[winner] = 2 * pips[other]
            else:
                winner = other
                points[winner] = pips[aggressor] + pips[other]
        return HandResult(hand.number, hand.over or "block", winner, points, detail)

    def abandoned_result(self, match: MatchState, hand: HandState) -> HandResult:
        return HandResult(hand.number, "abandoned", None, {p: 0 for p in self.players})

    def after_hand(self, match: MatchState) -> None:  # G10
        if any(v >= self.options["target"] for v in match.totals.values()):
            match.over = True
