"""The 2-D table of the spinner games (``39``, ``double-bergen``): tiles with positions,
spinners with four sides, lines that never bend, and overlap detection.

Geometry (ruling T5), in units of half a tile's width (a tile is 2 x 4 units,
each half a 2 x 2 square); ``x`` grows to the east, ``y`` to the north:

* The first tile (the set, or Double Bergen's spinner) lies vertically with its
  first half to the north: ``x`` in [-1, 1], ``y`` in [-2, 2]. Its N side shows
  the north half, its S side the south half; E joins beside the north half
  (the east line is centred on ``y = 1``) and W beside the south half (centred
  on ``y = -1``). A doublet set lies the same way and shows its value on all four.
* A singlet continues the line of the side it is played on: 4 units along the
  line, 2 across, centred on the line, its matching half against the side; its
  other half is its one open end, in the same direction.
* Any later doublet is laid crosswise: 2 units along the line, 4 across,
  centred on the line. Its side straight on continues the line; when doublets
  are spinners (39) it also has the two perpendicular sides, at the ends of its
  long axis, whose lines run through its centre.
* Tiles may touch; a tile that would overlap another (a common area > 0) cannot
  be placed there.

An open end is a side nothing was played on, named ``<tile>:<dir>`` (the tile
on the table and the direction the new tile would lie in). It stays open even
when the tiles around leave no room to play there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from dominolog.frozen import by_fields
from dominolog.tiles import DOUBLE_SIX, Tile

DIRS: Final = ("N", "E", "S", "W")
VECTORS: Final = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
PERPENDICULAR: Final = {"N": ("E", "W"), "S": ("E", "W"), "E": ("N", "S"), "W": ("N", "S")}
#: a spinning doublet's three free sides when played towards each direction, in the order of DIRS
#: (the line straight on, and the two perpendicular sides)
CROSS_SIDES: Final = {d: tuple(q for q in DIRS if q == d or q in PERPENDICULAR[d]) for d in DIRS}

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 (x0 < x1, y0 < y1)
#: the numbers of a set of numbers 0-6 given as a mask (bit ``v``: number ``v``), in order: each a tuple
#: made once, so that :meth:`GridLayout.open_values` (asked at every play) makes no set, list or tuple
VALUES_OF_MASK: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(v for v in range(7) if m >> v & 1) for m in range(128))


#: every end name ``a-b:D`` (either order of the tile's numbers, a direction of DIRS) -> the key of
#: :attr:`GridLayout.sides` it names: :meth:`GridLayout.side` finds such a name with one look-up
_END_KEYS: Final[dict[str, tuple[Tile, str]]] = {
    f"{a}-{b}:{d}": (Tile(a, b), d) for a in range(7) for b in range(7) for d in DIRS
}
#: direction -> each tile's end name towards it, by the tile's index (:attr:`Side.name`, made once)
_END_NAMES: Final[dict[str, tuple[str, ...]]] = {d: tuple(t.text + ":" + d for t in DOUBLE_SIX) for d in DIRS}


def values_mask(sides: Iterable[Side]) -> int:
    """The numbers ``sides`` show, as a mask (bit ``v``: number ``v``)."""
    mask = 0
    for s in sides:
        mask |= 1 << s.value
    return mask


@dataclass(init=False, slots=True, frozen=True)
class Side:
    """An open end: ``value`` shows towards ``dir`` at ``anchor`` (the middle of the edge a new tile joins)."""

    tile: Tile
    dir: str
    value: int
    anchor: tuple[int, int]
    #: the tile is a doublet lying across (or the spinner/set): a "double end" in Double Bergen's scoring
    double: bool
    #: a side of the first tile (the set in 39, the spinner in Double Bergen)
    first: bool

    def __init__(
        self,
        tile: Tile,
        dir: str,
        value: int,
        anchor: tuple[int, int],
        double: bool,
        first: bool,
    ) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "dir", dir)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "anchor", anchor)
        object.__setattr__(self, "double", double)
        object.__setattr__(self, "first", first)

    @property
    def name(self) -> str:
        names = _END_NAMES.get(self.dir)
        return names[self.tile.index] if names is not None else self.tile.text + ":" + self.dir

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # frozen and compiled: rebuilt by __init__ (frozen.py)
        return by_fields(self)


@dataclass(init=False, slots=True, frozen=True)
class Placed:
    """A tile on the table: where it lies, and which tile and side it was played against."""

    tile: Tile
    rect: Rect
    #: the pip value of each half, north/west half first, as drawn
    halves: tuple[int, int]
    #: lies along the x axis
    horizontal: bool
    kind: str  # "first", "cross" (a crosswise doublet) or "single"
    parent: Tile | None
    dir: str | None  # the direction from the parent
    #: which arm of the first tile the tile is on (its direction from the first tile)
    arm: str | None

    def __init__(
        self,
        tile: Tile,
        rect: Rect,
        halves: tuple[int, int],
        horizontal: bool,
        kind: str,
        parent: Tile | None,
        dir: str | None,
        arm: str | None,
    ) -> None:
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "rect", rect)
        object.__setattr__(self, "halves", halves)
        object.__setattr__(self, "horizontal", horizontal)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "parent", parent)
        object.__setattr__(self, "dir", dir)
        object.__setattr__(self, "arm", arm)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # frozen and compiled: rebuilt by __init__ (frozen.py)
        return by_fields(self)


def _rect(ax: int, ay: int, dx: int, dy: int, cross: bool) -> Rect:
    """Where a tile lies played from the anchor ``(ax, ay)`` towards ``(dx, dy)`` (crosswise: a doublet)."""
    along, half_across = (2, 2) if cross else (4, 1)
    x1, y1 = ax + dx * along, ay + dy * along
    if dx:  # along x: across is y
        return (min(ax, x1), ay - half_across, max(ax, x1), ay + half_across)
    return (ax - half_across, min(ay, y1), ax + half_across, max(ay, y1))


def overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@dataclass(init=False, slots=True)
class GridLayout:
    """A 2-D layout. ``spinning_doubles``: every later doublet has three free sides (39), else one."""

    spinning_doubles: bool = True
    placed: dict[Tile, Placed] = field(default_factory=dict)
    order: list[Tile] = field(default_factory=list)
    sides: dict[tuple[Tile, str], Side] = field(default_factory=dict)
    on_board: set[Tile] = field(default_factory=set)
    #: answers that depend only on the tiles on the table (e.g. which tiles can be played); emptied on a change
    cache: dict[object, object] = field(default_factory=dict)

    def __init__(
        self,
        spinning_doubles: bool = True,
        placed: dict[Tile, Placed] | None = None,
        order: list[Tile] | None = None,
        sides: dict[tuple[Tile, str], Side] | None = None,
        on_board: set[Tile] | None = None,
        cache: dict[object, object] | None = None,
    ) -> None:
        self.spinning_doubles = spinning_doubles
        self.placed = {} if placed is None else placed
        self.order = [] if order is None else order
        self.sides = {} if sides is None else sides
        self.on_board = set() if on_board is None else on_board
        self.cache = {} if cache is None else cache

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # rebuilt by __init__ (frozen.py)
        return by_fields(self)

    def clone(self) -> GridLayout:
        return GridLayout(
            self.spinning_doubles, dict(self.placed), list(self.order), dict(self.sides), set(self.on_board)
        )

    @property
    def empty(self) -> bool:
        return not self.order

    @property
    def first(self) -> Tile | None:
        return self.order[0] if self.order else None

    # -- open ends -----------------------------------------------------------
    def open_sides(self) -> list[Side]:
        """Every open end, in the order the tiles were placed (each tile's sides N, E, S, W)."""
        return list(self.sides.values())

    def open_values(self) -> tuple[int, ...]:
        """The numbers the open ends show, each once, in order."""
        return VALUES_OF_MASK[values_mask(self.sides.values())]

    def ends(self) -> dict[str, int]:
        return {s.name: s.value for s in self.sides.values()}

    def side(self, name: str) -> Side | None:
        """The open end called ``name`` (``<tile>:<dir>``, or ``<tile>`` for a tile with one open end)."""
        key = _END_KEYS.get(name)
        if key is not None:  # (the common name, found whole: no partition, no tile parsed)
            return self.sides.get(key)
        text, _, d = name.partition(":")
        try:
            tile = Tile.parse(text)
        except ValueError:
            return None
        if d:
            return self.sides.get((tile, d))
        mine = [s for (t, _), s in self.sides.items() if t is tile]
        return mine[0] if len(mine) == 1 else None

    # -- geometry ------------------------------------------------------------
    def shape(self, tile: Tile, side: Side) -> tuple[Rect, bool]:
        """Where ``tile`` would lie if played on ``side``, and whether it lies crosswise."""
        ax, ay = side.anchor
        dx, dy = VECTORS[side.dir]
        cross = tile.is_double
        return _rect(ax, ay, dx, dy, cross), cross

    def collides(self, rect: Rect) -> Tile | None:
        """A tile on the table that ``rect`` would overlap, if any.

        Without spinning doubles (Double Bergen) the four arms run straight out from the first
        tile and no later double branches, and a double never starts an arm (it would have to
        match the first tile, itself the only double of its value), so tiles cannot meet there:
        :meth:`fits_side` skips the test (the property tests check that no table ever overlaps)."""
        for p in self.placed.values():
            if overlap(rect, p.rect):
                return p.tile
        return None

    def fits_side(self, tile: Tile, side: Side) -> bool:
        """``tile`` matches ``side`` and has room there."""
        if not tile.has(side.value):
            return False
        return not self.spinning_doubles or self.collides(self.shape(tile, side)[0]) is None

    def placements(self, tile: Tile, allowed: list[Side] | None = None) -> list[str]:
        """The open ends (names) where ``tile`` can be played (``[""]`` for the first tile)."""
        if tile in self.on_board:
            return []
        if not self.order:
            return [""]
        sides = self.open_sides() if allowed is None else allowed
        return [s.name for s in sides if self.fits_side(tile, s)]

    # -- placing ---------------------------------------------------------------
    def place_first(self, a: int, b: int, tile: Tile) -> None:
        """The first tile, vertical, ``a`` to the north; four sides (the set, or the spinner)."""
        p = Placed(tile, (-1, -2, 1, 2), (a, b), False, "first", None, None, None)
        self._add(p)
        for d, value, anchor in (("N", a, (0, 2)), ("E", a, (1, 1)), ("S", b, (0, -2)), ("W", b, (-1, -1))):
            self.sides[(tile, d)] = Side(tile, d, value, anchor, True, True)

    def place(self, tile: Tile, side: Side) -> Placed:
        """Play ``tile`` on the open end ``side`` (it must match; room is the caller's check)."""
        ax, ay = side.anchor
        dx, dy = VECTORS[side.dir]
        cross = tile.is_double
        rect = _rect(ax, ay, dx, dy, cross)  # (:meth:`shape`'s, its direction looked up once)
        parent = self.placed[side.tile]
        arm = parent.arm if parent.kind != "first" else side.dir
        other = tile.other(side.value)
        # halves north/west first: the near half is the matching one
        near_first = side.dir in ("S", "E") if not cross else True
        halves = (side.value, other) if near_first else (other, side.value)
        p = Placed(tile, rect, halves, bool(dx) != cross, "cross" if cross else "single", side.tile, side.dir, arm)
        del self.sides[(side.tile, side.dir)]
        again = tile in self.on_board  # (a table built by hand may place a tile twice: its sides sorted anew)
        self._add(p)
        if cross and self.spinning_doubles:  # the three sides, added in the order of DIRS
            cx, cy = ax + dx, ay + dy
            for q in CROSS_SIDES[side.dir]:
                if q == side.dir:
                    self.sides[(tile, q)] = Side(tile, q, side.value, (ax + 2 * dx, ay + 2 * dy), True, False)
                else:
                    qx, qy = VECTORS[q]
                    self.sides[(tile, q)] = Side(tile, q, side.value, (cx + 2 * qx, cy + 2 * qy), True, False)
        elif cross:
            self.sides[(tile, side.dir)] = Side(tile, side.dir, side.value, (ax + 2 * dx, ay + 2 * dy), True, False)
        else:
            self.sides[(tile, side.dir)] = Side(tile, side.dir, other, (ax + 4 * dx, ay + 4 * dy), False, False)
        if again:
            self._sort_sides(tile)
        return p

    def _add(self, p: Placed) -> None:
        self.cache.clear()
        self.placed[p.tile] = p
        self.order.append(p.tile)
        self.on_board.add(p.tile)

    def _sort_sides(self, tile: Tile) -> None:
        mine = sorted((s for (t, _), s in self.sides.items() if t is tile), key=lambda s: DIRS.index(s.dir))
        for s in mine:
            del self.sides[(tile, s.dir)]
            self.sides[(tile, s.dir)] = s

    # -- pictures --------------------------------------------------------------
    def bounds(self) -> Rect:
        rects = [p.rect for p in self.placed.values()]
        if not rects:
            return (0, 0, 0, 0)
        return (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects))
