"""An analysis shown where people look at a match (issue 15): the replay viewer (the points each decision
lost in the event list, the options of the decision shown in a panel, m/M to the mistakes), the replay
command's ``--analysis`` and the store's kept analysis, and the checks that refuse a review of another
match, of the match as it stood earlier, or a file that is not a review.

The reviews are made here, in this process, with :func:`dominolog.analysis.review.review_match` (each
hand's last decisions only, or few sampled deals: fast), and every expected figure is read from the
review's own dict."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pexpect
import pytest
from rich.text import Text
from typer.testing import CliRunner

from dominolog.analysis.cache import VERSION, settings_of
from dominolog.analysis.luck import review_document
from dominolog.analysis.review import review_match
from dominolog.analysis.shown import (
    ReviewError,
    check_review,
    head_of,
    id_of,
    loss_word,
    parse_review,
    read_review,
)
from dominolog.cli import app as cli_app
from dominolog.log.reader import MatchLog, iter_matches
from dominolog.store import open_store
from dominolog.tui.app import ReplayApp
from dominolog.tui.widgets import AnalysisPanel, EventList, StatusBar
from dominolog.tui.widgets.analysis import BEST, PLAYED
from dominolog.tui.widgets.events import MISTAKE, EventRows
from tests.conftest import ROOT, Ran, clean_env, console_script

REPLAYS = ROOT / "replays"
HIDDEN = REPLAYS / "ghost13-tabletop-hidden.jsonl"
BRETT = REPLAYS / "brettspielnetz-tabletop-hidden.jsonl"
MATCH_ID = "club-2026-11-20-table-3"
SIZE = (100, 40)
#: each hand's last decisions: enough to show, fast to solve
LAST = 4
runner = CliRunner()
Cli = Callable[..., Ran]


def _log(path: Path) -> MatchLog:
    return next(iter(iter_matches(path)))


@pytest.fixture(scope="module")
def ghost() -> tuple[MatchLog, dict[str, Any]]:
    """The tabletop Ghost 13 match and its review (each hand's last 4 decisions, exact)."""
    log = _log(HIDDEN)
    return log, review_document(review_match(log, last=LAST))


@pytest.fixture(scope="module")
def review_file(ghost: tuple[MatchLog, dict[str, Any]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The review as ``analyze --format json`` writes it."""
    path = tmp_path_factory.mktemp("review") / "review.json"
    path.write_text(json.dumps(ghost[1], ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


def decision(doc: dict[str, Any], seq: int) -> dict[str, Any]:
    return next(d for h in doc["hands"] for d in h["decisions"] if d["seq"] == seq)


def plain(widget: Any) -> str:
    content = widget.content
    return content.plain if isinstance(content, Text) else str(content)


def styled(text: Text, style: str) -> list[str]:
    return [text.plain[s.start : s.end] for s in text.spans if str(s.style) == style]


def drive(app: ReplayApp, body: Callable[[Any], Awaitable[None]], size: tuple[int, int] = SIZE) -> None:
    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(run())


def _signed(v: int | float) -> str:
    return f"{v:+d}" if isinstance(v, int) else f"{v:+.2f}"


# -- the viewer --------------------------------------------------------------------------------------


def test_the_event_list_shows_the_points_each_decision_lost(ghost: tuple[MatchLog, dict[str, Any]]) -> None:
    log, doc = ghost
    mistake, best, even = decision(doc, 29), decision(doc, 30), decision(doc, 31)
    assert (mistake["player"], mistake["loss"]) == ("Ben", 16) and mistake["loss"] > 0
    assert best["loss"] == 0 and best["best"] != best["worst"]
    assert even["best"] == even["worst"]  # one option: nothing at stake
    app = ReplayApp(log, analysis=parse_review(doc), start_seq=29)

    async def body(pilot: Any) -> None:
        screen = app.replay
        rows = screen.query_one(EventRows)
        header = plain(screen.query_one(EventList).header).split()
        assert header == ["seq", "who", "event", "pts", "lost"]
        row = rows.texts[rows.cursor]
        assert row.plain.split()[:6] == ["29", "Ben", "play", "3-5", "left", f"-{mistake['loss']}"]
        assert styled(row, MISTAKE) == [f"-{mistake['loss']}"]
        index = screen.timeline.index_of
        assert rows.texts[index(30)].plain.split()[-1] == "best"
        assert rows.texts[index(31)].plain.split()[-1] == "="
        assert rows.texts[index(33)].plain.split() == ["33", "Ben", "reveal", "3-3"]  # no decision there
        # every analysed decision's row says what it lost, none other
        for h in doc["hands"]:
            for d in h["decisions"]:
                cell = rows.texts[index(d["seq"])].plain.split()[-1]
                assert cell == (f"-{d['loss']}" if d["loss"] else "best" if d["best"] != d["worst"] else "=")

    drive(app, body)


def test_the_panel_lists_every_option_with_its_value_the_best_and_the_move_played(
    ghost: tuple[MatchLog, dict[str, Any]],
) -> None:
    log, doc = ghost
    d = decision(doc, 29)
    app = ReplayApp(log, analysis=parse_review(doc), start_seq=29)

    async def body(pilot: Any) -> None:
        panel = app.replay.query_one(AnalysisPanel)
        assert panel.display and panel.border_title == "analysis" and panel.border_subtitle == "exact values"
        lines = plain(panel).split("\n")
        assert lines[0] == (
            f"Ben: 3-5 left {d['value']:+d} · #{d['rank']} of {len(d['options'])} · lost {d['loss']} "
            f"(best {d['best_move']} {d['best']:+d})"
        )
        assert lines[0] == "Ben: 3-5 left -6 · #3 of 3 · lost 16 (best 2-4 right +10)"
        # every option in its order, with its value, the one played marked; the lines' spacing aside
        assert " ".join(" ".join(lines[1:-1]).split()) == " ".join(
            f"{PLAYED if o['move'] == d['played'] else ''}{o['move']} {o['value']:+d}" for o in d["options"]
        )
        assert " ".join(" ".join(lines[1:-1]).split()) == f"2-4 right +10 3-3 left +10 {PLAYED}3-5 left -6"
        best = [o for o in d["options"] if o["value"] == d["best"]]
        assert [s.split() for s in styled(panel.content, BEST)[: len(best)]] == [
            [*o["move"].split(), f"{o['value']:+d}"] for o in best
        ]
        assert f"{PLAYED}3-5 left" in lines[1]  # the move played
        assert lines[-1] == f"{PLAYED} played  green: best"

    drive(app, body, size=(130, 40))
    narrow = ReplayApp(log, analysis=parse_review(doc), start_seq=29)

    async def short(pilot: Any) -> None:  # 100 columns: the best move is left to the green options
        line = plain(narrow.replay.query_one(AnalysisPanel)).split("\n")[0]
        assert line == "Ben: 3-5 left -6 · #3 of 3 · lost 16"

    drive(narrow, short)


def test_at_an_event_without_a_decision_the_panel_shows_each_players_figures(
    ghost: tuple[MatchLog, dict[str, Any]],
) -> None:
    log, doc = ghost
    app = ReplayApp(log, analysis=parse_review(doc), start_seq=33)

    async def body(pilot: Any) -> None:
        lines = plain(app.replay.query_one(AnalysisPanel)).split("\n")
        assert lines[0] == "no decision analysed at this event"
        # the play rating, luck and luck-adjusted result are added (issue 38): short headings in this panel
        assert lines[1].split() == ["lost", "choices", "best", "acc.", "rating", "luck", "adj."]
        ls = doc["luck_and_skill"]
        rating = {s["name"]: s["play_rating"] for s in ls["skill"]}
        for line, p in zip(lines[2:], doc["summary"], strict=True):
            assert line.split() == [
                p["name"],
                f"{p['average_loss']:.2f}",
                str(p["choices"]),
                f"{p['match_rate']:.1f}%",
                f"{p['accuracy']:.1f}",
                f"{rating[p['name']]:.0f}",
                f"{ls['luck'][p['name']]:+.0f}",
                f"{ls['adjusted'][p['name']]:+.0f}",
            ]

    drive(app, body)


def test_m_and_shift_m_go_to_the_next_and_previous_mistake(ghost: tuple[MatchLog, dict[str, Any]]) -> None:
    log, doc = ghost
    mistakes = sorted(d["seq"] for h in doc["hands"] for d in h["decisions"] if d["loss"] > 0)
    assert mistakes == [29, 62, 142, 143]
    app = ReplayApp(log, analysis=parse_review(doc))

    async def body(pilot: Any) -> None:
        screen = app.replay
        for seq in mistakes:
            await pilot.press("m")
            assert screen.seq == seq
        await pilot.press("m")  # none after the last: stays
        assert screen.seq == mistakes[-1]
        await pilot.press("M", "M")
        assert screen.seq == mistakes[1]
        assert "lost" in plain(screen.query_one(AnalysisPanel)).split("\n")[0]

    drive(app, body)


def test_without_an_analysis_the_viewer_is_as_it_was(ghost: tuple[MatchLog, dict[str, Any]]) -> None:
    log, _ = ghost
    app = ReplayApp(log, start_seq=29)

    async def body(pilot: Any) -> None:
        screen = app.replay
        assert not screen.query_one(AnalysisPanel).display
        assert plain(screen.query_one(EventList).header).split() == ["seq", "who", "event", "pts"]
        rows = screen.query_one(EventRows)
        assert rows.texts[rows.cursor].plain.split() == ["29", "Ben", "play", "3-5", "left"]
        await pilot.press("m")
        assert screen.seq == 29  # no analysis: m says so and stays
        assert "seq 29/151" in plain(screen.query_one(StatusBar))

    drive(app, body)


def test_a_sampled_review_shows_its_spreads_and_deals() -> None:
    log = _log(BRETT)
    doc = review_document(review_match(log, last=2, samples=4))
    d = next(d for h in doc["hands"] for d in h["decisions"] if d["loss"] > 0 and d.get("spread") is not None)
    app = ReplayApp(log, analysis=parse_review(doc), start_seq=d["seq"])

    async def body(pilot: Any) -> None:
        panel = app.replay.query_one(AnalysisPanel)
        assert panel.border_subtitle == "sampled: 4 deals a decision, seed 0"
        lines = plain(panel).split("\n")
        # at 100 columns the headline takes two lines: the move, then its rank and loss
        assert (
            lines[0]
            == f"{d['player']}: {d['played']} {_signed(d['value'])} ±{d['spread']:.2f} ({d['samples']} samples)"
        )
        assert lines[1].startswith(f"  #{d['rank']} of {len(d['options'])} · lost {d['loss']:.2f}")
        shown_cells = " ".join(lines[2:-1])
        for o in d["options"]:
            assert f"{o['move']} {_signed(o['value'])} ±{o['spread']:.2f}" in " ".join(shown_cells.split())
        rows = app.replay.query_one(EventRows)
        assert rows.texts[rows.cursor].plain.split()[-1] == loss_word(parse_review(doc).at(d["seq"]))

    drive(app, body)


def test_a_sampled_reviews_figures_give_the_luck_with_its_margin() -> None:
    """The hidden games' luck is sampled (issue 38): the viewer's figures write each player's luck and
    luck-adjusted result with its 95% margin, as the review's luck_and_skill gives them."""
    from dominolog.tui.widgets.analysis import figures

    log = _log(BRETT)
    doc = review_document(review_match(log, hand=1, samples=4))
    ls = doc["luck_and_skill"]
    assert ls["method"] == "sampled" and ls["hands"] and set(ls["margin"]) == set(doc["players"])
    lines = [t.plain for t in figures(parse_review(doc), 60)]
    assert lines[0].split()[-2:] == ["luck", "adj."]
    for line in lines[1:]:
        name, *cells = line.split()
        pm = f"±{ls['margin'][name]:.0f}"
        assert cells[-2:] == [f"{ls['luck'][name]:+.0f}{pm}", f"{ls['adjusted'][name]:+.0f}{pm}"]


# -- reading and checking a review ----------------------------------------------------------------------


def test_a_review_is_checked_against_the_match(ghost: tuple[MatchLog, dict[str, Any]], tmp_path: Path) -> None:
    log, doc = ghost
    review = parse_review(doc)
    assert (id_of(log), review.match_id) == (MATCH_ID, MATCH_ID)
    check_review(review, id_of(log), head_of(log))  # no head recorded: the id is enough
    check_review(parse_review({**doc, "head": head_of(log)}), id_of(log), head_of(log))
    with pytest.raises(ReviewError, match=r"^r\.json: an analysis of match 'x', not of this match \('club-"):
        check_review(parse_review({**doc, "match_id": "x"}), id_of(log), head_of(log), "r.json")
    with pytest.raises(ReviewError, match=r"as it stood at 0000000000; it is now at [0-9a-f]{10}: analyse it again$"):
        check_review(parse_review({**doc, "head": "0" * 64}), id_of(log), head_of(log))
    bad = [
        ([], "not a JSON object"),
        ({"match_id": "x"}, "no match_id and hands (it is not what dominolog analyze --format json writes)"),
        ({"match_id": "x", "hands": {}}, "hands is not a list"),
        (
            {"match_id": "x", "hands": [{"number": 1, "decisions": [{"seq": 4}]}]},
            "the decision at seq 4 has no options",
        ),
        ({**doc, "summary": [{"name": "Ana"}]}, "the summary of 'Ana' has no decisions"),
    ]
    for value, reason in bad:
        with pytest.raises(ReviewError) as found:
            parse_review(value, "r.json")
        assert str(found.value) == f"r.json: not an analysis: {reason}"
    broken = tmp_path / "broken.json"
    broken.write_text('{"match_id": ', encoding="utf-8")
    with pytest.raises(ReviewError, match=r"broken\.json: not JSON \(line 1: Expecting value\)"):
        read_review(broken)
    with pytest.raises(ReviewError, match=r"nope\.json: no such file$"):
        read_review(tmp_path / "nope.json")


# -- the replay command ---------------------------------------------------------------------------------


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[ReplayApp]:
    """``ReplayApp.run`` replaced: the apps the command would have run."""
    apps: list[ReplayApp] = []
    monkeypatch.setattr(ReplayApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


def test_replay_with_analysis_from_a_file(review_file: Path, launched: list[ReplayApp]) -> None:
    done = runner.invoke(cli_app, ["replay", str(HIDDEN), "--analysis", str(review_file), "--at", "29"])
    assert done.exit_code == 0, done.output
    (app,) = launched
    assert app.analysis is not None and app.analysis.match_id == MATCH_ID
    assert [d.loss for d in app.analysis.at(29)] == [16]


def _write(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_replay_refuses_an_analysis_of_another_match_or_no_analysis(
    ghost: tuple[MatchLog, dict[str, Any]], tmp_path: Path, launched: list[ReplayApp]
) -> None:
    log, doc = ghost
    cases = [
        (_write(tmp_path / "other.json", {**doc, "match_id": "club-2026-09-03-table-1"}),
         "other.json: an analysis of match 'club-2026-09-03-table-1', not of this match "
         "('club-2026-11-20-table-3')"),
        (_write(tmp_path / "old.json", {**doc, "head": "ab" * 32}),
         f"old.json: an analysis of match 'club-2026-11-20-table-3' as it stood at ababababab; it is now at "
         f"{head_of(log)[:10]}: analyse it again"),
        (_write(tmp_path / "list.json", [1, 2]), "list.json: not an analysis: not a JSON object"),
        (_write(tmp_path / "audit.json", {"schema": "dominolog-audit/1", "hands": []}),
         "audit.json: not an analysis: no match_id and hands (it is not what dominolog analyze --format json writes)"),
        (tmp_path / "missing.json", "missing.json: no such file"),
    ]  # fmt: skip
    for path, message in cases:
        done = runner.invoke(cli_app, ["replay", str(HIDDEN), "--analysis", str(path)])
        assert done.exit_code == 1, (path, done.output)
        assert done.stderr == f"dominolog: {tmp_path / message}\n"
        assert done.exception is None or isinstance(done.exception, SystemExit)
    assert launched == []
    follow = runner.invoke(cli_app, ["replay", str(HIDDEN), "--follow", "--analysis", str(cases[0][0])])
    assert follow.exit_code == 2 and "--analysis and --follow" in follow.stderr


def test_replay_from_the_store_shows_the_kept_analysis(
    ghost: tuple[MatchLog, dict[str, Any]], tmp_path: Path, launched: list[ReplayApp]
) -> None:
    log, doc = ghost
    db = tmp_path / "club.db"
    with open_store(db) as store:
        list(store.import_matches([log]))
        (row,) = store.list_matches()
    done = runner.invoke(cli_app, ["replay", "--db", str(db), MATCH_ID])
    assert done.exit_code == 0, done.output
    assert launched[-1].analysis is None  # nothing kept yet
    with open_store(db, create=False) as store:
        store.save_analysis(MATCH_ID, row["head"], VERSION, settings_of(last=LAST), doc)
    done = runner.invoke(cli_app, ["replay", "--db", str(db), MATCH_ID])
    assert done.exit_code == 0, done.output
    kept = launched[-1].analysis
    assert kept is not None and [d.seq for d in kept.decisions] == [
        d["seq"] for h in doc["hands"] for d in h["decisions"]
    ]
    # the match list (ctrl+o) gives each match its own kept analysis
    assert launched[-1].analyses is not None and launched[-1].analyses(MATCH_ID, log) is not None
    # a kept review that cannot be read: said, and the match is shown without it
    with open_store(db, create=False) as store:
        store.save_analysis(MATCH_ID, row["head"], VERSION, settings_of(last=LAST), {"match_id": MATCH_ID, "hands": 3})
    done = runner.invoke(cli_app, ["replay", "--db", str(db), MATCH_ID])
    assert done.exit_code == 0 and launched[-1].analysis is None
    assert done.stderr == (
        f"dominolog: the analysis the store keeps for '{MATCH_ID}': not an analysis: hands is not a list: "
        "shown without it\n"
    )


# -- in a real terminal (the installed console script) ------------------------------------------------------


def test_replay_with_analysis_in_a_real_terminal(review_file: Path, ghost: tuple[MatchLog, dict[str, Any]]) -> None:
    d = decision(ghost[1], 29)
    env = clean_env(TERM="xterm-256color", COLUMNS="100", LINES="32")
    child = pexpect.spawn(
        console_script(),
        ["replay", str(HIDDEN), "--analysis", str(review_file), "--at", "29"],
        cwd=str(review_file.parent),
        env=env,
        dimensions=(32, 100),
        timeout=30,
        encoding="utf-8",
    )
    try:
        child.expect(f"lost {d['loss']}")  # the panel, on the decision shown
        child.expect("quit")
        child.send("m")  # the next mistake
        child.expect(f"lost {decision(ghost[1], 62)['loss']}")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert "Traceback" not in (child.before or "")
    assert child.exitstatus == 0, child.before


def test_replay_console_script_refuses_another_matchs_analysis(
    cli: Cli, ghost: tuple[MatchLog, dict[str, Any]], tmp_path: Path
) -> None:
    other = _write(tmp_path / "other.json", {**ghost[1], "match_id": "another"})
    done = cli("replay", HIDDEN, "--analysis", other)
    assert (done.code, done.out) == (1, "")
    assert done.err == (
        f"dominolog: {other}: an analysis of match 'another', not of this match ('club-2026-11-20-table-3')\n"
    )


def test_names_and_moves_from_a_review_are_shown_as_written(ghost: tuple[MatchLog, dict[str, Any]]) -> None:
    """A review is a file anyone can write: Rich markup (an action too) and a terminal escape in a player's
    name or a move are shown as written, never interpreted."""
    log, doc = ghost
    hostile = "[bold]Eve[/] [@click=app.quit]q[/] \x1b[2J"
    doc = json.loads(json.dumps(doc))
    d = decision(doc, 29)
    d["player"] = hostile
    for o in d["options"]:
        if o["move"] == d["played"]:
            o["move"] = hostile
    d["played"] = hostile
    doc["summary"][0]["name"] = hostile
    app = ReplayApp(log, analysis=parse_review(doc), start_seq=29)

    async def body(pilot: Any) -> None:
        panel = app.replay.query_one(AnalysisPanel)
        text = plain(panel)
        assert "\x1b" not in text
        assert text.startswith("[bold]Eve[/] [@click=app.quit]q[/] \\x1b[2J: [bold]Eve[/]")
        assert f"{PLAYED}[bold]Eve[/] [@click=app.quit]...(39 chars)  -6" in text  # a long move is cut
        await pilot.press("n", "n", "n", "n")  # seq 33: each player's figures, the hostile name first
        first = plain(panel).split("\n")[2].split()
        assert first[:3] == ["[bold]Eve[/]", "[@c...(39", "chars)"]  # cut to 16 characters
        assert first[3] == f"{doc['summary'][0]['average_loss']:.2f}"
        await pilot.click(AnalysisPanel)
        assert app.is_running  # [@click=app.quit] did not quit it

    drive(app, body)
