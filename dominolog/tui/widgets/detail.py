"""The event shown, as it stands in the log: its line number and the line itself."""

from __future__ import annotations

from rich.text import Text

from dominolog.log.reader import Record
from dominolog.tui.widgets.panel import Panel


class EventDetail(Panel):
    """``line 24 {"type":"pass",...}`` (wrapped), under the hands; its height is the room left."""

    def show(self, rec: Record | None) -> None:
        if rec is None:
            self.put(Text(), "fixed")
            return
        text = Text()
        text.append(f"line {rec.line}  ", style="dim")
        text.append(rec.raw, style="italic")
        if rec.error:
            text.append(f"\n{rec.error}", style="bold red")
        self.put(text, "fixed")
