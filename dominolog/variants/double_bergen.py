"""Double Bergen (``double-bergen``): rulings C1, C3-C5 and D1-D8 of RULINGS.md.

2 to 4 players (6 tiles each, 5 with four players), the rest is the boneyard
(``reserve`` of it never drawn). The first tile is a double, the spinner: its
four sides are played before any other end. Every placement scores for the
matching open ends (D6); the winner of a hand scores 1 more; the match ends the
moment a player reaches the target, even mid-hand.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from dominolog.events import Deal, Draw, Pass, Play
from dominolog.layouts.grid import GridLayout, Side
from dominolog.state import HandResult, HandState, MatchState, WinnerValue
from dominolog.tiles import DOUBLE_SIX, Tile
from dominolog.variants.base import Ctx, VariantError
from dominolog.variants.judges import judge_holds, judge_not, open_without_any
from dominolog.variants.rulings import TURN, ids
from dominolog.variants.spinner import GridVariant

DOUBLES: Final = frozenset(t for t in DOUBLE_SIX if t.is_double)


def placement_score(layout: GridLayout) -> int:
    """D6: the points of the table as it is, for the player who just placed.

    The open ends are counted by the number they show: double ends, single ends, and whether the
    spinner (while one of its sides is open) is among them. A number with a double end scores when
    another end (or the spinner) shows it too: 2 for each double end, 1 for each single one; a number
    with single ends alone scores 1 each when there are two or more."""
    # (the counts of each number packed four bits a number in one int: no lists made at every play;
    # an end count never passes 15, as 7 tiles show a number)
    doubles = 0
    singles = 0
    spinner_open = False
    for s in layout.sides.values():
        if s.first:
            spinner_open = True
        elif s.double:
            doubles += 1 << 4 * s.value
        else:
            singles += 1 << 4 * s.value
    spinner = -1  # the spinner's number while one of its sides is open
    if spinner_open and layout.order:
        spinner = layout.order[0].lo
        doubles += 1 << 4 * spinner
    total = 0
    for value in range(7):
        d = doubles >> 4 * value & 15
        n = singles >> 4 * value & 15
        if d >= 1 and (d + n >= 2 or value == spinner):
            total += 2 * d + n
        elif n >= 2:
            total += n
    return total


class DoubleBergen(GridVariant):
    name = "double-bergen"
    title = "Double Bergen"
    aliases = ("double_bergen",)
    scores_in_play = True
    #: the rulings of docs/rulings.md behind each way a hand ends, and behind each part of the rules
    end_rulings: ClassVar[dict[str, tuple[str, ...]]] = {"domino": ("D7",), "block": ("D7",), "target": ("D8",)}
    rulings: ClassVar[dict[str, tuple[str, ...]]] = {
        "deal": ("D1",),
        "leader": ("D2",),
        "turn": ("D3", "D5"),
        "order": ("D2", "D3"),
        "renege": ("D5",),
        "must_draw": ("D5",),
        "place": ("D4",),
        "room": ("D4",),
        "first": ("D3",),
        "score": ("C5", "D6", "D7"),
        "winner": ("D7",),
        "match": ("D8",),
    }
    min_players = 2
    max_players = 4
    has_boneyard = True
    has_drawing = True
    spinning_doubles = False
    option_specs: ClassVar[dict[str, tuple[Any, tuple[type, ...], str]]] = {
        "target": (100, (int,), "the score that ends the match, the moment it is reached (D8)"),
        "reserve": (0, (int,), "boneyard tiles that can never be drawn (D1; 2 for the variation)"),
    }

    def check_options(self) -> None:
        if self.options["target"] < 1:
            raise VariantError("option 'target' must be at least 1")
        if not 0 <= self.options["reserve"] <= 8:
            raise VariantError("option 'reserve' must be 0 to 8")

    def hand_size(self, n_players: int) -> int:  # D1
        return 5 if n_players == 4 else 6

    def expected_leader(self, match: MatchState) -> str | None:  # D2
        if not match.results or match.results[-1].leader is None:
            return None
        return match.next_player(match.results[-1].leader)

    def finish_deal(self, match: MatchState, hand: HandState, deal: Deal, ctx: Ctx) -> None:
        extra = hand.extra  # (three keys set in turn, as ``update`` with keywords sets them: no keywords' dict)
        extra["opening_passes"] = 0
        extra["drawn_double"] = None
        extra["open_draw"] = None
        self._check_block(hand, ctx.seq)  # D7: no double dealt and none to draw

    def drawable(self, hand: HandState) -> int:  # D1: the reserve is never drawn
        left: int = hand.boneyard.count - self.options["reserve"]  # (an int: check_options; no ``max`` call)
        return left if left > 0 else 0

    def first_tile_ok(self, tile: Tile) -> bool:  # D3
        return tile.is_double

    def allowed_sides(self, hand: HandState) -> list[Side] | None:  # D4: the spinner's four sides first
        """The spinner's open sides while it has any, else None (all); kept in the table's cache, which
        a placement empties (asked several times an event: the play, the draws' and passes' judges)."""
        layout = hand.grid
        cache = layout.cache
        spinner = cache.get("spinner_sides")
        if spinner is None:
            spinner = [s for s in layout.sides.values() if s.first]
            cache["spinner_sides"] = spinner
        return spinner or None  # type: ignore[return-value]

    def wrong_side(self, hand: HandState, side: Side, ctx: Ctx) -> None:
        ctx.violation("illegal", f"{side.name} is played on before all four sides of the spinner (D4)", ("D4",))

    def has_play(self, hand: HandState) -> Any:
        if hand.layout.empty:
            return judge_holds(DOUBLES - hand.layout.on_board)
        return super().has_play(hand)

    # -- turns -------------------------------------------------------------------
    def _opening_draws(self, hand: HandState) -> bool:
        """D3: every player has passed without a double; now they draw in turn."""
        return hand.layout.empty and hand.extra["opening_passes"] >= len(self.players)

    def _take_turn(self, match: MatchState, hand: HandState, player: str) -> None:
        """An unseen opening draw leaves open whether it was a double: the next player may act."""
        extra = hand.extra
        drawer = extra.get("open_draw")
        if drawer is not None:  # (else nothing to forget: every reader asks ``get``, missing or None alike)
            if player == match.next_player(drawer) and hand.turn == drawer:
                hand.turn = player
            extra["open_draw"] = None

    def on_play(self, match: MatchState, hand: HandState, ev: Play, ctx: Ctx) -> None:
        if ev.tiles is not None:
            ctx.violation(
                "illegal", "pair plays belong to double-draw; not placed", ids(TURN, self.name), (), (ev.player,)
            )
            return
        player = ev.player
        self._take_turn(match, hand, player)
        extra = hand.extra
        drawn = extra["drawn_double"]
        if drawn is not None:
            if ev.tile is not None and Tile.parse(ev.tile) is not drawn:
                ctx.violation(
                    "illegal", f"{player} must set the double just drawn ({drawn})", ("D3",), (str(drawn),), (player,)
                )
            extra["drawn_double"] = None
        placed = self.place(match, hand, ev, ctx)
        hand.turn = match.next_player(player)
        if placed is None:
            return
        seq = ctx.seq
        layout = hand.grid
        score = placement_score(layout)  # D6
        points = hand.points[player] + score
        hand.points[player] = points
        extra["scores"] = extra.get("scores", ()) + ((seq, player, score),)  # (one tuple made, no list)
        if hand.holdings[player].count == 0:  # D7, D8: a domino, even if it reaches the target
            hand.over, hand.over_seq = "domino", seq
        elif match.totals.get(player, 0) + points >= self.options["target"]:  # D8
            hand.over, hand.over_seq = "target", seq
        else:
            self._check_block(hand, seq)

    def on_draw(self, match: MatchState, hand: HandState, ev: Draw, ctx: Ctx) -> None:
        player = ev.player
        self._take_turn(match, hand, player)
        self.check_turn(match, hand, player, ctx)
        if self.drawable(hand) == 0:
            reserve = f" (the last {self.options['reserve']} are never drawn)" if self.options["reserve"] else ""
            ctx.violation(
                "illegal", f"{player} draws with no drawable tile left{reserve}; ignored", ("D1", "D5"), (), (player,)
            )
            return
        if hand.layout.empty and not self._opening_draws(hand):
            ctx.violation(
                "illegal",
                f"{player} draws before every player has passed for want of a double (D3)",
                ("D3",),
                (),
                (player,),
            )
        elif hand.extra["drawn_double"] is not None:
            ctx.violation(
                "renege",
                f"{player} draws instead of setting {hand.extra['drawn_double']} (D3)",
                ("C3", "D3"),
                (),
                (player,),
            )
        else:
            judge = self.has_play(hand)
            if not open_without_any(hand.holdings[player], judge):
                self.check_hand(hand, player, ctx, "renege", judge, f"{player} draws", "holding a legal play")
        if not self.draw_tile(hand, player, ev.tile, ctx):
            return
        hand.consecutive_passes = 0
        if hand.layout.empty:  # D3: a drawn double is set at once; any other tile ends the turn
            tile = hand.draws[-1][2]
            if tile is None:
                hand.extra["open_draw"] = player
            elif tile.is_double:
                hand.extra["drawn_double"] = tile
            else:
                hand.turn = match.next_player(player)
        self._check_block(hand, ctx.seq)

    def on_pass(self, match: MatchState, hand: HandState, ev: Pass, ctx: Ctx) -> None:
        player = ev.player
        self._take_turn(match, hand, player)
        self.check_turn(match, hand, player, ctx)
        judge = self.has_play(hand)
        verdict = self.check_hand(hand, player, ctx, "renege", judge, f"{player} passes", "holding a legal play")
        opening = hand.layout.empty
        if verdict is not True and self.drawable(hand) and (not opening or self._opening_draws(hand)):
            message = f"{player} passes with tiles left to draw: must draw (D5)"
            if verdict is False:
                ctx.violation("illegal", message, ("D5",), (), (player,))
            else:  # hidden: a renege or illegal, never both; the reveals decide
                self.check_hand(hand, player, ctx, "illegal", judge_not(judge), message)
        hand.extra["drawn_double"] = None  # the pass ends the turn (D3: a drawn double not set is a renege)
        hand.actions.append((ctx.seq, player, "pass"))
        hand.turn = match.next_player(player)
        if opening and not self._opening_draws(hand):
            hand.extra["opening_passes"] += 1
            if self.drawable(hand):
                return
        hand.consecutive_passes += 1
        if hand.consecutive_passes >= len(self.players):  # D7: hidden hands, a pass by every player in a row
            hand.over, hand.over_seq = "block", ctx.seq

    def _check_block(self, hand: HandState, seq: int) -> None:
        """D7: with full information, the hand ends the moment nobody can play or draw."""
        if hand.over is not None or self.drawable(hand):
            return
        if all(self.can_play(hand, p) is False for p in self.players):
            hand.over, hand.over_seq = "block", seq

    def accepts_after_over(self, hand: HandState, kind: str) -> bool:
        # D7: recorded with hidden hands, the block is confirmed by a pass of every player
        return (
            kind == "pass"
            and hand.hidden
            and hand.over == "block"
            and hand.consecutive_passes + hand.confirm_passes < len(self.players)
        )

    def may_be_over(self, hand: HandState) -> bool | None:
        if hand.over is not None:
            return True
        if self.drawable(hand):
            return False
        verdicts = [self.can_play(hand, p) for p in self.players]
        if any(v is True for v in verdicts):
            return False
        return None if any(v is None for v in verdicts) else True

    # -- scoring -------------------------------------------------------------------
    def score_hand(self, match: MatchState, hand: HandState, ctx: Ctx) -> HandResult | None:  # D7, D8
        points = dict(hand.points)
        detail: dict[str, Any] = {"play_points": dict(hand.points)}
        winner: WinnerValue = None
        if hand.over == "target":
            return HandResult(hand.number, "target", None, points, detail)
        out = [p for p in self.players if hand.holdings[p].count == 0]
        if hand.over == "domino" and out:
            winner = out[0]
        else:
            if not hand.hands_known:
                return None
            pips = {p: sum(t.pips for t in hand.holdings[p].known) for p in self.players}
            detail["pips"] = pips
            low = min(pips.values())
            lowest = [p for p in self.players if pips[p] == low]
            winner = lowest[0] if len(lowest) == 1 else None
        if winner is not None:
            points[winner] += 1
        return HandResult(hand.number, hand.over or "block", winner, points, detail)

    def abandoned_result(self, match: MatchState, hand: HandState) -> HandResult:
        return HandResult(hand.number, "abandoned", None, dict(hand.points))

    def after_hand(self, match: MatchState) -> None:  # D8
        if any(v >= self.options["target"] for v in match.totals.values()):
            match.over = True

    # -- simulation ------------------------------------------------------------------
    def legal_actions(self, match: MatchState, hand: HandState, player: str) -> list[dict[str, Any]]:
        drawn = hand.extra["drawn_double"]
        if drawn is not None:
            return [{"type": "play", "player": player, "tile": str(drawn)}]
        moves = self.legal_placements(hand, player)
        if moves:
            return [{"type": "play", "player": player, "tile": str(t), **({"end": e} if e else {})} for t, e in moves]
        if self.drawable(hand) and (not hand.layout.empty or self._opening_draws(hand)):
            return [{"type": "draw", "player": player}]
        return [{"type": "pass", "player": player}]
