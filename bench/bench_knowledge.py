"""Benchmark of the knowledge engine: how much it narrows what each player may hold, and what it costs.

Run as a script (it is not a test)::

    python bench/bench_knowledge.py [--matches 20]

For ``--matches`` simulated matches per variant, recorded hidden as a table sees them (hands not
shown, draws unseen, every hand revealed at its end: ``simulate --hidden``), it audits each match
and, after every event and for every player, compares the size of:

- **naive**: every tile not on the table (all a player could hold if nothing else were known);
- **forward**: what the reducer knows going forward (the tiles known in the hand, plus every tile
  whose place is unknown): what ``verify`` knew before the engine;
- **facts**: ``may_hold`` from the facts alone (deal, plays, draws, reveals, counts, backwards too);
- **engine**: ``may_hold`` as the audit shows it (the facts, plus passes and draws taken as honest
  where the facts allow).

It also counts the hidden rules (passes and draws) that the end of each hand leaves open: certain,
possible, and clean, and the time the audit takes per event.

``--check`` also checks soundness on every match (the simulator knows the true hands): after every
event, for every player, ``holds`` is inside the true hand, the true hand inside ``holds`` +
``may_hold``, the count exact; and ``verify`` finds no violation in these honest logs. It prints
how many matches and player-events were checked and how many failed (the property tests in
``tests/test_knowledge.py`` check the same on fewer matches).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import Any

from dominolog.audit.engine import audit_match
from dominolog.audit.soundness import true_hands, unsound
from dominolog.log.reader import iter_matches
from dominolog.log.writer import dump_line
from dominolog.simulate import hide_match, simulate_match

CONFIGS: list[tuple[str, list[str], dict[str, Any] | None]] = [
    ("ghost13", ["Ana", "Ben"], None),
    ("brettspielnetz", ["Ana", "Ben"], None),
    ("39", ["Ana", "Ben"], None),
    ("double-bergen", ["Ana", "Ben", "Cleo", "Dev"], {"reserve": 2}),
    ("double-draw", ["Ana", "Ben", "Cleo", "Dev"], {"partners": True}),
]


def measure(
    variant: str, players: list[str], options: dict[str, Any] | None, matches: int, check: bool = False, first: int = 0
) -> dict[str, Any]:
    from dominolog.reducer import verify_match

    sums = {"naive": 0, "forward": 0, "facts": 0, "engine": 0}
    checked = bad = accused = 0
    points = events = 0
    verdicts = {"certain": 0, "possible": 0, "clean": 0}
    seconds = 0.0
    for k in range(first, first + matches):
        full = simulate_match(variant, "bench-knowledge", k, players, options)
        hidden = hide_match(full)
        data = "".join(dump_line(e) + "\n" for e in hidden).encode()
        (log,) = list(iter_matches("<bench>.jsonl", data))
        t0 = time.perf_counter()
        audit = audit_match(log)
        for ha in audit.hands:
            for view in ha.events:
                for p in ha.players:
                    ha.knowledge(p, view.record.seq)
        seconds += time.perf_counter() - t0
        events += len(log.records)
        if check:
            c, b = unsound(audit, true_hands(full))
            checked += c
            bad += len(b)
            accused += len(verify_match(log).violations)
        for ha in audit.hands:
            for j in ha.judged:
                if j.decision is not None:
                    verdicts[{True: "certain", None: "possible", False: "clean"}[j.decision[0]]] += 1
            start_on = len(ha.start.layout.on_board)
            for view in ha.events:
                seq = view.record.seq
                placed = start_on + sum(1 for pl in ha.end.placements if pl.seq <= seq)
                for p in ha.players:
                    _, may, _ = ha.knowledge(p, seq)
                    _, fmay = ha.facts.knowledge(p, seq) if ha.facts.feasible else (None, may)
                    sums["naive"] += 28 - placed
                    sums["facts"] += len(fmay)
                    sums["engine"] += len(may)
                    points += 1
        sums["forward"] += forward_sizes(log)
    return {
        "variant": variant,
        "players": len(players),
        "points": points,
        **{k: v / max(points, 1) for k, v in sums.items()},
        **verdicts,
        "ms_per_event": 1000 * seconds / max(events, 1),
        "checked": checked,
        "unsound": bad,
        "accused": accused,
    }


def forward_sizes(log: Any) -> int:
    """The sum over events and players of what the forward fold says a player may hold."""
    from dominolog.reducer import MatchReducer

    reducer = MatchReducer("<bench>")
    total = 0
    for rec in log.records:
        reducer.feed(rec)
        hand = reducer.state.hand if reducer.state is not None else None
        if hand is None:
            continue
        for p, h in hand.holdings.items():
            total += len(hand.possible(p) - h.known) if h.unknown else 0
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=20, help="simulated matches per variant")
    parser.add_argument("--check", action="store_true", help="also check soundness against the true hands")
    parser.add_argument("--first", type=int, default=0, help="the index of the first simulated match")
    parser.add_argument("--variant", help="only this variant")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, {platform.platform()}")
    print(f"{args.matches} hidden simulated matches per variant; mean size of 'may hold' per player and event")
    print(
        f"{'variant':<15}{'players':>8}{'naive':>8}{'forward':>9}{'facts':>8}{'engine':>8}"
        f"{'certain':>9}{'possible':>9}{'clean':>7}{'ms/event':>10}"
    )
    configs = [c for c in CONFIGS if args.variant in (None, c[0])]
    rows = [measure(v, p, o, args.matches, args.check, args.first) for v, p, o in configs]
    for r in rows:
        print(
            f"{r['variant']:<15}{r['players']:>8}{r['naive']:>8.2f}{r['forward']:>9.2f}{r['facts']:>8.2f}"
            f"{r['engine']:>8.2f}{r['certain']:>9}{r['possible']:>9}{r['clean']:>7}{r['ms_per_event']:>10.3f}"
        )
    print(f"engine / naive (median over variants): {statistics.median(r['engine'] / r['naive'] for r in rows):.3f}")
    if args.check:
        for r in rows:
            print(
                f"soundness {r['variant']} ({r['players']} players): {args.matches} matches, {r['checked']} "
                f"player-events checked, {r['unsound']} unsound; violations in honest hidden logs: {r['accused']}"
            )
        if any(r["unsound"] or r["accused"] for r in rows):
            raise SystemExit(1)


if __name__ == "__main__":
    main()
