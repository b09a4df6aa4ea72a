"""The analysis of the event shown (``replay`` with a kept analysis, or ``--analysis REVIEW.json``):
the move played, its value, its rank and the points it lost, then every legal option with its
value, the best in green, the one played marked ``▶``. At an event that is no decision, each
player's figures over the match."""

from __future__ import annotations

from rich.text import Text

from dominolog.analysis.shown import ShownDecision, ShownReview, number, rank_text, signed
from dominolog.textsafe import shown
from dominolog.tui.widgets.panel import Panel

#: a best option, and the points lost by a move that was not best
BEST = "bold green"
MISTAKE = "bold #af5fff"
PLAYED = "▶"


def _spread(value: float | None) -> str:
    return "" if value is None else f" ±{value:.2f}"


def headline(d: ShownDecision, width: int = 200) -> list[Text]:
    """``Ben: 3-5 left -6 · #3 of 3 · lost 16 (best 2-4 right +10)`` (sampled: the value's spread and the
    deals too): one line, or two when it is wider than ``width`` (the best move is then left out when
    the second line would be too)."""
    move = Text()
    move.append(f"{shown(d.player, 40)}: ", style="bold")
    move.append(f"{shown(d.played, 60)} {signed(d.value)}")
    if d.samples is not None:
        move.append(f"{_spread(d.spread)} ({d.samples} samples)", style="dim")
    rank = Text(rank_text(d))
    rank.append(" · ", style="dim")
    best = f" (best {shown(d.best_move, 60)} {signed(d.best)})"
    if d.mistake:
        rank.append(f"lost {number(d.loss)}", style=MISTAKE)
    elif d.choice:
        rank.append("best move", style=BEST)
    else:
        rank.append("nothing at stake", style="dim")
    one = Text.assemble(move, (" · ", "dim"), rank)
    if one.cell_len + (len(best) if d.mistake else 0) <= width:
        if d.mistake:
            one.append(best, style="dim")
        return [one]
    if one.cell_len <= width:
        return [one]
    second = Text.assemble("  ", rank)
    if d.mistake and second.cell_len + len(best) <= width:
        second.append(best, style="dim")
    return [move, second]


def option_cells(d: ShownDecision) -> list[Text]:
    """One cell per legal option, all the same width: ``▶3-5 left  -6``, the best ones green."""
    moves = [shown(o.move, 30) for o in d.options]
    values = [signed(o.value) + _spread(o.spread) for o in d.options]
    move_w = max(len(m) for m in moves)
    value_w = max(len(v) for v in values)
    cells = []
    for o, move, value in zip(d.options, moves, values, strict=True):
        cell = Text(PLAYED if o.move == d.played else " ", style="bold")
        cell.append(f"{move:<{move_w}} {value:>{value_w}}", style=BEST if o.value == d.best else "")
        cells.append(cell)
    return cells


def grid(cells: list[Text], width: int, room: int) -> list[Text]:
    """The cells in rows (left to right) that fit ``width``, at most ``room`` lines (the last says
    how many are left out)."""
    if not cells:
        return []
    cell_w = max(c.cell_len for c in cells)
    columns = max(1, (width + 2) // (cell_w + 2))
    rows = [cells[k : k + columns] for k in range(0, len(cells), columns)]
    if len(rows) > room:
        left_out = sum(len(r) for r in rows[room - 1 :])
        rows = [*rows[: room - 1], [Text(f"  ({left_out} more options)", style="dim")]]
    return [Text("  ").join(row) for row in rows]


def figures(review: ShownReview, width: int = 60) -> list[Text]:
    """Each player's figures over the analysed decisions of the match, as a small table (shorter
    headings when ``width`` is small)."""
    if not review.summary:
        return []
    names = [shown(p.name, 16) for p in review.summary]
    name_w = max(len(n) for n in names)
    luck = bool(review.luck)
    heads = (
        ("lost a choice", "choices", "best move", "accuracy", "rating") + (("luck", "adjusted") if luck else ())
        if width >= name_w + 53 + (18 if luck else 0)
        else ("lost", "choices", "best", "acc.", "rating") + (("luck", "adj.") if luck else ())
    )
    rows: list[tuple[str, ...]] = []
    for p in review.summary:
        rating = review.play_rating(p.name)[1]
        cells: tuple[str, ...] = (
            f"{p.average_loss:.2f}",
            str(p.choices),
            f"{p.match_rate:.1f}%",
            f"{p.accuracy:.1f}",
            "-" if rating is None else f"{rating:.0f}",
        )
        if luck:
            lk, adj = review.luck.get(p.name), review.adjusted.get(p.name)
            pm = review.margin.get(p.name)
            within = "" if pm is None else f"±{pm:.0f}"  # sampled (the hidden games): the 95% margin
            cells += ("-" if lk is None else f"{lk:+.0f}{within}", "-" if adj is None else f"{adj:+.0f}{within}")
        rows.append(cells)
    widths = [max(len(h), 6, *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    head = Text(" " * name_w, style="bold")
    for h, w in zip(heads, widths, strict=True):
        head.append(f"  {h:>{w}}", style="bold")
    lines = [head]
    for cells, name in zip(rows, names, strict=True):
        line = Text(f"{name:<{name_w}}", style="bold")
        for c, w in zip(cells, widths, strict=True):
            line.append(f"  {c:>{w}}")
        lines.append(line)
    return lines


class AnalysisPanel(Panel):
    """The analysis of the event shown, under the hands."""

    _again: tuple[ShownReview, int, int | None] | None = None

    def on_resize(self) -> None:
        if self._again is not None:  # the options are laid out for the new width
            self.show(*self._again)

    def room(self) -> int:
        """Lines the options may take: a quarter of the screen, 3 to 8."""
        return max(3, min(8, self.screen.size.height // 4 - 2))

    def show(self, review: ShownReview, seq: int, hand: int | None) -> None:
        """The decisions at the event ``seq`` (of hand ``hand``), else each player's figures."""
        self._again = (review, seq, hand)
        width = self.content_region.width or 50
        here = review.at(seq)
        lines: list[Text] = []
        if here:
            heads = [headline(d, width) for d in here]
            room = max(1, (self.room() - sum(len(h) for h in heads) + len(here)) // len(here))
            for d, head in zip(here, heads, strict=True):
                lines += head
                lines += grid(option_cells(d), width, room)
            lines.append(Text.assemble((PLAYED, "bold"), (" played  ", "dim"), ("green", BEST), (": best", "dim")))
        else:
            if review.note:
                lines.append(Text(shown(review.note, 300), style="italic"))
            elif hand is not None and hand in review.hand_notes:
                lines.append(Text(f"hand {hand}: {shown(review.hand_notes[hand], 300)}", style="italic"))
            else:
                lines.append(Text("no decision analysed at this event", style="dim"))
            lines += figures(review, width)
        self.put(Text("\n").join(lines))
