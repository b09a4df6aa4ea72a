"""Tiles of the double-six set (ruling C1) as small frozen value objects."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

_TILE_RE: Final = re.compile(r"^([0-6])-([0-6])$")


class TileError(ValueError):
    """A string that does not name a tile of the double-six set."""


class Tile:
    """One tile of the double-six set. ``Tile.parse("3-5") is Tile.parse("5-3")``.

    Tiles are interned: there are exactly 28 instances, so identity, equality and
    hashing are all cheap. ``lo <= hi`` always holds.
    """

    __slots__ = ("hi", "index", "is_double", "lo", "mask", "pips", "text")

    lo: int
    hi: int
    pips: int
    is_double: bool
    index: int
    #: bit ``v`` is set for each value ``v`` on the tile (fast matching against open ends)
    mask: int
    #: ``lo-hi``, as ``str`` writes the tile (made once: end names and messages write tiles often)
    text: str

    def __new__(cls, a: int, b: int, _index: int = -1) -> Tile:
        """``Tile(a, b)``: the one tile with values ``a`` and ``b`` (either order).

        ``_index`` is for this module only, which makes each of the 28 tiles once (below); a tile is
        never made again after that. (Interning through ``__new__`` rather than a factory function:
        mypyc, which compiles this module, allows it, and every ``Tile(a, b)`` in the code and the
        tests stays as it is.)"""
        if _index < 0:
            lo, hi = (a, b) if a <= b else (b, a)
            t = _BY_PAIR.get((lo, hi))
            if t is None:
                raise TileError(f"not a tile of the double-six set: {lo}-{hi}")
            return t
        t = super().__new__(cls)
        object.__setattr__(t, "lo", a)
        object.__setattr__(t, "hi", b)
        object.__setattr__(t, "pips", a + b)
        object.__setattr__(t, "is_double", a == b)
        object.__setattr__(t, "index", _index)
        object.__setattr__(t, "mask", (1 << a) | (1 << b))
        object.__setattr__(t, "text", f"{a}-{b}")
        return t

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.lo, self.hi))

    def __hash__(self) -> int:
        # its place in the set (equality is identity: each tile exists once); written out because a
        # compiled class with its own __setattr__ gets no hash from object
        return self.index

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: object) -> Tile:
        return self

    @staticmethod
    def parse(text: str) -> Tile:
        """Parse ``a-b`` with digits 0-6 (either order); raise TileError otherwise."""
        t = _PARSED.get(text) if isinstance(text, str) else None
        if t is None:
            raise TileError(f"not a tile of the double-six set: {text!r} (expected a-b with digits 0-6)")
        return t

    def has(self, value: int) -> bool:
        return self.lo == value or self.hi == value

    def other(self, value: int) -> int:
        """The pip at the other half from ``value`` (``value`` must be on the tile)."""
        if self.lo == value:
            return self.hi
        if self.hi == value:
            return self.lo
        raise ValueError(f"{self} has no {value}")

    def __repr__(self) -> str:
        return f"Tile({self.lo}, {self.hi})"

    def __str__(self) -> str:
        return self.text

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index


_ALL: list[Tile] = []
_BY_PAIR: Final[dict[tuple[int, int], Tile]] = {}
for _lo in range(7):
    for _hi in range(_lo, 7):
        _t = Tile(_lo, _hi, len(_ALL))
        _ALL.append(_t)
        _BY_PAIR[(_lo, _hi)] = _t

_PARSED: Final[dict[str, Tile]] = {}
for _t in _ALL:
    _PARSED[f"{_t.lo}-{_t.hi}"] = _t
    _PARSED[f"{_t.hi}-{_t.lo}"] = _t


#: The 28 tiles of the double-six set, in a fixed order (0-0, 0-1, ..., 6-6).
DOUBLE_SIX: Final[tuple[Tile, ...]] = tuple(_ALL)
#: The 28 tiles as a set (a hand's unaccounted tiles start as its copy).
DOUBLE_SIX_SET: Final[frozenset[Tile]] = frozenset(_ALL)
#: Total pips of the whole set (168).
SET_PIPS: Final[int] = sum(t.pips for t in DOUBLE_SIX)


def tile_or_none(text: object) -> Tile | None:
    """The tile ``text`` names, or None when it names none (no exception: for hot paths)."""
    return _PARSED.get(text) if isinstance(text, str) else None


def parse_tile(text: str) -> Tile:
    return Tile.parse(text)


def is_tile_text(text: object) -> bool:
    return isinstance(text, str) and _TILE_RE.match(text) is not None


def mask_of(tiles: Iterable[Tile]) -> int:
    """Tiles as a bit set: tile ``t`` is bit ``t.index``."""
    mask = 0
    for t in tiles:
        mask |= 1 << t.index
    return mask


def tiles_in(mask: int) -> list[Tile]:
    """The tiles of a bit set (:func:`mask_of`), in the set's order."""
    out = []
    while mask:
        bit = mask & -mask
        mask ^= bit
        out.append(DOUBLE_SIX[bit.bit_length() - 1])
    return out


def pips(tiles: object) -> int:
    return sum(t.pips for t in tiles)  # type: ignore[attr-defined]


def suit(value: int) -> frozenset[Tile]:
    """The seven tiles that carry ``value``."""
    return frozenset(t for t in DOUBLE_SIX if t.has(value))
