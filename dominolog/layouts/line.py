"""The line layout of the line games (ruling C2): two open ends, ``left`` and ``right``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dominolog.frozen import by_fields
from dominolog.tiles import Tile

ENDS = ("left", "right")


@dataclass(init=False, slots=True)
class LineLayout:
    """A line of tiles. ``chain`` holds the tiles left to right as oriented pairs ``(a, b)``."""

    chain: list[tuple[int, int]] = field(default_factory=list)
    left: int | None = None
    right: int | None = None
    on_board: set[Tile] = field(default_factory=set)

    def __init__(
        self,
        chain: list[tuple[int, int]] | None = None,
        left: int | None = None,
        right: int | None = None,
        on_board: set[Tile] | None = None,
    ) -> None:
        self.chain = [] if chain is None else chain
        self.left = left
        self.right = right
        self.on_board = set() if on_board is None else on_board

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:  # rebuilt by __init__ (frozen.py)
        return by_fields(self)

    def clone(self) -> LineLayout:
        return LineLayout(list(self.chain), self.left, self.right, set(self.on_board))

    @property
    def empty(self) -> bool:
        return not self.chain

    def ends(self) -> dict[str, int]:
        if self.left is None or self.right is None:
            return {}
        return {"left": self.left, "right": self.right}

    def open_values(self) -> tuple[int, ...]:
        if self.left is None or self.right is None:
            return ()
        return (self.left, self.right)

    def fits(self, tile: Tile) -> bool:
        """Whether the tile can be placed somewhere (any tile fits an empty line)."""
        if self.left is None or self.right is None:
            return True
        return tile.has(self.left) or tile.has(self.right)

    def placements(self, tile: Tile) -> list[str]:
        """The ends the tile can go on (``[""]`` for the first tile of the line)."""
        if self.left is None or self.right is None:
            return [""]
        out = []
        if tile.has(self.left):
            out.append("left")
        if tile.has(self.right):
            out.append("right")
        return out

    def ends_after(self, tile: Tile, end: str) -> tuple[int, int]:
        """The (left, right) values the line would show after placing ``tile`` on ``end``."""
        assert self.left is not None and self.right is not None
        if end == "left":
            return tile.other(self.left), self.right
        return self.left, tile.other(self.right)

    def place_first(self, a: int, b: int, tile: Tile) -> None:
        self.chain.append((a, b))
        self.left, self.right = a, b
        self.on_board.add(tile)

    def place(self, tile: Tile, end: str) -> None:
        """Place ``tile`` on ``end`` (it must fit there)."""
        assert self.left is not None and self.right is not None
        if end == "left":
            new = tile.other(self.left)
            self.chain.insert(0, (new, self.left))
            self.left = new
        else:
            new = tile.other(self.right)
            self.chain.append((self.right, new))
            self.right = new
        self.on_board.add(tile)

    def render(self) -> str:
        """The line as text, e.g. ``[3|5][5|5][5|1]``."""
        return "".join(f"[{a}|{b}]" for a, b in self.chain) or "(empty)"
