"""The organiser's page, its club events part: tonight's event first (the newest not ended), a selector
for the others, its roster and teams, each round's tables with their state, the buttons that pair the
next round, undo a pairing, print the round's cards, end a match by forfeit, and the standings. Every
figure comes from :mod:`dominolog.tournament.director` (as ``dominolog event`` prints it); every
string is escaped. The buttons and forms are run by ``static/organiser.js`` through
:mod:`dominolog.web.events_api`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dominolog.htmlpage import render

if TYPE_CHECKING:
    from dominolog.store import Store
    from dominolog.tournament.event import ClubEvent


def current_event(found: list[ClubEvent], wanted: str | None) -> ClubEvent | None:
    """The event to show: the one asked for, else tonight's (the newest not ended), else the newest."""
    for ev in found:
        if ev.name == wanted:
            return ev
    return next((ev for ev in found if not ev.ended), found[0] if found else None)


def events_part(store: Store, wanted: str | None, url: str | None = None) -> str:
    """The club events part of the organiser's page (``templates/web/organiser_events.html``)."""
    from dominolog.tournament.director import event_document, events, planned_rounds
    from dominolog.tournament.outcomes import round_complete
    from dominolog.variants import VARIANTS

    found = events(store)
    ev = current_event(found, wanted)
    context: dict[str, Any] = {"found": found, "ev": ev, "url": url}
    context["variants"] = [(name, cls.title) for name, cls in VARIANTS.items()]
    if ev is not None:
        context["doc"] = doc = event_document(store, ev)
        context["rounds"] = doc["rounds"]
        context["planned"] = planned = planned_rounds(ev)
        context["pair_label"], context["waiting"] = None, []
        if not ev.ended and (len(ev.paired) < planned or (not ev.paired and planned == 0)):
            context["waiting"] = round_complete(store, ev, ev.paired[-1]) if ev.paired else []
            context["pair_label"] = f"pair round {len(ev.paired) + 1}"
    return render("web/organiser_events.html", **context)
