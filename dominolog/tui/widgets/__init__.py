"""The replay viewer's widgets: the table, the hands, the scores, the event list, the status lines, the
analysis of the event shown."""

from __future__ import annotations

from dominolog.tui.widgets.analysis import AnalysisPanel
from dominolog.tui.widgets.detail import EventDetail
from dominolog.tui.widgets.events import EventList
from dominolog.tui.widgets.hands import HandsPanel
from dominolog.tui.widgets.scores import ScoresPanel
from dominolog.tui.widgets.status import IssueBar, StatusBar
from dominolog.tui.widgets.table_view import TableView

__all__ = [
    "AnalysisPanel",
    "EventDetail",
    "EventList",
    "HandsPanel",
    "IssueBar",
    "ScoresPanel",
    "StatusBar",
    "TableView",
]
