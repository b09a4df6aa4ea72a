"""Each player's hand: known tiles, hidden ones as backs with a count, the boneyard."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from rich.text import Text

from dominolog.state import HandState
from dominolog.tiles import Tile
from dominolog.tui.drawing import LATER, LEGAL, MAYBE, hand_line, plays_line
from dominolog.tui.knowing import Known, Plays
from dominolog.tui.widgets.panel import Panel


class HandsPanel(Panel):
    """One line per player (the player on move marked ``▶``), the plays of a hidden hand, then the boneyard."""

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
        known: dict[str, Known] | None = None,
        plays: Plays | None = None,
    ) -> None:
        """``later``/``known``: what the whole log shows of the hidden hands (drawn with ``reveal``);
        ``plays``: the plays of a hidden hand, the certain and the possible ones (a line of their own)."""
        self._again = partial(
            self.show,
            players,
            hand,
            closed=closed,
            legal=legal,
            mover=mover,
            later=later,
            reveal=reveal,
            known=known,
            plays=plays,
        )
        if hand is None:
            self.put(Text("no hand yet", style="dim"))
            return
        later = later or {}
        known = known or {}
        width = min(max([len(p) for p in players] + [3]), 8)
        lines: list[Text] = []
        good = {t for t, _ in legal}
        for p in players:
            h = hand.holdings.get(p)
            if h is None:
                continue
            on_move = hand.turn == p and hand.over is None and not closed
            k = known.get(p) if reveal else None
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
                    open_of=(k.open, len(k.may)) if k is not None and h.unknown else None,
                )
            )
        hidden_plays = plays is not None and plays.hidden and plays.player is not None
        if hidden_plays:
            assert plays is not None and plays.player is not None
            lines.append(plays_line(plays.player, plays.moves, plays.maybe, plays.before, plays.surely_one))
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
        if hidden_plays and plays is not None and plays.maybe:
            foot.append("  ")
            foot.append("[a|b]", style=MAYBE)
            foot.append(" possible", style="dim")
        lines.append(foot)
        self.put(Text("\n").join(lines))
