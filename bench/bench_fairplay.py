"""Does the evidence of reneging find the player who reneges, and leave honest players alone?

Run as a script (it is not a test)::

    python bench/bench_fairplay.py [--variants brettspielnetz,double-draw] [--seasons 100]
                                   [--matches 20] [--rate 0.1] [--seed S]

For each variant it simulates ``--seasons`` seasons of ``--matches`` two-player matches in which Ana
reneges at a known rate (at each turn where she holds a play she draws, or passes when she cannot
draw, with probability ``--rate``) and Ben is honest, and as many seasons where both are honest. Each
match is recorded hidden (``dominolog simulate --hide``: hands and draws not seen, the hands revealed
at the end) and audited; each player's evidence over the season (:mod:`dominolog.knowledge.evidence`)
is the Bayes factor of "reneges at some rate" against "honest" over all their hands. It prints:

- how often Ana's evidence ranks her first (above Ben's; a proven renege ranks above any figure);
- the honest players' season evidence: its quantiles, and how often it stays below the threshold
  (``--threshold``, a Bayes factor; docs/audit.md says why 100);
- per possible renege of the reneging seasons, the ROC AUC against the truth (was it a renege, by the
  full log) of today's share (every world) and of the share among the worlds where the player's other
  passes and draws were honest;
- how many hands were counted exactly and how many sampled, and the time taken.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dominolog.audit.engine import audit_match
from dominolog.audit.fairplay import fair_play
from dominolog.knowledge.evidence import Evidence, HandWeights, combine
from dominolog.log.reader import iter_matches
from dominolog.log.writer import dump_line
from dominolog.reducer import verify_match
from dominolog.simulate import hide_match, simulate_match
from dominolog.state import HandState, MatchState

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_verify import code_state

PLAYERS = ["Ana", "Ben"]
#: the honest threshold: a season's Bayes factor an honest player stays below (docs/audit.md)
THRESHOLD = 100.0


def reneging(player: str, rate: float, rng: random.Random, done: list[int]) -> Any:
    """A policy: at each turn where ``player`` holds a play, a draw (a pass when the boneyard is
    empty or the variant has none to draw) instead, with probability ``rate`` (``done`` counts them)."""

    def policy(match: MatchState, hand: HandState, p: str, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
        if p != player or rate <= 0 or not any(a["type"] == "play" for a in actions):
            return None
        if rng.random() >= rate:
            return None
        done[0] += 1
        kind = "draw" if hand.boneyard.count > 0 and match.variant != "ghost13" else "pass"
        action: dict[str, Any] = {"type": kind, "player": p}
        if kind == "draw" and hand.boneyard.known:
            action["tile"] = str(rng.choice(sorted(hand.boneyard.known)))
        return action

    return policy


@dataclass
class Season:
    """One season's figures: each player's hands' weights, and each possible renege as (today's share,
    the share with the player's other passes and draws honest, whether it was a renege)."""

    weights: dict[str, list[HandWeights]] = field(default_factory=dict)
    possible: list[tuple[float, float, bool]] = field(default_factory=list)
    reneges: int = 0
    counted: int = 0
    sampled: int = 0

    def evidence(self, player: str, unproven: bool = False) -> Evidence:
        """The player's season evidence (``unproven``: over the hands whose log proves no renege)."""
        return combine([w for w in self.weights.get(player, []) if not (unproven and w.proven)])


def season(variant: str, index: int, matches: int, rate: float, seed: str) -> Season:
    """``matches`` matches of ``variant``, Ana reneging at ``rate`` (0: honest), recorded hidden."""
    out = Season()
    rng = random.Random(f"fairplay:{seed}:{variant}:{index}:{rate}")
    done = [0]
    for k in range(matches):
        full = simulate_match(variant, f"{seed}-{index}-{rate}", k, PLAYERS, policy=reneging("Ana", rate, rng, done))
        hidden = hide_match(full)
        truth = _reneges_of(full)
        # the hidden log's seq of each event of the full log: the reveals were added before hand_end
        to_full: dict[int, int] = {}
        n = 0
        for e in hidden:
            if e["type"] != "reveal":
                n += 1
                to_full[e["seq"]] = n
        text = "".join(dump_line(e) + "\n" for e in hidden).encode()
        (log,) = list(iter_matches("season.jsonl", text))
        audit = audit_match(log)
        fp = fair_play(audit)
        for p in PLAYERS:
            for ph in fp.hands.get(p, []):
                if ph.weights is not None:
                    out.weights.setdefault(p, []).append(ph.weights)
                if ph.tally is not None:
                    if ph.tally.exact:
                        out.counted += 1
                    else:
                        out.sampled += 1
        for issue in audit.report.unverified:
            if issue.code != "renege" or issue.likelihood is None or issue.seq not in fp.others_honest:
                continue
            alone = fp.others_honest[issue.seq]["share"]
            out.possible.append((issue.likelihood.share, alone, to_full[issue.seq] in truth))
    out.reneges = done[0]
    return out


def _reneges_of(full: list[dict[str, Any]]) -> set[int]:
    """The seqs of the full-information log's reneges (every hand seen: the truth)."""
    text = "".join(dump_line(e) + "\n" for e in full).encode()
    (log,) = list(iter_matches("full.jsonl", text))
    return {i.seq for i in verify_match(log).violations if i.code == "renege"}


def auc(scores: list[tuple[float, bool]]) -> float | None:
    """The ROC AUC: the chance that a true case scores above a false one (ties count half)."""
    pos = [s for s, t in scores if t]
    neg = [s for s, t in scores if not t]
    if not pos or not neg:
        return None
    ranked = sorted(scores, key=lambda x: x[0])
    # the mean rank of each tied run, then the Mann-Whitney U of the true cases
    ranks: list[float] = [0.0] * len(ranked)
    i = 0
    while i < len(ranked):
        j = i
        while j + 1 < len(ranked) and ranked[j + 1][0] == ranked[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    r_pos = sum(r for r, (_, t) in zip(ranks, ranked, strict=True) if t)
    return (r_pos - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))


def key(ev: Evidence) -> float:
    """The order of evidence: a proven renege above every figure."""
    return float("inf") if ev.log10 is None else ev.log10


def quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def run(variant: str, seasons: int, matches: int, rate: float, seed: str, threshold: float) -> dict[str, Any]:
    """The figures of one variant (see the module's docstring)."""
    t0 = time.perf_counter()
    first = first_unproven = unproven = 0
    possible: list[tuple[float, float, bool]] = []
    honest: list[float] = []
    ana_log: list[float] = []
    counted = sampled = reneges = 0
    for s in range(seasons):
        bad = season(variant, s, matches, rate, seed)
        ea, eb = bad.evidence("Ana"), bad.evidence("Ben")
        first += key(ea) > key(eb)
        ua, ub = bad.evidence("Ana", True), bad.evidence("Ben", True)
        unproven += 1
        first_unproven += key(ua) > key(ub)
        if ua.log10 is not None:
            ana_log.append(ua.log10)
        possible += bad.possible
        reneges += bad.reneges
        good = season(variant, s, matches, 0.0, seed)
        for p in PLAYERS:
            ev = good.evidence(p)
            honest.append(key(ev))
        honest.append(key(eb))  # Ben of the reneging season is honest too
        counted += bad.counted + good.counted
        sampled += bad.sampled + good.sampled
    below = sum(1 for x in honest if x < math.log10(threshold))
    return {
        "variant": variant,
        "seasons": seasons,
        "first": first,
        "first_unproven": (first_unproven, unproven),
        "ana_log10": ana_log,
        "honest": honest,
        "below": below,
        "possible": possible,
        "auc_today": auc([(a, t) for a, _, t in possible]),
        "auc_alone": auc([(b, t) for _, b, t in possible]),
        "true": sum(1 for *_, t in possible if t),
        "reneges": reneges,
        "counted": counted,
        "sampled": sampled,
        "seconds": time.perf_counter() - t0,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="brettspielnetz,double-draw")
    ap.add_argument("--seasons", type=int, default=100)
    ap.add_argument("--matches", type=int, default=20)
    ap.add_argument("--rate", type=float, default=0.1)
    ap.add_argument("--threshold", type=float, default=THRESHOLD)
    ap.add_argument("--seed", default="bench")
    args = ap.parse_args(argv)
    print("dominolog fair-play benchmark (issue 38)")
    print(f"python   {platform.python_version()} on {platform.platform()}; {os.cpu_count()} logical cpus")
    print(f"load     {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min) at the start")
    print(f"code     {code_state()}")
    print(
        f"seasons  {args.seasons} x {args.matches} two-player matches a variant, recorded hidden (hands revealed "
        f"at the end); Ana reneges at rate {args.rate}, Ben honest; as many seasons both honest"
    )
    for variant in args.variants.split(","):
        r = run(variant, args.seasons, args.matches, args.rate, args.seed, args.threshold)
        n = r["seasons"]
        fu, un = r["first_unproven"]
        hon = r["honest"]
        finite = [x for x in hon if x != float("inf")]
        print(
            f"\n{variant}: {r['reneges']:,} reneges staged; "
            f"{r['counted']:,} player-hands counted, {r['sampled']:,} sampled"
        )
        print(f"  reneging player ranked first:     {r['first']}/{n} seasons ({100 * r['first'] / max(1, n):.1f}%)")
        print(f"    on the hands whose log proves no renege alone: {fu}/{un} ({100 * fu / max(1, un):.1f}%)")
        if r["ana_log10"]:
            print(
                f"    her log10 B over those hands: median {quantile(r['ana_log10'], 0.5):.2f}, "
                f"min {min(r['ana_log10']):.2f}"
            )
        print(
            f"  honest players' season evidence below B = {args.threshold:g}: {r['below']}/{len(hon)} "
            f"({100 * r['below'] / max(1, len(hon)):.1f}%)"
        )
        if finite:
            print(
                f"    log10 B: median {quantile(finite, 0.5):.2f}, 95th {quantile(finite, 0.95):.2f}, "
                f"99th {quantile(finite, 0.99):.2f}, max {max(finite):.2f}"
            )
        a1, a2 = r["auc_today"], r["auc_alone"]
        f1 = "n/a" if a1 is None else f"{a1:.3f}"
        f2 = "n/a" if a2 is None else f"{a2:.3f}"
        print(f"  possible reneges: {len(r['possible']):,} ({r['true']:,} true)")
        print(f"    ROC AUC, today's share (every world): {f1}")
        print(f"    ROC AUC, share with the other passes and draws honest: {f2}")
        print(f"  time {r['seconds']:.1f} s; load {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
