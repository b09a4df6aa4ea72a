"""The "jump to seq" dialog."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label


class JumpScreen(ModalScreen[int | None]):
    """Asks for a seq; dismisses with it (None on escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, first: int, last: int) -> None:
        super().__init__()
        self.first, self.last = first, last

    def compose(self) -> ComposeResult:
        with Vertical(id="jump-box"):
            yield Label(f"go to seq ({self.first}-{self.last}), enter; escape cancels")
            yield Input(placeholder="seq", type="integer", id="jump-input")
            yield Label("", id="jump-error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            seq = int(event.value)
        except ValueError:
            seq = -1
        if not self.first <= seq <= self.last:
            self.query_one("#jump-error", Label).update(f"no seq {event.value or '?'} in this match")
            return
        self.dismiss(seq)

    def action_cancel(self) -> None:
        self.dismiss(None)
