"""What a recorder asks the table next, and what it makes of what is typed.

Pure logic over a :class:`~dominolog.recording.session.Session`, for every face of the recorder (the
terminal screen, the phone page): they show these results and hold no rules of their own.

- :func:`expect`: the prompt for the state of the match (a deal, a turn, the reveals, the
  rules' outcome of a hand, the next deal, the match end) and what an empty Enter does then
  (writes the event the prompt names, skips a reveal, or asks for the reveals);
- :func:`find_choice`: a tile typed alone that fits more than one place, and the places,
  numbered, one key each;
- :func:`completions`: what Tab puts in the entry line;
- :func:`reveal_event`: the tiles typed at a reveal prompt, as a reveal.

Whatever else is typed is notation and is entered as it is (:mod:`dominolog.recording.entry`): a
prompt never stands in the way of someone typing ahead. Each result has an ``as_dict()`` (JSON).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from dominolog.log.notation import Action, Parsed, parse
from dominolog.log.notation_write import format_event
from dominolog.recording.session import Session, end_suffix
from dominolog.state import HandResult, WinnerValue
from dominolog.textsafe import shown
from dominolog.tiles import DOUBLE_SIX

#: a tile as typed: ``53`` or ``5-3``
TILE = re.compile(r"([0-6])-?([0-6])")
#: a tile being typed: nothing yet, one half, or one half and the dash
PARTIAL = re.compile(r"[0-6]?-?")


def _name(player: str) -> str:
    return shown(player, 40)


def winner_text(winner: WinnerValue) -> str:
    if isinstance(winner, str):
        return _name(winner)
    return " and ".join(_name(w) for w in winner or []) or "nobody"


def points_text(points: dict[str, int]) -> str:
    return ", ".join(f"{_name(p)} {v}" for p, v in points.items())


def notation(event: dict[str, Any], on_move: str | None = None, leader: str | None = None) -> str:
    """An event as the entry line would take it (shown escaped), or its type when the notation has no
    compact form for it."""
    token = format_event(event, on_move, leader)
    return shown(token if token is not None else str(event.get("type", "?")), 300)


@dataclass(slots=True)
class Prompt:
    """What the table is expected to do next. ``kind``: ``deal``, ``turn``, ``reveal``, ``outcome``,
    ``points``, ``match_end``, ``ended`` or ``none``."""

    kind: str
    text: str
    #: the event an empty Enter writes (with the time stamp added), if any
    default: dict[str, Any] | None = None
    #: ``reveal``: whose tiles are asked for
    player: str | None = None
    #: ``turn``: the hand may be over (hidden tiles): an empty Enter asks for the reveals
    reveals: bool = False
    #: ``turn``: the tiles the player on move may play, when the hand is known
    legal: list[str] | None = None
    #: what an empty Enter does, in words (for the message line when it does nothing)
    hint: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The prompt as JSON: ``offer`` is the event an empty Enter (or the offer's button) writes."""
        return {
            "kind": self.kind,
            "text": self.text,
            "offer": dict(self.default) if self.default is not None else None,
            "player": self.player,
            "reveals": self.reveals,
            "legal": list(self.legal) if self.legal is not None else None,
            "hint": self.hint,
        }


@dataclass(slots=True)
class Flow:
    """What the screen keeps between entries, for the hand in play: the players whose reveal was
    skipped, and whether the table said the hand is over (hidden tiles: the rules cannot tell)."""

    hand: int | None = None
    skipped: set[str] = field(default_factory=set)
    revealing: bool = False

    def sync(self, session: Session) -> None:
        hand = session.reducer.hand
        number = hand.number if hand is not None else None
        if number != self.hand:
            self.hand, self.skipped, self.revealing = number, set(), False


def match_totals(session: Session) -> tuple[dict[str, int], WinnerValue]:
    """The match's totals and the winner the rules give (read from the fold)."""
    state, variant = session.reducer.state, session.reducer.variant
    if state is None or variant is None:
        return {}, None
    return dict(state.totals), variant.match_winner(state)


def outcome_text(result: HandResult) -> str:
    parts = [f"{result.end}, winner {winner_text(result.winner)}"]
    aggressor = result.detail.get("aggressor")
    if isinstance(aggressor, str):
        parts.append(f"aggressor {_name(aggressor)}")
    return ", ".join(parts) + ": " + points_text(result.points)


def _may_be_over(session: Session) -> bool:
    """The hand is not known to be over, hidden tiles keep the rules from saying it goes on, and the
    table's last action was a pass or a draw (a player stuck): the table may say it is over."""
    reducer = session.reducer
    hand, variant = reducer.hand, reducer.variant
    if hand is None or variant is None or hand.over is not None or not hand.actions:
        return False
    if hand.actions[-1][2] not in ("pass", "draw"):
        return False
    try:
        return variant.may_be_over(hand) is None
    except Exception:  # pragma: no cover - a state the rules cannot judge: ask nothing
        return False


def expect(session: Session, flow: Flow) -> Prompt:
    """The prompt for the match as it stands."""
    flow.sync(session)
    reducer = session.reducer
    state, variant = reducer.state, reducer.variant
    if state is None or variant is None:
        return Prompt("none", "no match is being recorded here (the log has no readable match_start)")
    if state.ended:
        return Prompt("ended", "the match is over and recorded · ctrl+q quits", hint="nothing more to write")
    hand = state.hand
    if hand is None:
        number = len(state.results) + 1
        if session.match_over():
            totals, winner = match_totals(session)
            event = {"type": "match_end", "totals": totals, "winner": winner}
            token = notation(event)
            return Prompt(
                "match_end",
                f"the match is over by the rules ({points_text(totals)}, winner {winner_text(winner)}): "
                f"Enter writes {token}, or type the table's totals",
                default=event,
            )
        leader = session.next_leader()
        start = " start=15" if variant.uses_start_tile else ""
        if leader is None:
            return Prompt(
                "deal",
                f"hand {number}: type the deal and who leads: deal {_name(state.players[0])} [?]{start}",
                hint="the rules do not say who leads: type the deal with its leader",
            )
        if start:
            return Prompt(
                "deal",
                f"hand {number}: {_name(leader)} leads; type the deal with the tile turned up: deal [?]{start}",
                hint="type the deal with the tile turned up (start=..)",
            )
        event = {"type": "deal", "leader": leader, "hands": None}
        return Prompt(
            "deal",
            f"hand {number}: Enter deals, {_name(leader)} leading, hands not seen (deal [?]); "
            f"or type the deal: deal [{_name(leader)} 01 04 ...]",
            default=event,
        )
    over = hand.over is not None
    wanted = [p for p in session.reveals_wanted() if p not in flow.skipped]
    if over or flow.revealing:
        if wanted:
            player = wanted[0]
            return Prompt(
                "reveal",
                f"hand {hand.number} is over: {_name(player)}'s tiles? (type them: 21 10; Enter: not shown)",
                player=player,
            )
        result = session.outcome()
        if result is None:
            return Prompt(
                "points",
                f"hand {hand.number} is over; the rules cannot tell the points (hidden tiles): "
                "type the agreed ones: * " + " ".join(f"{_name(p)} 0" for p in state.players),
                hint="type the points the table agreed (* Name points ...)",
            )
        event = {"type": "hand_end", "points": dict(result.points), "winner": result.winner}
        return Prompt(
            "outcome",
            f"hand {hand.number}, the rules give {outcome_text(result)} · Enter writes {notation(event)}, "
            "or type the table's claim",
            default=event,
        )
    mover = hand.turn
    legal = session.legal_tiles()
    text = f"hand {hand.number}: {_name(mover)} to play" if mover else f"hand {hand.number} in play"
    if legal is not None:
        text += " · legal " + (" ".join(legal) if legal else "none (pass or draw)")
    maybe = _may_be_over(session) and bool(wanted)
    if maybe:
        text += " · hand over? Enter asks for the reveals"
    return Prompt(
        "turn",
        text,
        reveals=maybe,
        legal=legal,
        hint="" if maybe else "type what the player did: 65R, -, +?, ...",
    )


# -- a tile typed alone that fits more than one place ------------------------------------------


@dataclass(slots=True)
class Choice:
    """A play typed without its place, and the places the tile fits (two or more)."""

    text: str
    tile: str
    places: list[str]
    #: where the place's suffix goes in ``text`` (after the tile, before a time stamp)
    cut: int
    #: the play as read from ``text`` (a place picked completes it: the text is not read again)
    action: Action | None = None

    @property
    def suffixes(self) -> list[str]:
        return [end_suffix(p) for p in self.places]

    def entry(self, index: int) -> str:
        """The entry with the place ``index`` (from 0): ``65`` becomes ``65L``."""
        return self.text[: self.cut] + self.suffixes[index] + self.text[self.cut :]

    def picked(self, index: int) -> Parsed | None:
        """The entry with the place ``index`` as read (the play with its ``end``), without reading its
        text again; None when the play is not kept."""
        action = self.action
        if action is None:
            return None
        at = self.cut - (action.column - 1)
        text = action.text[:at] + self.suffixes[index] + action.text[at:]
        fields = {**action.fields, "end": self.places[index]}
        return Parsed([replace(action, fields=fields, text=text)], [])

    def key_map(self) -> dict[str, int]:
        """The keys that pick a place: the digits, and ``l``/``r`` in a line game."""
        out = {str(i + 1): i for i in range(min(9, len(self.places)))}
        suffixes = self.suffixes
        if set(suffixes) == {"L", "R"}:
            for letter in ("l", "r"):
                out[letter] = out[letter.upper()] = suffixes.index(letter.upper())
        return out

    def describe(self) -> str:
        """``1 L  2 R``."""
        return "  ".join(f"{i + 1} {s}" for i, s in enumerate(self.suffixes[:9]))

    def as_dict(self) -> dict[str, Any]:
        """The choice as JSON: each place by its id (the ``end`` the play is written with: ``left``,
        ``right``, or ``<tile>:<side>`` on a spinner's table such as ``6-6:N``), its suffix in the
        notation and the entry it makes."""
        return {
            "text": self.text,
            "tile": f"{self.tile[0]}-{self.tile[-1]}",
            "places": [
                {"id": place, "suffix": suffix, "entry": self.entry(i)}
                for i, (place, suffix) in enumerate(zip(self.places, self.suffixes, strict=True))
            ],
        }


def find_choice(session: Session, text: str, parsed: Parsed | None = None) -> Choice | None:
    """The places of the tile when ``text`` is one play of one tile without a place and the tile fits
    more than one place now; else None (the entry goes in as it is). ``parsed``: ``text`` as already
    read (it is not read again)."""
    if "\n" in text:
        return None
    if parsed is None:
        parsed = parse(text)
    if parsed.errors or len(parsed.actions) != 1:
        return None
    action = parsed.actions[0]
    if action.kind != "play" or "tile" not in action.fields or "end" in action.fields:
        return None
    hand = session.reducer.hand
    if hand is None or hand.over is not None:
        return None
    tile = str(action.fields["tile"])
    places = session.places(tile)
    if len(places) < 2:
        return None
    start = action.column - 1
    body = action.text
    if action.time is not None and "(" in body:
        body = body[: body.index("(")].rstrip()
    return Choice(text, tile.replace("-", ""), places, start + len(body), action)


# -- Tab ---------------------------------------------------------------------------------------


def _fitting(session: Session) -> list[str]:
    """Tiles that fit an open end and are not known to be elsewhere (the hand on move is hidden)."""
    hand = session.reducer.hand
    if hand is None or hand.over is not None:
        return []
    mover = hand.turn
    elsewhere = set(hand.layout.on_board)
    for p, h in hand.holdings.items():
        if p != mover:
            elsewhere |= set(h.known)
    out = []
    for t in DOUBLE_SIX:
        if t in elsewhere:
            continue
        name = f"{t.hi}{t.lo}"
        if session.places(name):
            out.append(name)
    return out


def completions(session: Session, value: str, choice: Choice | None = None) -> list[str]:
    """What Tab may put in the entry line, in order (Tab again goes to the next one):

    - with a place to pick (``choice``) and nothing typed: the tile with each place;
    - after a whole tile that fits several places: the tile with each place;
    - after part of a tile (or nothing): each legal tile starting with it (the tiles that fit,
      when the hand on move is hidden)."""
    if choice is not None and not value.strip():
        return [choice.entry(i) for i in range(len(choice.places))]
    m = re.search(r"(\S*)$", value)
    assert m is not None
    token, head = m.group(1), value[: m.start(1)]
    prefix = ""
    if ":" in token:
        cut = token.rindex(":") + 1
        prefix, token = token[:cut], token[cut:]
    if TILE.fullmatch(token):
        hand = session.reducer.hand
        places = session.places(token) if hand is not None and hand.over is None else []
        if len(places) < 2:
            return []
        return [head + prefix + token + end_suffix(p) for p in places]
    if not PARTIAL.fullmatch(token):
        return []
    legal = session.legal_tiles()
    if legal is None:
        legal = _fitting(session)
    typed = token.replace("-", "")
    dash = "-" in token
    out: list[str] = []
    for t in legal:
        a, b = t[0], t[-1]
        for x, y in ((a, b), (b, a)):
            if (x + y).startswith(typed):
                out.append(head + prefix + (f"{x}-{y}" if dash else f"{x}{y}"))
                break
    return list(dict.fromkeys(out))


# -- reveals -----------------------------------------------------------------------------------


def reveal_tiles(text: str) -> list[str] | None:
    """The tiles of ``text`` when it is tiles alone, separated by spaces (``21 10``), else None."""
    words = text.split()
    if not words or not all(TILE.fullmatch(w) for w in words):
        return None
    return [f"{w[0]}-{w[-1]}" for w in words]


def reveal_event(player: str, tiles: list[str]) -> dict[str, Any]:
    return {"type": "reveal", "player": player, "tiles": tiles}
