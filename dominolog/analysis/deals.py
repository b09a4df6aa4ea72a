"""Complete deals consistent with what one player could know at one moment of a hand.

**What the player knew.** :class:`View` folds the hand's log as ``player`` saw it, up to the
moment of a decision and no further: the deal with only that player's own tiles (when the log
shows them), every draw by another player as a draw not seen, the player's own draws as the log
has them, and everything public (the start tile, plays, passes, declarations, calls, undos,
reveals). A reducer of its own folds that, so its state and its unverified rules are exactly what
the knowledge engine makes of such a log. :meth:`View.model` is then the engine's model of the
worlds (:mod:`dominolog.knowledge`: a perfect matching of tiles to the slots they entered a hand
through), with each pass or draw by another player taken as honest where the facts allow it (as
:func:`dominolog.audit.engine.honest_model` does): a player who passed or drew held no playable
tile then. So a world never puts a tile where the player could know it is not, and never uses an
event after the decision.

**The player's own hand.** When the log shows it (dealt open, or recorded by that player), it is
in the view. When it does not (a spectator's log), it is taken from what the whole log shows of it
at that moment (plays to come and the reveals at the end say what it was: the player knew it);
when even the whole log leaves it open, it is sampled too, from the whole log's worlds
(:func:`sample_matching` on that model), and the deal is sampled given it. :func:`with_hand` ties
the view's worlds to one hand.

**Sampling.** :func:`sample_matching` draws a perfect matching: the tiles still in play are taken
in a random order, and each takes a slot chosen uniformly among the slots still possible for it
given the tiles placed before it (the engine's ``allowed`` slots, each checked by an augmenting
path that re-seats the other tiles). Every matching it gives is a world of the model; the
distribution is not uniform over matchings (a sequential choice weights them by the order), but
every world has a chance. The boneyard's draw order is then shuffled uniformly.

:class:`Walk` walks one hand's moves in order, feeding each player's view as far as a move needs;
:class:`Knowledge` is what the player on move could know at one move, and draws its worlds: the
sampled tiles set into the table as the fold had it (:class:`~dominolog.analysis.playout.World`).

Known limit: like the knowledge engine, a view uses the facts and honest passes and draws, not
other inferences from the rules of play (e.g. that an unseen opening draw in Double Bergen was no
double because the drawer did not set it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from random import Random

from dominolog.analysis.moves import Move, SampledHand
from dominolog.analysis.playout import World
from dominolog.events import Deal
from dominolog.knowledge import HandModel, hand_model
from dominolog.knowledge.honest import Rule, kept_rules
from dominolog.knowledge.model import Slot
from dominolog.log.reader import Record
from dominolog.reducer import MatchReducer
from dominolog.state import HandState, Holding
from dominolog.tiles import Tile
from dominolog.variants.judges import HoldsOne


def _viewed(rec: Record, player: str) -> Record:
    """``rec`` as ``player`` saw it (another player's draw: not seen; the deal: own tiles only)."""
    ev = rec.event
    if ev is None:
        return rec
    if ev.type == "deal":
        assert isinstance(ev, Deal)
        own = (ev.hands or {}).get(player)
        ev = replace(ev, hands={player: own} if own is not None else None)
    elif ev.type == "draw" and getattr(ev, "player", None) != player and getattr(ev, "tile", None) is not None:
        ev = replace(ev, tile=None)
    else:
        return rec
    return Record(rec.line, rec.seq, b"", event=ev)


class View:
    """One hand's log as ``player`` saw it, fed record by record (see the module's docstring)."""

    def __init__(self, start: Record, deal: Record, player: str) -> None:
        self.player = player
        self.reducer = MatchReducer("<view>")
        self.reducer.feed(Record(start.line, start.seq, b"", event=start.event))
        self.reducer.feed(_viewed(deal, player))
        self.last = deal.seq

    @property
    def hand(self) -> HandState | None:
        state = self.reducer.state
        return state.hand if state is not None else None

    def feed(self, rec: Record) -> None:
        self.reducer.feed(_viewed(rec, self.player))
        self.last = rec.seq

    def model(self) -> tuple[HandModel, HandModel] | None:
        """The worlds of the view now: (facts with honest passes and draws, facts alone); None when
        the hand is not open in the view (a log the view cannot follow)."""
        hand = self.hand
        if hand is None:
            return None
        reducer = self.reducer
        start = reducer._hand_start()
        facts = hand_model(start, hand)
        if not facts.feasible:
            return facts, facts
        decided = reducer.decide_pending(hand, start, facts)
        rules = [
            (check.player, check.seq, check.judge.tiles)
            for _, check, decision in decided
            if isinstance(check.judge, HoldsOne) and not (decision is not None and decision[0] is True)
        ]
        return honest(facts, rules), facts


def honest(facts: HandModel, rules: list[Rule]) -> HandModel:
    """The facts with each rule "``player`` held none of ``tiles`` just before ``seq``" taken as kept:
    all at once when some world keeps them all, else one by one in order, each kept when it leaves a
    world (as :func:`dominolog.audit.engine.honest_model`)."""
    return kept_rules(facts, rules)


def with_hand(model: HandModel, player: str, at: int, tiles: frozenset[Tile]) -> HandModel:
    """The worlds of ``model`` in which ``player`` holds exactly ``tiles`` after the event at ``at``."""
    exit = model.exit

    def forbid(t: Tile, s: Slot) -> bool:
        inside = s.owner == player and s.entry <= at < exit[t]
        return inside != (t in tiles)

    return model.without(forbid)


def sample_matching(model: HandModel, rng: Random, at: int) -> dict[Tile, int]:
    """A random world of ``model`` (tile -> slot index; see the module's docstring). The tiles in
    play after the event at ``at`` are drawn; the others follow wherever a world puts them."""
    if model.match is None:
        raise ValueError("the model has no world")
    allowed = {t: sorted(model.allowed[t]) for t in model.tiles}
    match = dict(model.match)
    owner: list[Tile | None] = [None] * len(model.slots)
    for t, i in match.items():
        owner[i] = t
    fixed: set[int] = set()

    def augment(u: Tile, seen: set[int]) -> bool:
        for k in allowed[u]:
            if k in seen:
                continue
            seen.add(k)
            w = owner[k]
            if w is None or augment(w, seen):
                owner[k] = u
                match[u] = k
                return True
        return False

    def seat(t: Tile, i: int) -> bool:
        j = match[t]
        if i == j:
            return True
        u = owner[i]
        assert u is not None
        owner[i], owner[j], match[t] = t, None, i
        if augment(u, fixed | {i}):
            return True
        owner[i], owner[j], match[t] = u, t, j
        return False

    live = [t for t in model.tiles if model.exit[t] > at]
    rng.shuffle(live)
    for t in live:
        choices = [i for i in allowed[t] if i not in fixed]
        rng.shuffle(choices)
        for i in choices:
            if seat(t, i):
                break
        fixed.add(match[t])
    return match


def holders(model: HandModel, matching: dict[Tile, int], at: int, players: list[str]) -> dict[str | None, set[Tile]]:
    """Who holds each tile still in play after the event at ``at`` in the world ``matching``
    (None: the boneyard)."""
    out: dict[str | None, set[Tile]] = {p: set() for p in players}
    out[None] = set()
    slots, exit = model.slots, model.exit
    for t, i in matching.items():
        s = slots[i]
        if s.owner is None:
            out[None].add(t)
        elif s.entry <= at < exit[t]:
            out[s.owner].add(t)
    return out


def hand_of(model: HandModel, matching: dict[Tile, int], player: str, at: int) -> frozenset[Tile]:
    """``player``'s tiles after the event at ``at`` in the world ``matching``."""
    slots, exit = model.slots, model.exit
    return frozenset(t for t, i in matching.items() if slots[i].owner == player and slots[i].entry <= at < exit[t])


# -- what the player on move knew, as worlds ------------------------------------------------------------
class Skip(Exception):
    """A move that is not analysed, and why (None: it is no decision, nothing to say)."""

    def __init__(self, why: str | None = None) -> None:
        super().__init__(why)
        self.why = why


def _world(move: Move, held: dict[str | None, set[Tile]], rng: Random) -> World:
    """The table as it stood at ``move``, with the sampled tiles in the hands and the boneyard."""
    hand = move.hand.clone()
    for holder, tiles in held.items():
        target = hand.boneyard if holder is None else hand.holdings[holder]
        if len(tiles) != target.count:  # pragma: no cover - the model's slots follow the fold's counts
            raise Skip(f"seq {move.seq}: the tiles of the log do not add up")
        if holder is None:
            hand.boneyard = Holding(set(tiles), 0)
        else:
            hand.holdings[holder] = Holding(set(tiles), 0)
    hand.unaccounted = set()
    hand.hidden = False
    if hand.extra.get("open_draw") is not None and move.kind in ("play", "pass", "draw"):
        # Double Bergen's opening: an unseen draw left the turn open; the move shows whose it was
        hand.extra["open_draw"] = None
        hand.turn = move.player
    order = sorted(hand.boneyard.known)
    rng.shuffle(order)
    return World(move.match, hand, tuple(order))


def _tied(model: HandModel, facts: HandModel, move: Move, tiles: frozenset[Tile]) -> HandModel:
    """The view's worlds with the player on move holding ``tiles`` (the facts alone if the honest
    passes and draws cannot all hold with it)."""
    tied = with_hand(model, move.player, move.at, tiles)
    if not tied.feasible and model is not facts:
        tied = with_hand(facts, move.player, move.at, tiles)
    if not tied.feasible:
        raise Skip(f"seq {move.seq}: what {move.player} held cannot be made to agree with the log; not analysed")
    return tied


class Knowledge:
    """What the player on move could know at a move: the worlds to draw from (see
    :mod:`dominolog.analysis.deals`). ``own`` None: the player's own hand is sampled too."""

    def __init__(self, h: SampledHand, move: Move, view: View, whole: Callable[[], HandModel | None]) -> None:
        models = view.model()
        if models is None or not models[1].feasible:
            raise Skip(f"seq {move.seq}: the log's facts contradict each other; not analysed")
        self.move = move
        self.honest, self.facts = models
        self.whole: HandModel | None = None
        self.tied: dict[frozenset[Tile], HandModel] = {}
        player, at = move.player, move.at
        assert view.hand is not None
        mine = view.hand.holdings[player]
        self.own: frozenset[Tile] | None = None
        if not mine.unknown:
            self.own = frozenset(mine.known)
            self.tied[self.own] = self.honest
            return
        whole_model = whole()
        if whole_model is None or not whole_model.feasible:
            raise Skip(f"seq {move.seq}: the log does not say what {player} held; not analysed")
        holds, may = whole_model.knowledge(player, at)
        if not may and len(holds) == mine.count:
            self.own = holds
        else:
            self.whole = whole_model

    def world(self, rng: Random, players: list[str]) -> World:
        move = self.move
        own = self.own
        if own is None:
            assert self.whole is not None
            own = hand_of(self.whole, sample_matching(self.whole, rng, move.at), move.player, move.at)
        model = self.tied.get(own)
        if model is None:
            model = self.tied[own] = _tied(self.honest, self.facts, move, own)
        matching = sample_matching(model, rng, move.at)
        return _world(move, holders(model, matching, move.at, players), rng)


def _whole(h: SampledHand) -> Callable[[], HandModel | None]:
    """What the whole log shows of the hand (facts, honest passes and draws), made when first asked."""
    made: list[HandModel | None] = []

    def get() -> HandModel | None:
        if not made:
            if h.whole is None:
                made.append(None)
            else:
                start, end, decided = h.whole
                facts = hand_model(start, end)
                rules = [
                    (c.player, c.seq, c.judge.tiles)
                    for _, c, d in decided
                    if isinstance(c.judge, HoldsOne) and not (d is not None and d[0] is True)
                ]
                made.append(honest(facts, rules))
        return made[0]

    return get


class Walk:
    """One hand walked move by move: each player's :class:`~dominolog.analysis.deals.View`, fed as far
    as the move asked for (moves must be asked for in order)."""

    def __init__(self, h: SampledHand) -> None:
        self.h = h
        self.views: dict[str, tuple[View, list[int]]] = {}
        self.whole = _whole(h)

    def knowledge(self, move: Move) -> Knowledge:
        """What the player on move could know at ``move`` (raises :class:`Skip` for a move not analysed)."""
        h = self.h
        if move.played is None:
            raise Skip(f"seq {move.seq}: the move was not carried out (it breaks the rules); not analysed")
        hand = move.hand
        if move.kind in ("play", "pass", "draw") and hand.turn != move.player and not hand.extra.get("open_draw"):
            raise Skip(f"seq {move.seq}: {move.player} is not on move; not analysed")
        if move.player not in self.views:
            self.views[move.player] = (View(h.start, h.records[0], move.player), [1])
        view, fed = self.views[move.player]
        while fed[0] < len(h.records) and h.records[fed[0]].seq <= move.at:
            view.feed(h.records[fed[0]])
            fed[0] += 1
        return Knowledge(h, move, view, self.whole)
