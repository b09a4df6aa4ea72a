"""Evidence of reneging (issue 38): the worlds tallied by how many of a player's passes and draws were
reneges (dominolog/knowledge/reneges.py) against brute force, the Bayes factor
(dominolog/knowledge/evidence.py) against a hand worked out by hand, and the audit's figures."""

from __future__ import annotations

import math
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from dominolog.knowledge import NEVER, HandModel, Slot
from dominolog.knowledge.evidence import HandWeights, combine, hand_bayes_factor
from dominolog.knowledge.reneges import Turn, reneges
from dominolog.tiles import Tile
from dominolog.variants.judges import judge_fit
from tests.test_likelihood import PLAYERS, chain_model, random_judge, random_model


def brute(model: HandModel, player: str, turns: list[Turn]) -> tuple[list[int], dict[int, int]]:
    """Every perfect matching (slot by slot): how many have k reneges among ``turns``, and for each
    turn how many have it as the only one."""
    tiles, slots, exit = model.tiles, model.slots, model.exit
    used = [False] * len(slots)
    where: dict[Tile, int] = {}
    by = [0] * (len(turns) + 1)
    alone = {t.seq: 0 for t in turns}

    def walk(k: int) -> None:
        if k == len(tiles):
            hits = []
            for turn in turns:
                h = frozenset(
                    t for t, i in where.items() if slots[i].owner == player and slots[i].entry < turn.seq < exit[t]
                )
                if turn.judge(h, h, len(h))[0] is True:
                    hits.append(turn.seq)
            by[len(hits)] += 1
            if len(hits) == 1:
                alone[hits[0]] += 1
            return
        t = tiles[k]
        for i in model.edges[t]:
            if not used[i]:
                used[i] = True
                where[t] = i
                walk(k + 1)
                del where[t]
                used[i] = False

    walk(0)
    return by, alone


def shares(by: list[int] | list[float]) -> list[Fraction]:
    total = sum(by)
    out = [Fraction(n) / total if isinstance(n, int) else Fraction(n) for n in by]
    while len(out) > 1 and out[-1] == 0:
        out.pop()
    return out


def some_turns(rng: random.Random, n: int) -> list[Turn]:
    seqs = sorted(rng.sample(range(2, 32), n))
    return [Turn(s, random_judge(rng)) for s in seqs]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), n_tiles=st.integers(2, 8), n_turns=st.integers(1, 4))
def test_the_counted_tally_is_that_of_every_perfect_matching_of_a_chain(seed: int, n_tiles: int, n_turns: int) -> None:
    rng = random.Random(seed)
    model = chain_model(rng, n_tiles)
    turns = some_turns(rng, n_turns)
    found = reneges(model, "Ana", turns)
    assert found is not None
    by, alone = brute(model, "Ana", turns)
    if found.exact:  # the chain (or no tile in the hand at all)
        assert shares(list(found.by_reneges)) == shares(by)  # type: ignore[arg-type]
        scale = Fraction(sum(by), sum(found.by_reneges))
        for s in alone:
            assert found.alone[s] * scale == alone[s]


def test_the_sampled_tally_comes_near_every_perfect_matching() -> None:
    """Random small hands whose facts are no chain: the sampled shares of worlds with no renege and the
    ratios the evidence uses lie within their margins in nearly every case (95% intervals)."""
    rng = random.Random(38)
    inside = checked = 0
    while checked < 60:
        model = random_model(rng, rng.randint(5, 8))
        if not model.feasible:
            continue
        player = rng.choice(PLAYERS)
        turns = some_turns(rng, rng.randint(1, 3))
        found = reneges(model, player, turns, budget=0)
        if found is None or found.exact or not found.by_reneges[0]:
            continue
        by, _ = brute(model, player, turns)
        if not by[0]:
            continue
        checked += 1
        ok = True
        for k in range(1, len(by)):
            q = by[k] / by[0]
            est = found.by_reneges[k] / found.by_reneges[0] if k < len(found.by_reneges) else 0.0
            ok &= abs(est - q) <= found.margins.get(k, 0.0) + 1e-9 or q == est
        inside += ok
    assert inside >= 0.85 * checked


def test_the_sampled_tally_is_the_same_every_run() -> None:
    rng = random.Random(5)
    model = random_model(rng, 8)
    while not model.feasible:
        model = random_model(rng, 8)
    turns = some_turns(rng, 2)
    a = reneges(model, "Ana", turns, budget=0)
    b = reneges(model, "Ana", turns, budget=0)
    assert a == b


# -- the worked example of docs/audit.md ------------------------------------------------------------
def worked_example() -> tuple[HandModel, list[Turn]]:
    """Ana was dealt two tiles (seq 1), drew unseen at seq 4 and seq 6, played 1-2 at seq 8 and
    revealed 3-4 and 5-6 at the end. The open ends showed a 1 at seq 4 and at seq 6: did she hold a
    tile with a 1 when she drew? Before the draw at 4: 1-2 was dealt. Before the draw at 6: 1-2 was
    dealt or drawn at 4."""
    t12, t34, t56 = Tile(1, 2), Tile(3, 4), Tile(5, 6)
    slots = [Slot("Ana", 1), Slot("Ana", 1), Slot("Ana", 4, 4), Slot("Ana", 6, 6)]
    exit = {t12: 8, t34: NEVER, t56: NEVER}
    t99 = Tile(0, 0)  # a fourth tile, revealed too
    exit[t99] = NEVER
    edges = {t: [i for i, s in enumerate(slots) if s.entry < exit[t]] for t in (t12, t34, t56, t99)}
    return HandModel(slots, edges, exit), [Turn(4, judge_fit((1,))), Turn(6, judge_fit((1,)))]


def test_the_worked_example_counted_by_hand() -> None:
    """Ana's four tiles fill two dealt places and the draws at 4 and 6: 12 worlds (4 x 3 ways to fill
    the draws; the deal gets the rest). 1-2 drawn at 6 (3 worlds): neither draw a renege. 1-2 drawn at
    4 (3 worlds): the draw at 6 a renege. 1-2 dealt (6 worlds): both. So by reneges 3, 3, 6; the draw
    at 6 alone: 3 worlds; at 4 alone: none. Today's shares: 6/12 for the draw at 4, 9/12 at 6; among
    the worlds where the other draw was honest: 0/3 at 4, 3/6 at 6.
    With no play of Ana's before the end (P = 0 in this example's factor): B = (3 * 1 + 3 * 1/2 +
    6 * 1/3) / 3 = 13/6; with her one play (P = 1): (3/2 + 3/6 + 6/12) / 3 = 5/6."""
    model, turns = worked_example()
    found = reneges(model, "Ana", turns)
    assert found is not None and found.exact
    assert found.by_reneges == [3, 3, 6]
    assert found.alone == {4: 0, 6: 3}
    # the perfect matchings: each world twice (the two dealt tiles in either place)
    assert brute(model, "Ana", turns) == ([6, 6, 12], {4: 0, 6: 6})
    assert hand_bayes_factor([3, 3, 6], 0) == Fraction(13, 6)
    assert hand_bayes_factor([3, 3, 6], 1) == Fraction(5, 6)
    ev = combine([HandWeights((1.0, 1.0, 2.0), 1, 2, 2, counts=(3, 3, 6))], fraction=True)
    assert ev.fraction == Fraction(5, 6)
    assert ev.log10 is not None and math.isclose(ev.log10, math.log10(5 / 6))


def test_a_hand_without_a_possible_renege_weighs_for_honesty() -> None:
    """No world has a renege: B = 1 / (P + 1), the integral of (1 - r)^P."""
    ev = combine([HandWeights((1.0,), 9, 1, 0, counts=(1,))], fraction=True)
    assert ev.fraction == Fraction(1, 10)
    two = combine([HandWeights((1.0,), 4, 0, 0, counts=(1,)), HandWeights((1.0,), 5, 0, 0, counts=(1,))], True)
    assert two.fraction == Fraction(1, 10)  # the hands share one rate: (1 - r)^4 (1 - r)^5


def test_hands_share_one_rate() -> None:
    """Two hands each with one world in two a renege (ratios 1, 1) and no play: the integral of
    (1 + r)^2 = 1 + 1 + 1/3 = 7/3, not (3/2)^2."""
    h = HandWeights((1.0, 1.0), 0, 1, 1, counts=(1, 1))
    ev = combine([h, h], fraction=True)
    assert ev.fraction == Fraction(7, 3)
    assert ev.log10 is not None and math.isclose(10**ev.log10, 7 / 3)


def test_a_proven_renege_is_proven_and_sampled_bounds_hold_the_figure() -> None:
    proven = combine([HandWeights((1.0,), 3, 1, 1, proven=True), HandWeights((1.0,), 3, 0, 0)])
    assert proven.log10 is None and proven.proven == 1
    s = HandWeights((1.0, 0.5), 2, 1, 1, exact=False, low=(1.0, 0.4), high=(1.0, 0.6))
    ev = combine([s])
    assert ev.low is not None and ev.high is not None and ev.log10 is not None
    assert ev.low < ev.log10 < ev.high


# -- the audit's figures -------------------------------------------------------------------------
def _audit_doc(name: str) -> dict:
    from dominolog.audit.document import build_audit
    from dominolog.log.reader import iter_matches
    from tests.conftest import ROOT

    (log,) = list(iter_matches(ROOT / "replays" / name))
    return build_audit(log)


def test_the_audit_carries_each_players_evidence_with_exact_counts() -> None:
    """The bundled hidden Brettspielnetz replay: every hand counted, so every figure is a fraction and
    the match's is the integral over the hands' product (one rate for the match)."""
    doc = _audit_doc("brettspielnetz-tabletop-hidden.jsonl")
    fp = doc["fairplay"]
    by = {p["player"]: p for p in fp["players"]}
    ben = by["Ben"]
    assert [h["evidence"]["fraction"] for h in ben["hands"]][-1] == {"numerator": 140923, "denominator": 1050192}
    assert ben["hands"][-1]["worlds_by_reneges"][0] > 0
    for h in ben["hands"]:
        counts = h["worlds_by_reneges"]
        f = hand_bayes_factor(counts, h["plays"])
        assert h["evidence"]["fraction"] == {"numerator": f.numerator, "denominator": f.denominator}
    ev = ben["evidence"]
    assert ev["exact"] and ev["proven"] == 0 and ev["hands"] == 4 and ev["open"] == 8
    frac = Fraction(ev["fraction"]["numerator"], ev["fraction"]["denominator"])
    assert math.isclose(float(frac), ev["bayes_factor"], rel_tol=1e-3)
    assert "not a finding" in ben["words"] and "never passed or drew" in ben["words"]
    # each possible renege: its share with the other passes honest, as counts, beside today's share
    possible = [f for h in doc["hands"] for f in h["findings"] if f["certainty"] == "possible"]
    assert possible and all("others_honest" in f for f in possible if f["code"] == "renege")
    for f in possible:
        alone = f["others_honest"]
        assert alone["exact"] and alone["share"] == round(alone["broken"] / alone["worlds"], 4)
        assert any("every other pass and draw of the player's was honest" in s for s in f["proof"])


def test_the_text_and_html_say_what_the_figure_means() -> None:
    from dominolog.audit.html import render_html
    from dominolog.audit.text import render_text

    doc = _audit_doc("brettspielnetz-tabletop-hidden.jsonl")
    text = render_text(doc)
    assert "FAIR PLAY (evidence of reneging, not a finding):" in text
    assert "hand 4 B = 140923/1050192" in text
    page = render_html(doc)
    assert 'id="fairplay"' in page and "Evidence of reneging, not a finding" in page


# -- measured on small corpora (bench/bench_fairplay.py) -------------------------------------------
def test_on_small_seasons_the_reneging_player_ranks_first_and_honest_players_stay_below_the_threshold() -> None:
    import importlib.util
    import sys

    from tests.conftest import ROOT

    spec = importlib.util.spec_from_file_location("bench_fairplay", ROOT / "bench" / "bench_fairplay.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["bench_fairplay"] = bench  # its dataclasses look their module up
    spec.loader.exec_module(bench)
    r = bench.run("brettspielnetz", 4, 4, 0.1, "test", bench.THRESHOLD)
    assert r["first"] == 4
    assert r["below"] == len(r["honest"]) == 12
    assert r["auc_alone"] is not None and r["auc_today"] is not None
    assert r["auc_alone"] > 0.5 and r["auc_today"] > 0.5


# -- the standings' fair-play column -------------------------------------------------------------
def test_standings_fairplay_over_the_season_and_by_event(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Two hidden replays of one event and its season: the column is the evidence over every hand of
    the player's matches (one rate for the season), in text, CSV and JSON (valid by the schema)."""
    import csv
    import io
    import json

    import jsonschema
    from typer.testing import CliRunner

    from dominolog.audit.engine import audit_match
    from dominolog.audit.fairplay import fair_play
    from dominolog.cli import app
    from dominolog.log.reader import iter_matches
    from tests.conftest import ROOT

    files = [
        ROOT / "replays" / n for n in ("brettspielnetz-tabletop-hidden.jsonl", "double-draw-tabletop-hidden.jsonl")
    ]
    runner = CliRunner()
    done = runner.invoke(app, ["standings", "--fairplay", "--format", "json", *map(str, files)])
    assert done.exit_code == 0, done.output
    doc = json.loads(done.output)
    schema = json.loads((ROOT / "schemas" / "standings.schema.json").read_text())
    jsonschema.validate(doc, schema)
    assert any("--fairplay" in line for line in doc["legend"])
    for table in doc["variants"]:
        (path,) = [f for f in files if table["variant"] in f.name]
        weights: dict[str, list[HandWeights]] = {}
        events: dict[str, set[str]] = {}
        for log in iter_matches(path):
            fp = fair_play(audit_match(log))
            for p in fp.players:
                weights.setdefault(p, []).extend(fp.weights(p))
                events.setdefault(p, set()).add(log.records[0].event.meta.get("event", ""))  # type: ignore[union-attr]
        for row in table["players"]:
            season = row["fairplay"]["season"]
            expected = combine(weights[row["name"]])
            assert season["log10"] == (None if expected.log10 is None else round(expected.log10, 4))
            assert season["decisions"] == expected.decisions and season["hands"] == expected.hands
            assert {e["event"] for e in row["fairplay"]["events"]} == events[row["name"]]
    text = runner.invoke(app, ["standings", "--fairplay", *map(str, files)]).output
    assert "Fair play (evidence of reneging, not a finding)" in text
    rows = list(
        csv.DictReader(
            io.StringIO(runner.invoke(app, ["standings", "--fairplay", "--format", "csv", *map(str, files)]).output)
        )
    )
    assert all(r["fairplay_turns"] for r in rows if r["kind"] == "player")
    plain = runner.invoke(app, ["standings", *map(str, files)]).output
    assert "Fair play" not in plain  # only when asked


# -- the viewer ----------------------------------------------------------------------------------
def test_pilot_the_viewers_audit_shows_the_new_share_and_each_players_evidence() -> None:
    """The replay viewer's ``a`` at Ben's possible renege of the disputed Brettspielnetz replay: the
    proof carries the share with Ben's other passes honest, and the match's evidence for each player."""
    from typing import Any

    from dominolog.log.reader import iter_matches
    from dominolog.tui.app import ReplayApp
    from tests.conftest import ROOT
    from tests.test_tui import drive

    log = next(iter(iter_matches(ROOT / "replays" / "brettspielnetz-disputed.jsonl")))
    app = ReplayApp(log, start_seq=77)

    async def body(pilot: Any) -> None:
        await pilot.press("a")
        await pilot.pause()
        text = app.screen.text
        assert "every other pass and draw of the player's was honest, the rule was broken in" in text
        lines = text.split("\n")
        k = lines.index("fair play over the match (evidence of reneging, not a finding)")
        assert lines[k + 1].startswith("  Ana: ") and lines[k + 2].startswith("  Ben: ")
        assert "Evidence, not a finding" in lines[k + 1]  # Ana: a figure, said for what it is
        assert lines[k + 2].startswith("  Ben: the log proves a renege in 1 hand")  # seq 120, as verify says

    drive(app, body)
