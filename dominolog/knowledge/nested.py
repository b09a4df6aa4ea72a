"""The likelihood of a possible violation in the common case, in closed form: a player's own tiles,
every one of them known (played, or revealed at the end), only the draws unseen.

Then the facts about that player's tiles are a *chain*: the deal, and the player's unseen draws in
order; a tile played at seq ``e`` was dealt or drawn before ``e``, a tile revealed at the end was
dealt or drawn at any of them. Take a rule about the player's hand just before ``s``. The draws from
``s`` on (the *late* draws) brought tiles still in hand at ``s`` (a tile cannot be played before it
is drawn); the hand at ``s`` is the tiles still in hand then, less those. And whichever tiles the
late draws brought, the other tiles fill the deal and the earlier draws in as many ways: every tile
still in hand at ``s`` can have been dealt or drawn early, so those ways depend on how many the late
draws took, never on which. So the worlds, all equally likely, are as likely as the ways to fill the
late draws, and the share is counted over those alone: the late draws from the last back, each
taking one of the tiles still in hand at ``s`` played after it, the tiles told apart only by their
part in the rule (for "held a tile that fits": fits or not). A few dozen steps, where the general
count (:mod:`dominolog.knowledge.likelihood`) takes a few hundred.

Tested against the general count on every possible violation of simulated hidden matches, and both
against brute force (``tests/test_likelihood.py``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Hashable
from dataclasses import dataclass, field

from dominolog.knowledge.groups import Shape, Tracker
from dominolog.knowledge.model import HandModel
from dominolog.tiles import Tile

#: the bits of one role's count of tiles used in a packed state (a hand has at most 28 tiles)
BITS = 5
MASK = (1 << BITS) - 1


@dataclass(slots=True, frozen=True)
class Chain:
    """One connected part of a hand's facts that is a chain: ``owner``'s deal (entered at
    ``dealt``) and unseen draws (entered at ``draws``, in order); ``tiles`` by the seq each left the
    hand (``exits``, in order; a tile never played: :data:`~dominolog.knowledge.model.NEVER`)."""

    owner: str
    dealt: int
    draws: tuple[int, ...]
    tiles: tuple[Tile, ...]
    exits: tuple[int, ...]
    #: :func:`chain_count`'s counts so far, by the tiles still in hand (from which, their roles): shared
    #: by the trackers that give those tiles the same roles
    counts: dict[tuple[int, tuple[Hashable, ...]], Counts] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    #: :func:`chain_count`'s tiles still in hand by role, by the tracker and how many tiles left before
    roles: dict[Tracker, dict[int, Roles]] = field(default_factory=dict, compare=False, hash=False, repr=False)


class Counts:
    """The counts of :func:`chain_count` for some tiles still in hand, by their roles: ``counted[k]``
    the ways to fill the last ``k`` draws (the tiles used, by role, packed :data:`BITS` bits a role:
    how many ways), and where the count stands: ``can`` (by role, the tiles the next draw back can
    have brought) and ``first`` (the first tile counted in ``can``)."""

    __slots__ = ("can", "counted", "first")

    def __init__(self, roles: int, first: int) -> None:
        self.counted: list[dict[int, int]] = [{0: 1}]
        self.can: list[int] = [0] * roles
        self.first = first


class Roles:
    """The tiles still in hand from some point of a chain, as one tracker sees them: each one's role
    number (``role_of``), the roles (``names``), how many tiles of each (``held``), and the counts
    shared by the trackers that see them alike (``counts``)."""

    __slots__ = ("counts", "held", "names", "role_of")

    def __init__(self, role_of: list[int], names: list[Hashable], held: list[int], counts: Counts) -> None:
        self.role_of = role_of
        self.names = names
        self.held = held
        self.counts = counts


def chain_of(shape: Shape, model: HandModel, part: int) -> Chain | None:
    """The part of ``shape`` as a :class:`Chain`, or None when it is not one (worked out once a part)."""
    if part in shape.chains:
        return shape.chains[part]
    found = _chain(shape, model, part)
    shape.chains[part] = found
    return found


def _chain(shape: Shape, model: HandModel, part: int) -> Chain | None:
    qs, ts = shape.parts[part]
    kinds = shape.kinds
    owners = {kinds[q].owner for q in qs}
    deals = [q for q in qs if not kinds[q].draw]
    if len(owners) != 1 or None in owners or len(deals) != 1:
        return None
    draws = sorted((q for q in qs if kinds[q].draw), key=lambda q: kinds[q].entry)
    if any(shape.sizes[q] != 1 for q in draws):
        return None
    entries = [kinds[q].entry for q in draws]
    for t in ts:  # each tile: the deal, and every draw before it left the hand
        if shape.adj[t] != tuple(sorted([deals[0], *draws[: bisect_right(entries, model.exit[t] - 1)]])):
            return None
    order = sorted(ts, key=lambda t: (model.exit[t], t))
    owner = kinds[deals[0]].owner
    assert owner is not None
    return Chain(owner, kinds[deals[0]].entry, tuple(entries), tuple(order), tuple(model.exit[t] for t in order))


def chain_count(chain: Chain, seq: int, tracker: Tracker) -> tuple[int, int]:
    """(ways the rule is broken, all ways) over the ways to fill the late draws (those from ``seq``
    on) with the tiles still in hand at ``seq``, one tile a draw (see the module's docstring)."""
    exits = chain.exits
    alive = bisect_right(exits, seq)  # the tiles from here on are still in hand at seq
    # the tiles still in hand by their role in the rule (the same for the rules of a run of draws
    # asked with one tracker: kept with the chain)
    by_alive = chain.roles.get(tracker)
    if by_alive is None:
        by_alive = chain.roles[tracker] = {}
    found = by_alive.get(alive)
    if found is None:
        kinds = tuple(tracker.role(t) for t in chain.tiles[alive:])
        roles: dict[Hashable, int] = {}
        role_of = [roles.setdefault(role, len(roles)) for role in kinds]
        held = [0] * len(roles)
        for r in role_of:
            held[r] += 1
        # the same tiles still in hand take the same last draws alike whatever the rule's seq: the
        # counts after each draw are kept with the chain (the rules of a run of draws share them)
        done = chain.counts.get((alive, kinds))
        if done is None:
            done = chain.counts[(alive, kinds)] = Counts(len(roles), len(exits))
        found = by_alive[alive] = Roles(role_of, list(roles), held, done)
    role_of, names, held, done = found.role_of, found.names, found.held, found.counts
    late = len(chain.draws) - bisect_right(chain.draws, seq - 1)
    # the ways to have used so many tiles of each role, the late draws taken from the last back;
    # ``can``: by role, the tiles the draw at hand can have brought (those played after it). The
    # tiles used, by role, are packed BITS bits a role in one int (a hand has at most 28 tiles).
    counted, can = done.counted, done.can
    draws = chain.draws
    while len(counted) <= late:
        entry = draws[len(draws) - len(counted)]
        start = bisect_right(exits, entry)
        for r in role_of[start - alive : done.first - alive]:
            can[r] += 1
        done.first = start
        steps = [(r * BITS, k, 1 << (r * BITS)) for r, k in enumerate(can) if k]
        nxt: dict[int, int] = {}
        get = nxt.get
        for used, n in counted[-1].items():
            for shift, k, one in steps:
                left = k - ((used >> shift) & MASK)
                if left > 0:
                    key = used + one
                    nxt[key] = get(key, 0) + n * left
        counted.append(nxt)
    states = counted[late]
    broken = total = 0
    start_state = tracker.start
    for used, n in states.items():
        state = start_state
        shift = 0
        for r, role in enumerate(names):
            kept = held[r] - ((used >> shift) & MASK)
            shift += BITS
            if kept > 0:
                state = tracker.add(state, role, kept)
        total += n
        if tracker.broken(state):
            broken += n
    return broken, total
