"""The organiser's page, its club events part: tonight's event first (the newest not ended), a selector
for the others, its roster and teams, each round's tables with their state, the buttons that pair the
next round, undo a pairing, print the round's cards, end a match by forfeit, and the standings. Every
figure comes from :mod:`dominolog.tournament.director` (as ``dominolog event`` prints it); every
string is escaped. The buttons and forms are run by ``static/organiser.js`` through
:mod:`dominolog.web.events_api`.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

from dominolog.htmlpage import esc

if TYPE_CHECKING:
    from dominolog.store import Store
    from dominolog.tournament.event import ClubEvent


def _attr(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _button(action: str, label: str, **data: Any) -> str:
    attrs = "".join(f' data-{k.replace("_", "-")}="{_attr(v)}"' for k, v in data.items())
    return f'<button type="button" data-action="{action}"{attrs}>{esc(label)}</button>'


def current_event(found: list[ClubEvent], wanted: str | None) -> ClubEvent | None:
    """The event to show: the one asked for, else tonight's (the newest not ended), else the newest."""
    for ev in found:
        if ev.name == wanted:
            return ev
    return next((ev for ev in found if not ev.ended), found[0] if found else None)


def _variant_options() -> str:
    from dominolog.variants import VARIANTS

    return "".join(f'<option value="{_attr(name)}">{esc(cls.title)}</option>' for name, cls in VARIANTS.items())


def new_event_form() -> str:
    return (
        '<details class="new-event"><summary>New event</summary><form id="event-form" class="stack">'
        '<label>name <input name="name" required maxlength="60" placeholder="Club night 12 December"></label> '
        '<label>format <select name="format"><option value="swiss">Swiss</option>'
        '<option value="round-robin">round robin</option></select></label> '
        '<label>rounds <input name="rounds" type="number" min="1" max="50" value="3"></label> '
        f'<label>variant <select name="variant">{_variant_options()}</select></label> '
        '<label><input type="checkbox" name="teams"> teams of two</label> '
        '<label>target <input name="target" type="number" min="1" max="1000" placeholder="default"></label> '
        '<button type="submit">make the event</button></form></details>'
    )


def _roster(ev: ClubEvent) -> str:
    out = ['<ul class="roster">']
    for p in ev.players.values():
        entrant = ev.entrants.get(p.name)
        left = entrant is not None and not entrant.active
        team = ev.team_of.get(p.name)
        bits = [esc(p.name)]
        if p.club:
            bits.append(f'<span class="club">({esc(p.club)})</span>')
        if team:
            bits.append(f'<span class="team">team {esc(team)}</span>')
        if left:
            bits.append("<em>withdrawn</em>")
        elif entrant is not None:
            bits.append(_button("withdraw", "withdraw", event=ev.name, entrant=p.name))
        out.append(f"<li>{' '.join(bits)}</li>")
    out.append("</ul>")
    if not ev.ended:
        out.append(
            f'<form id="players-form" data-event="{_attr(ev.name)}"><label>register players, one a line '
            '<textarea name="names" rows="3" maxlength="9000" required></textarea></label> '
            '<label>club <input name="club" maxlength="100"></label> <button type="submit">register</button></form>'
        )
    if ev.teams:
        out.append(f'<h4>Teams ({len(ev.entrants)})</h4><ul class="roster">')
        for e in ev.entrants.values():
            action = (
                _button("withdraw", "withdraw", event=ev.name, entrant=e.name) if e.active else "<em>withdrawn</em>"
            )
            out.append(f"<li>{esc(e.name)}: {esc(', '.join(e.players))} {action}</li>")
        out.append("</ul>")
        free = [p for p in ev.players if p not in ev.team_of]
        if not ev.ended:
            choices = "".join(f'<option value="{_attr(p)}">{esc(p)}</option>' for p in free)
            out.append(
                f'<form id="team-form" data-event="{_attr(ev.name)}"><label>team <input name="team" required '
                'maxlength="40"></label> '
                f'<label>player <select name="p1" required>{choices}</select></label> '
                f'<label>and <select name="p2" required>{choices}</select></label> '
                '<button type="submit">register the team</button></form>'
            )
    return "".join(out)


def round_table(ev: ClubEvent, doc: dict[str, Any], last: bool, director: bool = True, url: str | None = None) -> str:
    """A round's tables and their state (``director``: with the director's buttons)."""
    rnd = doc["round"]
    out = [
        f'<h4 id="round-{rnd}">Round {rnd}</h4><table class="board round" data-round="{rnd}"><thead><tr>'
        "<th>table</th><th>leads first</th><th>against</th><th>match</th><th>state</th>"
        + ("<th></th>" if director else "")
        + "</tr></thead><tbody>"
    ]
    for t in doc["tables"]:
        if t["second"] is None:
            out.append(
                f'<tr class="bye"><td>{t["table"]}</td><td>{esc(t["first"])}</td><td>bye</td><td></td>'
                f"<td>{esc(t['words'])}</td>" + ("<td></td></tr>" if director else "</tr>")
            )
            continue
        actions = ""
        if director and t["state"] not in ("ended", "forfeit", "disputed", "not agreed") and not ev.ended:
            actions = " ".join(
                (
                    _button(
                        "forfeit", f"{t['first']} wins by forfeit", event=ev.name, match=t["match"], winner=t["first"]
                    ),
                    _button(
                        "forfeit", f"{t['second']} wins by forfeit", event=ev.name, match=t["match"], winner=t["second"]
                    ),
                    _button("forfeit", "both lose", event=ev.name, match=t["match"], winner=""),
                )
            )
        first = esc(t["first"]) + (f" <small>({esc(t['leads'])})</small>" if ev.teams else "")
        link = f'<a href="/m/{_attr(_quote(t["match"]))}">{esc(t["match"])}</a>'
        out.append(
            f'<tr class="state-{_attr(t["state"].replace(" ", "-"))}"><td>{t["table"]}</td><td>{first}</td>'
            f"<td>{esc(t['second'])}</td><td>{link}</td><td>{esc(t['words'])}</td>"
            + (f"<td>{actions}</td></tr>" if director else "</tr>")
        )
    out.append("</tbody></table>")
    if not director:
        return "".join(out)
    matches = [t["match"] for t in doc["tables"] if t["match"] is not None]
    buttons = [_button("round-cards", f"print round {rnd}'s cards", matches=json.dumps(matches), round=rnd)]
    if last:
        buttons.append(
            f"for phones to reach <code>{esc(url or '(the address of this page)')}</code> "
            '<label><input type="checkbox" id="round-cards-loopback"> even if only this machine reaches it '
            "(a test)</label>"
        )
    if last and not ev.ended and all(t["state"] in ("not started", "bye") for t in doc["tables"]):
        buttons.append(_button("unpair", f"undo round {rnd}'s pairing", event=ev.name))
    out.append(f'<p class="actions">{" ".join(buttons)}</p>')
    return "".join(out)


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


def standings_table(doc: dict[str, Any]) -> str:
    """The event's standings, with how they are ranked."""
    rows = doc["standings"]["rows"]
    if not rows:
        return ""
    out = [
        '<h4>Standings</h4><table class="board standings" id="event-standings"><thead><tr><th>place</th>'
        "<th>entrant</th><th>played</th><th>won</th><th>drawn</th><th>lost</th><th>match points</th>"
        "<th>for</th><th>against</th><th>difference</th></tr></thead><tbody>"
    ]
    for r in rows:
        left = " <em>withdrawn</em>" if r["withdrawn"] else ""
        out.append(
            f"<tr><td>{r['place']}</td><td>{esc(r['entrant'])}{left}</td><td>{r['played']}</td><td>{r['wins']}</td>"
            f"<td>{r['draws']}</td><td>{r['losses']}</td><td>{r['match_points']:g}</td><td>{r['points_for']}</td>"
            f"<td>{r['points_against']}</td><td>{r['difference']:+d}</td></tr>"
        )
    out.append(
        '</tbody></table><p class="note">Ranked by match points (a win 1, a draw 1/2, a bye or a forfeit won 1), '
        "then points for minus points against, then points for, then the games between those still tied.</p>"
    )
    return "".join(out)


def events_part(store: Store, wanted: str | None, url: str | None = None) -> str:
    """The club events part of the organiser's page."""
    from dominolog.tournament.director import event_document, events, planned_rounds
    from dominolog.tournament.outcomes import round_complete

    found = events(store)
    ev = current_event(found, wanted)
    out = ['<section id="events"><h2>Club events</h2>']
    if len(found) > 1:
        links = " ".join(
            _button("pick-event", e.name + (" (ended)" if e.ended else ""), event=e.name)
            if e is not ev
            else f"<strong>{esc(e.name)}</strong>"
            for e in found
        )
        out.append(f'<p class="event-picker">Events: {links}</p>')
    if ev is None:
        out.append("<p>No club event yet: make tonight's below.</p>")
    else:
        doc = event_document(store, ev)
        planned = planned_rounds(ev)
        title = f" ({esc(ev.title)})" if ev.title else ""
        out.append(
            f'<h3 id="event-name" data-event="{_attr(ev.name)}">{esc(ev.name)}{title}</h3><p class="event-facts">'
            f"{esc(ev.format)}, {esc(ev.variant)}{', teams of two' if ev.teams else ''}, "
            f"round {len(ev.paired)} of {planned}{', ended' if ev.ended else ''}"
            f"{', ' + esc(ev.date) if ev.date else ''}</p>"
        )
        rounds = doc["rounds"]
        if not ev.ended and (len(ev.paired) < planned or (not ev.paired and planned == 0)):
            waiting = round_complete(store, ev, ev.paired[-1]) if ev.paired else []
            label = f"pair round {len(ev.paired) + 1}"
            if waiting:
                note = f'<span class="note">waiting for {esc("; ".join(waiting))}</span>'
                out.append(f'<p class="actions"><button type="button" disabled>{esc(label)}</button> {note}</p>')
            else:
                out.append(f'<p class="actions">{_button("pair", label, event=ev.name)}</p>')
        if rounds:
            out.append(round_table(ev, rounds[-1], True, url=url))
        out.append(standings_table(doc))
        if len(rounds) > 1:
            earlier = "".join(round_table(ev, r, False) for r in reversed(rounds[:-1]))
            out.append(
                f'<details class="earlier"><summary>Earlier rounds ({len(rounds) - 1})</summary>{earlier}</details>'
            )
        opened = " open" if not ev.paired else ""
        who = f"Players ({len(ev.players)})" + (f", teams ({len(ev.entrants)})" if ev.teams else "")
        out.append(f'<details class="roster"{opened}><summary>{who}</summary>{_roster(ev)}</details>')
        if not ev.ended:
            out.append(f'<p class="actions">{_button("end-event", "end the event", event=ev.name)}</p>')
        for problem in ev.problems:
            out.append(f'<p class="issue">{esc(problem)}</p>')
    out.append(new_event_form())
    out.append("</section>")
    return "".join(out)
