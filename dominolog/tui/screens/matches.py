"""The match list (``ctrl+o``): the matches of the file or the store; enter shows the one picked."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from dominolog.textsafe import cut, visible
from dominolog.tui.matches import MatchEntry


def entry_text(e: MatchEntry, current: bool = False) -> Text:
    """``▶ #1  ghost13-001  ghost13  Ana, Ben  valid`` (text from the log drawn as written)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("▶ " if current else "  ", style="bold cyan")
    label = f"#{e.key}" if e.key.isdigit() and e.match_id != e.key else ""
    if label:
        text.append(f"{label:<4} ", style="dim")
    text.append(visible(cut(e.match_id or "(no id)", 60)), style="bold" if e.match_id else "dim")
    text.append(f"  {visible(cut(e.variant, 30))}  ")
    text.append(visible(cut(", ".join(e.players), 120)))
    text.append("  ")
    if e.valid is None:
        text.append("?", style="dim")
    elif e.valid:
        text.append("valid", style="bold green")
    else:
        text.append("invalid", style="bold red")
    if e.status == "open":
        text.append(" (open)", style="dim")
    return text


class MatchesScreen(ModalScreen[str | None]):
    """Lists the matches; dismisses with the key of the one picked (None on escape). The match
    shown is highlighted first."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,ctrl+o", "cancel", "cancel")]

    def __init__(self, entries: list[MatchEntry], current: str | None = None) -> None:
        super().__init__()
        self.entries = entries
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="matches-box"):
            n = len(self.entries)
            yield Label(f"{n} match{'es' * (n != 1)}: enter shows the one picked, escape cancels")
            options = [Option(entry_text(e, e.key == self.current), id=e.key) for e in self.entries]
            yield OptionList(*options, id="matches-list")

    def on_mount(self) -> None:
        listing = self.query_one(OptionList)
        keys = [e.key for e in self.entries]
        listing.highlighted = keys.index(self.current) if self.current in keys else (0 if keys else None)
        listing.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
