"""Fair play: each player's evidence of reneging over each hand and the match, and for each possible
renege its share among the worlds where the player's other passes and draws were honest.

The figures are :mod:`dominolog.knowledge.evidence`'s (the model, the prior) over the tallies of
:mod:`dominolog.knowledge.reneges` (the worlds by how many of the player's passes and draws were
reneges). They are evidence, never a finding: an honest player's log gives such figures too, and the
words say so.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from dominolog.audit.engine import HandAudit, MatchAudit, audit_match
from dominolog.knowledge.evidence import Evidence, HandWeights, combine, hand_bayes_factor, words
from dominolog.knowledge.reneges import Reneges, Turn, reneges
from dominolog.log.reader import MatchLog
from dominolog.state import percent

#: the code of the rule a pass or draw keeps
RENEGE = "renege"


@dataclass(slots=True)
class PlayerHand:
    """One player's hand: what it weighs (None: its worlds could not be weighed) and its tallies."""

    player: str
    hand: int
    weights: HandWeights | None
    tally: Reneges | None


@dataclass(slots=True)
class FairPlay:
    """A match's fair-play figures: by player, each hand's and the match's evidence; by the seq of a
    possible renege, its share among the worlds where the player's other passes and draws were honest."""

    players: list[str]
    hands: dict[str, list[PlayerHand]] = field(default_factory=dict)
    match: dict[str, Evidence] = field(default_factory=dict)
    #: seq -> {"share", "exact", and "broken"/"worlds" counted or "margin"/"samples" sampled}
    others_honest: dict[int, dict[str, Any]] = field(default_factory=dict)

    def weights(self, player: str) -> list[HandWeights]:
        return [h.weights for h in self.hands.get(player, []) if h.weights is not None]


def _player_of(ha: HandAudit, seq: int) -> str | None:
    for v in ha.events:
        if v.record.seq == seq and v.record.event is not None:
            return getattr(v.record.event, "player", None)
    return None


def hand_weights(ha: HandAudit, player: str, proven_seqs: set[int]) -> PlayerHand:
    """What ``player``'s passes and draws of hand ``ha`` weigh."""
    plays = turns = 0
    for v in ha.events:
        e = v.record.event
        if v.retracted or e is None or getattr(e, "player", None) != player:
            continue
        if e.type == "play":
            plays += 1
        elif e.type in ("pass", "draw"):
            turns += 1
    checks = [j for j in ha.judged if j.issue.code == RENEGE and j.check.player == player]
    proven = bool(proven_seqs) or any(j.decision is not None and j.decision[0] is True for j in checks)
    opened = [j for j in checks if j.decision is None or j.decision[0] is None]
    if proven:
        return PlayerHand(player, ha.number, HandWeights((1.0,), plays, turns, len(opened), proven=True), None)
    tally = reneges(ha.facts, player, [Turn(j.check.seq, j.check.judge) for j in opened])
    if tally is None:
        return PlayerHand(player, ha.number, None, None)
    ratios = tally.ratios()
    if ratios is None:  # no world keeps every pass honest
        if tally.exact:
            return PlayerHand(player, ha.number, HandWeights((1.0,), plays, turns, len(opened), proven=True), tally)
        return PlayerHand(player, ha.number, None, tally)
    if tally.exact:
        counts = tuple(int(n) for n in tally.by_reneges)
        w = HandWeights(tuple(ratios), plays, turns, len(opened), counts=counts)
    else:
        low = tuple(max(0.0, q - tally.margins.get(k, 0.0)) if k else 1.0 for k, q in enumerate(ratios))
        high = tuple(q + tally.margins.get(k, 0.0) if k else 1.0 for k, q in enumerate(ratios))
        w = HandWeights(tuple(ratios), plays, turns, len(opened), exact=False, low=low, high=high)
    return PlayerHand(player, ha.number, w, tally)


def fair_play(audit: MatchAudit) -> FairPlay:
    """The match's fair-play figures (see the module's docstring)."""
    players = list(audit.report.players)
    out = FairPlay(players)
    proven: dict[tuple[int, str], set[int]] = {}
    for issue in audit.report.violations:
        if issue.code != RENEGE:
            continue
        for ha in audit.hands:
            if ha.events and ha.events[0].record.seq <= issue.seq <= ha.events[-1].record.seq:
                p = _player_of(ha, issue.seq)
                if p is not None:
                    proven.setdefault((ha.number, p), set()).add(issue.seq)
    for ha in audit.hands:
        for p in ha.players:
            ph = hand_weights(ha, p, proven.get((ha.number, p), set()))
            out.hands.setdefault(p, []).append(ph)
            t = ph.tally
            if t is None or ph.weights is None or ph.weights.proven:
                continue
            for seq, a in t.alone.items():
                d = a + t.honest
                if not d:
                    continue
                entry: dict[str, Any] = {"share": round(a / d, 4), "exact": t.exact}
                if t.exact:
                    entry["broken"], entry["worlds"] = int(a), int(d)
                else:
                    entry["margin"] = round(t.alone_margins.get(seq, 0.0), 4)
                    entry["samples"] = t.samples
                out.others_honest[seq] = entry
    for p in players:
        out.match[p] = combine(out.weights(p), fraction=True)
    return out


def match_weights(log: MatchLog) -> dict[str, list[HandWeights]]:
    """What each player's hands of the match weigh (``standings --fairplay``)."""
    fp = fair_play(audit_match(log))
    return {p: fp.weights(p) for p in fp.players}


def store_weights(store: Any, ids: Iterable[tuple[str, str]]) -> dict[str, dict[str, list[HandWeights]]]:
    """Each stored match's weights by its head, for ``ids`` (match id, head): ``standings --fairplay
    --db`` and the served standings."""
    out: dict[str, dict[str, list[HandWeights]]] = {}
    for mid, head in ids:
        records = [rec for rec, _ in store.records(mid)]
        out[head] = match_weights(MatchLog(mid, 1, records))
    return out


def fair_play_doc(fp: FairPlay) -> dict[str, Any]:
    """The figures as the audit document carries them (schemas/audit.schema.json)."""
    players = []
    for p in fp.players:
        ev = fp.match.get(p) or combine([])
        hands = []
        for ph in fp.hands.get(p, []):
            w = ph.weights
            h: dict[str, Any] = {"hand": ph.hand, "weighed": w is not None}
            if w is not None:
                h["evidence"] = combine([w], fraction=True).as_dict()
                h["plays"], h["passes_and_draws"], h["open"] = w.plays, w.turns, w.open
                if w.counts is not None:
                    h["worlds_by_reneges"] = list(w.counts)
                    f = hand_bayes_factor(w.counts, w.plays)
                    h["evidence"]["fraction"] = {"numerator": f.numerator, "denominator": f.denominator}
                elif not w.exact and ph.tally is not None:
                    h["share_by_reneges"] = [round(float(x), 4) for x in ph.tally.by_reneges]
                    h["samples"] = ph.tally.samples
            hands.append(h)
        players.append({"player": p, "evidence": ev.as_dict(), "words": words(ev, p), "hands": hands})
    return {"model": MODEL, "players": players}


def others_honest_words(alone: dict[str, Any]) -> str:
    """A possible renege's share among the worlds where the player's other passes and draws were
    honest, in a sentence."""
    share = percent(alone["share"])
    if alone["exact"]:
        how = f"counted exactly: {alone['broken']:,} of {alone['worlds']:,}"
    else:
        how = f"estimated from {alone['samples']:,} sampled hands, within {percent(alone['margin'], False)}"
    return (
        "Among only the hands the log allows in which every other pass and draw of the player's was honest, "
        f"the rule was broken in {share} of them ({how})."
    )


#: the model in a sentence, as the documents carry it
MODEL = (
    "Bayes factor of 'passes or draws while holding a play at some rate r, r uniform on [0, 1]' against "
    "'never', every world the log allows equally likely (a uniform shuffle), over the player's plays, "
    "passes and draws (docs/audit.md, Evidence of reneging)"
)
