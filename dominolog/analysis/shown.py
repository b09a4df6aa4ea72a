"""An analysis shown beside its match: the replay viewer, the audit report and the standings read a
review (what ``dominolog analyze --format json`` writes, or what the store keeps for the match,
:mod:`dominolog.analysis.cache`) through here.

A review read from a file is checked before anything shows it: it must be a review (the shape
``MatchReview.as_dict()`` gives: ``match_id``, ``hands`` with their ``decisions``, each decision's
options with their values), and it must be of this match: its ``match_id`` the match's id, and its
``head`` (the match's head hash when it was analysed, where the review has one) the match's head
now. A review that fails is refused with one line saying why (:class:`ReviewError`).

The review is then indexed by seq (:class:`ShownReview`): the decisions at each event (usually one;
in 39 a play and the declaration after it share a seq), each with its options, the best, the move
played, its rank ``#k of N`` and the points it lost; and each player's figures. The keys a sampled
review adds (a decision's ``kind``, ``samples`` and ``spread``; an option's ``spread`` and
``samples``; ``method`` and ``sampling``) are read when present; values may be integers (exact) or
floats (means over sampled deals).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from dominolog.analysis.cache import VERSION, is_whole, kept_review
from dominolog.log.reader import MatchLog
from dominolog.reducer.chain import HashChain
from dominolog.textsafe import shown

Number = int | float

__all__ = [
    "Number",
    "ReviewError",
    "ShownDecision",
    "ShownOption",
    "ShownPlayer",
    "ShownReview",
    "analysis_for",
    "check_review",
    "head_of",
    "id_of",
    "is_of",
    "kept_shown",
    "loss_word",
    "number",
    "parse_review",
    "rank_text",
    "read_review",
    "review_of_file",
    "signed",
]


class ReviewError(ValueError):
    """A review that cannot be shown: the message is one line, for a person."""


@dataclass(frozen=True, slots=True)
class ShownOption:
    move: str
    value: Number
    #: sampled: the standard deviation over the deals, and over how many deals (None: exact)
    spread: float | None = None
    samples: int | None = None


@dataclass(frozen=True, slots=True)
class ShownDecision:
    hand: int
    seq: int
    player: str
    kind: str
    played: str
    value: Number
    best: Number
    worst: Number
    best_move: str
    rank: int
    loss: Number
    options: tuple[ShownOption, ...]
    #: sampled: how many deals, and the played option's spread (None: exact)
    samples: int | None = None
    spread: float | None = None

    @property
    def count(self) -> int:
        return len(self.options)

    @property
    def choice(self) -> bool:
        """Something was at stake: the options are not all worth the same."""
        return self.best != self.worst

    @property
    def mistake(self) -> bool:
        return self.loss > 0

    @property
    def kept(self) -> float:
        """The share of the decision's range kept (1 for a best move)."""
        return 1 - self.loss / max(1, self.best - self.worst)


@dataclass(frozen=True, slots=True)
class ShownPlayer:
    """A player's figures as the review gives them."""

    name: str
    decisions: int
    choices: int
    total_loss: Number
    average_loss: float
    match_rate: float
    accuracy: float


@dataclass(slots=True)
class ShownReview:
    match_id: str | None
    head: str | None
    variant: str | None
    players: list[str]
    #: why the match was not analysed, if so
    note: str | None
    #: "exact", "sampled" or None (not said)
    method: str | None
    decisions: list[ShownDecision]
    summary: list[ShownPlayer]
    #: hand number -> why the hand (or its end) was not analysed
    hand_notes: dict[int, str] = field(default_factory=dict)
    #: the sampled review's settings: deals per decision and seed (None: exact, or not said)
    samples: int | None = None
    seed: int | None = None
    by_seq: dict[int, list[ShownDecision]] = field(default_factory=dict)
    #: the review's luck by player over the hands weighed, and the luck-adjusted results (empty when
    #: the review gives none: dominolog.analysis.luck); the hidden games': the 95% margin of each
    luck: dict[str, float] = field(default_factory=dict)
    adjusted: dict[str, float] = field(default_factory=dict)
    margin: dict[str, float] = field(default_factory=dict)

    def play_rating(self, player: str) -> tuple[int, float | None]:
        """The player's non-forced decisions (more than one legal option) and play rating: points lost
        per 100 of them (None: none), as dominolog.analysis.luck has it."""
        mine = [d for d in self.decisions if d.player == player and d.count > 1]
        if not mine:
            return 0, None
        return len(mine), 100 * sum(d.loss for d in mine) / len(mine)

    def __post_init__(self) -> None:
        for d in self.decisions:
            self.by_seq.setdefault(d.seq, []).append(d)

    def at(self, seq: int) -> list[ShownDecision]:
        """The decisions made at the event ``seq`` (none: not a decision, or not analysed)."""
        return self.by_seq.get(seq, [])

    def loss_at(self, seq: int) -> Number | None:
        """The points lost at the event ``seq`` (None: no decision analysed there)."""
        found = self.at(seq)
        if not found:
            return None
        total = sum(d.loss for d in found)
        return round(total, 2) + 0.0 if isinstance(total, float) else total

    @property
    def sampled(self) -> bool:
        return self.method == "sampled" or any(d.samples is not None for d in self.decisions)

    def method_text(self) -> str:
        """``exact values`` or ``sampled: 20 deals a decision, seed 0``."""
        if not self.sampled:
            return "exact values"
        deals = self.samples if self.samples is not None else next((d.samples for d in self.decisions), None)
        text = "sampled" + (f": {deals} deals a decision" if deals is not None else "")
        return text + (f", seed {self.seed}" if self.seed is not None else "")


# -- formatting -------------------------------------------------------------------------------------


def number(value: Number) -> str:
    """A value as shown: an exact one as an integer, a sampled one with 2 decimals (``12.5`` as ``12.50``)."""
    if isinstance(value, int):
        return str(value)
    return f"{value:.2f}"


def signed(value: Number) -> str:
    """A value with its sign: ``+10``, ``-6``, ``+0``; ``+3.25``."""
    text = number(value)
    return text if text.startswith("-") else "+" + text


def loss_word(decisions: list[ShownDecision]) -> str:
    """What the event list shows for the decisions at one event: ``-12`` (the points lost), ``best``,
    or ``=`` when the options were all worth the same (nothing at stake); empty for none."""
    if not decisions:
        return ""
    lost = sum(d.loss for d in decisions)
    if lost > 0:
        return "-" + number(round(lost, 2) if isinstance(lost, float) else lost)
    return "best" if any(d.choice for d in decisions) else "="


def rank_text(d: ShownDecision, short: bool = False) -> str:
    """``#3 of 5`` (``short``: ``#3/5``)."""
    return f"#{d.rank}/{d.count}" if short else f"#{d.rank} of {d.count}"


# -- reading and checking ------------------------------------------------------------------------------


class _Bad(Exception):
    pass


_KINDS = {int: "an integer", float: "a number", str: "a string", list: "a list", dict: "an object"}


def _get(obj: Mapping[str, Any], key: str, kinds: tuple[type, ...], where: str, optional: bool = False) -> Any:
    if key not in obj or obj[key] is None:
        if optional:
            return None
        raise _Bad(f"{where} has no {key}" if where else f"no {key}")
    value = obj[key]
    if not isinstance(value, kinds) or isinstance(value, bool):
        kind = _KINDS.get(kinds[-1], "a value of its kind")
        raise _Bad(f"{where}: {key} is not {kind}" if where else f"{key} is not {kind}")
    if isinstance(value, float) and not math.isfinite(value):
        raise _Bad(f"{where}: {key} is not a finite number" if where else f"{key} is not a finite number")
    return value


def _num(obj: Mapping[str, Any], key: str, where: str, optional: bool = False) -> Any:
    return _get(obj, key, (int, float), where, optional)


def _decision(d: Any, hand: int, where: str) -> ShownDecision:
    if not isinstance(d, dict):
        raise _Bad(f"{where} is not an object")
    seq = _get(d, "seq", (int,), where)
    where = f"the decision at seq {seq}"
    options_in = _get(d, "options", (list,), where)
    if not options_in:
        raise _Bad(f"{where} has no options")
    options = []
    for o in options_in:
        if not isinstance(o, dict):
            raise _Bad(f"{where}: an option is not an object")
        options.append(
            ShownOption(
                _get(o, "move", (str,), f"{where}: an option"),
                _num(o, "value", f"{where}: an option"),
                _num(o, "spread", f"{where}: an option", optional=True),
                _get(o, "samples", (int,), f"{where}: an option", optional=True),
            )
        )
    value, best = _num(d, "value", where), _num(d, "best", where)
    worst = _num(d, "worst", where, optional=True)
    loss = _num(d, "loss", where, optional=True)
    rank = _get(d, "rank", (int,), where, optional=True)
    played = _get(d, "played", (str,), where)
    best_move = _get(d, "best_move", (str,), where, optional=True)
    return ShownDecision(
        _get(d, "hand", (int,), where, optional=True) or hand,
        seq,
        _get(d, "player", (str,), where),
        _get(d, "kind", (str,), where, optional=True) or ("pass" if played == "pass" else "play"),
        played,
        value,
        best,
        worst if worst is not None else min(o.value for o in options),
        best_move if best_move is not None else next((o.move for o in options if o.value == best), ""),
        rank if rank is not None else 1 + sum(o.value > value for o in options),
        loss if loss is not None else best - value,
        tuple(options),
        _get(d, "samples", (int,), where, optional=True),
        _num(d, "spread", where, optional=True),
    )


def _player(p: Any) -> ShownPlayer:
    if not isinstance(p, dict):
        raise _Bad("a player of the summary is not an object")
    name = _get(p, "name", (str,), "a player of the summary")
    where = f"the summary of {shown(name, 40)!r}"
    return ShownPlayer(
        name,
        _get(p, "decisions", (int,), where),
        _get(p, "choices", (int,), where),
        _num(p, "total_loss", where),
        float(_num(p, "average_loss", where)),
        float(_num(p, "match_rate", where)),
        float(_num(p, "accuracy", where)),
    )


def parse_review(doc: Any, where: str = "the analysis") -> ShownReview:
    """The review ``doc`` (``analyze --format json``'s document) as shown, or :class:`ReviewError`
    saying, in one line, why it is not one."""
    try:
        if not isinstance(doc, dict):
            raise _Bad("not a JSON object")
        if "hands" not in doc or "match_id" not in doc:
            raise _Bad("no match_id and hands (it is not what dominolog analyze --format json writes)")
        match_id = _get(doc, "match_id", (str,), "", optional=True)
        hands = _get(doc, "hands", (list,), "")
        decisions: list[ShownDecision] = []
        notes: dict[int, str] = {}
        for h in hands:
            if not isinstance(h, dict):
                raise _Bad("a hand is not an object")
            number_ = _get(h, "number", (int,), "a hand")
            note = _get(h, "note", (str,), f"hand {number_}", optional=True)
            if note:
                notes[number_] = note
            for d in _get(h, "decisions", (list,), f"hand {number_}"):
                decisions.append(_decision(d, number_, f"a decision of hand {number_}"))
        summary = [_player(p) for p in _get(doc, "summary", (list,), "", optional=True) or []]
        players = _get(doc, "players", (list,), "", optional=True) or []
        sampling = _get(doc, "sampling", (dict,), "", optional=True) or {}
        shown_review = ShownReview(
            match_id,
            _get(doc, "head", (str,), "", optional=True),
            _get(doc, "variant", (str,), "", optional=True),
            [p for p in players if isinstance(p, str)],
            _get(doc, "note", (str,), "", optional=True),
            _get(doc, "method", (str,), "", optional=True),
            decisions,
            summary,
            notes,
            _get(sampling, "samples", (int,), "the sampling", optional=True),
            _get(sampling, "seed", (int,), "the sampling", optional=True),
        )
        luck = _get(doc, "luck_and_skill", (dict,), "", optional=True) or {}
        for key, into in (
            ("luck", shown_review.luck),
            ("adjusted", shown_review.adjusted),
            ("margin", shown_review.margin),
        ):
            found = luck.get(key)
            if isinstance(found, dict):
                into.update({str(p): float(x) for p, x in found.items() if isinstance(x, int | float)})
        return shown_review
    except _Bad as exc:
        raise ReviewError(f"{where}: not an analysis: {exc}") from None


def read_review(path: Path | str) -> ShownReview:
    """The review in the file ``path`` (``analyze --format json --out PATH``), or :class:`ReviewError`."""
    p = Path(path)
    where = shown(p)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise ReviewError(f"{where}: no such file") from None
    except OSError as exc:
        raise ReviewError(f"{where}: cannot read it: {exc.strerror or exc}") from None
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError) as exc:
        reason = f"line {exc.lineno}: {exc.msg}" if isinstance(exc, json.JSONDecodeError) else "not UTF-8 JSON"
        raise ReviewError(
            f"{where}: not JSON ({shown(reason, 200)}): an analysis is what analyze --format json writes"
        ) from None
    return parse_review(doc, where)


def head_of(log: MatchLog) -> str:
    """The match's head hash (what the store keeps and an analysis records): the chain over its records."""
    chain = HashChain()
    for rec in log.records:
        chain.check(rec)
    return chain.head


def id_of(log: MatchLog) -> str | None:
    """The ``id`` of the match's ``match_start`` (what a review's ``match_id`` is), or None."""
    first = log.records[0] if log.records else None
    ev = first.event if first is not None else None
    if ev is None or ev.type != "match_start":
        return None
    value = getattr(ev, "id", None)
    return value if isinstance(value, str) else None


def check_review(review: ShownReview, match_id: str | None, head: str, where: str = "the analysis") -> None:
    """:class:`ReviewError` unless ``review`` is of this match (its id) as it stands (its head, where
    the review records one)."""
    if review.match_id != match_id:
        of = f"match {shown(review.match_id, 100)!r}" if review.match_id is not None else "a match without an id"
        this = f"{shown(match_id, 100)!r}" if match_id is not None else "a match without an id"
        raise ReviewError(f"{where}: an analysis of {of}, not of this match ({this})")
    if review.head is not None and review.head != head:
        raise ReviewError(
            f"{where}: an analysis of match {shown(match_id or '(no id)', 100)!r} as it stood at "
            f"{shown(review.head, 16)[:10]}; it is now at {head[:10]}: analyse it again"
        )


class Kept(Protocol):
    def analyses_of(self, match_id: str, head: str, version: str) -> list[tuple[dict[str, Any], dict[str, Any]]]: ...


def kept_shown(store: Kept, match_id: str, head: str) -> tuple[ShownReview | None, bool]:
    """The review the store keeps for the match at ``head`` (:func:`~dominolog.analysis.cache.kept_review`)
    and whether it is of the whole match (not ``--hand``/``--last``/``--from-seq``). A kept review that
    cannot be read is :class:`ReviewError`."""
    doc = kept_review(store, match_id, head)
    if doc is None:
        return None, False
    whole = any(is_whole(settings) for settings, _ in store.analyses_of(match_id, head, VERSION))
    return parse_review(doc, f"the analysis the store keeps for {shown(match_id, 100)!r}"), whole


def review_of_file(path: Path | str, log: MatchLog) -> ShownReview:
    """The review in the file ``path``, checked to be of the match ``log`` as it stands, or
    :class:`ReviewError` saying why not (the file, its JSON, its shape, another match or head)."""
    review = read_review(path)
    check_review(review, id_of(log), head_of(log), shown(path))
    return review


def is_of(review: ShownReview, log: MatchLog) -> bool:
    """Whether ``review`` is of the match ``log`` as it stands."""
    try:
        check_review(review, id_of(log), head_of(log))
    except ReviewError:
        return False
    return True


def analysis_for(
    log: MatchLog, file: Path | str | None = None, db: Path | str | None = None, match_id: str | None = None
) -> tuple[ShownReview | None, str | None]:
    """The analysis to show beside the match ``log``: the review in ``file`` (checked to be of this
    match: :class:`ReviewError` if not), else the one the store ``db`` keeps for its match ``match_id``
    at the head it has now (None if none). The second value is a warning to print: a kept review
    that cannot be read, or a store that cannot be opened, leaves the match shown without one."""
    if file is not None:
        return review_of_file(file, log), None
    if db is None or match_id is None:
        return None, None
    from dominolog.store import StoreError, open_store

    try:
        store = open_store(db, create=False, write=False)
    except StoreError as exc:
        return None, f"{shown(exc, 400)}: shown without it"
    with store:
        try:
            review, _ = kept_shown(store, match_id, head_of(log))
        except (ReviewError, StoreError) as exc:
            return None, f"{shown(exc, 400)}: shown without it"
        except store.db_errors as exc:
            return None, f"{shown(store.path)}: its analyses cannot be read ({shown(exc, 200)}): shown without it"
    return review, None
