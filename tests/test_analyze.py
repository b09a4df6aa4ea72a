"""``dominolog analyze``: every decision of a Ghost 13 hand ranked by the exact solver.

Solving a hand from its opening takes seconds, so the tests review positions late in a hand
(``from_seq`` / ``--from-seq``: the earlier moves are replayed, not solved)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dominolog.analysis.cache import VERSION
from dominolog.analysis.ghost13 import Move, Solver, position_from, solve, values
from dominolog.analysis.review import NOT_SOLVED, plan_match, review_match
from dominolog.log.reader import MatchLog, iter_matches
from dominolog.reducer import MatchReducer
from dominolog.simulate import simulate_match
from dominolog.state import HandState, MatchState
from tests.conftest import ROOT, Ran
from tests.helpers import to_bytes

Cli = Callable[..., Ran]
SIMULATED = ROOT / "replays" / "ghost13-simulated.jsonl"
#: hand 3 of the simulated match, from seq 60 (16 decisions, solved in well under a second)
HAND, FROM = 3, 60


def _log(path: Path = SIMULATED) -> MatchLog:
    return next(iter(iter_matches(path)))


def _events_log(events: list[dict[str, Any]], tmp_path: Path) -> MatchLog:
    path = tmp_path / "m.jsonl"
    path.write_bytes(to_bytes(events))
    return _log(path)


def test_each_decision_is_the_solvers_value_at_that_position() -> None:
    log = _log()
    review = review_match(log, hand=HAND, from_seq=FROM)
    [hand] = review.hands
    assert hand.note is None and len(hand.decisions) == 16
    by_seq = {d.seq: d for d in hand.decisions}
    reducer = MatchReducer(log.source, log.line)
    solver = Solver()
    checked = 0
    for rec in log.records:
        state = reducer.state
        if rec.seq in by_seq:
            assert state is not None and state.hand is not None
            d = by_seq[rec.seq]
            pos = position_from(state, state.hand)  # the reducer's own position, not the review's replay
            assert d.best == solve(pos, solver).value
            assert d.options == [(str(m), v) for m, v in values(pos, solver)]
            assert (d.played, d.value) in d.options
            assert d.loss == d.best - d.value >= 0
            assert (d.rank == 1) == (d.loss == 0)
            assert d.rank == 1 + sum(v > d.value for _, v in d.options)
            checked += 1
        reducer.feed(rec)
    assert checked == 16
    first = by_seq[60]
    assert (first.player, first.played, first.rank, first.count, first.loss) == ("Ana", "1-3 right", 4, 4, 52)
    assert (first.best_move, first.best) == ("3-3 right", 2)
    ana, ben = review.summary
    assert (ana.name, ana.decisions, ana.choices, ana.total_loss) == ("Ana", 8, 4, 66)
    assert (ben.name, ben.decisions, ben.choices, ben.total_loss) == ("Ben", 8, 5, 52)
    assert ana.match_rate == 50.0 and ana.accuracy == 50.0
    assert [d.seq for d in ben.mistakes] == [61, 63, 69]


#: the solver takes over once this many tiles are on the table (the rest is solved in a moment)
LATE = 17


def _best_late(match: MatchState, hand: HandState, player: str, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    if len(hand.placements) < LATE:
        return None
    best = solve(position_from(match, hand)).best
    assert isinstance(best, Move)
    return best.event(player)


def test_a_match_played_by_the_solver_loses_nothing(tmp_path: Path) -> None:
    log = _events_log(simulate_match("ghost13", 5, policy=_best_late), tmp_path)
    plans = plan_match(log).hands
    assert len(plans) >= 2
    total = 0
    for plan in plans:
        plays = [m for m in plan.moves if not m[2].is_pass]
        start = plays[LATE][0]  # the first play the solver chose
        review = review_match(log, hand=plan.number, from_seq=start)
        [hand] = review.hands
        assert hand.note is None and hand.decisions
        assert all(d.loss == 0 and d.rank == 1 for d in hand.decisions)
        assert [p.total_loss for p in review.summary] == [0, 0]
        total += len(hand.decisions)
    assert total >= 10


def test_jobs_2_gives_the_same_json(cli: Cli) -> None:
    args = ("analyze", SIMULATED, "--last", "8", "--format", "json")
    one, two = cli(*args, "--jobs", "1"), cli(*args, "--jobs", "2")
    assert one.code == two.code == 0, (one.err, two.err)
    assert one.stdout == two.stdout
    doc = json.loads(one.out)
    assert [h["number"] for h in doc["hands"]] == [1, 2, 3, 4, 5, 6]
    assert [len(h["decisions"]) for h in doc["hands"]] == [8] * 6


def test_console_script_text_and_html(cli: Cli, tmp_path: Path) -> None:
    done = cli("analyze", SIMULATED, "--hand", HAND, "--from-seq", FROM)
    assert done.code == 0, done.err
    assert "! seq 60   Ana  played 1-3 right   #4 of 4   lost 52  (best 3-3 right +2)" in done.out
    assert "  seq 62   Ana  played 0-1 right   #1 of 4   lost 0   (best 0-1 left -26)" in done.out
    assert "Ana  4 choices of 8 decisions, lost 66 (avg 16.50), best move 50.0%, accuracy 50.0" in done.out
    page = tmp_path / "work" / "x.html"
    done = cli("analyze", SIMULATED, "--hand", HAND, "--from-seq", FROM, "--format", "html", "--out", "x.html")
    assert done.code == 0, done.err
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "src=" not in html and 'href="http' not in html
    assert html.count('<tr class="red">') == 5 and html.count('<tr class="amber">') == 0
    assert "<td class='num'>60</td><td>Ana</td><td>1-3 right</td>" in html


def test_the_other_variants_are_analysed_by_sampling(cli: Cli) -> None:
    """39 and the others have hidden tiles: sampled (tests/test_analysis_sampling.py), never "not analysed"."""
    done = cli("analyze", ROOT / "replays" / "39-simulated.jsonl", "--hand", 1, "--last", 3, "--samples", 2)
    assert done.code == 0, done.err
    assert done.out.startswith("sim-39-7-1 (39)\nSampled: 2 deals a decision (seed 0)\n")
    assert NOT_SOLVED not in done.out and "Per player" in done.out


def test_hidden_deal_made_known_by_the_reveals() -> None:
    log = _log(ROOT / "replays" / "ghost13-tabletop-hidden.jsonl")
    review = review_match(log, hand=5, from_seq=140)
    [hand] = review.hands
    assert hand.hidden and hand.note is None and [d.seq for d in hand.decisions][:1] == [140]


def test_hostile_names_are_escaped(cli: Cli, tmp_path: Path) -> None:
    names = ["<b>x</b>", "[bold]y[/bold]"]
    events = simulate_match("ghost13", 3, players=names)
    path = tmp_path / "work" / "hostile.jsonl"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(to_bytes(events))
    text = cli("analyze", path, "--hand", 1, "--last", 6)
    assert text.code == 0, text.err
    assert "<b>x</b>" in text.out and "[bold]y[/bold]" in text.out  # plain text: shown as written
    done = cli("analyze", path, "--hand", 1, "--last", 6, "--format", "html", "--out", "h.html")
    assert done.code == 0, done.err
    html = (tmp_path / "work" / "h.html").read_text(encoding="utf-8")
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html and "[bold]y[/bold]" in html


def test_several_files_and_every_match_of_a_file(cli: Cli, tmp_path: Path) -> None:
    """`dominolog analyze replays/ghost13-*.jsonl`: every match of every file given, in order; JSON
    then holds a list of reviews, HTML one page per match into a folder."""
    hidden = ROOT / "replays" / "ghost13-tabletop-hidden.jsonl"
    args = ("analyze", SIMULATED, hidden, "--last", "2")
    done = cli(*args, "--format", "json")
    assert done.code == 0, done.err
    reviews = json.loads(done.out)["reviews"]
    assert [r["match_id"] for r in reviews] == ["sim-ghost13-7-1", "club-2026-11-20-table-3"]
    assert all(r["method"] == "exact" and len(r["head"]) == 64 for r in reviews)
    alone = json.loads(cli("analyze", hidden, "--last", "2", "--format", "json").out)
    assert alone == reviews[1]
    text = cli(*args)
    assert text.code == 0 and text.out.index("sim-ghost13-7-1 (ghost13)") < text.out.index("club-2026-11-20-table-3")
    refused = cli(*args, "--format", "html")
    assert refused.code == 2 and "give --out FOLDER" in refused.err
    pages = cli(*args, "--format", "html", "--out", "pages")
    assert pages.code == 0, pages.err
    assert sorted(p.name for p in (tmp_path / "work" / "pages").iterdir()) == [
        "club-2026-11-20-table-3.analysis.html",
        "sim-ghost13-7-1.analysis.html",
    ]


def test_db_keeps_the_analysis_and_does_not_recompute_it(cli: Cli, tmp_path: Path) -> None:
    """`analyze --db` keeps each review in the store under the match's head, the analysis version and
    the settings; asked again it reads it back (a value changed in the store shows: nothing was
    recomputed); another setting, or an event appended (a new head), is analysed anew."""
    import sqlite3

    db = tmp_path / "s.db"
    assert cli("import", SIMULATED, "--db", db).code == 0
    mid = "sim-ghost13-7-1"
    first = cli("analyze", mid, "--db", db, "--last", "3", "--format", "json")
    assert first.code == 0, first.err
    again = cli("analyze", mid, "--db", db, "--last", "3", "--format", "json")
    assert again.stdout == first.stdout
    text_fresh = cli("analyze", SIMULATED, "--last", "3").out
    assert cli("analyze", mid, "--db", db, "--last", "3").out == text_fresh  # from the store, rendered the same
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT match_id, version, settings FROM analyses").fetchall()
        assert rows == [(mid, VERSION, '{"last":3}')]
        doc = json.loads(conn.execute("SELECT review FROM analyses").fetchone()[0])
        doc["hands"][0]["decisions"][0]["loss"] = 999
        doc["note"] = None
        doc["players"] = ["Ana", "Ben"]
        doc["source"] = "kept"
        conn.execute("UPDATE analyses SET review = ?", (json.dumps(doc),))
    kept = json.loads(cli("analyze", mid, "--db", db, "--last", "3", "--format", "json").out)
    assert kept["source"] == "kept"  # read back, not recomputed
    other = json.loads(cli("analyze", mid, "--db", db, "--last", "2", "--format", "json").out)
    assert other["source"] != "kept" and [len(h["decisions"]) for h in other["hands"]] == [2] * 6
    every = cli("analyze", "--all", "--db", db, "--last", "2", "--format", "json")
    assert every.code == 0 and json.loads(every.out) == other
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM analyses").fetchone() == (2,)
    assert cli("analyze", "--all", "--last", "2").code == 2
    missing = cli("analyze", "nope", "--db", db)
    assert missing.code == 1 and "no match 'nope'" in missing.err
