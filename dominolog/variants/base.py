"""The small interface every rule variant implements (the line games' mechanics: :mod:`dominolog.variants.line`).

A variant is a class registered by name (:func:`dominolog.variants.find_variant`).
The reducer owns the match's life cycle (seq, undo, reveals, hand and match
boundaries, claims); the variant decides what the rules say about each event.
Hooks receive a :class:`Ctx` through which they report violations and rules
that hidden tiles keep from being checked.
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar, Protocol

from mypy_extensions import mypyc_attr

from dominolog.events import BlockCall, Deal, Declare, Draw, Pass, Play
from dominolog.layouts.grid import GridLayout
from dominolog.layouts.line import LineLayout
from dominolog.state import HandResult, HandState, Holding, Judge, MatchState, PendingCheck, WinnerValue
from dominolog.tiles import DOUBLE_SIX, DOUBLE_SIX_SET, Tile
from dominolog.variants.rulings import LEADER, MUST_DRAW, ORDER, SAME_TILE, TURN, ids, renege
from dominolog.variants.rulings import deal as rules_of_deal


def option_words(value: Any) -> str:
    """An option's value in words: ``yes``/``no`` for a flag, ``none`` for null, a number as written."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    return str(value)


class VariantError(ValueError):
    """Options or players that the variant cannot play with."""


class Ctx(Protocol):
    """What a hook can tell the reducer about the event being applied."""

    seq: int

    def violation(
        self,
        code: str,
        message: str,
        rules: tuple[str, ...] = (),
        tiles: tuple[str, ...] = (),
        players: tuple[str, ...] = (),
    ) -> None: ...

    def unverified(
        self,
        code: str,
        message: str,
        check: PendingCheck | None = None,
        rules: tuple[str, ...] = (),
        players: tuple[str, ...] = (),
        reason: str = "",
    ) -> None: ...


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: a variant module outside COMPILED may extend it
class Variant:
    """Base class of the rule variants. Subclasses override the hooks their rules need.

    Every fact about a variant is an attribute or a method of its class: the rest of dominolog asks
    the class (through :func:`dominolog.variants.find_variant`), never the variant's name.
    """

    #: the name a ``match_start`` gives (``"39"``); the registry's key
    name: ClassVar[str]
    title: ClassVar[str]
    #: other names the registry finds the variant by (the module's spelling: ``thirty_nine``)
    aliases: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    #: option name -> (default, accepted types, description)
    option_specs: ClassVar[dict[str, tuple[Any, tuple[type, ...], str]]] = {}
    #: the tiles not dealt form a boneyard (else the deal must use all 28)
    has_boneyard: ClassVar[bool] = False
    #: a player may draw from the boneyard (``draw`` events: :meth:`on_draw`); else its tiles sleep
    has_drawing: ClassVar[bool] = False
    #: the deal turns up a start tile (``deal.start_tile``)
    uses_start_tile: ClassVar[bool] = False
    #: the highest total wins the match (False: penalty points, the lowest wins)
    higher_wins: ClassVar[bool] = True
    #: points are made during play, so an abandoned hand keeps them (39, Double Bergen)
    scores_in_play: ClassVar[bool] = False
    #: the suits a ``declare`` may name (39: ``odd``, ``even``); none where nobody declares
    declared_suits: ClassVar[tuple[str, ...]] = ()
    #: a turn may lay two tiles at once (Double Draw's pair plays: :meth:`pair_plays`)
    has_pair_plays: ClassVar[bool] = False
    #: the rulings of ``docs/rulings.md`` behind each way a hand ends (``hand.over``): end -> ids
    end_rulings: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: the rulings behind each part of the rules, for the audit's findings: part -> ids. The parts:
    #: ``deal``, ``leader``, ``turn``, ``order``, ``renege``, ``must_draw`` (else ``turn``'s), ``place``,
    #: ``score``, ``winner``, ``match``; on a grid ``room`` (a tile that would overlap another) and ``first``
    #: (which tile may open a hand). :mod:`dominolog.variants.rulings` reads them, by the variant's name
    rulings: ClassVar[dict[str, tuple[str, ...]]] = {}

    def __init__(self, players: list[str], options: dict[str, Any] | None = None) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            n = (
                f"{self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise VariantError(f"{self.name} is played by {n} players, not {len(players)}")
        self.players = list(players)
        self.options: dict[str, Any] = {k: spec[0] for k, spec in self.option_specs.items()}
        for key, value in (options or {}).items():
            if key not in self.option_specs:
                known = ", ".join(self.option_specs) or "none"
                raise VariantError(f"unknown option {key!r} for {self.name} (known: {known})")
            types = self.option_specs[key][1]
            if (isinstance(value, bool) and bool not in types) or not isinstance(value, types):
                raise VariantError(f"option {key!r} has a bad value {value!r}")
            self.options[key] = value
        #: the options the match_start gives; the others are the rulebook's defaults
        self.given_options = frozenset(options or ())
        #: the rulings of a rule that hidden tiles leave open (:meth:`check_hand`), by its code: asked of
        #: :mod:`~dominolog.variants.rulings` once a match, not at every draw of a hidden hand
        self._open_rulings: dict[str, tuple[str, ...]] = {}
        self.check_options()

    def check_options(self) -> None:
        """Raise VariantError for option values the rules cannot use."""

    def option_shown(self, key: str) -> tuple[str, bool]:
        """Option ``key`` as the rulebook says its value (``100``, ``yes``), and whether the match plays
        the rulebook's default (the match_start does not give the option)."""
        return option_words(self.options[key]), key not in self.given_options

    def options_shown(self) -> str:
        """Every option of the variant as the rulebook says it, a default named as one:
        ``partners: no (default), target: 61 (default)``."""
        parts = []
        for key in self.option_specs:
            value, default = self.option_shown(key)
            parts.append(f"{key}: {value}" + (" (default)" if default else ""))
        return ", ".join(parts)

    # -- hands -------------------------------------------------------------
    def hand_size(self, n_players: int) -> int:
        raise NotImplementedError

    def expected_leader(self, match: MatchState) -> str | None:
        """Who must lead the next hand (None: anyone named in the deal)."""
        return None

    def new_layout(self) -> LineLayout | GridLayout:  # a GridLayout in the spinner games (HandState.layout)
        return LineLayout()

    def start_hand(self, match: MatchState, deal: Deal, ctx: Ctx) -> HandState:
        """Check the deal and build the hand's state."""
        size = self.hand_size(len(self.players))
        holdings: dict[str, Holding] = {}
        dealt: set[Tile] = set()
        hidden = False
        given = deal.hands or {}
        for name in given:
            if name not in self.players:
                ctx.violation(
                    "bad-deal", f"the deal names {name!r}, who is not a player of this match", rules_of_deal(self.name)
                )
        for p in self.players:
            tiles = given.get(p)
            if tiles is None:
                holdings[p] = Holding(set(), size)
                hidden = True
                continue
            hand: set[Tile] = set()
            for text in tiles:
                t = Tile.parse(text)
                if t in hand or t in dealt:
                    ctx.violation("bad-deal", f"{t} is dealt twice", rules_of_deal(self.name, twice=True), (str(t),))
                hand.add(t)
                dealt.add(t)
            if len(tiles) != size:
                ctx.violation(
                    "bad-deal", f"{p} is dealt {len(tiles)} tiles, not {size}", rules_of_deal(self.name), (), (p,)
                )
            holdings[p] = Holding(hand, 0)
        start: Tile | None = None
        if deal.start_tile is not None:
            if not self.uses_start_tile:
                ctx.violation(
                    "bad-deal",
                    f"{self.title} turns up no start tile; {deal.start_tile} ignored",
                    rules_of_deal(self.name),
                )
            else:
                start = Tile.parse(deal.start_tile)
                if start in dealt:
                    ctx.violation(
                        "bad-deal",
                        f"the start tile {start} is also dealt to a player",
                        rules_of_deal(self.name, twice=True),
                        (str(start),),
                    )
                    for h in holdings.values():
                        h.known.discard(start)
                dealt.add(start)
        elif self.uses_start_tile:
            ctx.violation(
                "bad-deal", f"the deal turns up no start tile ({self.title} needs one)", rules_of_deal(self.name)
            )
        expected = self.expected_leader(match)
        leader = deal.leader
        if expected is not None and leader != expected:
            ctx.violation(
                "bad-deal",
                f"{leader} leads hand {len(match.results) + 1}, but {expected} should lead it",
                ids(LEADER, self.name),
                (),
                (leader, expected),
            )
        layout = self.new_layout()
        unaccounted = set(DOUBLE_SIX_SET)  # (a copy of the set's table, then the dealt tiles taken out)
        unaccounted -= dealt
        boneyard = Holding(set(), 0)
        if self.has_boneyard:
            hidden_count = sum(h.unknown for h in holdings.values())
            if hidden_count > len(unaccounted):  # a broken deal: fewer tiles left than the hidden hands hold
                for h in holdings.values():
                    cut = min(h.unknown, hidden_count - len(unaccounted))
                    h.unknown -= cut
                    hidden_count -= cut
            boneyard.unknown = len(unaccounted) - hidden_count
        hand_state = HandState(
            number=len(match.results) + 1,
            leader=leader,
            dealer=deal.dealer,
            deal_seq=ctx.seq,
            holdings=holdings,
            boneyard=boneyard,
            unaccounted=unaccounted,
            layout=layout,
            turn=leader,
            hidden=hidden,
            played_by={p: [] for p in self.players},
            points={p: 0 for p in self.players},
        )
        if start is not None:
            hand_state.start_tile = start
            text = deal.start_tile or ""
            hand_state.layout.place_first(int(text[0]), int(text[2]), start)
        self.finish_deal(match, hand_state, deal, ctx)
        hand_state.settle()
        return hand_state

    def finish_deal(self, match: MatchState, hand: HandState, deal: Deal, ctx: Ctx) -> None:
        """Variant-specific deal checks."""
        if not self.has_boneyard and sum(h.count for h in hand.holdings.values()) != len(DOUBLE_SIX):
            n = sum(h.count for h in hand.holdings.values())
            ctx.violation(
                "bad-deal", f"{n} tiles dealt; {self.name} deals all {len(DOUBLE_SIX)}", rules_of_deal(self.name)
            )

    # -- hidden hands --------------------------------------------------------
    def check_hand(
        self, hand: HandState, player: str, ctx: Ctx, code: str, judge: Judge, action: str, rule: str = ""
    ) -> bool | None:
        """Apply a rule about ``player``'s hand as it is now: ``action`` (``"Ben draws"``) breaks it when
        ``judge`` says so; ``rule`` says how, in words (``"holding a legal play"``).

        Broken (``judge`` says True): a violation ``action while rule (the tiles that show it)``.
        Unknown because of hidden tiles: an unverified entry, re-judged at the end of the hand.
        A ``renege`` rests on C3 and the variant's words for it; any other code is a pass while a draw
        is allowed (the variant's rule for that). Returns the verdict.
        """
        h = hand.holdings[player]
        known = frozenset(h.known)
        possible = hand.possible(player) if h.unknown else known  # (the same tiles: one set made, not two)
        judged = judge(known, possible, h.count)
        if judged[0] is False:
            return False  # the common case: the rule is kept
        verdict, detail, named = judged
        message = f"{action} while {rule}" if rule else action
        if verdict is True:
            tiles = tuple(map(str, named))
            rules = renege(self.name, tiles) if code == "renege" else ids(MUST_DRAW, self.name)
            ctx.violation(code, f"{message} ({detail})", rules, tiles if code == "renege" else (), (player,))
        elif verdict is None:
            found = self._open_rulings.get(code)
            if found is None:
                found = self._open_rulings[code] = renege(self.name) if code == "renege" else ids(MUST_DRAW, self.name)
            rules = found
            check = PendingCheck(ctx.seq, player, h.count, known, possible, judge, message, action, rules)
            ctx.unverified(
                code, f"{action}; {player}'s hand is hidden, so this cannot be checked yet", check, rules, (player,)
            )
        return verdict

    def draw_tile(self, hand: HandState, player: str, text: str | None, ctx: Ctx) -> bool:
        """Move one tile from the boneyard to ``player`` (``text`` None: a draw the recorder did not see).

        A named tile that cannot be in the boneyard is ``illegal`` and taken as an unseen draw.
        Returns False when nothing could be drawn (the boneyard is empty).
        """
        bone = hand.boneyard
        if bone.count == 0:
            ctx.violation(
                "illegal", f"{player} draws from an empty boneyard; ignored", ids(TURN, self.name), (), (player,)
            )
            return False
        h = hand.holdings[player]
        tile = Tile.parse(text) if text is not None else None
        if tile is not None and tile not in bone.known:
            if tile in hand.unaccounted and bone.unknown:
                bone.unknown -= 1
                hand.unaccounted.discard(tile)
                bone.known.add(tile)
            else:
                where = (
                    "on the table"
                    if tile in hand.layout.on_board
                    else f"in {hand.holder_of(tile)}'s hand"
                    if hand.holder_of(tile)
                    else "not in the boneyard"
                )
                ctx.violation(
                    "illegal",
                    f"{player} draws {tile}, which is {where}; taken as a draw not seen",
                    SAME_TILE,
                    (str(tile),),
                    (player,),
                )
                tile = None
        if tile is None:
            # Any boneyard tile may be the one drawn: what was known of the boneyard is lost.
            hand.unaccounted |= bone.known
            bone.unknown += len(bone.known)
            bone.known.clear()
            bone.unknown -= 1
            h.unknown += 1
        else:
            bone.known.discard(tile)
            h.known.add(tile)
        seq = ctx.seq
        hand.draws.append((seq, player, tile))
        hand.actions.append((seq, player, "draw"))
        hand.settle()
        return True

    # -- turns -------------------------------------------------------------
    def check_turn(self, match: MatchState, hand: HandState, player: str, ctx: Ctx) -> None:
        if hand.turn is not None and player != hand.turn:
            ctx.violation(
                "illegal",
                f"not {player}'s turn ({hand.turn} is on move)",
                ids(ORDER, self.name),
                (),
                (player,) if hand.turn is None else (player, hand.turn),
            )

    def _tile_to_place(self, match: MatchState, hand: HandState, ev: Play, ctx: Ctx) -> Tile | None:
        """The first step of placing a single tile, the same in every game: the tile, its player's turn
        checked (a play out of turn is reported and stands), None when the tile is already on the table
        (reported; what happens to the turn then is the game's)."""
        assert ev.tile is not None
        tile = Tile.parse(ev.tile)
        player = ev.player
        self.check_turn(match, hand, player, ctx)
        if tile in hand.layout.on_board:
            ctx.violation("illegal", f"{tile} is already on the table; not placed", SAME_TILE, (str(tile),), (player,))
            return None
        return tile

    def take_tile(self, hand: HandState, player: str, tile: Tile, ctx: Ctx) -> bool:
        """Move ``tile`` out of ``player``'s hand; False (and a violation) when it cannot be there."""
        h = hand.holdings[player]
        if tile in h.known:
            h.known.discard(tile)
            return True
        if tile in hand.layout.on_board:
            ctx.violation("illegal", f"{tile} is already on the table", SAME_TILE, (str(tile),), (player,))
            return False
        if h.unknown and tile in hand.unaccounted:
            h.unknown -= 1
            hand.unaccounted.discard(tile)
            hand.settle()
            return True
        other = hand.holder_of(tile)
        if other is not None:
            ctx.violation(
                "illegal",
                f"{player} plays {tile}, which is in {other}'s hand",
                SAME_TILE,
                (str(tile),),
                (player, other),
            )
            hand.holdings[other].known.discard(tile)
            return True
        if tile in hand.boneyard.known:
            ctx.violation(
                "illegal", f"{player} plays {tile}, which is in the boneyard", SAME_TILE, (str(tile),), (player,)
            )
            hand.boneyard.known.discard(tile)
            return True
        ctx.violation("illegal", f"{player} does not hold {tile}", SAME_TILE, (str(tile),), (player,))
        # Some other holder with hidden tiles has it: the table's tile count follows the table.
        for holder in (*hand.holdings.values(), hand.boneyard):
            if holder.unknown:
                holder.unknown -= 1
                break
        hand.unaccounted.discard(tile)
        hand.settle()
        return True

    # -- events ------------------------------------------------------------
    def on_play(self, match: MatchState, hand: HandState, ev: Play, ctx: Ctx) -> None:
        raise NotImplementedError

    def on_pass(self, match: MatchState, hand: HandState, ev: Pass, ctx: Ctx) -> None:
        raise NotImplementedError

    def on_draw(self, match: MatchState, hand: HandState, ev: Draw, ctx: Ctx) -> None:
        ctx.violation("illegal", f"{self.title} has no drawing", ids(TURN, self.name), (), (ev.player,))

    def on_declare(self, match: MatchState, hand: HandState, ev: Declare, ctx: Ctx) -> None:
        ctx.violation("illegal", f"{self.title} has no suit declarations", ids(TURN, self.name), (), (ev.player,))

    def on_block_call(self, match: MatchState, hand: HandState, ev: BlockCall, ctx: Ctx) -> None:
        ctx.violation("illegal", f"{self.title} has no block calls", ids(TURN, self.name), (), (ev.player,))

    def accepts_after_over(self, hand: HandState, kind: str) -> bool:
        """Whether a turn event of ``kind`` is still accepted once the hand is over."""
        return False

    def may_be_over(self, hand: HandState) -> bool | None:
        """Whether the hand could be over though the reducer has not seen it end (hidden tiles)."""
        return False

    def unverified_end(self, hand: HandState) -> str:
        """How a hand the table closed is taken to have ended when hidden tiles keep it from being known."""
        return "block"

    # -- results -----------------------------------------------------------
    def score_hand(self, match: MatchState, hand: HandState, ctx: Ctx) -> HandResult | None:
        """The hand's result by the rules; None when hidden tiles keep it from being known."""
        raise NotImplementedError

    def abandoned_result(self, match: MatchState, hand: HandState) -> HandResult:
        """A hand closed before its end: no winner, points made during play stand."""
        return HandResult(hand.number, "abandoned", None, dict(hand.points))

    def after_hand(self, match: MatchState) -> None:
        """Decide whether the match is over after a hand (sets ``match.over``)."""

    @property
    def target(self) -> int | None:
        """The score the match is played to (its ``target`` option), None where the variant has none."""
        t = self.options.get("target")
        return t if isinstance(t, int) and not isinstance(t, bool) else None

    def sides(self) -> list[tuple[str, ...]]:
        """Who scores together: each player alone, unless the variant plays partnerships."""
        return [(p,) for p in self.players]

    def match_winner(self, match: MatchState) -> WinnerValue:
        best = max(match.totals.values())
        leaders = [p for p in self.players if match.totals[p] == best]
        return leaders[0] if len(leaders) == 1 else None

    # -- what can be played --------------------------------------------------
    def places(self, hand: HandState, tile: Tile) -> list[str]:
        """The ends ``tile`` can go on now (``[""]`` for the first tile of a hand)."""
        return hand.layout.placements(tile)

    def pair_plays(self, hand: HandState, player: str) -> list[tuple[Tile, Tile]]:
        """Every pair of tiles ``player`` may lay at once now (none unless :attr:`has_pair_plays`)."""
        return []

    # -- simulation --------------------------------------------------------
    def legal_placements(self, hand: HandState, player: str) -> list[tuple[Tile, str]]:
        """Every (tile, end) the player may play now, from the tiles known to be in the hand."""
        raise NotImplementedError

    def simulate_deal(self, match: MatchState, tiles: list[Tile], rng: Random) -> dict[str, Any]:
        """The deal event of a hand, for the shuffled set ``tiles`` (full information)."""
        size = self.hand_size(len(self.players))
        hands = {p: [str(t) for t in sorted(tiles[i * size : (i + 1) * size])] for i, p in enumerate(self.players)}
        leader = self.expected_leader(match) or rng.choice(self.players)
        return {"type": "deal", "leader": leader, "hands": hands}

    def legal_actions(self, match: MatchState, hand: HandState, player: str) -> list[dict[str, Any]]:
        """Every event ``player`` (on move, full information) may write now; a draw's tile is left out."""
        moves = self.legal_placements(hand, player)
        if moves:
            return [{"type": "play", "player": player, "tile": str(t), **({"end": e} if e else {})} for t, e in moves]
        return [{"type": "pass", "player": player}]
