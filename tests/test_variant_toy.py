"""A sixth variant is one module, its rulings and its tests (issue 37): a toy line game defined in
this file alone, registered through the registry's public API for each test and taken out after
it, is verified, shown, audited and recorded (the tile pad, the web recorder's document) by the code
as it is; no file of the package names it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

import dominolog
from dominolog.cli import app
from dominolog.events import VARIANT_NAMES, Pass, Play
from dominolog.log.writer import dump_line
from dominolog.recording.journal import FileJournal
from dominolog.recording.pad import pad, tile_places
from dominolog.recording.session import Session
from dominolog.simulate import simulate_match
from dominolog.state import HandResult, HandState, MatchState, PendingCheck
from dominolog.tiles import DOUBLE_SIX
from dominolog.variants import (
    VARIANTS,
    VariantError,
    canonical_name,
    find_variant,
    register_variant,
    unregister_variant,
)
from dominolog.variants import rulings as variant_rulings
from dominolog.variants.base import Ctx
from dominolog.variants.judges import judge_fit
from dominolog.variants.line import LineVariant, can_play_line
from dominolog.web.recorder_state import recorder_state, shown_actions

NAME = "toy-sevens"
runner = CliRunner()


class ToySevens(LineVariant):
    """Two players, seven tiles each (fourteen sleep), a line; a pass only when no tile fits; the hand
    ends at a domino or at two passes in a row; the lower pip count wins the other's pips; one hand."""

    name = NAME
    title = "Toy Sevens"
    aliases = ("toy_sevens",)
    has_boneyard = True
    end_rulings: ClassVar[dict[str, tuple[str, ...]]] = {"domino": ("C4",), "block": ("C4",)}
    #: (its renege is C3's alone: the toy has no words of its own for it)
    rulings: ClassVar[dict[str, tuple[str, ...]]] = {"place": ("C2",), "score": ("C5",)}

    def hand_size(self, n_players: int) -> int:
        return 7

    def on_play(self, match: MatchState, hand: HandState, ev: Play, ctx: Ctx) -> None:
        placement = self.place(match, hand, ev, ctx)
        if placement is not None and hand.holdings[placement.player].count == 0:
            hand.over, hand.over_seq = "domino", placement.seq

    def on_pass(self, match: MatchState, hand: HandState, ev: Pass, ctx: Ctx) -> None:
        player = ev.player
        self.check_turn(match, hand, player, ctx)
        can = can_play_line(hand, player)
        if can is True:
            ctx.violation(
                "renege",
                f"{player} passes while holding a legal play",
                variant_rulings.renege(self.name),
                (),
                (player,),
            )
        elif can is None:
            h = hand.holdings[player]
            check = PendingCheck(
                ctx.seq,
                player,
                h.count,
                frozenset(h.known),
                hand.possible(player),
                judge_fit(hand.layout.open_values()),
                f"{player} passes while holding a legal play",
            )
            ctx.unverified(
                "renege", f"{player} passes; {player}'s hand is hidden, so this cannot be checked yet", check
            )
        hand.actions.append((ctx.seq, player, "pass"))
        hand.consecutive_passes += 1
        hand.turn = match.next_player(player)
        if hand.consecutive_passes >= 2:
            hand.over, hand.over_seq = "block", ctx.seq

    def score_hand(self, match: MatchState, hand: HandState, ctx: Ctx) -> HandResult | None:
        if not hand.hands_known:
            return None
        pips = {p: sum(t.pips for t in hand.holdings[p].known) for p in self.players}
        low = min(pips.values())
        lowest = [p for p in self.players if pips[p] == low]
        points = {p: 0 for p in self.players}
        winner = lowest[0] if len(lowest) == 1 else None
        if winner is not None:
            points[winner] = sum(pips.values()) - low
        return HandResult(hand.number, hand.over or "block", winner, points, {"pips": pips})

    def after_hand(self, match: MatchState) -> None:
        match.over = True


@pytest.fixture
def toy() -> Iterator[type[ToySevens]]:
    register_variant(ToySevens)
    try:
        yield ToySevens
    finally:
        unregister_variant(NAME)


def write_log(path: Path, events: list[dict[str, Any]]) -> Path:
    path.write_text("".join(dump_line(e) + "\n" for e in events), encoding="utf-8")
    return path


def renege(state: MatchState, hand: HandState, player: str, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Ana's third turn: a pass though she holds a play (the dispute)."""
    turns = [a for a in hand.actions if a[1] == player]
    if player == "Ana" and len(turns) == 2:
        return {"type": "pass", "player": player}
    return None


def test_the_registry_finds_the_toy_and_lets_it_go(toy: type[ToySevens]) -> None:
    assert find_variant(NAME) is ToySevens
    assert canonical_name("toy_sevens") == NAME
    assert list(VARIANTS)[-1] == NAME and VARIANT_NAMES[-1] == NAME
    with pytest.raises(VariantError, match="a variant named 'toy-sevens' is registered already"):
        register_variant(ToySevens)
    unregister_variant(NAME)
    try:
        assert NAME not in VARIANTS and NAME not in VARIANT_NAMES and canonical_name("toy_sevens") is None
        with pytest.raises(VariantError, match="unknown or not yet supported variant 'toy-sevens'"):
            find_variant(NAME)
    finally:
        register_variant(ToySevens)


def test_a_match_of_an_unregistered_variant_is_refused(tmp_path: Path) -> None:
    log = write_log(tmp_path / "toy.jsonl", [{"type": "match_start", "variant": NAME, "players": ["Ana", "Ben"]}])
    r = runner.invoke(app, ["verify", str(log)])
    assert r.exit_code == 1
    assert (
        f"{log}:1: seq 1: malformed: match_start: variant: Input should be 'ghost13', 'brettspielnetz', '39', "
        "'double-bergen' or 'double-draw'\n" in r.output
    )


def run(*args: str, log: Path) -> tuple[int, str]:
    r = runner.invoke(app, [*args, str(log)])
    return r.exit_code, r.output.replace(str(log), "LOG")


def test_verify_and_show_a_match_of_the_toy(toy: type[ToySevens], tmp_path: Path) -> None:
    log = write_log(tmp_path / "toy.jsonl", simulate_match(NAME, 1))
    assert run("verify", log=log) == (
        0,
        "OK LOG:1 toy-sevens Ana vs Ben | 1 hand, totals Ana 12, Ben 0, winner Ana | complete | head 69d549f20975...\n"
        "1 matches: 1 valid, 0 invalid\n",
    )
    disputed = write_log(tmp_path / "disputed.jsonl", simulate_match(NAME, 1, policy=renege))
    assert run("verify", log=disputed) == (
        1,
        "INVALID LOG:1 toy-sevens Ana vs Ben | 1 hand, totals Ana 12, Ben 0, winner Ana | complete | "
        "head edb35225702a...\n"
        "LOG:8: seq 8: renege: Ana passes while holding a legal play\n"
        "1 matches: 0 valid, 1 invalid\n",
    )
    assert run("show", log=disputed) == (
        0,
        "LOG: match 1 of 1, line 1\nat seq 20 (line 20): match_end\ntoy-sevens: Ana vs Ben\n\nthe match is over\n\n"
        "hand 1: block, winner Ana: Ana 12, Ben 0\nscores: Ana 12, Ben 0\nmatch winner: Ana\n\n"
        "violations so far (1):\n  LOG:8: seq 8: renege: Ana passes while holding a legal play\n",
    )


def test_audit_a_match_of_the_toy(toy: type[ToySevens], tmp_path: Path) -> None:
    disputed = write_log(tmp_path / "disputed.jsonl", simulate_match(NAME, 1, policy=renege))
    code, text = run("audit", log=disputed)
    assert code == 1
    assert text.startswith("LOG: sim-toy-sevens-1-1, Toy Sevens, Ana vs Ben\nVERDICT: 1 violation\n")
    assert (
        "  VIOLATION seq 8 (line 8), renege: Ana passes while holding a legal play\n    rule C3: Play is compulsory"
        in text
    )
    code, out = run("audit", "--format", "json", log=disputed)
    doc = json.loads(out)
    assert (code, doc["variant"], doc["variant_title"], doc["verdict"]["text"]) == (
        1,
        NAME,
        "Toy Sevens",
        "1 violation",
    )
    assert [(f["seq"], f["code"], [r["id"] for r in f["rules"]]) for f in doc["hands"][0]["findings"]] == [
        (8, "renege", ["C3"])
    ]
    # the hand's end is ruled by the toy's end_rulings (its class data), the claim as the rules give it
    assert [h["scoring"] for h in doc["hands"]] == [
        [
            "Both players passed in a row (Ben at seq 17, Ana at seq 18): the hand is over (C4).",
            "The table wrote Ana 12, Ben 0, winner Ana, as the rules give Ana 12, Ben 0, winner Ana.",
        ]
    ]


def test_the_recorder_pad_and_page_record_the_toy(toy: type[ToySevens], tmp_path: Path) -> None:
    events = simulate_match(NAME, 1)
    path = write_log(tmp_path / "toy.jsonl", events[:3])  # Ben set 5-4, Ana is on move
    session = Session(FileJournal(path), now=None)
    states: dict[str, list[str]] = {}
    ana_and_table = ("0-0", "1-4", "2-3", "2-6", "3-4", "3-5", "4-5", "5-6")
    for t in pad(session):
        states.setdefault(t.state, []).append(t.tile + ("@" + ",".join(t.places) if t.places else ""))
    # Ana's hand is known: her tiles that fit are legal, the rest held; every other tile (Ben's, the
    # fourteen that sleep) is elsewhere
    assert states == {
        "table": ["4-5"],
        "legal": ["1-4@right", "3-4@right", "3-5@left", "5-6@left"],
        "held": ["0-0", "2-3", "2-6"],
        "elsewhere": [str(t) for t in DOUBLE_SIX if str(t) not in ana_and_table],
    }
    # a tile Ana cannot hold has no place, though it would fit
    assert (tile_places(session, "5-6"), tile_places(session, "4-6")) == (["left"], [])
    doc = recorder_state(session, "sim-toy-sevens-1-1")
    assert doc["actions"]["shown"] == shown_actions(toy(["Ana", "Ben"])) == ["pass", "block", "reveal", "note", "undo"]
    # no drawing (its tiles sleep), no declarations, no pair plays: the class says so
    assert (doc["actions"]["draw"], doc["actions"]["declare"], doc["actions"]["pair"]) == (None, None, False)
    dealt = (*ana_and_table, "0-1", "0-4", "1-3", "2-2", "3-3", "6-6")
    assert doc["boneyard"] == {"known": [str(t) for t in DOUBLE_SIX if str(t) not in dealt], "hidden": 0}


def test_no_file_of_the_package_names_the_toy() -> None:
    package = Path(dominolog.__file__).parent
    named = [p for p in package.rglob("*") if p.is_file() and NAME.encode() in p.read_bytes()]
    assert named == []


def test_the_findings_cite_the_rulings_each_variant_class_names(toy: type[ToySevens]) -> None:
    """The ids a finding cites are read from its variant's class (``rulings``, ``end_rulings``), by its
    name through the registry: the toy's, as it names them; every built-in class names only rulings
    that docs/rulings.md has."""
    from dominolog.audit.rules import rulings
    from dominolog.variants.rulings import MUST_DRAW, PLACE, RENEGE, TURN, ids, over

    assert ids(PLACE, NAME) == ("C2",) and ids(RENEGE, NAME) == () and variant_rulings.renege(NAME) == ("C3",)
    assert over(NAME, "block") == ("C4",)  # (C4 and the toy's own rule for a block, C4: each id once)
    assert ids(MUST_DRAW, "ghost13") == ids(TURN, "ghost13") == ("G3", "G4")  # (none of its own: the turn's)
    assert ids(PLACE, "no-such-variant") == ()
    known = set(rulings())
    for name, cls in VARIANTS.items():
        if name == NAME:
            continue
        named = {i for part in cls.rulings.values() for i in part} | {i for e in cls.end_rulings.values() for i in e}
        assert named and named <= known, (name, named - known)
