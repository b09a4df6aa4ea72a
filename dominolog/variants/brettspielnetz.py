"""Brettspielnetz Domino (``brettspielnetz``): rulings C1-C5 and B1-B7 of RULINGS.md.

Two players, 7 tiles each, a start tile turned up (never a double), 13 in the
boneyard. A player who cannot play draws, one tile at a time and at most
``draw_limit`` a turn, but never below 2 tiles in the boneyard; the hand ends
on a domino or when the player on move cannot play with 2 tiles left (the
stock-out end). Scores are penalties: lower is better.
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar

from dominolog.events import Deal, Draw, Pass, Play
from dominolog.state import HandResult, HandState, MatchState, WinnerValue
from dominolog.tiles import Tile
from dominolog.variants.base import Ctx, VariantError
from dominolog.variants.judges import judge_fit, judge_not
from dominolog.variants.line import LineVariant, can_play_line
from dominolog.variants.rulings import TURN, ids

FLOOR = 2  # B3: the boneyard never goes below 2 tiles
DOMINO_BONUS = 5  # B6


class Brettspielnetz(LineVariant):
    name = "brettspielnetz"
    title = "Brettspielnetz Domino"
    #: the rulings of docs/rulings.md behind each way a hand ends, and behind each part of the rules
    end_rulings: ClassVar[dict[str, tuple[str, ...]]] = {"domino": ("B5",), "stock-out": ("B4",)}
    rulings: ClassVar[dict[str, tuple[str, ...]]] = {
        "deal": ("B1",),
        "leader": ("B2",),
        "turn": ("B3", "B4"),
        "order": ("B2",),
        "renege": ("B3",),
        "must_draw": ("B4",),
        "place": ("C2",),
        "score": ("C5", "B6"),
        "winner": ("B6",),
        "match": ("B1", "B7"),
    }
    min_players = 2
    max_players = 2
    has_boneyard = True
    has_drawing = True
    uses_start_tile = True
    higher_wins = False  # B7: penalty points
    option_specs: ClassVar[dict[str, tuple[Any, tuple[type, ...], str]]] = {
        "hands": (4, (int,), "how many hands the match has (B1)"),
        "draw_limit": (
            3,
            (int, type(None)),
            "most draws in one turn; null for no limit, the rule before 2010 (B3)",
        ),
    }

    def check_options(self) -> None:
        if self.options["hands"] < 1:
            raise VariantError("option 'hands' must be at least 1")
        if self.options["draw_limit"] is not None and self.options["draw_limit"] < 1:
            raise VariantError("option 'draw_limit' must be at least 1, or null for no limit")

    def option_shown(self, key: str) -> tuple[str, bool]:
        value, default = super().option_shown(key)
        if key == "draw_limit" and self.options[key] is None:  # B3: null is the rule before 2010
            value = "no limit"
        return value, default

    def hand_size(self, n_players: int) -> int:  # B1
        return 7

    def expected_leader(self, match: MatchState) -> str | None:  # B2: alternates every hand
        if not match.results or match.results[-1].leader is None:
            return None
        return match.next_player(match.results[-1].leader)

    def finish_deal(self, match: MatchState, hand: HandState, deal: Deal, ctx: Ctx) -> None:
        if hand.start_tile is not None and hand.start_tile.is_double:  # B1
            ctx.violation(
                "bad-deal",
                f"the start tile {hand.start_tile} is a double; it never may be",
                ("B1",),
                (str(hand.start_tile),),
            )

    # -- turns -------------------------------------------------------------
    def draw_allowed(self, hand: HandState) -> bool:
        """Whether the player on move may still draw (B3: the limit, and the floor of 2)."""
        limit = self.options["draw_limit"]
        return hand.boneyard.count > FLOOR and (limit is None or hand.turn_draws < limit)

    def _stock_out(self, hand: HandState, seq: int) -> None:
        """B4: with 2 tiles left, a player on move who cannot play ends the hand at once."""
        if (
            hand.over is None
            and hand.turn is not None
            and hand.boneyard.count <= FLOOR
            and can_play_line(hand, hand.turn) is False
        ):
            hand.over, hand.over_seq = "stock-out", seq

    def _next_turn(self, match: MatchState, hand: HandState, player: str, seq: int) -> None:
        hand.turn = match.next_player(player)
        hand.turn_draws = 0
        self._stock_out(hand, seq)

    def on_play(self, match: MatchState, hand: HandState, ev: Play, ctx: Ctx) -> None:
        if ev.tiles is not None:
            ctx.violation(
                "illegal", "pair plays belong to double-draw; not placed", ids(TURN, self.name), (), (ev.player,)
            )
            return
        placement = self.place(match, hand, ev, ctx)  # B3, C2
        hand.turn_draws = 0
        if placement is not None and hand.holdings[placement.player].count == 0:  # B5
            hand.over, hand.over_seq = "domino", ctx.seq
            return
        self._stock_out(hand, ctx.seq)

    def on_draw(self, match: MatchState, hand: HandState, ev: Draw, ctx: Ctx) -> None:
        player = ev.player
        self.check_turn(match, hand, player, ctx)
        limit = self.options["draw_limit"]
        if hand.boneyard.count == 0:
            ctx.violation(
                "illegal", f"{player} draws from an empty boneyard; ignored", ids(TURN, self.name), (), (player,)
            )
            return
        if hand.boneyard.count <= FLOOR:
            ctx.violation(
                "illegal",
                f"{player} draws with {hand.boneyard.count} tiles left; none may be drawn at 2",
                ("B3",),
                (),
                (player,),
            )
        elif player == hand.turn and limit is not None and hand.turn_draws >= limit:
            ctx.violation(
                "illegal",
                f"{player} draws a {hand.turn_draws + 1}th tile this turn; the limit is {limit}",
                ("B3",),
                (),
                (player,),
            )
        ends = hand.layout.open_values()
        self.check_hand(hand, player, ctx, "renege", judge_fit(ends), f"{player} draws", "holding a legal play")
        if self.draw_tile(hand, player, ev.tile, ctx):
            hand.consecutive_passes = 0
            if player == hand.turn:
                hand.turn_draws += 1
                self._stock_out(hand, ctx.seq)

    def on_pass(self, match: MatchState, hand: HandState, ev: Pass, ctx: Ctx) -> None:
        player = ev.player
        self.check_turn(match, hand, player, ctx)
        if hand.over is not None:  # the pass that records a stock-out, hands hidden (accepts_after_over)
            hand.confirm_passes += 1
            return
        judge = judge_fit(hand.layout.open_values())
        verdict = self.check_hand(hand, player, ctx, "renege", judge, f"{player} passes", "holding a legal play")
        if verdict is not True and player == hand.turn and self.draw_allowed(hand):
            # B4: a player who cannot play must draw while a draw is allowed (one who can play
            # must play: that pass is the renege). Hidden tiles leave it to the reveals.
            drawn = hand.turn_draws
            message = (
                f"{player} passes after {drawn} draw{'s' * (drawn != 1)} while a draw is still allowed, "
                f"with {hand.boneyard.count} tiles in the boneyard"
            )
            self.check_hand(hand, player, ctx, "illegal", judge_not(judge), message)
        hand.actions.append((ctx.seq, player, "pass"))
        hand.consecutive_passes += 1
        if hand.boneyard.count <= FLOOR and hand.hidden and player == hand.turn:
            # Recorded with hidden hands, the pass stands for the stock-out end (B4) the
            # table saw; the reveals show whether the player really could not play (a renege).
            hand.over, hand.over_seq = "stock-out", ctx.seq
            return
        self._next_turn(match, hand, player, ctx.seq)

    def accepts_after_over(self, hand: HandState, kind: str) -> bool:
        # B4, recorded with hidden hands: one pass may stand for the stock-out the table saw, also
        # when the hand is already known to be over (seen tiles, or the re-fold from the reveals).
        return (
            kind == "pass"
            and hand.hidden
            and hand.over == "stock-out"
            and hand.confirm_passes == 0
            and bool(hand.actions)
            and hand.actions[-1][2] != "pass"
        )

    def may_be_over(self, hand: HandState) -> bool | None:
        if hand.over is not None:
            return True
        if hand.turn is None or hand.boneyard.count > FLOOR:
            return False
        can = can_play_line(hand, hand.turn)
        return None if can is None else not can

    def unverified_end(self, hand: HandState) -> str:
        return "stock-out"

    # -- scoring -----------------------------------------------------------
    def score_hand(self, match: MatchState, hand: HandState, ctx: Ctx) -> HandResult | None:  # B6
        if not hand.hands_known:
            return None
        pips = {p: sum(t.pips for t in hand.holdings[p].known) for p in self.players}
        points = dict(pips)
        winner: WinnerValue
        out = [p for p in self.players if hand.holdings[p].count == 0]
        if hand.over == "domino" and out:
            winner = out[0]
            for p in self.players:
                if p != winner:
                    points[p] += DOMINO_BONUS
        else:
            low = min(pips.values())
            lowest = [p for p in self.players if pips[p] == low]
            winner = lowest[0] if len(lowest) == 1 else None
        return HandResult(hand.number, hand.over or "stock-out", winner, points, {"pips": pips})

    def abandoned_result(self, match: MatchState, hand: HandState) -> HandResult:
        return HandResult(hand.number, "abandoned", None, {p: 0 for p in self.players})

    def after_hand(self, match: MatchState) -> None:  # B1: the match is `hands` hands
        if len(match.results) >= self.options["hands"]:
            match.over = True

    def match_winner(self, match: MatchState) -> WinnerValue:  # B7: penalties, lower wins
        low = min(match.totals.values())
        lowest = [p for p in self.players if match.totals[p] == low]
        return lowest[0] if len(lowest) == 1 else None

    # -- simulation --------------------------------------------------------
    def simulate_deal(self, match: MatchState, tiles: list[Tile], rng: Random) -> dict[str, Any]:
        deal = super().simulate_deal(match, tiles, rng)
        rest = tiles[2 * self.hand_size(2) :]
        deal["start_tile"] = str(next(t for t in rest if not t.is_double))
        return deal

    def legal_actions(self, match: MatchState, hand: HandState, player: str) -> list[dict[str, Any]]:
        moves = self.legal_placements(hand, player)
        if moves:
            return [{"type": "play", "player": player, "tile": str(t), "end": e} for t, e in moves]
        if self.draw_allowed(hand):
            return [{"type": "draw", "player": player}]
        return [{"type": "pass", "player": player}]
