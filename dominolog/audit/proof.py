"""Proofs in words: why a pass or draw was a renege (or may have been one), from the hand's facts.

A tile the facts put in a player's hand just before an event has a story the log tells: dealt
to them or drawn in view, then played later or shown at the end, with no draw in between that
could have brought it. These sentences are that story, for the tiles that decide a verdict.
"""

from __future__ import annotations

from typing import Any

from dominolog.audit.engine import HandAudit
from dominolog.knowledge import NEVER
from dominolog.tiles import Tile
from dominolog.variants.judges import names


def _ends_before(ha: HandAudit, seq: int) -> str:
    ends: tuple[int, ...] | None = None
    for v in ha.events:
        if v.record.seq >= seq:
            break
        if not v.retracted:
            ends = v.ends
    if not ends:
        return "with an empty table"
    if len(ends) == 1:
        return f"with the end {ends[0]}"
    if len(ends) == 2:
        return f"with the ends {ends[0]} and {ends[1]}"
    return "with the open ends " + ", ".join(map(str, ends[:-1])) + f" and {ends[-1]}"


def _did(audit: Any, seq: int) -> str:
    for v in audit.events:
        if v.record.seq == seq and v.record.event is not None:
            kind = v.record.event.type
            return {"pass": "passed", "draw": "drew"}.get(kind, f"wrote a {kind}")
    return "acted"


def tile_story(ha: HandAudit, player: str, seq: int, tile: Tile) -> str:
    """How the log shows ``player`` held ``tile`` just before ``seq``."""
    start, end = ha.start, ha.end
    parts: list[str] = []
    seen = [s for s, p, t in end.draws if t is tile and p == player]
    if tile in start.holdings[player].known:
        parts.append(f"the deal shows {tile} in {player}'s hand")
    elif seen:
        parts.append(f"{player} drew {tile} in view at seq {seen[0]}")
    exit_seq = ha.facts.exit.get(tile, NEVER)
    if exit_seq < NEVER:
        parts.append(f"{player} played {tile} at seq {exit_seq}")
        later = exit_seq
    else:
        reveals = [
            v.record.seq
            for v in ha.events
            if v.record.event is not None
            and v.record.event.type == "reveal"
            and getattr(v.record.event, "player", None) == player
            and not v.retracted
        ]
        if reveals:
            parts.append(f"{player}'s reveal at seq {reveals[-1]} shows {tile}")
        else:
            parts.append(f"{tile} is still in {player}'s hand at the end")
        later = NEVER
    places = ha.facts.places(tile)
    draws_between = [s for s, p, t in end.draws if p == player and seq <= s < later and t is None]
    if all(s.owner == player and s.entry < seq for s in places):
        if not draws_between:
            parts.append(
                f"{player} drew no tile unseen between seq {seq} and "
                + (f"seq {later}" if later < NEVER else "the end")
                + ", so it was in the hand then"
            )
        else:
            listed = ", ".join(map(str, draws_between))
            parts.append(
                f"the unseen draws at seq {listed} cannot have brought it (the log places their tiles "
                "elsewhere), so it was in the hand then"
            )
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def renege_proof(
    ha: HandAudit, audit: Any, player: str, seq: int, tiles: frozenset[Tile], action: str | None
) -> list[str]:
    """The proof of a certain renege: the moment, then the story of each tile that shows it."""
    before = ha.before(player, seq)
    out = [f"{player} {_did(audit, seq)} at seq {seq} {_ends_before(ha, seq)}."]
    held = sorted(before.certain(tiles))
    for t in held[:3]:
        out.append(tile_story(ha, player, seq, t))
    if held:
        out.append(f"{player} could play {names(held)}: the rules required a play.")
        return out
    counted = _pigeonhole(ha, audit, player, seq, tiles)
    if counted is not None:
        out.append(counted)
        out.append(f"{player} could play it: the rules required a play.")
        return out
    sure, may = ha.facts.knowledge(player, seq - 1)
    count = ha.count(player, seq - 1)
    rest = count - len(sure)
    others = sorted(may - tiles)
    out.append(
        f"By the log, {player} held {count} tiles then: "
        + (f"{names(sure, 8)} for certain and " if sure else "")
        + f"{rest} more among {names(may, 12)}."
    )
    out.append(
        f"Only {len(others)} of those are not {names(tiles, 8)}, fewer than {rest}: every hand the log allows "
        f"{player} holds one of {names(tiles, 8)}, and {player} could play it."
        if len(others) < rest
        else f"Every way to fill {player}'s hidden tiles that the log allows puts one of {names(tiles, 8)} "
        f"there, and {player} could play it."
    )
    return out


def _pigeonhole(ha: HandAudit, audit: Any, player: str, seq: int, tiles: frozenset[Tile]) -> str | None:
    """ "Ben played 3-6 and 1-6 after seq 12 but drew once between: one of them was in his hand then."

    The tiles of ``tiles`` the player played or showed after ``seq``, in the order they left the
    hand: when more of them left by some moment than the player drew tiles unseen between ``seq``
    and that moment, some of them were in the hand at ``seq`` (a draw brings one tile)."""
    reveal_seq = {
        v.record.seq
        for v in ha.events
        if v.record.event is not None
        and v.record.event.type == "reveal"
        and getattr(v.record.event, "player", None) == player
    }
    end_seq = max(reveal_seq, default=NEVER)
    gone: list[tuple[int, Tile]] = []
    drawn_in_view = {t for _, _, t in ha.end.draws if t is not None}
    for t in tiles:
        places = ha.facts.places(t)
        if not places or any(s.owner != player for s in places) or t in drawn_in_view:
            continue
        exit_seq = ha.facts.exit.get(t, NEVER)
        if exit_seq == NEVER and t in ha.end.holdings[player].known and reveal_seq:
            exit_seq = end_seq
        if seq < exit_seq < NEVER:
            gone.append((exit_seq, t))
    gone.sort()
    unseen = sorted(s for s, p, t in ha.end.draws if p == player and t is None and s >= seq)
    for k in range(len(gone)):
        upto = gone[k][0]
        drew = [s for s in unseen if s < upto]
        if k + 1 > len(drew):
            left = [t for _, t in gone[: k + 1]]
            how = ", ".join(
                f"{t} at seq {e}" + (" (shown at the end)" if e in reveal_seq else "") for e, t in gone[: k + 1]
            )
            draws = (
                "drew no tile unseen" if not drew else f"drew only {len(drew)} unseen (seq {', '.join(map(str, drew))})"
            )
            need = k + 1 - len(drew)
            verb = "was" if need == 1 else "were"
            return (
                f"{player} played or showed {how}, and {draws} from seq {seq} to seq {upto}: a draw brings one "
                f"tile, so at least {need} of {names(left, 8)} {verb} in the hand at seq {seq}."
            )
    return None


def possible_proof(
    ha: HandAudit, audit: Any, player: str, seq: int, tiles: frozenset[Tile], action: str | None
) -> list[str]:
    """Why a pass or draw may have been a renege and why the log cannot settle it."""
    out = [f"{player} {_did(audit, seq)} at seq {seq} {_ends_before(ha, seq)}."]
    if tiles:
        out.append(
            f"The log allows hands in which {player} held {names(tiles, 8)} then, and hands in which "
            f"{player} did not: had {player} held one, the rule was broken."
        )
    unseen = [s for s, p, t in ha.end.draws if p == player and t is None and s >= seq]
    if ha.end.holdings[player].unknown:
        out.append(f"{player}'s tiles were never all revealed, so the log cannot say which were held.")
    elif unseen:
        out.append(
            f"{player} drew unseen at seq {', '.join(map(str, unseen))}: a tile shown at the end may have "
            "come from those draws rather than from the hand before this event."
        )
    out.append("Not settled: nobody can be charged with this from the log alone.")
    return out
