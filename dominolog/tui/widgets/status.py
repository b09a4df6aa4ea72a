"""The status line (where we are) and the issue line (what is wrong at this event)."""

from __future__ import annotations

from rich.text import Text

from dominolog.tui.timeline import Mark
from dominolog.tui.widgets.panel import Panel


class StatusBar(Panel):
    """``seq 24/28 · hand 2 · Ana to play · boneyard 3 · preferred odd``."""

    def show(self, parts: list[Text | str]) -> None:
        text = Text()
        for k, part in enumerate(parts):
            if k:
                text.append(" · ", style="dim")
            text.append(part)
        self.put(text, "one line")


class IssueBar(Panel):
    """The violations (red ``✗``), possible violations (yellow ``?``) and rules nothing settles
    (dim ``?``) of the event shown; ``certainties`` as :meth:`Timeline.certainty` gives them."""

    def show(self, marks: list[Mark], certainties: list[str] | None = None) -> None:
        self.set_class(not marks, "-none")
        lines = [Text("no violation at this event", style="dim")] if not marks else []
        sure = certainties or ["certain" if m.kind == "violation" else "possible" for m in marks]
        for m, certainty in zip(marks, sure, strict=True):
            line = Text()
            if m.kind == "violation":
                line.append(f"✗ {m.issue.code}: ", style="bold red")
            elif certainty == "possible":
                line.append(f"? possible {m.issue.code}: ", style="bold yellow")
            else:
                line.append(f"? {m.issue.code}, not settled: ", style="dim yellow")
            line.append(m.issue.message)
            lines.append(line)
        # the messages wrap: lay out again whenever there are some (most events have none)
        self.put(Text("\n").join(lines), tuple(m.issue for m in marks))
