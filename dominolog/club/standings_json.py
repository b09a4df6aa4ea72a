"""The standings as one JSON document (``schemas/standings.schema.json``): names as written."""

from __future__ import annotations

from typing import Any

from dominolog import __version__
from dominolog.club import standings_fairplay as fairplay
from dominolog.club.standings import LossFigures, PartnershipRow, PlayerRow, Standings, Tally
from dominolog.club.standings_render import LEGEND, LOSS_LEGEND, _number, _round
from dominolog.jsontext import dumps


def _tally_json(t: Tally) -> dict[str, Any]:
    return {
        "record": {
            "played": t.played,
            "won": t.won,
            "lost": t.lost,
            "drawn": t.drawn,
            "abandoned": t.abandoned,
            "invalid": t.invalid,
            "in_progress": t.in_progress,
        },
        "hands": {"played": t.hands, "won_domino": t.won_domino, "won_block": t.won_block, "won_other": t.won_other},
        "points": {
            "for": t.points_for,
            "against": t.points_against,
            "for_per_hand": _round(t.per_hand(t.points_for), 4),
            "against_per_hand": _round(t.per_hand(t.points_against), 4),
        },
    }


def _loss_json(f: LossFigures) -> dict[str, Any]:
    return {
        "matches": f.matches,
        "decisions": f.decisions,
        "choices": f.choices,
        "points_lost": _number(f.total_loss),
        "per_choice": _round(f.average_loss, 4),
        "best_move_rate": _round(f.match_rate, 2),
        "accuracy": _round(f.accuracy, 2),
        "unforced": f.unforced,
        "error_rate": _round(f.error_rate, 4),
        "play_rating": _round(f.play_rating, 2),
        "luck": {
            "matches": f.lucky_matches,
            "luck": round(f.luck, 2),
            "adjusted": round(f.adjusted, 2),
            "margin": _round(f.luck_margin, 2),
        },
    }


def _player_json(r: PlayerRow) -> dict[str, Any]:
    f = r.figures
    rating = r.rating
    loss = {"loss": _loss_json(r.loss)} if r.loss is not None else {}
    return {
        "name": r.name,
        "place": r.place,
        "rating": None
        if rating is None
        else {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal, "matches": rating.matches},
        **_tally_json(r.tally),
        "play": {
            "hands": f.hands,
            "block_hands": f.block_hands,
            "block_pips": f.block_pips,
            "block_pips_average": _round(r.block_pips_average, 4),
            "passes": f.passes,
            "draws": f.draws,
            "passes_per_hand": _round(r.passes_per_hand, 4),
            "draws_per_hand": _round(r.draws_per_hand, 4),
            "timed_moves": f.timed_moves,
            "move_seconds": f.move_seconds,
            "seconds_per_move": _round(r.seconds_per_move, 4),
            "reneges": r.reneges,
            "possible_reneges": r.possible_reneges,
        },
        "history": []
        if rating is None
        else [
            {"match_id": h.match_id, "date": h.date, "mu": h.mu, "sigma": h.sigma, "ordinal": h.ordinal}
            for h in rating.history
        ],
        **loss,
        **fairplay.player_json(r),
    }


def _partnership_json(p: PartnershipRow) -> dict[str, Any]:
    return {"name": p.name, "players": list(p.players), **_tally_json(p.tally)}


def standings_document(st: Standings) -> dict[str, Any]:
    """The standings as one JSON document (``schemas/standings.schema.json``)."""
    f = st.filters
    variants = []
    for t in st.tables:
        counted = {id(s) for s in t.counted}
        rated = {id(s) for s in t.rated}
        analysed = {id(s) for s in t.analysed}
        variants.append(
            {
                "variant": t.variant,
                "title": t.title,
                "higher_wins": t.higher_wins,
                "counts": {
                    "matches": len(t.matches),
                    "counted": len(t.counted),
                    "invalid": t.invalid,
                    "in_progress": t.in_progress,
                    "rated": len(t.rated),
                },
                "players": [_player_json(r) for r in t.players],
                "partnerships": [_partnership_json(p) for p in t.partnerships],
                "matches": [
                    {
                        "id": s.match_id,
                        "date": s.date,
                        "status": s.status,
                        "counted": id(s) in counted,
                        "rated": id(s) in rated,
                        **({"analysed": id(s) in analysed} if st.loss else {}),
                    }
                    for s in t.matches
                ],
                **({"analysis": _analysis_json(len(t.counted), len(t.analysed), t.partial)} if st.loss else {}),
            }
        )
    return {
        "generator": f"dominolog {__version__}",
        "filters": {
            "variant": f.variant,
            "meta": dict(f.meta),
            "since": f.since.isoformat() if f.since else None,
            "until": f.until.isoformat() if f.until else None,
            "include_invalid": st.include_invalid,
        },
        "matches": {"read": st.read, "selected": st.matches},
        "variants": variants,
        "legend": list(LEGEND)
        + ([LOSS_LEGEND] if st.loss else [])
        + ([fairplay.FAIRPLAY_LEGEND] if st.fairplay else []),
        **({"analysis": _analysis_json(st.counted, st.analysed, st.partial)} if st.loss else {}),
    }


def _analysis_json(counted: int, analysed: int, partial: int) -> dict[str, int]:
    return {"counted": counted, "analysed": analysed, "partial": partial}


def render_json(st: Standings) -> str:
    return dumps(standings_document(st), indent=2) + "\n"
