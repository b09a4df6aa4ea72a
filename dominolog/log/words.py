"""One event in a few words, for a person (``play Ben 3-5 right``): used by ``show``, the viewer,
the recorder and the audit."""

from __future__ import annotations

from dominolog.log.reader import Record


def describe_record(rec: Record) -> str:
    """A short account of one event, e.g. ``play Ben 3-5 right``."""
    ev = rec.event
    if ev is None:
        return f"(broken line: {rec.error})"
    kind = ev.type
    parts = [kind]
    player = getattr(ev, "player", None)
    if player:
        parts.append(player)
    if kind == "play":
        parts.append(" + ".join(ev.tiles) if ev.tiles else str(ev.tile))  # type: ignore[union-attr]
        if ev.end:  # type: ignore[union-attr]
            parts.append(ev.end)  # type: ignore[union-attr]
    elif kind == "draw":
        parts.append(ev.tile or "(unseen)")  # type: ignore[union-attr]
    elif kind == "reveal":
        parts.append(" ".join(ev.tiles) or "(no tiles)")  # type: ignore[union-attr]
    elif kind == "declare":
        parts.append(ev.suit)  # type: ignore[union-attr]
    elif kind == "deal":
        parts.append(f"leader {ev.leader}")  # type: ignore[union-attr]
    elif kind == "note":
        parts.append(repr(ev.text))  # type: ignore[union-attr]
    elif kind == "match_start":
        parts.append(f"{ev.variant} {' vs '.join(ev.players)}")  # type: ignore[union-attr]
    return " ".join(parts)
