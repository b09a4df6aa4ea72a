"""``dominolog show --at N`` of a hand recorded with hidden tiles: each player's tiles as the whole log
shows them after the event (held for sure, then how many more among how many possible), from the same
audit as the viewer and ``dominolog audit``; a full-information hand is shown as before."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from dominolog.audit.engine import audit_match
from dominolog.cli import app as cli_app
from dominolog.log.reader import iter_matches
from dominolog.reducer import reduce_match
from dominolog.render import knowledge_lines, knowledge_words, render_state
from dominolog.tiles import Tile
from tests.conftest import ROOT

REPLAYS = ROOT / "replays"
BRETT = REPLAYS / "brettspielnetz-disputed.jsonl"
HEADING = "  what the whole log shows of the hands after seq"
runner = CliRunner()


def show(path: Path, at: int) -> list[str]:
    result = runner.invoke(cli_app, ["show", str(path), "--at", str(at)], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    return result.output.split("\n")


def test_show_a_possible_renege_with_what_the_log_shows() -> None:
    """Ben passes at seq 77 of a hidden hand: what was recorded (unknown tiles), then the knowledge."""
    lines = show(BRETT, 77)
    k = lines.index("  Ben (6): 6 unknown tiles")
    assert lines[k - 1] == "  Ana (1): 1 unknown tile  <- on move"
    assert lines[k + 3 : k + 6] == [
        f"{HEADING} 77:",
        "    Ana (1): 1 of 2 possible: 1-2 2-3",
        "    Ben (6): 5-5 5-6 + 4 of 5 possible: 1-1 2-2 2-6 3-3 3-6",
    ]


def test_show_a_proven_renege_where_every_tile_is_known() -> None:
    lines = show(BRETT, 120)
    k = lines.index(f"{HEADING} 120:")
    assert lines[k + 1 : k + 3] == ["    Ana (4): 1-4 2-4 3-3 4-4", "    Ben (4): 1-2 1-5 4-5 5-5"]


def test_show_the_ghost13_tabletop_recording() -> None:
    lines = show(REPLAYS / "ghost13-tabletop-hidden.jsonl", 21)
    k = lines.index(f"{HEADING} 21:")
    assert lines[k + 1 : k + 3] == ["    Ana (6): 1-2 2-3 2-5 3-6 4-5 5-5", "    Ben (6): 1-3 2-2 2-4 3-3 3-5 5-6"]


def test_show_a_full_information_hand_has_no_knowledge_lines() -> None:
    lines = show(REPLAYS / "ghost13-disputed.jsonl", 24)
    assert not any(line.startswith(HEADING) for line in lines)
    k = lines.index("  Ana (10): 1-5 2-2 2-4 2-5 3-3 3-4 3-5 4-4 5-5 6-6")
    assert lines[k + 1 : k + 3] == ["  Ben (9): 0-0 0-2 0-3 0-4 0-5 1-1 1-2 1-3 1-4  <- on move", ""]


def test_render_state_takes_the_audit_made_once() -> None:
    log = next(iter(iter_matches(BRETT)))
    audit = audit_match(log)
    text = render_state(reduce_match(log, 77), log, 77, 1, 1, 98, audit)
    assert "    Ben (6): 5-5 5-6 + 4 of 5 possible: 1-1 2-2 2-6 3-3 3-6" in text.split("\n")
    state = reduce_match(log, 77).state
    assert state is not None and state.hand is not None
    assert knowledge_lines(audit, state.hand, 77, 98)[1:] == [
        "    Ana (1): 1 of 2 possible: 1-2 2-3",
        "    Ben (6): 5-5 5-6 + 4 of 5 possible: 1-1 2-2 2-6 3-3 3-6",
    ]


def test_knowledge_words() -> None:
    a, b, c = Tile(0, 0), Tile(3, 6), Tile(1, 1)
    assert knowledge_words([b, a], [c], 3) == "0-0 3-6 + 1 of 1 possible"
    assert knowledge_words([], [a, b, c], 2, listed=True) == "2 of 3 possible: 0-0 1-1 3-6"
    assert knowledge_words([a], [], 1) == "0-0"
    assert knowledge_words([], [], 0) == "(no tiles)"
