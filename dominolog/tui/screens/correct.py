"""The recorder's "fix an earlier entry" picker: the standing events of the hand in play."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from dominolog.textsafe import visible


class CorrectScreen(ModalScreen[int | None]):
    """Lists the events a correction can reach (seq, who, what); dismisses with the seq chosen
    (None on escape). The newest is highlighted first."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, rows: list[tuple[int, str, str]]) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        with Vertical(id="correct-box"):
            yield Label("fix which entry? (enter picks it, escape cancels)")
            options = [
                Option(Text(f"{seq:>4}  {visible(who)[:12]:<12} {visible(what)}", no_wrap=True), id=str(seq))
                for seq, who, what in self.rows
            ]
            yield OptionList(*options, id="correct-list")

    def on_mount(self) -> None:
        listing = self.query_one(OptionList)
        listing.highlighted = len(self.rows) - 1 if self.rows else None
        listing.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_cancel(self) -> None:
        self.dismiss(None)
