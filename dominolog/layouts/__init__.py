"""Table layouts: the line of the line games (and, later, the spinner grid)."""

from dominolog.layouts.line import LineLayout

__all__ = ["LineLayout"]
