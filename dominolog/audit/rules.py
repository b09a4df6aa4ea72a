"""The rulings behind a finding: the ids of ``docs/rulings.md`` a violation (or an unverified rule)
of the reducer rests on, and their text.

The rulings are read from the package's copy, ``dominolog/audit/rulings.txt`` (byte for byte
``docs/rulings.md``; a test keeps them equal): a user who installed the package has no ``docs/``.
It is not named ``.md`` so that the repository's link check does not read its relative links
(``../seeds/...``) as links from ``dominolog/audit/``.

:func:`rules_for` looks a finding up in :data:`TABLE`, rows of (variant or ``"*"``, code, regex
searched in the message, ids), the first row that applies wins: the rows of the finding's
variant come first, then the rows for every variant. A message no row knows gets no ids: the
rulings do not cover the log's form (``malformed``, ``hash-mismatch``, an ``undo`` with nothing
to take back), which ``docs/format.md`` describes.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

#: variant name -> its ruling ids for one part of the rules
Part = dict[str, tuple[str, ...]]

DEAL: Part = {
    "ghost13": ("G1",),
    "brettspielnetz": ("B1",),
    "39": ("T1",),
    "double-bergen": ("D1",),
    "double-draw": ("E1",),
}
LEADER: Part = {
    "ghost13": ("G2",),
    "brettspielnetz": ("B2",),
    "39": ("T2",),
    "double-bergen": ("D2",),
    "double-draw": ("E2",),
}
#: what a turn may be (a play, a pass, a draw...)
TURN: Part = {
    "ghost13": ("G3", "G4"),
    "brettspielnetz": ("B3", "B4"),
    "39": ("T9",),
    "double-bergen": ("D3", "D5"),
    "double-draw": ("E3",),
}
#: whose turn it is
ORDER: Part = {
    "ghost13": ("G3",),
    "brettspielnetz": ("B2",),
    "39": ("T2", "T9"),
    "double-bergen": ("D2", "D3"),
    "double-draw": ("E2", "E3"),
}
#: play is compulsory: the variant's own words for C3
RENEGE: Part = {
    "ghost13": ("G4",),
    "brettspielnetz": ("B3",),
    "39": ("T9",),
    "double-bergen": ("D5",),
    "double-draw": ("E3",),
}
#: a pass while a draw is still allowed
MUST_DRAW: Part = {"brettspielnetz": ("B4",), "39": ("T9",), "double-bergen": ("D5",), "double-draw": ("E3",)}
#: where a tile may go
PLACE: Part = {
    "ghost13": ("C2",),
    "brettspielnetz": ("C2",),
    "39": ("T4",),
    "double-bergen": ("D4",),
    "double-draw": ("C2",),
}
#: how a hand ends, by its end (``domino``, ``block``, ...)
END: dict[str, dict[str, tuple[str, ...]]] = {
    "ghost13": {"domino": ("G5",), "block": ("G6",)},
    "brettspielnetz": {"domino": ("B5",), "stock-out": ("B4",)},
    "39": {"domino": ("T10",), "passes": ("T10",)},
    "double-bergen": {"domino": ("D7",), "block": ("D7",), "target": ("D8",)},
    "double-draw": {"domino": ("E5",), "call": ("E4", "E5"), "passes": ("E5",)},
}
#: the points of a hand
SCORE: Part = {
    "ghost13": ("C5", "G7", "G9"),
    "brettspielnetz": ("C5", "B6"),
    "39": ("T8", "T11", "T12"),
    "double-bergen": ("C5", "D6", "D7"),
    "double-draw": ("C5", "E6"),
}
#: the winner of a hand
WINNER: Part = {
    "ghost13": ("G9",),
    "brettspielnetz": ("B6",),
    "39": ("T12",),
    "double-bergen": ("D7",),
    "double-draw": ("E6",),
}
#: when the match is over, and who wins it
MATCH: Part = {
    "ghost13": ("G10",),
    "brettspielnetz": ("B1", "B7"),
    "39": ("T1",),
    "double-bergen": ("D8",),
    "double-draw": ("E7",),
}
VARIANTS = tuple(DEAL)
ALIASES = {"thirty_nine": "39", "double_bergen": "double-bergen", "double_draw": "double-draw"}

Row = tuple[str, str, str, tuple[str, ...]]

#: the unverified forms of a pass or draw (the action, then why it cannot be checked)
HIDDEN = r"; (?:\S.*'s hand (?:is|was) hidden|it turns on whether)"
#: the tiles named by a Double Bergen renege are all doubles (the opening: D3)
ONLY_DOUBLES = r"(?:\(|: |one of )(?:(\d)-\1(?:, |,? which | (?=can)|(?=\)$)))+(?:can be played)?\)$"


def _own_rows(v: str) -> list[Row]:
    """The rows that hold for every variant, with the variant's own ids."""
    end = END[v]
    rows: list[Row] = [
        (v, "renege", "", ("C3", *RENEGE[v])),
        (v, "illegal", r"pair plays belong to double-draw|has no (?:drawing|suit declarations|block calls)", TURN[v]),
        (v, "illegal", r"passes\b[^;]*" + HIDDEN, MUST_DRAW.get(v, TURN[v])),
        (v, "illegal", r"not .*'s turn \(", ORDER[v]),
        (v, "illegal", r"draws from an empty boneyard", TURN[v]),
        (
            v,
            "illegal",
            r"does not match|matches neither end|fits no open end|not an open end|may not be played",
            PLACE[v],
        ),
        (v, "ambiguous", "", PLACE[v]),
        (v, "bad-deal", r"is also dealt|is dealt twice", ("C1", *DEAL[v])),
        (v, "bad-deal", r"leads hand \d+, but", LEADER[v]),
        (v, "bad-deal", "", DEAL[v]),
        (v, "out-of-order", r"after the match is over|after match_end|match_end too early", MATCH[v]),
        (
            v,
            "out-of-order",
            r"whether hand \d+ was over cannot be checked",
            ("C4", *sorted({i for ids in end.values() for i in ids})),
        ),
        (v, "score-mismatch", r"^match:", MATCH[v]),
        (v, "score-mismatch", r"cannot be checked: tiles of", SCORE[v]),
        (v, "score-mismatch", r"^hand \d+ \(abandoned\)", ("C4",)),
        (v, "score-mismatch", r"claimed winner", WINNER[v]),
        (v, "score-mismatch", r"^hand \d+", SCORE[v]),
    ]
    for kind, ids in end.items():
        rows.insert(0, (v, "out-of-order", rf"was over \({re.escape(kind)} at seq", ("C4", *ids)))
    return rows


#: (variant or "*", code, regex searched in the message, ruling ids): the first row that applies wins
TABLE: list[Row] = [
    ("ghost13", "score-mismatch", r"^hand \d+ \(block, aggressor.*claimed winner", ("G8", "G9")),
    ("ghost13", "score-mismatch", r"^hand \d+ \(block, aggressor", ("C5", "G7", "G8", "G9")),
    ("brettspielnetz", "illegal", r"th tile this turn; the limit is|none may be drawn at 2", ("B3",)),
    ("brettspielnetz", "illegal", r"while a draw is still allowed", ("B4",)),
    ("brettspielnetz", "bad-deal", r"start tile \S+ is a double", ("B1",)),
    ("39", "illegal", r"declares \w+ without a match", ("T7",)),
    ("39", "illegal", r"instead of drawing back up|draws with \d+ tiles in hand|: must draw", ("T9",)),
    ("39", "illegal", r"draws before the set is laid", ("T3", "T9")),
    ("39", "illegal", r"would overlap|has no room", ("T5",)),
    ("39", "bad-deal", r"chose the leader, but", ("T2",)),
    ("double-bergen", "renege", r"instead of setting", ("C3", "D3")),
    ("double-bergen", "renege", ONLY_DOUBLES, ("C3", "D3", "D5")),
    ("double-bergen", "illegal", r"before all four sides of the spinner|would overlap|has no room", ("D4",)),
    ("double-bergen", "illegal", r"for want of a double|must set the double|cannot be the first tile", ("D3",)),
    ("double-bergen", "illegal", r"no drawable tile left", ("D1", "D5")),
    ("double-bergen", "illegal", r"must draw \(D5\)", ("D5",)),
    ("double-bergen", "score-mismatch", r"^hand \d+ \(target\)", ("D6", "D8")),
    ("double-draw", "illegal", r"calls a blocked game", ("E4",)),
    ("double-draw", "illegal", r"pair play is not possible|the pair is written the wrong way round", ("C2", "E3")),
    ("double-draw", "illegal", r"plays a single tile, but|while a draw is allowed", ("E3",)),
    ("double-draw", "bad-deal", r"deals hand \d+, but|acts first, but the player after the dealer", ("E2",)),
    *(row for v in VARIANTS for row in _own_rows(v)),
    ("*", "renege", "", ("C3",)),
    (
        "*",
        "illegal",
        r"is not an end of a line game|matches neither end|does not match the (?:left|right) end",
        ("C2",),
    ),
    ("*", "illegal", r"does not hold|which is in \S.*'s hand|which is in the boneyard|already on the table", ("C1",)),
    ("*", "illegal", r"draws \d-\d, which is", ("C1",)),
    ("*", "ambiguous", r"fits both ends", ("C2",)),
    ("*", "bad-reveal", r"lists a tile twice|shows \d-\d, which is", ("C1", "C5")),
    ("*", "bad-reveal", "", ("C5",)),
    ("*", "contradiction", "", ("C1",)),
    ("*", "bad-deal", r"is also dealt|is dealt twice", ("C1",)),
    ("*", "out-of-order", r"before any match_start", ()),
    ("*", "out-of-order", "", ("C4",)),
]
_COMPILED = [(variant, code, re.compile(pattern), ids) for variant, code, pattern, ids in TABLE]


def rules_for(variant: str, code: str, message: str) -> list[str]:
    """The ruling ids behind a finding of the reducer (``["C3", "G4"]`` for a Ghost 13 renege);
    ``[]`` when the rulings do not cover it (the log's form: ``malformed``, ``hash-mismatch``...)."""
    variant = ALIASES.get(variant, variant)
    for own in (True, False):
        for row_variant, row_code, pattern, ids in _COMPILED:
            if row_code != code or (row_variant == variant) != own or row_variant not in (variant, "*"):
                continue
            if pattern.search(message):
                return list(ids)
    return []


@cache
def rulings() -> dict[str, str]:
    """Every ruling of ``docs/rulings.md`` (its package copy): id -> text, in the order written."""
    text = resources.files("dominolog.audit").joinpath("rulings.txt").read_text(encoding="utf-8")
    out: dict[str, str] = {}
    current: str | None = None
    for line in text.splitlines():
        m = re.match(r"- \*\*([A-Z]\d+)\*\* (.*)", line)
        if m:
            current = m.group(1)
            out[current] = m.group(2).strip()
        elif current is not None and line.startswith("  ") and line.strip():
            out[current] += " " + line.strip()
        else:
            current = None
    return out


def ruling_text(rid: str) -> str:
    """The text of one ruling, as one paragraph (KeyError for an id that does not exist)."""
    return rulings()[rid]


def rules_with_text(variant: str, code: str, message: str) -> list[dict[str, str]]:
    """:func:`rules_for` with each ruling's text: a finding's ``rules`` (``[{"id", "text"}]``)."""
    return [{"id": rid, "text": ruling_text(rid)} for rid in rules_for(variant, code, message)]
