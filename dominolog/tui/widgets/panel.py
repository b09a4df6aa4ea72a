"""A Static that asks for a new layout only when its height may have changed."""

from __future__ import annotations

from collections.abc import Hashable

from rich.text import Text
from textual.widgets import Static

from dominolog.textsafe import has_unsafe, visible


class Panel(Static):
    """``put(text)``: like ``update``, but nothing is done when the text is the one shown, and a new
    layout of the screen (the costly part of a step) is asked for only when ``shape`` (by default
    the number of lines) differs from the last one."""

    _shape: Hashable = None
    _text: Text | None = None

    def put(self, text: Text, shape: Hashable = None) -> None:
        plain = text.plain
        if has_unsafe(plain.replace("\n", "")):  # text from the log: control characters drawn, never sent
            text = text.copy()
            text.plain = visible(plain, lines=True)
        if shape is None:
            shape = text.plain.count("\n")
        if self._text is not None and shape == self._shape and text == self._text:
            return
        self.update(text, layout=shape != self._shape)
        self._shape = shape
        self._text = text
