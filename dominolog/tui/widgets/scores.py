"""Scores: points per hand, the open hand's points so far, and the totals."""

from __future__ import annotations

from rich.text import Text

from dominolog.state import HandResult
from dominolog.tui.drawing import score_table
from dominolog.tui.widgets.panel import Panel


class ScoresPanel(Panel):
    """A small score sheet; when the hands are more than the room, the last ones."""

    _key: tuple[object, ...] = ()

    def show(
        self, players: list[str], results: list[HandResult], totals: dict[str, int], running: dict[str, int]
    ) -> None:
        # a quarter of the screen's height, at least the header, one hand and the totals
        room = max(4, self.screen.size.height // 4 - 2)
        width = self.content_region.width or 34
        key = (len(results), tuple(totals.items()), tuple(running.items()), width, room)
        if key == self._key:
            return
        self._key = key
        sheet = score_table(players, results, totals, running, width)
        lines = sheet.split("\n")
        if len(lines) > room:
            skipped = len(lines) - room + 1
            lines = [lines[0], Text(f"    ({skipped} more above)", style="dim"), *lines[skipped + 1 :]]
        self.put(Text("\n").join(lines))
