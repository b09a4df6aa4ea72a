"""``dominolog event``: run a club event from the terminal: make it, register players and teams, pair
each round (its matches made in the store, ready for table cards), follow the tables, end a match by
forfeit, undo a pairing, read the standings with their tie-breaks (:mod:`dominolog.tournament`; the
organiser's page of ``dominolog serve`` does the same through the same calls). Every command takes
``--json``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dominolog.cli.common import DEFAULT_DB, DbOption, fail, key_values, store_or_fail
from dominolog.textsafe import shown

if TYPE_CHECKING:
    from dominolog.store import Store
    from dominolog.tournament.event import ClubEvent

app = typer.Typer(
    name="event",
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Run a club event: players and teams, rounds paired (Swiss or round robin), tables followed, "
    "forfeits, standings with tie-breaks. Each step is a record of the event's append-only log in the store.",
)

EventName = Annotated[str, typer.Argument(help="The event's name (its matches carry it as meta.event).")]
JsonOption = Annotated[bool, typer.Option("--json", help="One JSON document instead of text.")]


def _refused(exc: Exception) -> None:
    status = getattr(exc, "status", 422)
    fail(shown(str(exc), 500), 2 if status == 404 else 1)


@contextmanager
def _directing(db: str, *, write: bool, create: bool = False) -> Iterator[Store]:
    """The store, open for one step of the director: a refused step (DirectorError) is the command's
    message and exit code (2 for an event that does not exist, else 1)."""
    from dominolog.tournament.director import DirectorError

    with store_or_fail(db, create=create, write=write) as store:
        try:
            yield store
        except DirectorError as exc:
            _refused(exc)


def _answer(as_json: bool, doc: Any, text: str) -> None:
    """One JSON document with --json, else the line of text."""
    if as_json:
        _echo_json(doc)
    else:
        typer.echo(text)


def _echo_json(doc: Any) -> None:
    from dominolog.jsontext import dumps

    typer.echo(dumps(doc, indent=2))


def _summary(ev: ClubEvent) -> str:
    n = len(ev.entrants)
    kind = ("team" if n == 1 else "teams") + " of 2" if ev.teams else "player" if n == 1 else "players"
    return (
        f"{shown(ev.name)}: {ev.format}, {ev.rounds} round{'s' * (ev.rounds != 1)}, {shown(ev.variant)}, "
        f"{n} {kind}, {len(ev.paired)} round{'s' * (len(ev.paired) != 1)} paired{', ended' if ev.ended else ''}"
    )


@app.command("create")
def create(
    name: EventName,
    db: DbOption = DEFAULT_DB,
    format: Annotated[str, typer.Option("--format", help="swiss or round-robin.")] = "swiss",
    rounds: Annotated[int, typer.Option(help="The rounds of a Swiss (a round robin plays its schedule).")] = 3,
    variant: Annotated[str, typer.Option(help="The variant every match plays.")] = "ghost13",
    option: Annotated[
        list[str] | None, typer.Option("--option", help="A match option KEY=VALUE (target=100), repeatable.")
    ] = None,
    teams: Annotated[
        bool, typer.Option("--teams", help="Teams of two (Double Draw partnerships, Double Bergen 4 players).")
    ] = False,
    date: Annotated[str | None, typer.Option(help="The event's date, YYYY-MM-DD (default: today, UTC).")] = None,
    title: Annotated[str | None, typer.Option(help="A title to show.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Make an event. Exit 0; 1 refused (the name is taken, an option does not fit the variant); 2 usage."""
    from dominolog.tournament.director import create_event

    options = key_values(option, "--option", True)
    with _directing(db, write=True, create=True) as store:
        ev = create_event(
            store,
            name,
            format=format,
            rounds=rounds,
            variant=variant,
            options=options,
            team_size=2 if teams else 1,
            date=date,
            title=title,
        )
    _answer(as_json, ev.as_dict(), f"event {_summary(ev)}")


@app.command("add")
def add(
    name: EventName,
    players: Annotated[list[str], typer.Argument(help="The players' names, as the matches will name them.")],
    db: DbOption = DEFAULT_DB,
    club: Annotated[str | None, typer.Option(help="Their club.")] = None,
    member: Annotated[str | None, typer.Option(help="A member number (one player only).")] = None,
    as_json: JsonOption = False,
) -> None:
    """Register players (a late entry, once rounds are paired, starts with no points). Exit 0; 1 refused."""
    from dominolog.tournament.director import add_player

    if member and len(players) != 1:
        fail("--member goes with one player")
    with _directing(db, write=True) as store:
        ev = None
        for p in players:
            ev = add_player(store, name, p, club, member)
    assert ev is not None
    _answer(as_json, ev.as_dict(), f"registered {', '.join(shown(p, 40) for p in players)}; {_summary(ev)}")


@app.command("team")
def team(
    name: EventName,
    team_name: Annotated[str, typer.Argument(metavar="TEAM", help="The team's name.")],
    players: Annotated[list[str], typer.Argument(help="Its two registered players, in seat order.")],
    db: DbOption = DEFAULT_DB,
    as_json: JsonOption = False,
) -> None:
    """Register a team of two registered players (a team event). Exit 0; 1 refused."""
    from dominolog.tournament.director import add_team

    with _directing(db, write=True) as store:
        ev = add_team(store, name, team_name, players)
    _answer(
        as_json,
        ev.as_dict(),
        f"team {shown(team_name, 40)}: {', '.join(shown(p, 40) for p in players)}; {_summary(ev)}",
    )


@app.command("withdraw")
def withdraw_cmd(
    name: EventName,
    entrant: Annotated[str, typer.Argument(help="The player (or team) who leaves.")],
    db: DbOption = DEFAULT_DB,
    as_json: JsonOption = False,
) -> None:
    """Withdraw a player or team from the next round on (results so far stay). Exit 0; 1 refused."""
    from dominolog.tournament.director import withdraw

    with _directing(db, write=True) as store:
        ev = withdraw(store, name, entrant)
    _answer(as_json, ev.as_dict(), f"{shown(entrant, 40)} withdrawn after round {len(ev.paired)}")


def _print_round(doc: dict[str, Any]) -> None:
    typer.echo(f"round {doc['round']}")
    for t in doc["tables"]:
        if t["second"] is None:
            typer.echo(f"  table {t['table']}: {shown(t['first'], 40)}: bye")
            continue
        typer.echo(
            f"  table {t['table']}: {shown(t['first'], 40)} - {shown(t['second'], 40)}"
            f"  (match {shown(t['match'], 100)}; {shown(t['leads'], 40)} leads)  {shown(t['words'], 200)}"
        )


@app.command("pair")
def pair(name: EventName, db: DbOption = DEFAULT_DB, as_json: JsonOption = False) -> None:
    """Pair the next round and make its matches (then print the round's cards: dominolog token cards
    --event NAME, or the organiser's page). Exit 0; 1 refused (the last round is not complete, every
    round is paired)."""
    from dominolog.tournament.director import load, pair_next_round, table_states

    with _directing(db, write=True) as store:
        rnd = pair_next_round(store, name)
        doc = {"round": rnd.number, "tables": [s.as_dict() for s in table_states(store, load(store, name), rnd)]}
    if as_json:
        _echo_json(doc)
    else:
        _print_round(doc)


@app.command("unpair")
def unpair(name: EventName, db: DbOption = DEFAULT_DB, as_json: JsonOption = False) -> None:
    """Undo the last round's pairing, before its first deal (its matches are closed as abandoned, with
    a note saying why). Exit 0; 1 refused (a table has dealt)."""
    from dominolog.tournament.director import undo_round

    with _directing(db, write=True) as store:
        rnd = undo_round(store, name)
    _answer(
        as_json, {"undone": rnd.number}, f"round {rnd.number}'s pairing undone: pair it again with dominolog event pair"
    )


@app.command("round")
def round_(
    name: EventName,
    number: Annotated[int | None, typer.Option("--round", help="Which round (default: the last paired).")] = None,
    db: DbOption = DEFAULT_DB,
    as_json: JsonOption = False,
) -> None:
    """A round's tables and how far each is (not started, hand N, ended, disputed, not agreed, forfeit,
    bye). Exit 0; 1 no such round; 2 no such event."""
    from dominolog.tournament.director import load, table_states

    with _directing(db, write=False) as store:
        ev = load(store, name)
        rounds = {r.number: r for r in ev.paired}
        n = number if number is not None else (ev.paired[-1].number if ev.paired else None)
        if n is None or n not in rounds:
            fail("no round paired yet" if n is None else f"no round {n} is paired", 1)
        doc = {"round": n, "tables": [s.as_dict() for s in table_states(store, ev, rounds[n])]}
    if as_json:
        _echo_json(doc)
    else:
        _print_round(doc)


@app.command("standings")
def standings(
    name: EventName,
    number: Annotated[int | None, typer.Option("--round", help="After this round (default: every result).")] = None,
    db: DbOption = DEFAULT_DB,
    as_json: JsonOption = False,
) -> None:
    """The event's standings: match points (a win 1, a draw 1/2, a bye or a forfeit won 1), then points
    for minus points against, then points for, then the head-to-head. Exit 0; 2 no such event."""
    from dominolog.tournament.director import event_document, load

    with _directing(db, write=False) as store:
        doc = event_document(store, load(store, name), number)
    if as_json:
        _echo_json(doc["standings"])
        return
    after = f"after round {number}" if number is not None else f"after {len(doc['rounds'])} round(s)"
    typer.echo(f"{shown(name)}: standings {after}")
    head = ("place", "entrant", "played", "W", "D", "L", "pts", "for", "against", "diff")
    rows = [head] + [
        (
            str(r["place"]),
            shown(r["entrant"], 40) + (" (withdrawn)" if r["withdrawn"] else ""),
            str(r["played"]),
            str(r["wins"]),
            str(r["draws"]),
            str(r["losses"]),
            f"{r['match_points']:g}",
            str(r["points_for"]),
            str(r["points_against"]),
            f"{r['difference']:+d}",
        )
        for r in doc["standings"]["rows"]
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    for row in rows:
        typer.echo(
            "  ".join(
                c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
        )


@app.command("forfeit")
def forfeit_cmd(
    name: EventName,
    match: Annotated[str, typer.Argument(help="The match the director ends.")],
    winner: Annotated[str | None, typer.Option(help="The entrant who wins by forfeit.")] = None,
    both_lose: Annotated[bool, typer.Option("--both-lose", help="A double forfeit: both sides lose.")] = False,
    reason: Annotated[str, typer.Option(help="Why (kept in the match's log and the event's).")] = "",
    db: DbOption = DEFAULT_DB,
    as_json: JsonOption = False,
) -> None:
    """End a match by the director: --winner X wins by forfeit, or --both-lose. The match is closed as
    abandoned; the forfeit counts in the standings. Exit 0; 1 refused; 2 usage."""
    from dominolog.tournament.director import forfeit

    if (winner is None) == (not both_lose):
        fail("give --winner ENTRANT or --both-lose")
    with _directing(db, write=True) as store:
        forfeit(store, name, match, winner, reason)
    said = f"{shown(winner, 40)} wins by forfeit" if winner else "both sides lose (double forfeit)"
    _answer(as_json, {"match": match, "winner": winner}, f"match {shown(match, 100)} ended by the director: {said}")


@app.command("end")
def end(name: EventName, db: DbOption = DEFAULT_DB, as_json: JsonOption = False) -> None:
    """Close the event (no more rounds). Exit 0; 1 refused."""
    from dominolog.tournament.director import end_event

    with _directing(db, write=True) as store:
        ev = end_event(store, name)
    _answer(as_json, ev.as_dict(), f"event {_summary(ev)}")


@app.command("list")
def list_(db: DbOption = DEFAULT_DB, as_json: JsonOption = False) -> None:
    """The club events in the store, the most recent first."""
    from dominolog.tournament.director import events

    with store_or_fail(db, create=False, write=False) as store:
        found = events(store)
    if as_json:
        _echo_json({"events": [e.as_dict() for e in found]})
        return
    for ev in found:
        typer.echo(_summary(ev))
    typer.echo(f"{len(found)} event{'s' * (len(found) != 1)}")


@app.command("show")
def show(
    name: EventName,
    number: Annotated[int | None, typer.Option("--round", help="Standings after this round.")] = None,
    db: DbOption = DEFAULT_DB,
    as_json: JsonOption = False,
) -> None:
    """Everything about the event: its roster, each round's tables and their state, the standings, and
    any record of its log that did not fit. Exit 0; 2 no such event."""
    from dominolog.tournament.director import event_document, load

    with _directing(db, write=False) as store:
        ev = load(store, name)
        doc = event_document(store, ev, number)
    if as_json:
        _echo_json(doc)
        return
    typer.echo(_summary(ev))
    for e in doc["event"]["entrants"]:
        left = f" (withdrawn after round {e['withdrawn_after']})" if e["withdrawn_after"] is not None else ""
        members = f": {', '.join(shown(p, 40) for p in e['players'])}" if ev.teams else ""
        typer.echo(f"  {shown(e['name'], 40)}{members}{left}")
    for rnd in doc["rounds"]:
        _print_round(rnd)
    for problem in ev.problems:
        typer.echo(f"problem: {shown(problem, 300)}")


@app.command("log")
def log(name: EventName, db: DbOption = DEFAULT_DB) -> None:
    """The event's log as stored, one JSON record a line (its history, to replay or audit)."""
    from dominolog.tournament.director import records_text

    with _directing(db, write=False) as store:
        lines = records_text(store, name)
    for line in lines:
        typer.echo(line)
