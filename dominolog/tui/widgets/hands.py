"""Each player's hand: known tiles, hidden ones as backs with a count, the boneyard."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from rich.text import Text

from dominolog.state import HandState
from dominolog.tiles import Tile
from dominolog.tui.drawing import LATER, LEGAL, hand_line
from dominolog.tui.widgets.panel import Panel


class HandsPanel(Panel):
    """One line per player (the player on move marked ``▶``), then the boneyard."""

    _again: Callable[[], None] | None = None

    def on_resize(self) -> None:
        if self._again is not None:  # the tiles wrap at the new width
            self._again()

    def show(
        self,
        players: list[str],
        hand: HandState | None,
        *,
        closed: bool = False,
        legal: list[tuple[Tile, str]] = (),  # type: ignore[assignment]
        mover: str | None = None,
        later: dict[str, frozenset[Tile]] | None = None,
        reveal: bool = False,
    ) -> None:
        self._again = partial(
            self.show, players, hand, closed=closed, legal=legal, mover=mover, later=later, reveal=reveal
        )
        if hand is None:
            self.put(Text("no hand yet", style="dim"))
            return
        later = later or {}
        width = min(max([len(p) for p in players] + [3]), 8)
        lines: list[Text] = []
        good = {t for t, _ in legal}
        for p in players:
            h = hand.holdings.get(p)
            if h is None:
                continue
            on_move = hand.turn == p and hand.over is None and not closed
            lines.append(
                hand_line(
                    p,
                    h.known,
                    h.unknown,
                    on_move=on_move,
                    name_width=width,
                    legal=good if p == mover else (),
                    later=later.get(p, ()) if reveal else (),
                    width=self.content_region.width or 60,
                )
            )
        bone = hand.boneyard
        foot = Text()
        foot.append("  boneyard ", style="dim")
        foot.append(str(bone.count), style="bold")
        if bone.known and bone.unknown == 0 and bone.count <= 8:
            foot.append(" " + " ".join(str(t) for t in sorted(bone.known)), style="dim")
        if hand.turn_draws and hand.over is None and not closed:
            foot.append(f"  {hand.turn} drew {hand.turn_draws}", style="dim")
        if reveal and any(later.values()):
            foot.append("  ")
            foot.append("[a|b]", style=LATER)
            foot.append(" later", style="dim")
        if good:
            foot.append("  ")
            foot.append("[a|b]", style=LEGAL)
            foot.append(" legal", style="dim")
        lines.append(foot)
        self.put(Text("\n").join(lines))
