"""The audit document of a match (docs/audit.md; schemas/audit.schema.json): the verdict, each
finding with its certainty, rule and proof in words, each hand's scoring worked out, the chain and
its fingerprints, and every event with what each player could hold after it.

Built from one fold (:func:`dominolog.audit.engine.audit_match`); the renderers
(:mod:`~dominolog.audit.text`, :mod:`~dominolog.audit.html`) and ``--format json`` read only this.
"""

from __future__ import annotations

from typing import Any

from dominolog.audit.engine import HandAudit, Judged, MatchAudit, audit_match, others_honest
from dominolog.audit.fairplay import RENEGE, fair_play, fair_play_doc, others_honest_words
from dominolog.audit.proof import possible_proof, renege_proof
from dominolog.audit.rules import rules_with_text
from dominolog.audit.scoring import scoring_steps
from dominolog.knowledge import Before
from dominolog.knowledge.likelihood import likelihood
from dominolog.layouts.grid import GridLayout
from dominolog.layouts.picture import line_as_grid, svg_picture
from dominolog.log.expect import check_expect
from dominolog.log.reader import MatchLog
from dominolog.log.words import describe_record
from dominolog.state import Issue, percent
from dominolog.variants import find_variant
from dominolog.variants.judges import HoldsOne, decide

SCHEMA = "dominolog-audit/1"
FINGERPRINT = 10


def _verdict(
    certain: int, possible: int, unsettled: int, hidden: int | None = None, least: float | None = None
) -> dict[str, Any]:
    """The counts of a verdict and its text; ``hidden``: how many possible violations under the
    likelihood ``least`` were left out (only when a threshold was given)."""
    parts = []
    if certain:
        parts.append(f"{certain} violation{'s' * (certain != 1)}")
    if possible:
        parts.append(f"{possible} possible violation{'s' * (possible != 1)}")
    if unsettled:
        parts.append(f"{unsettled} point{'s' * (unsettled != 1)} that cannot be settled")
    if hidden:
        parts.append(f"{hidden} possible violation{'s' * (hidden != 1)} under {percent(least or 0)} likely not shown")
    text = ", ".join(parts) if parts else "valid"
    if not certain and parts:
        text = "valid as far as the log shows; " + text
    out = {"valid": not certain, "violations": certain, "possible": possible, "unsettled": unsettled, "text": text}
    if hidden is not None:
        out["hidden"] = hidden
    return out


def _finding(
    issue: Issue, certainty: str, ha: HandAudit | None, audit: MatchAudit, judged: Judged | None
) -> dict[str, Any]:
    tiles: list[str] = []
    proof: list[str] = []
    if judged is not None and judged.decision is not None and ha is not None:
        tiles = sorted(str(t) for t in judged.decision[1])
        if judged.decision[0] is True:
            proof = renege_proof(ha, audit, judged.check.player, issue.seq, judged.decision[1], judged.check.action)
        else:
            proof = possible_proof(ha, audit, judged.check.player, issue.seq, judged.decision[1], judged.check.action)
            if isinstance(judged.check.judge, HoldsOne):
                honest = others_honest(ha, judged)
                verdict = decide(judged.check.judge, Before(honest, judged.check.player, issue.seq)) if honest else None
                if verdict is not None and verdict[0] is False:
                    proof.insert(
                        -1,
                        f"Had every other pass and draw of the hand been honest, {judged.check.player} held none of "
                        "them: this was a renege only if another one was too.",
                    )
    elif ha is not None and issue.code == "renege":
        tiles = sorted(set(issue.tiles))
        player = issue.players[0] if issue.players else None
        if player is not None and tiles:
            from dominolog.tiles import Tile

            proof = renege_proof(ha, audit, player, issue.seq, frozenset(Tile.parse(t) for t in tiles), None)
    likely = None
    if certainty == "possible" and judged is not None and ha is not None:
        likely = issue.likelihood or likelihood(ha.facts, judged.check.player, judged.check.seq, judged.check.judge)
        if likely is not None:
            how = (
                "counted exactly"
                if likely.exact
                else f"estimated from {likely.samples:,} sampled hands, within {percent(likely.margin or 0, False)} "
                "with 95% confidence"
            )
            proof.insert(
                max(0, len(proof) - 1),
                f"Taking every hand the log allows as equally likely, the rule was broken in {percent(likely.share)} "
                f"of them ({how}).",
            )
    before: dict[str, Any] = {}
    if ha is not None and ha.facts.feasible and any(e.record.seq == issue.seq for e in ha.events):
        for p in ha.players:
            holds, may = ha.facts.knowledge(p, issue.seq - 1)
            count = ha.count(p, issue.seq - 1)
            before[p] = {"holds": sorted(map(str, holds)), "may_hold": sorted(map(str, may)), "count": count}
    out = {
        "seq": issue.seq,
        "line": issue.line,
        "code": issue.code,
        "certainty": certainty,
        "message": issue.message,
        "rules": rules_with_text(issue.rules),
        "proof": proof,
        "tiles": tiles,
        "before": before,
    }
    if likely is not None:
        out["likelihood"] = likely.as_dict()
    return out


def _rank(finding: dict[str, Any]) -> tuple[int, int, float, int]:
    """Violations first, then the possible ones, the most likely first (by their share of the hands
    the log allows), then the points that cannot be settled; by seq where that leaves a tie."""
    rank = {"certain": 0, "possible": 1, "unverifiable": 2}[finding["certainty"]]
    likely = finding.get("likelihood")
    return (rank, likely is None, -likely["share"] if likely else 0.0, finding["seq"])


def _hidden(finding: dict[str, Any], least: float | None) -> bool:
    """Whether ``--min-likelihood least`` leaves the finding out: a possible violation less likely
    than that (a violation, or a finding whose likelihood is not known, is always shown)."""
    likely = finding.get("likelihood")
    return least is not None and finding["certainty"] == "possible" and likely is not None and likely["share"] < least


def _event(view: Any, ha: HandAudit, pictures: bool, title: str) -> dict[str, Any]:
    rec = view.record
    ev = rec.event
    d: dict[str, Any] = {
        "seq": rec.seq,
        "line": rec.line,
        "type": ev.type if ev is not None else None,
        "player": getattr(ev, "player", None) if ev is not None else None,
        "text": describe_record(rec),
        "retracted": view.retracted,
        "ends": list(view.ends) if view.ends is not None else [],
        "turn": view.turn,
        "boneyard": view.boneyard,
        "knowledge": {},
        "findings": [],
    }
    for p in ha.players:
        holds, may, count = ha.knowledge(p, rec.seq)
        d["knowledge"][p] = {"holds": sorted(map(str, holds)), "may_hold": sorted(map(str, may)), "count": count}
    if pictures and view.layout is not None:
        layout = view.layout
        grid = layout if isinstance(layout, GridLayout) else line_as_grid(layout)
        d["svg"] = svg_picture(grid, title=f"{title}, after seq {rec.seq}")
    return d


def build_audit(
    log: MatchLog,
    pictures: bool = False,
    expect: str | None = None,
    only_hand: int | None = None,
    audit: MatchAudit | None = None,
    min_likelihood: float | None = None,
) -> dict[str, Any]:
    """The audit document of one match (``pictures``: each event's table as SVG, for HTML;
    ``expect``: a fingerprint ``FP[@SEQ]`` to check the chain against; ``only_hand``: that hand only;
    ``audit``: the match's fold when the caller has it already (without pictures); ``min_likelihood``:
    leave out the possible violations less likely than that, and count them)."""
    if audit is None or pictures:
        audit = audit_match(log, pictures=pictures)
    report = audit.report
    state = audit.reducer.state
    variant = report.variant or ""
    try:
        title = find_variant(variant).title if variant else "?"
    except Exception:
        title = variant or "?"
    judged_of: dict[tuple[int, str], Judged] = {}
    for ha in audit.hands:
        for j in ha.judged:
            judged_of[(j.issue.seq, j.issue.code)] = j

    def owner(seq: int) -> HandAudit | None:
        for ha in audit.hands:
            if ha.events and ha.events[0].record.seq <= seq <= ha.events[-1].record.seq:
                return ha
        return None

    findings: list[tuple[HandAudit | None, dict[str, Any]]] = []
    for issue in report.violations:
        ha = owner(issue.seq)
        findings.append((ha, _finding(issue, "certain", ha, audit, judged_of.get((issue.seq, issue.code)))))
    for issue in report.unverified:
        ha = owner(issue.seq)
        j = judged_of.get((issue.seq, issue.code))
        certainty = "possible" if j is not None and j.decision is not None and j.decision[0] is None else "unverifiable"
        findings.append((ha, _finding(issue, certainty, ha, audit, j)))
    fp = fair_play(audit)
    for _, f in findings:
        alone = fp.others_honest.get(f["seq"]) if f["certainty"] == "possible" and f["code"] == RENEGE else None
        if alone is not None:
            f["others_honest"] = alone
            f["proof"].insert(max(0, len(f["proof"]) - 1), others_honest_words(alone))
    findings.sort(key=lambda x: _rank(x[1]))  # violations first, then the most likely
    least = min_likelihood
    hidden = [(h, f) for h, f in findings if _hidden(f, least)]
    findings = [(h, f) for h, f in findings if not _hidden(f, least)]

    def count(fs: list[dict[str, Any]], out: list[dict[str, Any]]) -> dict[str, Any]:
        counts = (sum(1 for f in fs if f["certainty"] == c) for c in ("certain", "possible", "unverifiable"))
        return _verdict(*counts, len(out) if least is not None else None, least)

    hands: list[dict[str, Any]] = []
    for ha in audit.hands:
        if only_hand is not None and ha.number != only_hand:
            continue
        own = [f for h, f in findings if h is ha]
        own_hidden = [f for h, f in hidden if h is ha]
        events = [_event(v, ha, pictures, f"{title} hand {ha.number}") for v in ha.events]
        index = {e["seq"]: k for k, e in enumerate(events)}
        for k, f in enumerate(own):
            if f["seq"] in index:
                events[index[f["seq"]]]["findings"].append(k)
        scored = ha.scored
        result = None
        if ha.result is not None:
            r = ha.result
            result = {"end": r.end, "winner": r.winner, "points": dict(r.points), "verified": r.verified}
        steps: list[str] = []
        if scored is not None and state is not None:
            try:
                steps = scoring_steps(state, scored.hand, scored.result, scored.claim)
            except Exception as exc:  # pragma: no cover - a scoring explanation must never sink the audit
                steps = [f"(the scoring could not be worked out in words: {type(exc).__name__})"]
        for f in own:  # a wrong claim's proof is the hand's scoring, worked out
            if f["code"] == "score-mismatch" and not f["proof"] and steps and f["seq"] == ha.end_seq:
                f["proof"] = list(steps)
        hands.append(
            {
                "number": ha.number,
                "deal_seq": ha.start.deal_seq,
                "end_seq": ha.end_seq,
                "leader": ha.start.leader,
                "verdict": count(own, own_hidden),
                "result": result,
                "claim": scored.claim if scored is not None else None,
                "scoring": steps,
                "findings": own,
                "events": events,
            }
        )
    outside = [f for h, f in findings if h is None]
    all_findings = [f for _, f in findings]
    chain_broken = any(i.code == "hash-mismatch" for i in report.violations)
    hashed = audit.reducer.chain.hashed
    fingerprints = [
        {"hand": ha.number, "seq": ha.end_seq, "fingerprint": audit.heads[ha.end_seq][:FINGERPRINT]}
        for ha in audit.hands
        if ha.end_seq is not None and ha.end_seq in audit.heads
    ]
    doc: dict[str, Any] = {
        "schema": SCHEMA,
        "source": report.source,
        "line": report.line,
        "match_id": report.match_id,
        "variant": report.variant,
        "variant_title": title,
        "players": list(report.players),
        "meta": dict(state.meta) if state is not None else {},
        "notes": [
            {"seq": v.record.seq, "text": v.record.event.text}  # type: ignore[union-attr]
            for v in audit.events
            if v.record.event is not None and v.record.event.type == "note"
        ],
        "verdict": count(all_findings, [f for _, f in hidden]),
        "totals": dict(report.totals),
        "winner": report.winner,
        "complete": report.complete,
        "chain": {
            "status": "broken" if chain_broken else ("ok" if hashed else "absent"),
            "head": report.head,
            "fingerprint": report.head[:FINGERPRINT],
            "hands": fingerprints,
            "expect": check_expect(audit.heads, report.head, expect) if expect is not None else None,
        },
        "findings": outside,
        "hands": hands,
        "fairplay": fair_play_doc(fp),
    }
    if least is not None:
        doc["min_likelihood"] = least
    return doc


def without_pictures(doc: dict[str, Any]) -> dict[str, Any]:
    """The document as JSON gives it: no ``svg`` keys."""
    out = dict(doc)
    out["hands"] = [
        {**h, "events": [{k: v for k, v in e.items() if k != "svg"} for e in h["events"]]} for h in doc["hands"]
    ]
    return out


def exit_code(doc: dict[str, Any]) -> int:
    """As ``verify``: 0 valid, 1 violations or a fingerprint that does not match."""
    expect = doc["chain"]["expect"]
    return 1 if doc["verdict"]["violations"] or (expect is not None and not expect["ok"]) else 0
