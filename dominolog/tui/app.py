"""The replay viewer's app: one match, shown by :class:`~dominolog.tui.screens.replay.ReplayScreen`;
with a :class:`~dominolog.tui.matches.MatchSource`, the other matches of its file or store too
(``ctrl+o``); with an analysis of the match (:class:`~dominolog.analysis.shown.ShownReview`), the
points each decision lost and the options of each decision."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.app import App
from textual.screen import Screen

from dominolog.analysis.shown import ShownReview
from dominolog.log.reader import MatchLog
from dominolog.textsafe import shown
from dominolog.tui.follow import Follower
from dominolog.tui.matches import MatchSource
from dominolog.tui.screens.replay import ReplayScreen
from dominolog.tui.timeline import Timeline


class ReplayApp(App[None]):
    """Step through one match: ``ReplayApp(log)`` or ``ReplayApp(Timeline(log))``; with ``follow``, the
    match grows as another program records it (``replay --follow``); with ``matches``, the list of
    ``ctrl+o`` switches to another match of the file or the store (``current``: the key of this one).
    ``analysis``: the analysis of the match shown; ``analyses``: the analysis of a match opened from the
    list (its key and log; None: it has none). ``min_likelihood``: the possible violations less likely
    than that are not marked (``replay --min-likelihood``)."""

    CSS_PATH = "replay.tcss"
    TITLE = "dominolog replay"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        match: MatchLog | Timeline,
        title: str = "",
        start_seq: int | None = None,
        follow: Follower | None = None,
        matches: MatchSource | None = None,
        current: str | None = None,
        analysis: ShownReview | None = None,
        analyses: Callable[[str, MatchLog], ShownReview | None] | None = None,
        min_likelihood: float | None = None,
    ) -> None:
        super().__init__()
        self.min_likelihood = min_likelihood
        self.analysis = analysis
        self.analyses = analyses
        self.follow = follow
        self.matches = matches
        self.current_key = current
        self.timeline = match if isinstance(match, Timeline) else Timeline(match, min_likelihood)
        self.match_title = title or Path(self.timeline.log.source).name
        self.sub_title = shown(self.match_title)
        index = self.timeline.index_of(start_seq) if start_seq is not None else 0
        self.start_index = index if index is not None else 0

    def get_default_screen(self) -> Screen:
        return ReplayScreen(self.timeline, self.match_title, self.start_index, self.follow, self.analysis)

    @property
    def replay(self) -> ReplayScreen:
        """The replay screen (also while the jump dialog is open)."""
        screen = self.screen_stack[0]
        assert isinstance(screen, ReplayScreen)
        return screen

    def open_match(self, key: str) -> bool:
        """Show the match ``key`` of :attr:`matches` from its first event (False: it cannot be opened)."""
        if self.matches is None:
            return False
        try:
            log, title = self.matches.open(key)
        except Exception as exc:  # gone from the store, or the store cannot be read now
            self.notify(
                f"match {shown(key, 100)} cannot be opened: {type(exc).__name__}", severity="error", markup=False
            )
            return False
        if not log.records:
            self.notify(f"match {shown(key, 100)} has no events", severity="error", markup=False)
            return False
        analysis = None
        if self.analyses is not None:
            try:
                analysis = self.analyses(key, log)
            except Exception as exc:  # a kept analysis that cannot be read: the match without it
                self.notify(
                    f"the analysis of match {shown(key, 100)} cannot be shown: {shown(exc, 200)}",
                    severity="warning",
                    markup=False,
                )
        self.timeline = Timeline(log, self.min_likelihood)
        self.match_title = title
        self.sub_title = shown(title)
        self.current_key = key
        self.analysis = analysis
        self.replay.load(self.timeline, title, analysis=analysis)
        return True
