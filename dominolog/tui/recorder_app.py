"""The recorder's app: one match being recorded, shown by :class:`~dominolog.tui.screens.recorder.RecorderScreen`."""

from __future__ import annotations

from textual.app import App
from textual.screen import Screen

from dominolog.recording.session import Session
from dominolog.textsafe import shown
from dominolog.tui.screens.recorder import RecorderScreen


class RecorderApp(App[None]):
    """Record one match: ``RecorderApp(Session(journal), "club-2026-11-24")``. ``poll``: how often (in
    seconds) the screen looks for another recorder's events (None: never)."""

    CSS_PATH = "recorder.tcss"
    TITLE = "dominolog record"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, session: Session, title: str = "", poll: float | None = 1.0) -> None:
        super().__init__()
        self.session = session
        self.match_title = title
        self.poll = poll
        self.sub_title = shown(title)

    def get_default_screen(self) -> Screen:
        return RecorderScreen(self.session, self.match_title, self.poll)

    @property
    def recorder(self) -> RecorderScreen:
        """The recorder screen (also while the picker is open)."""
        screen = self.screen_stack[0]
        assert isinstance(screen, RecorderScreen)
        return screen
