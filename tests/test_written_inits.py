"""The dataclasses whose ``__init__`` is written out, held to their fields.

In the compiled build the ``__init__`` that ``@dataclass`` makes is Python run by the interpreter, so
the classes made once per line of a log (the events, the reader's records, the placements) write
theirs out with ``init=False`` (``dominolog/events/kinds.py`` says why). Such an ``__init__`` must take
the fields in their order, with their defaults, and set each one: read from the source (the compiled
build hides its signatures), for every such class of the package. Then each is built and copied and
pickled through the installed build.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import pickle
from pathlib import Path

import dominolog
from dominolog.events import EVENT_CLASSES
from dominolog.log.reader import Record
from dominolog.state import Placement
from dominolog.tiles import Tile

PACKAGE = Path(dominolog.__file__).resolve().parent


def _written_out() -> dict[str, ast.ClassDef]:
    """Every ``@dataclass(..., init=False)`` class of the package with its own ``__init__``."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            for deco in node.decorator_list:
                if (
                    isinstance(deco, ast.Call)
                    and getattr(deco.func, "id", None) == "dataclass"
                    and any(k.arg == "init" and getattr(k.value, "value", None) is False for k in deco.keywords)
                ):
                    found[f"{path.relative_to(PACKAGE)}:{node.name}"] = node
    return found


#: what a written-out ``__init__`` puts in place of ``None`` for a field made by ``default_factory``
_MADE = {"list": "[]", "dict": "{}", "set": "set()"}


def _expected(target: str, annotation: str, value: ast.expr | None) -> tuple[tuple[str, str, str | None], str]:
    """A field as its ``__init__`` must take it (name, annotation, default as source) and what it must
    set it to: ``field(default=X)`` is a default of ``X``; ``field(default_factory=list)`` is a default
    of ``None`` and ``[] if name is None else name``."""
    if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "field":
        for k in value.keywords:
            if k.arg == "default":
                return (target, annotation, ast.unparse(k.value)), target
            if k.arg == "default_factory":
                made = _MADE[ast.unparse(k.value)]
                return (target, f"{annotation} | None", "None"), f"{made} if {target} is None else {target}"
        return (target, annotation, None), target
    return (target, annotation, None if value is None else ast.unparse(value)), target


def _set(statement: ast.stmt) -> tuple[str, str] | None:
    """What a line of an ``__init__`` sets: ``self.x = v`` or, in a frozen class,
    ``object.__setattr__(self, "x", v)``, as (x, v's source)."""
    if isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Attribute):
        return statement.targets[0].attr, ast.unparse(statement.value)
    if (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Call)
        and ast.unparse(statement.value.func) == "object.__setattr__"
    ):
        _, name, value = statement.value.args
        assert isinstance(name, ast.Constant)
        return name.value, ast.unparse(value)
    return None


def test_each_written_out_init_takes_its_fields_in_order_with_their_defaults() -> None:
    classes = _written_out()
    names = {key.split(":")[1] for key in classes}
    assert names >= {*(c.__name__ for c in EVENT_CLASSES.values()), "Record", "Placement", "Prepared"}, names
    assert names >= {"HandState", "Holding", "Issue", "PendingCheck", "Side", "Placed", "LineLayout", "GridLayout"}
    for key, node in classes.items():
        expected = [
            _expected(s.target.id, ast.unparse(s.annotation), s.value)
            for s in node.body
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
        ]
        fields = [param for param, _ in expected]
        inits = [s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"]
        assert len(inits) == 1, f"{key}: init=False and no __init__ of its own"
        args = inits[0].args
        params = args.args[1:]
        defaults = [None] * (len(params) - len(args.defaults)) + [ast.unparse(d) for d in args.defaults]
        got = [
            (p.arg, ast.unparse(p.annotation) if p.annotation else None, d)
            for p, d in zip(params, defaults, strict=True)
        ]
        assert got == fields, f"{key}: __init__ {got} is not its fields {fields}"
        sets = [_set(s) for s in inits[0].body]
        assert sets == [(param[0], value) for param, value in expected], f"{key}: __init__ sets {sets}"


def test_each_event_class_names_its_type_and_survives_copy_and_pickle() -> None:
    for kind, cls in EVENT_CLASSES.items():
        required = [f for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING]
        values = {"variant": "ghost13", "players": ["Ana", "Ben"], "leader": "Ana", "player": "Ana"}
        values |= {"suit": "3", "tiles": ["1-2"], "text": "a note"}
        event = cls(**{f.name: values[f.name] for f in required}, seq=7, given=frozenset({"seq"}))
        assert event.type == kind
        for again in (copy.copy(event), copy.deepcopy(event), pickle.loads(pickle.dumps(event))):
            assert again == event and type(again) is cls
            assert again.seq == 7 and set(again.given) == {"seq"}


def test_records_and_placements_survive_copy_and_pickle() -> None:
    record = Record(3, 2, b'{"type":"pass"}', {"type": "pass"}, None, "why", canon=b"{}")
    placement = Placement(9, "Ben", Tile(5, 3), "left", (3, 6))
    for thing in (record, placement):
        for again in (copy.copy(thing), pickle.loads(pickle.dumps(thing))):
            assert again == thing
    assert Record(1, 1, b"x").is_json is False
    assert copy.copy(Record(1, 1, b"x")).is_json is False
