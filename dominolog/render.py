"""The state at an event, printed for a person (``dominolog show``)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import TYPE_CHECKING

from dominolog.layouts.grid import GridLayout
from dominolog.layouts.picture import text_picture
from dominolog.log.reader import MatchLog
from dominolog.log.words import describe_record
from dominolog.reducer import MatchReducer
from dominolog.state import HandState, MatchState
from dominolog.tiles import Tile

if TYPE_CHECKING:
    from dominolog.audit.engine import MatchAudit


def _wrap_tiles(text: str, width: int, indent: str) -> list[str]:
    out, line = [], indent
    for i in range(0, len(text), 5):
        chunk = text[i : i + 5]
        if len(line) + len(chunk) > width and line.strip():
            out.append(line)
            line = indent
        line += chunk
    out.append(line)
    return out


def _grid_lines(state: MatchState, hand: HandState, layout: GridLayout) -> list[str]:
    """A 2-D table: its picture, the open ends by name, and what the variant keeps (suit, scores)."""
    n = len(layout.on_board)
    lines = [f"  table, {n} tile{'s' * (n != 1)}:"]
    lines.extend("    " + row for row in text_picture(layout).splitlines())
    ends = ", ".join(f"{name} {v}" for name, v in layout.ends().items())
    lines.append(f"  open ends: {ends or '(none)'}")
    preferred = hand.extra.get("preferred")
    if preferred:
        lines.append(f"  preferred suit: {preferred}")
    if any(hand.points.values()):
        lines.append("  points this hand: " + ", ".join(f"{p} {v}" for p, v in hand.points.items()))
    return lines


def _hand_lines(state: MatchState, hand: HandState, width: int) -> list[str]:
    lines = [f"Hand {hand.number}: leader {hand.leader}" + (f", dealer {hand.dealer}" if hand.dealer else "")]
    if hand.start_tile is not None:
        lines.append(f"  start tile: {hand.start_tile}")
    if hand.over:
        lines.append(f"  over: {hand.over} (seq {hand.over_seq})")
    else:
        lines.append(f"  turn: {hand.turn}")
    layout = hand.layout
    if isinstance(layout, GridLayout):
        lines.extend(_grid_lines(state, hand, layout))
    else:
        ends = layout.ends()
        end_text = f"  (left {ends['left']}, right {ends['right']})" if ends else ""
        lines.append(f"  table, {len(layout.on_board)} tiles{end_text}:")
        lines.extend(_wrap_tiles(layout.render(), width, "    "))
    for p in state.players:
        h = hand.holdings[p]
        tiles = " ".join(str(t) for t in sorted(h.known))
        if h.unknown and h.known:
            text = f"{tiles} + {h.unknown} unknown"
        elif h.unknown:
            text = f"{h.unknown} unknown tile{'s' * (h.unknown != 1)}"
        else:
            text = tiles or "(empty)"
        mark = "  <- on move" if hand.turn == p and not hand.over else ""
        lines.append(f"  {p} ({h.count}): {text}{mark}")
    bone = hand.boneyard
    if bone.count or hand.start_tile is not None:
        if bone.unknown and bone.known:
            detail = f": {' '.join(str(t) for t in sorted(bone.known))} + {bone.unknown} unknown"
        elif bone.known:
            detail = ": " + " ".join(str(t) for t in sorted(bone.known))
        else:
            detail = " (not seen)" if bone.count else ""
        lines.append(f"  boneyard, {bone.count} tile{'s' * (bone.count != 1)}{detail}")
    if hand.turn_draws and not hand.over:
        lines.append(f"  {hand.turn} has drawn {hand.turn_draws} this turn")
    if hand.unaccounted and (bone.unknown or any(h.unknown for h in hand.holdings.values())):
        where = "in hidden hands" if not bone.unknown else "in hidden hands or the boneyard"
        if not any(h.unknown for h in hand.holdings.values()):
            where = "in the boneyard"
        unseen = " ".join(str(t) for t in sorted(hand.unaccounted))
        lines.append(f"  not yet seen ({len(hand.unaccounted)}, {where}): {unseen}")
    return lines


def knowledge_words(holds: Iterable[Tile], may: Iterable[Tile], count: int, listed: bool = False) -> str:
    """A hidden hand as the whole log shows it: ``0-0 3-6 + 3 of 7 possible`` (the tiles held for
    sure, then how many more, among how many it may be; ``listed``: those too, after a colon)."""
    held = sorted(holds)
    could = sorted(may)
    text = " ".join(map(str, held))
    rest = count - len(held)
    if rest <= 0:
        return text or "(no tiles)"
    words = f"{rest} of {len(could)} possible"
    text = f"{text} + {words}" if text else words
    if listed and could:
        text += ": " + " ".join(map(str, could))
    return text


def knowledge_lines(audit: MatchAudit, hand: HandState, seq: int, width: int = 78) -> list[str]:
    """What the whole log (plays, passes, draws, reveals, counts) shows of each hand of a hand
    recorded with hidden tiles, after the event ``seq``: ``Ben (6): 0-0 3-6 + 3 of 7 possible: ...``."""
    ha = next((h for h in audit.hands if any(v.record.seq == seq for v in h.events)), None)
    if ha is None:
        ha = next((h for h in reversed(audit.hands) if h.number == hand.number), None)
    if ha is None or not ha.start.hidden:
        return []
    lines = [f"  what the whole log shows of the hands after seq {seq}:"]
    for p in ha.players:
        holds, may, count = ha.knowledge(p, seq)
        text = f"    {p} ({count}): {knowledge_words(holds, may, count, listed=True)}"
        lines.extend(textwrap.wrap(text, max(width, 40), subsequent_indent=" " * 8, break_on_hyphens=False))
    return lines


def render_state(
    reducer: MatchReducer,
    log: MatchLog,
    at: int,
    index: int,
    count: int,
    width: int = 78,
    audit: MatchAudit | None = None,
) -> str:
    """The state after the event ``at``; a hand recorded with hidden tiles also as the whole log
    shows it (``audit``: the match's :func:`~dominolog.audit.engine.audit_match`, made here if not given)."""
    state = reducer.state
    rec = next((r for r in log.records if r.seq == at), log.records[-1] if log.records else None)
    out = [f"{log.source}: match {index} of {count}, line {log.line}"]
    if rec is not None:
        out.append(f"at seq {rec.seq} (line {rec.line}): {describe_record(rec)}")
    if state is None:
        out.append("the match could not be read (see the violations)")
    else:
        opts = reducer.variant.options_shown() if reducer.variant is not None else ""
        out.append(f"{state.variant}: {' vs '.join(state.players)}" + (f"; {opts}" if opts else ""))
        out.append("")
        if state.hand is not None:
            out.extend(_hand_lines(state, state.hand, width))
            if state.hand.hidden and rec is not None:
                if audit is None:
                    from dominolog.audit.engine import audit_match

                    audit = audit_match(log)
                out.extend(knowledge_lines(audit, state.hand, rec.seq, width))
        elif state.ended:
            out.append("the match is over")
        else:
            out.append("between hands")
        out.append("")
        for r in state.results:
            pts = ", ".join(f"{p} {v}" for p, v in r.points.items())
            extra = f", aggressor {r.detail['aggressor']}" if "aggressor" in r.detail else ""
            winner = r.winner if r.winner is not None else "none"
            out.append(f"hand {r.number}: {r.end}{extra}, winner {winner}: {pts}")
        out.append("scores: " + ", ".join(f"{p} {v}" for p, v in state.totals.items()))
        if state.ended:
            out.append(f"match winner: {state.winner if state.winner is not None else 'none'}")
    report = reducer.report()
    if report.violations:
        out.append("")
        out.append(f"violations so far ({len(report.violations)}):")
        out.extend(f"  {log.source}:{v.line}: seq {v.seq}: {v.code}: {v.message}" for v in report.violations)
    if report.unverified:
        out.append(f"unverified so far ({len(report.unverified)}):")
        out.extend(f"  {log.source}:{v.line}: seq {v.seq}: {v.code}: {v.message}" for v in report.unverified)
    return "\n".join(out)
