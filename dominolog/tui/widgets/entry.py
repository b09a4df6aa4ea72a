"""The recorder's entry line: a Textual ``Input`` that also picks a place with one key and completes
with Tab.

When the screen has a place to pick (a tile typed alone that fits several places), it sets
:attr:`EntryLine.choice_keys`; while the line is empty, one of those keys picks the place
(:class:`EntryLine.Picked`); any other printable key drops the choice
(:class:`EntryLine.Dropped`) and is typed as usual.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.message import Message
from textual.widgets import Input


class EntryLine(Input):
    """One line of notation; Enter submits it (``Input.Submitted``)."""

    class Picked(Message):
        """A key picked the place ``index`` (from 0) of the pending choice."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class Dropped(Message):
        """A key that picks no place was typed: the pending choice is dropped."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            placeholder="type what the table did: 65R  -  +?  Ana=[21 10]  * ...",
            compact=True,
            select_on_focus=False,
            id=id,
        )
        #: the keys that pick a place while the line is empty (none: no choice pending)
        self.choice_keys: dict[str, int] = {}
        #: what Tab may put in the line, for the text typed (set by the screen)
        self.completer: Callable[[str], list[str]] | None = None
        self._cycle: tuple[list[str], int] | None = None

    async def _on_key(self, event: events.Key) -> None:
        # runs before Input's own key handler (Textual calls each class's handler along the MRO)
        self._cycle = None
        if not self.choice_keys or not event.is_printable or event.character is None:
            return
        index = self.choice_keys.get(event.character) if not self.value else None
        if index is not None:
            event.stop()
            event.prevent_default()  # Input does not type it
            self.choice_keys = {}
            self.post_message(self.Picked(index))
            return
        self.choice_keys = {}
        self.post_message(self.Dropped())

    def complete(self) -> bool:
        """Tab: put the first completion in the line, or the next one when Tab was the last key and
        there were several (after the only one, Tab completes what is now in the line)."""
        cycle = self._cycle
        if cycle is not None and len(cycle[0]) > 1 and self.value == cycle[0][cycle[1]]:
            values, i = cycle
            i = (i + 1) % len(values)
        else:
            values = self.completer(self.value) if self.completer is not None else []
            i = 0
            if not values:
                return False
        self.value = values[i]
        self.cursor_position = len(self.value)
        self._cycle = (values, i)
        return True

    def replace_text(self, text: str) -> None:
        """Set the line (the cursor at its end)."""
        self.value = text
        self.cursor_position = len(text)
        self._cycle = None
