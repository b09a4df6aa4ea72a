"""Who meets whom in a round of a club event: round robins (FIDE's Berger tables) and a Swiss system.

Entrants are strings (a player's id or a team's id: teams are paired exactly like players). Every
function is pure and deterministic: the same input gives the same pairings.

Round robin
-----------
``berger_table(n)`` is FIDE's Berger table for ``n`` start numbers (FIDE Handbook C.05, Annex 1), as
printed: round 1 is ``1-n, 2-(n-1), ...``; each next round adds ``n/2`` to every start number but
``n`` (going round from ``n-1`` back to 1), keeps the board order, and start number ``n`` leads first in the
even rounds and second in the odd ones, always on board 1. With an odd number of entrants the table
of ``n+1`` is used and whoever meets start number ``n+1`` has the bye.

Swiss system
------------
``swiss_round`` pairs one round from the current standings. Hard rules (a round that cannot keep
them raises ``NoPairing``, saying why):

- no two entrants meet twice;
- every entrant is paired once; with an odd number of entrants exactly one has the bye, and no one
  has a second bye.

Within those, the pairing is the best one by these aims, each one counting before all the next
(they are the weights of one maximum-weight perfect matching, so a pairing is always found when one
exists, and up to ``FULL_GRAPH_UP_TO`` entrants it is the best one):

1. the bye goes to the lowest-ranked entrant of the lowest score group who has not had one (the next
   one up when giving it to them would leave the others unpairable);
2. the colour limits, whenever some pairing keeps them: nobody leads first (or second) three rounds
   in a row, and nobody leads first two more times than second (or the other way round). As in
   FIDE's Dutch system this counts before the score groups: an entrant floats rather than lead
   first a third time running;
3. as few and as small score differences as possible between opponents: each table costs the square
   of its score difference (in half points), so an entrant who cannot be paired in their score group
   floats down to the next group rather than further (the Dutch system's idea);
4. colour preferences: two entrants who both want to lead first (or both second) meet only when
   that cannot be avoided;
5. within a score group the top half meets the bottom half in rank order (1st against the first of
   the bottom half, 2nd against the second, ...); an entrant floating down is the lowest-ranked of
   their group, and meets the highest-ranked of the group below.

Who leads first at a table: if only one way keeps the colour limits, that way; otherwise the entrant
who has led first fewer times; equal: the one who led second last round; still equal, the
higher-ranked. An entrant "wants" to lead first when they led first fewer times, or, equal, when they
led second last round (no wish before their first game).

Tables are numbered from the top: by the higher score at the table, then the two scores' sum, then
the better rank. The bye is listed last, numbered after the last table.

Above ``FULL_GRAPH_UP_TO`` entrants the matching looks only at likely opponents (each entrant's
neighbours in the standings and around their ideal opponent in their group); if they cannot all be
paired that way, or the bye would not go to the first in line, it looks at every allowed pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

#: Up to this many entrants, the matching considers every pair that has not met.
FULL_GRAPH_UP_TO = 80
#: Above FULL_GRAPH_UP_TO: how many neighbours on each side are candidates.
WINDOW = 6


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table of a round (or the bye)."""

    table: int  # 1-based table number, tables numbered from the top of the standings
    first: str  # the entrant who leads first (chess's "white")
    second: str | None  # None: `first` has the bye this round


class NoPairing(ValueError):
    """A round that cannot be paired under the rules (the message says why)."""


# ---------------------------------------------------------------------------------------------
# Round robin


def berger_table(n: int) -> list[list[tuple[int, int]]]:
    """FIDE's Berger tables (FIDE Handbook C.05 Annex 1) for ``n`` start numbers.

    Odd ``n``: the table of ``n+1``, where start number ``n+1`` is the bye. The ``n-1`` (or ``n``)
    rounds, each a list of ``(first, second)`` start-number pairs in board order, as printed.
    """
    if n < 2:
        raise ValueError(f"a round robin needs at least 2 entrants, not {n}")
    size = n + (n % 2)
    others = size - 1
    half = size // 2
    board = [(i, size + 1 - i) for i in range(1, half + 1)]  # round 1: 1-n, 2-(n-1), ...
    table = [board]
    for round_no in range(2, size):

        def shift(x: int) -> int:
            return x if x == size else (x - 1 + half) % others + 1

        moved = [(shift(a), shift(b)) for a, b in board]
        fixed_a, fixed_b = moved[0]
        low = fixed_a if fixed_b == size else fixed_b
        moved[0] = (size, low) if round_no % 2 == 0 else (low, size)
        board = moved
        table.append(board)
    return table


def round_robin_round(entrants: Sequence[str], round_no: int) -> list[Pairing]:
    """Round ``round_no`` (1-based) of a round robin of ``entrants`` in start-number order (Berger).

    The pair with the phantom start number (odd number of entrants) is a bye for the real one,
    listed last; the real tables are numbered 1, 2, ... in the table's board order.
    """
    n = len(entrants)
    if len(set(entrants)) != n:
        raise ValueError("an entrant appears twice")
    table = berger_table(n)
    if not 1 <= round_no <= len(table):
        raise ValueError(f"a round robin of {n} has rounds 1 to {len(table)}, not {round_no}")
    pairings: list[Pairing] = []
    bye: str | None = None
    for a, b in table[round_no - 1]:
        if a > n:
            bye = entrants[b - 1]
        elif b > n:
            bye = entrants[a - 1]
        else:
            pairings.append(Pairing(len(pairings) + 1, entrants[a - 1], entrants[b - 1]))
    if bye is not None:
        pairings.append(Pairing(len(pairings) + 1, bye, None))
    return pairings


# ---------------------------------------------------------------------------------------------
# Swiss


@dataclass(frozen=True, slots=True)
class SwissEntrant:
    """An entrant as the next Swiss round sees them."""

    id: str
    score: float  # match points so far: a win 1, a draw 0.5, a loss 0, a bye 1 (the caller computes)
    rank: int  # 1-based place in the current standings (tie-breaks applied by the caller); unique
    opponents: frozenset[str]  # every entrant already met (never met again)
    had_bye: bool  # at most one bye per entrant
    leads: tuple[bool, ...] = ()  # per round played, whether this entrant led first (True) or second (False)


def _breaks_limits(leads: tuple[bool, ...], first: bool) -> bool:
    """Whether leading ``first`` now makes three in a row the same way or a balance beyond 2."""
    after = (*leads, first)
    balance = 2 * sum(after) - len(after)
    return abs(balance) > 2 or (len(after) >= 3 and after[-1] == after[-2] == after[-3])


def _wish(leads: tuple[bool, ...]) -> bool | None:
    """True: wants to lead first; False: second; None: no wish yet."""
    if not leads:
        return None
    firsts = sum(leads)
    seconds = len(leads) - firsts
    if firsts != seconds:
        return firsts < seconds
    return not leads[-1]


def _leads_first(a: SwissEntrant, b: SwissEntrant) -> bool:
    """Whether ``a`` leads first against ``b`` (the rules in the module's docstring)."""
    a_ok = not _breaks_limits(a.leads, True) and not _breaks_limits(b.leads, False)
    b_ok = not _breaks_limits(b.leads, True) and not _breaks_limits(a.leads, False)
    if a_ok != b_ok:
        return a_ok
    a_firsts, b_firsts = sum(a.leads), sum(b.leads)
    if a_firsts != b_firsts:
        return a_firsts < b_firsts
    a_second_last = bool(a.leads) and not a.leads[-1]
    b_second_last = bool(b.leads) and not b.leads[-1]
    if a_second_last != b_second_last:
        return a_second_last
    return a.rank < b.rank


def _colour_bad(a: SwissEntrant, b: SwissEntrant) -> bool:
    """Whether both ways of seating ``a`` and ``b`` break a colour limit."""
    a_first = _breaks_limits(a.leads, True) or _breaks_limits(b.leads, False)
    b_first = _breaks_limits(b.leads, True) or _breaks_limits(a.leads, False)
    return a_first and b_first


def _validate(entrants: Sequence[SwissEntrant]) -> None:
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant appears twice")
    ranks = [e.rank for e in entrants]
    if len(set(ranks)) != len(ranks):
        raise ValueError("two entrants have the same rank (ranks must be unique)")


def swiss_round(entrants: Sequence[SwissEntrant]) -> list[Pairing]:
    """Pair one Swiss round of ``entrants`` (the active ones) under the rules of the module's docstring.

    Raises ``NoPairing`` when the rules cannot be kept (everyone has had a bye with an odd number of
    entrants, or no way to pair everyone without a repeat).
    """
    _validate(entrants)
    if not entrants:
        return []
    order = sorted(entrants, key=lambda e: (-e.score, e.rank))
    n = len(order)
    if n == 1:
        only = order[0]
        if only.had_bye:
            raise NoPairing(f"{only.id} is the only entrant and has already had a bye")
        return [Pairing(1, only.id, None)]
    odd = n % 2 == 1

    # each entrant's score group: index of the group, place in it (0-based by rank), its size
    groups: list[list[int]] = []
    for i, e in enumerate(order):
        if groups and order[groups[-1][0]].score == e.score:
            groups[-1].append(i)
        else:
            groups.append([i])
    group_of = [0] * n
    place = [0] * n
    for g, members in enumerate(groups):
        for p, i in enumerate(members):
            group_of[i] = g
            place[i] = p

    bye_candidates: list[int] = []
    if odd:
        # lowest score group first, lowest rank first within it
        bye_candidates = sorted(
            (i for i in range(n) if not order[i].had_bye), key=lambda i: (order[i].score, -order[i].rank)
        )
        if not bye_candidates:
            raise NoPairing(f"an odd number of entrants ({n}) and every one of them has already had a bye")

    half_points = [round(2 * e.score) for e in order]
    max_diff = max(half_points) - min(half_points)
    pairs_at_most = n // 2 + 1
    # lexicographic weights: each aim's worst total stays below one unit of the aim before it
    rank_unit = 1
    rank_worst = 2 * n * n
    pref_unit = rank_unit * (pairs_at_most * rank_worst + 1)
    score_unit = pref_unit * (pairs_at_most + 1)
    score_worst = max_diff * max_diff
    bad_unit = score_unit * (pairs_at_most * score_worst + 1)
    base = bad_unit + score_unit * (score_worst + 1)
    bye_unit = bad_unit * (pairs_at_most + 1)

    def rank_cost(i: int, j: int) -> int:
        gi, gj = group_of[i], group_of[j]
        if gi == gj:
            h = len(groups[gi]) // 2
            return (abs(place[j] - place[i]) - h) ** 2
        hi, lo = (i, j) if gi < gj else (j, i)
        return (len(groups[group_of[hi]]) - 1 - place[hi]) ** 2 + place[lo] ** 2

    def weight(i: int, j: int) -> int:
        a, b = order[i], order[j]
        d = half_points[i] - half_points[j]
        wa, wb = _wish(a.leads), _wish(b.leads)
        cost = (
            d * d * score_unit
            + _colour_bad(a, b) * bad_unit
            + (wa is not None and wa == wb) * pref_unit
            + rank_cost(i, j) * rank_unit
        )
        return base - cost

    def allowed(i: int, j: int) -> bool:
        return order[j].id not in order[i].opponents and order[i].id not in order[j].opponents

    def candidates_near(i: int) -> set[int]:
        near = set(range(max(0, i - WINDOW), min(n, i + WINDOW + 1)))
        members = groups[group_of[i]]
        h = len(members) // 2
        for centre in (place[i] + h, place[i] - h):
            for p in range(centre - WINDOW, centre + WINDOW + 1):
                if 0 <= p < len(members):
                    near.add(members[p])
        near.discard(i)
        return near

    # the matching's nodes are ints (places in ``order``; the bye is ``n``): nothing in it depends on a
    # hash that changes from one run to the next (str hashes do)
    bye_node = n

    def match(every_pair: bool) -> dict[int, int]:
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        for i in range(n):
            others = range(i + 1, n) if every_pair else sorted(j for j in candidates_near(i) if j > i)
            for j in others:
                if allowed(i, j):
                    graph.add_edge(i, j, weight=weight(i, j))
        if odd:
            for k, i in enumerate(bye_candidates):
                graph.add_edge(bye_node, i, weight=(len(bye_candidates) - k) * bye_unit)
        mates: dict[int, int] = {}
        for u, v in nx.max_weight_matching(graph, maxcardinality=True):
            mates[u] = v
            mates[v] = u
        return mates

    mates = match(every_pair=n <= FULL_GRAPH_UP_TO)
    if n > FULL_GRAPH_UP_TO and (len(mates) < n + odd or (odd and mates.get(bye_node) != bye_candidates[0])):
        mates = match(every_pair=True)  # the likely opponents left someone unpaired, or moved the bye
    if len(mates) < n + odd:
        unpaired = sorted(order[i].id for i in range(n) if i not in mates)
        raise NoPairing(
            "no pairing of all entrants without someone meeting an opponent again"
            + (" or having a second bye" if odd else "")
            + f" (left over: {', '.join(unpaired)})"
        )

    tables: list[tuple[tuple[int, int, int], Pairing]] = []
    bye: str | None = None
    for i in range(n):
        mate = mates[i]
        if mate == bye_node:
            bye = order[i].id
            continue
        if mate < i:
            continue
        a, b = order[i], order[mate]
        first, second = (a, b) if _leads_first(a, b) else (b, a)
        key = (-max(half_points[i], half_points[mate]), -(half_points[i] + half_points[mate]), min(a.rank, b.rank))
        tables.append((key, Pairing(0, first.id, second.id)))
    tables.sort(key=lambda t: t[0])
    result = [Pairing(t, p.first, p.second) for t, (_, p) in enumerate(tables, start=1)]
    if bye is not None:
        result.append(Pairing(len(result) + 1, bye, None))
    return result
