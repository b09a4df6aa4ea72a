"""39 (``39``), by Howard Fosdick: rulings C1, C3-C5 and T1-T12 of RULINGS.md.

Two players, 5 tiles each, 18 in the boneyard. The set (any tile) is a
four-way spinner, and so is every later doublet, laid crosswise; tiles may not
overlap. Plays score by the preferred suit (even or odd), which a player may
declare after a play that matches another open end. After each turn a player
draws back up to 5. The hand ends on a domino or two passes in a row.
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar

from dominolog.events import Deal, Declare, Draw, Pass, Play
from dominolog.layouts.grid import Placed
from dominolog.state import HandResult, HandState, MatchState, WinnerValue
from dominolog.tiles import Tile
from dominolog.variants.base import Ctx, VariantError
from dominolog.variants.judges import judge_not, open_without_any
from dominolog.variants.rulings import TURN, ids
from dominolog.variants.spinner import GridVariant

HAND = 5  # T1, T9: a hand holds 5 tiles after each turn while the boneyard lasts


def parity(value: int) -> str:
    return "even" if value % 2 == 0 else "odd"


class ThirtyNine(GridVariant):
    name = "39"
    title = "39"
    aliases = ("thirty_nine",)
    scores_in_play = True
    declared_suits = ("odd", "even")
    #: the rulings of docs/rulings.md behind each way a hand ends, and behind each part of the rules
    end_rulings: ClassVar[dict[str, tuple[str, ...]]] = {"domino": ("T10",), "passes": ("T10",)}
    rulings: ClassVar[dict[str, tuple[str, ...]]] = {
        "deal": ("T1",),
        "leader": ("T2",),
        "turn": ("T9",),
        "order": ("T2", "T9"),
        "renege": ("T9",),
        "must_draw": ("T9",),
        "place": ("T4",),
        "room": ("T5",),
        "score": ("T8", "T11", "T12"),
        "winner": ("T12",),
        "match": ("T1",),
    }
    min_players = 2
    max_players = 2
    has_boneyard = True
    has_drawing = True
    spinning_doubles = True
    option_specs: ClassVar[dict[str, tuple[Any, tuple[type, ...], str]]] = {
        "hands": (5, (int,), "how many hands the match has (T1)"),
    }

    def check_options(self) -> None:
        if self.options["hands"] < 1:
            raise VariantError("option 'hands' must be at least 1")

    def hand_size(self, n_players: int) -> int:  # T1
        return HAND

    def finish_deal(self, match: MatchState, hand: HandState, deal: Deal, ctx: Ctx) -> None:  # T2
        hand.extra.update(preferred=None, last_scoring_double=0, last_double=None, declare=None, refill=False)
        hand.extra["scores"] = ()
        if not match.results or deal.chooser is None:
            return
        last = match.results[-1]
        if isinstance(last.winner, str):
            loser = next(p for p in self.players if p != last.winner)
            if deal.chooser != loser:
                ctx.violation(
                    "bad-deal",
                    f"{deal.chooser} chose the leader, but {loser} lost hand {last.number}",
                    ("T2",),
                    (),
                    (deal.chooser, loser),
                )

    # -- the turn --------------------------------------------------------------
    def _end_turn(self, match: MatchState, hand: HandState, player: str) -> None:
        """After a play (and a declaration): draw back up to 5 while the boneyard lasts, else the turn passes."""
        if hand.holdings[player].count < HAND and hand.boneyard.count:
            hand.extra["refill"] = True
            hand.turn = player
        else:
            hand.extra["refill"] = False
            hand.turn = match.next_player(player)

    def on_play(self, match: MatchState, hand: HandState, ev: Play, ctx: Ctx) -> None:
        hand.extra["declare"] = None
        if ev.tiles is not None:
            ctx.violation(
                "illegal", "pair plays belong to double-draw; not placed", ids(TURN, self.name), (), (ev.player,)
            )
            return
        player = ev.player
        if hand.extra["refill"] and player == hand.turn:
            ctx.violation(
                "illegal", f"{player} plays again instead of drawing back up to {HAND}", ("T9",), (), (player,)
            )
        first = hand.layout.empty
        placed = self.place(match, hand, ev, ctx)
        if placed is None:
            hand.extra["refill"] = False
            hand.turn = match.next_player(player)
            return
        if first:  # T3, T6: the set scores nothing and sets the preferred suit
            hand.extra["preferred"] = parity(placed.tile.pips)
            if placed.tile.is_double:
                hand.extra["last_double"] = placed.tile.lo
            self._record(hand, ctx.seq, player, 0, False)
        else:
            score, match_made = self.score_play(hand, placed)
            hand.points[player] += score
            if placed.tile.is_double:
                hand.extra["last_double"] = placed.tile.lo
                if score > 0 and placed.tile.lo:
                    hand.extra["last_scoring_double"] = placed.tile.lo
            self._record(hand, ctx.seq, player, score, match_made)
            if match_made:
                hand.extra["declare"] = player
        if hand.holdings[player].count == 0 and not hand.boneyard.count:  # T10
            hand.over, hand.over_seq = "domino", ctx.seq
            hand.extra["refill"] = False
            return
        self._end_turn(match, hand, player)

    def _record(self, hand: HandState, seq: int, player: str, score: int, match_made: bool) -> None:
        hand.extra["scores"] = (*hand.extra["scores"], (seq, player, score, match_made, hand.extra["preferred"]))

    def score_play(self, hand: HandState, placed: Placed) -> tuple[int, bool]:
        """T7, T8: the play's points under the preferred suit in force, and whether it made a match."""
        layout = hand.grid
        tile = placed.tile
        sides = layout.sides.values()  # (each looked at in place: no list of the open ends made)
        left_open: int | None = tile.lo if tile.is_double else next((s.value for s in sides if s.tile is tile), None)
        match_made = left_open is not None and any(
            s.value == left_open and s.tile is not tile and not s.first for s in sides
        )
        preferred = hand.extra["preferred"]
        if tile.is_double:
            if tile.lo == 0:
                return (hand.extra["last_scoring_double"] if preferred == "even" else 0), match_made
            return (tile.lo if parity(tile.lo) == preferred else 0), match_made
        if left_open is None or parity(left_open) == preferred or match_made:
            return 0, match_made
        return -1, match_made

    def on_declare(self, match: MatchState, hand: HandState, ev: Declare, ctx: Ctx) -> None:  # T7
        if hand.extra.get("declare") != ev.player:
            ctx.violation(
                "illegal", f"{ev.player} declares {ev.suit} without a match just made", ("T7",), (), (ev.player,)
            )
            return
        hand.extra["declare"] = None
        hand.extra["preferred"] = ev.suit
        seq, player, score, made, _ = hand.extra["scores"][-1]
        hand.extra["scores"] = (*hand.extra["scores"][:-1], (seq, player, score, made, ev.suit))

    def on_draw(self, match: MatchState, hand: HandState, ev: Draw, ctx: Ctx) -> None:  # T9
        hand.extra["declare"] = None
        player = ev.player
        self.check_turn(match, hand, player, ctx)
        if hand.boneyard.count == 0:
            ctx.violation(
                "illegal", f"{player} draws from an empty boneyard; ignored", ids(TURN, self.name), (), (player,)
            )
            return
        refill = hand.extra["refill"] and player == hand.turn
        if refill:
            if hand.holdings[player].count >= HAND:
                ctx.violation("illegal", f"{player} draws with {HAND} tiles in hand", ("T9",), (), (player,))
        elif not hand.layout.empty:
            judge = self.has_play(hand)
            if not open_without_any(hand.holdings[player], judge):  # (the common draw: no judge asked)
                self.check_hand(hand, player, ctx, "renege", judge, f"{player} draws", "holding a legal play")
        else:
            ctx.violation(
                "illegal",
                f"{player} draws before the set is laid: any tile may be the set",
                ("T3", "T9"),
                (),
                (player,),
            )
        if not self.draw_tile(hand, player, ev.tile, ctx):
            return
        hand.consecutive_passes = 0
        if refill and (hand.holdings[player].count >= HAND or not hand.boneyard.count):
            hand.extra["refill"] = False
            hand.turn = match.next_player(player)

    def on_pass(self, match: MatchState, hand: HandState, ev: Pass, ctx: Ctx) -> None:  # T9, T10
        hand.extra["declare"] = None
        player = ev.player
        self.check_turn(match, hand, player, ctx)
        if hand.extra["refill"] and player == hand.turn:
            # the player has played this turn: what is owed is the draw back up to 5, not a play
            ctx.violation("illegal", f"{player} passes instead of drawing back up to {HAND}", ("T9",), (), (player,))
        else:
            judge = self.has_play(hand)
            verdict = self.check_hand(hand, player, ctx, "renege", judge, f"{player} passes", "holding a legal play")
            n = hand.boneyard.count
            if n and verdict is not True:
                # a renege or a pass that should have been a draw, never both (hidden: the reveals decide)
                message = f"{player} passes while the boneyard still holds {n} tile{'s' * (n != 1)}: must draw"
                self.check_hand(hand, player, ctx, "illegal", judge_not(judge), message)
        hand.actions.append((ctx.seq, player, "pass"))
        hand.consecutive_passes += 1
        hand.extra["refill"] = False
        hand.turn = match.next_player(player)
        if hand.consecutive_passes >= 2:
            hand.over, hand.over_seq = "passes", ctx.seq

    def accepts_after_over(self, hand: HandState, kind: str) -> bool:
        # T7: a declaration is still made after the play that empties the hand
        return kind == "declare" and hand.extra.get("declare") is not None

    # -- scoring ---------------------------------------------------------------
    def end_bonus(self, hand: HandState, loser: str) -> int:  # T11
        last = hand.extra["last_double"] or 0
        total = 0
        for t in hand.holdings[loser].known:
            if t.lo == 0 and t.hi == 0:
                total += last
            elif t.is_double:
                total += t.lo
            else:
                total += 1
        return total

    def score_hand(self, match: MatchState, hand: HandState, ctx: Ctx) -> HandResult | None:
        points = dict(hand.points)
        detail: dict[str, Any] = {"play_points": dict(hand.points), "bonus": 0}
        if hand.over == "domino":
            winner_out = next((p for p in self.players if hand.holdings[p].count == 0), None)
            if winner_out is not None:
                loser = next(p for p in self.players if p != winner_out)
                if hand.holdings[loser].unknown:
                    return None
                bonus = self.end_bonus(hand, loser)
                points[winner_out] += bonus
                detail["bonus"] = bonus
        best = max(points.values())
        top = [p for p in self.players if points[p] == best]
        winner: WinnerValue = top[0] if len(top) == 1 else None  # T12
        return HandResult(hand.number, hand.over or "passes", winner, points, detail)

    def after_hand(self, match: MatchState) -> None:  # T1
        if len(match.results) >= self.options["hands"]:
            match.over = True

    # -- simulation ------------------------------------------------------------
    def simulate_deal(self, match: MatchState, tiles: list[Tile], rng: Random) -> dict[str, Any]:
        deal = super().simulate_deal(match, tiles, rng)
        last = match.results[-1] if match.results else None
        if last is not None and isinstance(last.winner, str):
            deal["chooser"] = next(p for p in self.players if p != last.winner)
        return deal

    def legal_actions(self, match: MatchState, hand: HandState, player: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        declarer = hand.extra.get("declare")
        if declarer is not None:  # right after a match: the player who made it may declare
            out += [{"type": "declare", "player": declarer, "suit": s} for s in ("even", "odd")]
        if hand.extra["refill"] and player == hand.turn:
            return out + [{"type": "draw", "player": player}]
        moves = self.legal_placements(hand, player)
        if moves:
            return out + [
                {"type": "play", "player": player, "tile": str(t), **({"end": e} if e else {})} for t, e in moves
            ]
        if hand.boneyard.count:
            return out + [{"type": "draw", "player": player}]
        return out + [{"type": "pass", "player": player}]
