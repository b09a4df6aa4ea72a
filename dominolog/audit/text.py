"""The audit document as plain text (``dominolog audit --format text``): the verdict first, then per
hand its findings with rule and proof, its scoring, and the chain. Text from the log is shown escaped."""

from __future__ import annotations

import textwrap
from typing import Any

from dominolog.state import percent
from dominolog.textsafe import shown

WIDTH = 96


def _winner(w: Any) -> str:
    if w is None:
        return "no winner"
    return " and ".join(shown(x, 80) for x in w) if isinstance(w, list) else shown(w, 80)


def _wrap(text: str, indent: str) -> list[str]:
    rest = " " * len(indent) + "  "
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=rest) or [indent]


def likely_words(likely: dict[str, Any]) -> str:
    """A finding's likelihood, short: ``54%``, or ``~54% ±3%`` for an estimate."""
    share = percent(likely["share"])
    if likely.get("exact", True) or likely.get("margin") is None:
        return share
    return f"~{share} ±{percent(likely['margin'], floor=False)}"


def _finding(f: dict[str, Any]) -> list[str]:
    mark = {"certain": "VIOLATION", "possible": "POSSIBLE", "unverifiable": "UNSETTLED"}[f["certainty"]]
    if f.get("likelihood"):
        mark += f" {likely_words(f['likelihood'])}"
    out = _wrap(f"{mark} seq {f['seq']} (line {f['line']}), {f['code']}: {shown(f['message'], 2000)}", "  ")
    for rule in f["rules"]:
        out += _wrap(f"rule {rule['id']}: {shown(rule['text'], 2000)}", "    ")
    for sentence in f["proof"]:
        out += _wrap(shown(sentence, 2000), "    - ")
    if f.get("before"):
        for p, k in f["before"].items():
            holds = " ".join(k["holds"]) or "-"
            may = f"; may hold any of: {' '.join(k['may_hold'])}" if k["may_hold"] else ""
            out += _wrap(f"{shown(p, 80)} held {k['count']} before it: {holds}{may}", "    | ")
    return out


def fair_play_lines(fp: dict[str, Any] | None) -> list[str]:
    """The fair-play section: each player's evidence over the match, in words, and by hand."""
    if not fp:
        return []
    lines = ["", "FAIR PLAY (evidence of reneging, not a finding):"]
    for p in fp["players"]:
        lines += _wrap(shown(p["words"], 2000), "  ")
        hands = []
        for h in p["hands"]:
            ev = h.get("evidence")
            if ev is None:
                hands.append(f"hand {h['hand']} not weighed")
            elif ev["log10"] is None:
                hands.append(f"hand {h['hand']} proven")
            elif ev.get("fraction"):
                fr = ev["fraction"]
                hands.append(f"hand {h['hand']} B = {fr['numerator']}/{fr['denominator']}")
            else:
                hands.append(f"hand {h['hand']} B ~ {ev['bayes_factor']:.3g}")
        if hands:
            lines += _wrap("; ".join(hands), "    ")
    lines += _wrap(f"model: {fp['model']}", "  ")
    return lines


def render_text(doc: dict[str, Any]) -> str:
    v = doc["verdict"]
    players = " vs ".join(shown(p, 80) for p in doc["players"])
    ident = shown(doc["match_id"], 100) if doc["match_id"] else f"line {doc['line']}"
    lines = [
        f"{shown(doc['source'], 500)}: {ident}, {shown(doc['variant_title'], 80)}, {players}",
        f"VERDICT: {v['text']}",
    ]
    totals = ", ".join(f"{shown(p, 80)} {n}" for p, n in doc["totals"].items())
    lines.append(f"totals {totals or '-'}, winner {_winner(doc['winner'])}")
    for note in doc["notes"]:
        lines += _wrap(f"note at seq {note['seq']}: {shown(note['text'], 2000)}", "")
    for h in doc["hands"]:
        hv = h["verdict"]
        lines += ["", f"HAND {h['number']} (seq {h['deal_seq']}-{h['end_seq'] or '...'}): {hv['text']}"]
        for f in h["findings"]:
            lines += _finding(f)
        shown_in_a_finding = any(f["proof"] == h["scoring"] for f in h["findings"])
        if h["scoring"] and not shown_in_a_finding:
            lines.append("  scoring:")
            for step in h["scoring"]:
                lines += _wrap(shown(step, 2000), "    ")
    if doc["findings"]:
        lines += ["", "OUTSIDE THE HANDS:"]
        for f in doc["findings"]:
            lines += _finding(f)
    lines += fair_play_lines(doc.get("fairplay"))
    c = doc["chain"]
    status = {"ok": "every stored hash chains", "broken": "BROKEN", "absent": "no hashes stored"}[c["status"]]
    lines += ["", f"CHAIN: {status}; head {c['head']} (fingerprint {c['fingerprint']})"]
    for fp in c["hands"]:
        lines.append(f"  hand {fp['hand']} ends at seq {fp['seq']}: fingerprint {fp['fingerprint']}")
    if c["expect"] is not None:
        e = c["expect"]
        lines.append(f"  expected {shown(e['given'], 100)}: {'OK' if e['ok'] else 'MISMATCH'}: {e['message']}")
    return "\n".join(lines) + "\n"
