"""Double Draw (``double-draw``): rulings C1-C5 and E1-E7 of RULINGS.md.

2 to 4 players (4 may play as partnerships), 8 - players tiles each, a start
tile turned up by the dealer. A turn is a pair play (one tile on each end),
else a draw that ends the turn, else, with the boneyard empty, the last tile
alone or a pass. Anyone may call "blocked game" when an end's suit is all on
the line. The lowest pip total scores the others' pips minus its own.
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar

from dominolog.events import BlockCall, Deal, Draw, Pass, Play
from dominolog.state import HandResult, HandState, Holding, MatchState, Placement, WinnerValue
from dominolog.tiles import Tile, suit
from dominolog.variants.base import Ctx, VariantError
from dominolog.variants.judges import count_fits, holds_pair, judge_fit, judge_not, judge_pair
from dominolog.variants.line import LineVariant
from dominolog.variants.rulings import TURN, ids


def _open_without_pair(h: Holding, left: int, right: int) -> bool:
    """Whether ``h`` is an open hand (no unknown tile) without two tiles, one fitting ``left`` and another
    ``right``: what :func:`judge_pair` finds of such a hand (the rule kept), by the tiles' masks, so that
    the common draw is not judged (``tests/test_double_draw_rulings.py`` holds the two to the same)."""
    if h.unknown:
        return False
    fit_left, fit_right, fit_both = count_fits(h.known, 1 << left, 1 << right)
    return not holds_pair(fit_left, fit_right, fit_both)


class DoubleDraw(LineVariant):
    name = "double-draw"
    title = "Double Draw"
    aliases = ("double_draw",)
    has_pair_plays = True
    #: the rulings of docs/rulings.md behind each way a hand ends, and behind each part of the rules
    end_rulings: ClassVar[dict[str, tuple[str, ...]]] = {"domino": ("E5",), "call": ("E4", "E5"), "passes": ("E5",)}
    rulings: ClassVar[dict[str, tuple[str, ...]]] = {
        "deal": ("E1",),
        "leader": ("E2",),
        "turn": ("E3",),
        "order": ("E2", "E3"),
        "renege": ("E3",),
        "must_draw": ("E3",),
        "place": ("C2",),
        "score": ("C5", "E6"),
        "winner": ("E6",),
        "match": ("E7",),
    }
    min_players = 2
    max_players = 4
    has_boneyard = True
    has_drawing = True
    uses_start_tile = True
    option_specs: ClassVar[dict[str, tuple[Any, tuple[type, ...], str]]] = {
        "partners": (False, (bool,), "4 players as two partnerships, seats 1 and 3 against 2 and 4 (E1)"),
        "target": (
            None,
            (int, type(None)),
            "the score that ends the match; default 100 for 2 players or partnerships, 61 for 3 or 4 (E7)",
        ),
    }

    def check_options(self) -> None:
        if self.options["partners"] and len(self.players) != 4:
            raise VariantError("option 'partners' needs 4 players")
        if self.options["target"] is not None and self.options["target"] < 1:
            raise VariantError("option 'target' must be at least 1")

    def option_shown(self, key: str) -> tuple[str, bool]:
        if key == "target" and self.options[key] is None:  # E7: the default depends on the table
            return str(self.target), True
        return super().option_shown(key)

    @property
    def target(self) -> int:  # E7
        if self.options["target"] is not None:
            return int(self.options["target"])
        return 100 if len(self.players) == 2 or self.options["partners"] else 61

    def sides(self) -> list[tuple[str, ...]]:
        """The scoring sides: partnerships (seats 1 and 3, 2 and 4) or each player alone."""
        p = self.players
        if self.options["partners"]:
            return [(p[0], p[2]), (p[1], p[3])]
        return [(x,) for x in p]

    def hand_size(self, n_players: int) -> int:  # E1
        return 8 - n_players

    def expected_leader(self, match: MatchState) -> str | None:  # E2: the last leader deals, the next one leads
        if not match.results or match.results[-1].leader is None:
            return None
        return match.next_player(match.results[-1].leader)

    def finish_deal(self, match: MatchState, hand: HandState, deal: Deal, ctx: Ctx) -> None:  # E2
        previous = match.results[-1].leader if match.results else None
        if previous is not None and deal.dealer is not None and deal.dealer != previous:
            ctx.violation(
                "bad-deal",
                f"{deal.dealer} deals hand {hand.number}, but {previous} (the last leader) should",
                ("E2",),
                (),
                (deal.dealer, previous),
            )
        dealer = deal.dealer or previous
        # Hand 1 only: from hand 2 on, start_hand checks the leader against expected_leader.
        if previous is None and dealer is not None and match.next_player(dealer) != deal.leader:
            ctx.violation(
                "bad-deal",
                f"{deal.leader} acts first, but the player after the dealer {dealer} is {match.next_player(dealer)}",
                ("E2",),
                (),
                (deal.leader, dealer),
            )
        hand.dealer = dealer or self.players[self.players.index(deal.leader) - 1]

    # -- turns -------------------------------------------------------------
    def _turn_over(self, match: MatchState, hand: HandState, player: str) -> None:
        hand.turn = match.next_player(player)

    def _has_play_judge(self, hand: HandState, player: str) -> Any:
        """E3: a pair play, or with the boneyard empty and one tile in hand, that tile alone."""
        line = hand.line
        left, right = line.left, line.right
        if left is None or right is None:
            return judge_fit(())
        if hand.boneyard.count == 0 and hand.holdings[player].count == 1:
            return judge_fit((left, right))
        return judge_pair(left, right)

    def on_play(self, match: MatchState, hand: HandState, ev: Play, ctx: Ctx) -> None:
        if ev.tiles is None:
            self._single(match, hand, ev, ctx)
        else:
            self._pair(match, hand, ev, ctx)
        hand.consecutive_passes = 0

    def _single(self, match: MatchState, hand: HandState, ev: Play, ctx: Ctx) -> None:  # E3 (c)
        player = ev.player
        if hand.boneyard.count or hand.holdings[player].count != 1:
            why = "the boneyard is not empty" if hand.boneyard.count else f"{player} holds more than one tile"
            ctx.violation(
                "illegal", f"{player} plays a single tile, but {why}: a turn is a pair play", ("E3",), (), (player,)
            )
        placement = self.place(match, hand, ev, ctx)
        if placement is not None and hand.holdings[player].count == 0:  # E5
            hand.over, hand.over_seq = "domino", ctx.seq

    def _pair(self, match: MatchState, hand: HandState, ev: Play, ctx: Ctx) -> None:  # E3 (a)
        assert ev.tiles is not None
        player = ev.player
        self.check_turn(match, hand, player, ctx)
        layout = hand.line
        a, b = Tile.parse(ev.tiles[0]), Tile.parse(ev.tiles[1])
        left, right = layout.left, layout.right
        problem = None
        if left is None or right is None:
            problem = "the line has no start tile"
        elif a == b:
            problem = f"{a} is given twice"
        elif a in layout.on_board or b in layout.on_board:
            problem = f"{a if a in layout.on_board else b} is already on the table"
        elif not (a.has(left) and b.has(right)):
            if a.has(right) and b.has(left):
                ctx.violation(
                    "illegal",
                    f"the pair is written the wrong way round: {a} fits the right end ({right}) and {b} the left "
                    f"({left}); placed so",
                    ("C2", "E3"),
                    (str(a), str(b)),
                    (player,),
                )
                a, b = b, a
            else:
                problem = f"{a} + {b} do not fit left {left} and right {right}"
        if problem is not None:
            ctx.violation(
                "illegal", f"{player}'s pair play is not possible: {problem}; not placed", ("C2", "E3"), (), (player,)
            )
            self._turn_over(match, hand, player)
            return
        assert left is not None and right is not None
        for t in (a, b):
            self.take_tile(hand, player, t, ctx)
        before = (left, right)
        layout.place(a, "left")
        layout.place(b, "right")
        hand.placements.append(Placement(ctx.seq, player, a, "left", before))
        hand.placements.append(Placement(ctx.seq, player, b, "right", before))
        hand.actions.append((ctx.seq, player, "play"))
        hand.played_by[player].extend((a, b))
        self._turn_over(match, hand, player)
        if hand.holdings[player].count == 0:  # E5
            hand.over, hand.over_seq = "domino", ctx.seq

    def on_draw(self, match: MatchState, hand: HandState, ev: Draw, ctx: Ctx) -> None:  # E3 (b)
        player = ev.player
        self.check_turn(match, hand, player, ctx)
        if hand.boneyard.count == 0:
            ctx.violation(
                "illegal", f"{player} draws from an empty boneyard; ignored", ids(TURN, self.name), (), (player,)
            )
            return
        line = hand.line
        left, right = line.left, line.right
        if left is not None and right is not None and not _open_without_pair(hand.holdings[player], left, right):
            self.check_hand(
                hand, player, ctx, "renege", judge_pair(left, right), f"{player} draws", "a pair play exists"
            )
        if self.draw_tile(hand, player, ev.tile, ctx):
            hand.consecutive_passes = 0
            self._turn_over(match, hand, player)

    def on_pass(self, match: MatchState, hand: HandState, ev: Pass, ctx: Ctx) -> None:  # E3 (d)
        player = ev.player
        self.check_turn(match, hand, player, ctx)
        judge = self._has_play_judge(hand, player)
        verdict = self.check_hand(hand, player, ctx, "renege", judge, f"{player} passes", "holding a legal play")
        if hand.boneyard.count and verdict is not True:
            # E3 (b): a draw is allowed only without a pair play; hidden tiles leave that to the reveals
            action = f"{player} passes with {hand.boneyard.count} tiles in the boneyard"
            self.check_hand(hand, player, ctx, "illegal", judge_not(judge), action, "a draw is allowed")
        hand.actions.append((ctx.seq, player, "pass"))
        hand.consecutive_passes += 1
        self._turn_over(match, hand, player)
        if hand.consecutive_passes >= len(self.players):  # E5
            hand.over, hand.over_seq = "passes", ctx.seq

    def dead_end(self, hand: HandState) -> int | None:
        """E4: an end value whose whole suit is on the line, if any."""
        board = hand.layout.on_board
        for v in hand.layout.open_values():
            if suit(v) <= board:
                return v
        return None

    def on_block_call(self, match: MatchState, hand: HandState, ev: BlockCall, ctx: Ctx) -> None:  # E4
        dead = self.dead_end(hand)
        if dead is None:
            board = hand.layout.on_board
            shows = ", ".join(
                f"{end} {v}: {len(suit(v) & board)} of 7 on the line" for end, v in hand.layout.ends().items()
            )
            ctx.violation(
                "illegal",
                f"{ev.player} calls a blocked game, but no end is dead ({shows}); play goes on",
                ("E4",),
                (),
                (ev.player,),
            )
            return
        hand.over, hand.over_seq = "call", ctx.seq

    # -- scoring -----------------------------------------------------------
    def score_hand(self, match: MatchState, hand: HandState, ctx: Ctx) -> HandResult | None:  # E6
        if not hand.hands_known:
            return None
        pips = {p: sum(t.pips for t in hand.holdings[p].known) for p in self.players}
        sides = self.sides()
        side_pips = [sum(pips[p] for p in side) for side in sides]
        low = min(side_pips)
        points = {p: 0 for p in self.players}
        winner: WinnerValue = None
        if side_pips.count(low) == 1:
            i = side_pips.index(low)
            won = sum(side_pips) - 2 * low  # the others' pips minus its own
            for p in sides[i]:
                points[p] = won
            winner = sides[i][0] if len(sides[i]) == 1 else list(sides[i])
        return HandResult(hand.number, hand.over or "passes", winner, points, {"pips": pips})

    def abandoned_result(self, match: MatchState, hand: HandState) -> HandResult:
        return HandResult(hand.number, "abandoned", None, {p: 0 for p in self.players})

    def after_hand(self, match: MatchState) -> None:  # E7
        if any(v >= self.target for v in match.totals.values()):
            match.over = True

    def match_winner(self, match: MatchState) -> WinnerValue:  # E7: the highest wins
        sides = self.sides()
        totals = [match.totals[side[0]] for side in sides]
        best = max(totals)
        if totals.count(best) != 1:
            return None
        side = sides[totals.index(best)]
        return side[0] if len(side) == 1 else list(side)

    # -- simulation --------------------------------------------------------
    def legal_placements(self, hand: HandState, player: str) -> list[tuple[Tile, str]]:
        """The single-tile plays (E3 c): only the last tile, with the boneyard empty."""
        h = hand.holdings[player]
        if hand.boneyard.count or h.count != 1:
            return []
        return super().legal_placements(hand, player)

    def pair_plays(self, hand: HandState, player: str) -> list[tuple[Tile, Tile]]:
        line = hand.line
        left, right = line.left, line.right
        if left is None or right is None:
            return []
        known = sorted(hand.holdings[player].known)
        return [(a, b) for a in known if a.has(left) for b in known if b != a and b.has(right)]

    def simulate_deal(self, match: MatchState, tiles: list[Tile], rng: Random) -> dict[str, Any]:
        n = len(self.players)
        size = self.hand_size(n)
        hands = {p: [str(t) for t in sorted(tiles[i * size : (i + 1) * size])] for i, p in enumerate(self.players)}
        previous = match.results[-1].leader if match.results else None
        dealer = previous if previous is not None else rng.choice(self.players)
        return {
            "type": "deal",
            "dealer": dealer,
            "leader": match.next_player(dealer),
            "hands": hands,
            "start_tile": str(tiles[n * size]),
        }

    def legal_actions(self, match: MatchState, hand: HandState, player: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [
            {"type": "play", "player": player, "tiles": [str(a), str(b)]} for a, b in self.pair_plays(hand, player)
        ]
        if not out:
            if hand.boneyard.count:
                out = [{"type": "draw", "player": player}]
            else:
                out = [
                    {"type": "play", "player": player, "tile": str(t), "end": e}
                    for t, e in self.legal_placements(hand, player)
                ] or [{"type": "pass", "player": player}]
        if self.dead_end(hand) is not None:
            out.append({"type": "block_call", "player": player})
        return out
