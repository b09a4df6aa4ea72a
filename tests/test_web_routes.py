"""The web face reaches its state one way (issue 37, item 4).

Every route is a coroutine function: none runs on Starlette's thread pool, where a store would be
opened past the :data:`~dominolog.web.stores.STORE_THREADS` cap and a write would bypass the one
writer of a SQLite store. A route declares what it needs (:data:`~dominolog.web.shared.WebState`) and
reaches the store only through ``app.stores.run(work)`` (reads) or ``app.stores.write(work)`` (writes):
no web module but ``stores.py`` (which opens the stores) and ``shared.py`` (which hands the routes
:class:`~dominolog.web.shared.Web`) opens a store, takes a thread's store by hand, or reads the app's
state for it."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from starlette.routing import Mount

from dominolog.web.app import create_app

WEB = Path(__file__).resolve().parent.parent / "dominolog" / "web"
#: the modules that may touch a store directly: the one that opens them, the one that hands them out
ALLOWED = {"stores.py", "shared.py"}
#: the functions that use a thread's recording session (``Stores.session``/``forget``): each is called
#: only by the work given to ``Stores.run`` (a reader's thread) or ``Stores.write`` (the writer's)
SESSION_USERS = {
    ("api.py", "_with_recorder_state"),  # (in _write: the work of Stores.write)
    ("api.py", "_appended"),  # (in _write, through _answer)
    ("recorder.py", "_state"),  # (the work of Stores.run in recorder_document)
}


def _fastapi(app: object) -> object:
    """The FastAPI app inside the middleware :func:`create_app` wraps it in."""
    while not hasattr(app, "routes"):
        app = app.app  # type: ignore[attr-defined]
    return app


def _endpoints(routes: list[object], prefix: str = "") -> list[tuple[str, object]]:
    """Each route's methods and path, and its endpoint (the routers FastAPI includes as they are: their
    routes)."""
    found: list[tuple[str, object]] = []
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            found += _endpoints(included.routes, prefix + included.prefix)
        elif not isinstance(route, Mount):
            found.append((f"{sorted(route.methods or [])} {prefix}{route.path}", route.endpoint))  # type: ignore[attr-defined]
    return found


def test_every_route_is_a_coroutine_function(tmp_path: Path) -> None:
    from dominolog.store import open_store

    db = tmp_path / "m.db"
    open_store(str(db), create=True).close()
    app = _fastapi(create_app(str(db), analyse=False))
    endpoints = dict(_endpoints(app.routes))  # type: ignore[attr-defined]
    assert len(endpoints) > 50
    sync = sorted(name for name, endpoint in endpoints.items() if not inspect.iscoroutinefunction(endpoint))
    assert sync == []


def _hand_reached(path: Path) -> list[str]:
    """Where a module reaches the store other than through ``Stores.run``/``write``: ``open_store``
    named, ``X.stores.get()`` (a thread's store taken by hand), ``app.state.web`` read, or a session
    used outside :data:`SESSION_USERS`."""
    tree = ast.parse(path.read_text(), str(path))
    found: list[str] = []

    def walk(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            if isinstance(child, ast.Name) and child.id == "open_store":
                found.append(f"{path.name}:{child.lineno} open_store")
            if isinstance(child, ast.alias) and child.name.split(".")[-1] == "open_store":
                found.append(f"{path.name}:{child.lineno} imports {child.name}")
            if isinstance(child, ast.Attribute):
                inside = child.value
                if child.attr == "open_store":
                    found.append(f"{path.name}:{child.lineno} open_store")
                if isinstance(inside, ast.Attribute) and inside.attr == "stores":
                    if child.attr == "get":
                        found.append(f"{path.name}:{child.lineno} stores.get")
                    if child.attr in ("session", "forget") and (path.name, function) not in SESSION_USERS:
                        found.append(f"{path.name}:{child.lineno} stores.{child.attr} in {function}")
                if (
                    child.attr == "web"
                    and isinstance(inside, ast.Attribute)
                    and inside.attr == "state"
                    and not isinstance(child.ctx, ast.Store)
                ):
                    found.append(f"{path.name}:{child.lineno} app.state.web read")
            walk(child, inner)

    walk(tree, "")
    return found


def test_no_web_module_reaches_a_store_by_hand() -> None:
    modules = sorted(p for p in WEB.glob("*.py") if p.name not in ALLOWED)
    assert len(modules) > 15
    assert [line for path in modules for line in _hand_reached(path)] == []


def test_the_check_sees_each_way_by_hand(tmp_path: Path) -> None:
    """The check itself: each way a route used to reach its state is found."""
    source = tmp_path / "route.py"
    source.write_text(
        "from dominolog.store import open_store\n"
        "def route(request):\n"
        "    store = request.app.state.web.stores.get()\n"
        "    request.app.state.web.stores.session('m')\n"
    )
    assert sorted(_hand_reached(source)) == [
        "route.py:1 imports open_store",
        "route.py:3 app.state.web read",
        "route.py:3 stores.get",
        "route.py:4 app.state.web read",
        "route.py:4 stores.session in route",
    ]


@pytest.mark.parametrize("variant", ["ghost13", "double-draw", "double-bergen", "39", "brettspielnetz"])
def test_the_recorder_picture_is_the_session_state_drawn(variant: str, tmp_path: Path) -> None:
    """The recorder's picture is drawn from the session's fold (not the match folded again): at every
    event of a match, byte for byte what ``table_picture`` draws from the records, the same note too."""
    from dominolog.export import NoPicture, table_picture
    from dominolog.log.writer import dump_line
    from dominolog.recording.journal import FileJournal
    from dominolog.recording.session import Session
    from dominolog.simulate import simulate_match
    from dominolog.web.recorder_state import recorder_state

    events = simulate_match(variant, 5)
    path = tmp_path / "m.jsonl"
    drawn = 0
    for count in range(1, len(events) + 1):
        path.write_text("".join(dump_line(e) + "\n" for e in events[:count]), encoding="utf-8")
        session = Session(FileJournal(path), now=None)
        doc = recorder_state(session, "m")
        records = session.records()
        picture, note = None, None
        try:
            picture = table_picture("m", records) if session.reducer.hand is not None else None
        except NoPicture as exc:
            note = str(exc)
        assert (count, doc["picture"], doc["picture_note"]) == (count, picture, note)
        drawn += picture is not None
    assert drawn > len(events) // 2
