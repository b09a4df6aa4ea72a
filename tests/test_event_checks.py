"""The hand-written event checks (the fast path) against the pydantic models (the reference).

``dominolog.events.checks.fast_event`` may only answer when it is sure: every event it returns is
the one the models make of the same object, and it never accepts what the models refuse. These
tests hold it to that on every line of the bundled replays, on simulated matches of every variant
(full and hidden), and on hypothesis-made objects: valid events with a field changed to any JSON
value, a key added or dropped, hostile strings.
"""

from __future__ import annotations

import contextlib
import dataclasses
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominolog.events import EVENT_CLASSES, check_event, checks, parse_event
from dominolog.events.checks import fast_event
from dominolog.events.models import EVENT_MODELS, validate
from dominolog.log.reader import decode_line
from dominolog.simulate import hide_match, simulate_match
from tests.test_properties import CONFIGS

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


def _same(obj: Any) -> bool:
    """Whether the fast path and the models agree on ``obj``; True when the fast path answered."""
    fast = fast_event(obj)
    event, error = validate(obj)
    if fast is None:
        return False
    assert error is None, f"the fast path accepted what the models refuse ({error}): {obj!r}"
    assert fast == event
    assert type(fast) is type(event)
    assert set(fast.given) == set(event.given), obj
    return True


def _corpus() -> list[dict[str, Any]]:
    out = []
    for path in sorted(REPLAYS.rglob("*.jsonl")):
        for line in path.read_bytes().splitlines():
            if line.strip():
                with contextlib.suppress(orjson.JSONDecodeError):
                    out.append(orjson.loads(line))
    return out


def test_the_event_classes_have_the_models_fields() -> None:
    models = {m.model_fields["type"].annotation.__args__[0]: m for m in EVENT_MODELS}  # type: ignore[union-attr]
    assert set(models) == set(EVENT_CLASSES)
    for kind, cls in EVENT_CLASSES.items():
        fields = {f.name for f in dataclasses.fields(cls)} - {"given"}
        assert fields == set(models[kind].model_fields) - {"type"}, kind


def test_every_event_of_the_bundled_replays_takes_the_fast_path() -> None:
    corpus = _corpus()
    assert len(corpus) > 5_000
    answered = sum(_same(obj) for obj in corpus)
    refused = sum(validate(obj)[1] is not None for obj in corpus)
    # the replays hold broken lines on purpose (disputes, hostile examples): the models judge those
    assert answered == len(corpus) - refused
    assert answered > 0.95 * len(corpus)


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{c[0]}-{len(c[1])}p" for c in CONFIGS])
@pytest.mark.parametrize("hidden", [False, True], ids=["full", "hidden"])
def test_simulated_matches_take_the_fast_path(config: tuple[str, tuple[str, ...], Any], hidden: bool) -> None:
    variant, players, options = config
    for seed in range(3):
        events = simulate_match(variant, seed, players=list(players), options=options)
        if hidden:
            events = hide_match(events)
        assert all(_same(e) for e in events)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=50),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=10,
)
#: strings near the limits and the patterns: names with control characters, tiles out of the set, ...
NEAR_TEXTS = [
    "",
    "Ana",
    "Ben",
    "A" * 40,
    "A" * 41,
    "Ana\x1b[31m",
    "Ana\x85",
    "Ana\x7f",
    "[bold]Ana[/]",
    "é" * 40,
    "é" * 41,
    "3-5",
    "5-3",
    "7-1",
    "3-5:N",
    "3-5:Q",
    "left",
    "right",
    "Left",
    "3-5\n",
    "even",
    "odd",
    "abandoned",
    "2026-11-21T19:04:11Z",
    "2026-11-21 19:04:11.5+01:00",
    "2026-11-21T19:04:11",
    "2026-11-2１T19:04:11Z",
    "a" * 64,
    "A" * 64,
    "0" * 63,
    "x" * 2000,
    "x" * 2001,
]
NEAR = st.sampled_from(NEAR_TEXTS)
VALUES = JSON | NEAR | st.lists(NEAR, max_size=5) | st.dictionaries(NEAR, NEAR | st.integers(), max_size=5)
FIELDS = ["type", "seq", "at", "hash", "player", "tile", "end", "tiles", "leader", "dealer", "hands"]
FIELDS += ["start_tile", "chooser", "points", "winner", "totals", "reason", "text", "suit", "variant"]
FIELDS += ["players", "options", "id", "meta", "extra"]
SAMPLES = [e for seed in range(2) for c in CONFIGS for e in simulate_match(c[0], seed, players=list(c[1]))]
SAMPLES += [
    {"type": "note", "text": "hi", "player": "Ana"},
    {"type": "undo", "reason": "slip"},
    {"type": "undo"},
    {"type": "match_end", "reason": "abandoned", "winner": None},
    {"type": "hand_end", "winner": ["Ana", "Cleo"], "points": {"Ana": 3, "Cleo": 3}},
    {"type": "play", "player": "Ana", "tiles": ["1-2", "2-3"]},
    {"type": "block_call", "player": "Ana"},
    {"type": "declare", "player": "Ana", "suit": "odd"},
]
#: one event of each shape (type and keys) of the samples
SHAPES = list({(e["type"], tuple(sorted(e))): e for e in SAMPLES}.values())
#: values that are not strings: of each JSON kind, near the limits of numbers and of lists
OTHERS: list[Any] = [None, True, False, 0, 1, -1, 2**63 - 1, 2**63, 1.0, [], {}, ["3-5"], ["3-5", "5-5"]]
OTHERS += [["3-5", "5-5", "1-1"], ["Ana", "Ben"], ["Ana", "Ana"], ["Ana", "Ben", "Cleo", "Dev", "Eve"], ["Ana", None]]
OTHERS += [{"Ana": 1}, {"Ana": True}, {"Ana": 1.5}, {"Ana": ["3-5"]}, {"Ana": None, "Ben": ["1-1", "7-7"]}]
OTHERS += [
    {k: 1 for k in ("A", "B", "C", "D", "E")},
    {"x" * 41: "v"},
    {"k": "v" * 501},
    {str(i): "v" for i in range(51)},
]


@pytest.mark.parametrize("base", SHAPES, ids=lambda e: e["type"])
def test_every_field_set_to_every_hostile_value_gets_the_models_answer(base: dict[str, Any]) -> None:
    """Each field of each shape of event set to each value near a limit or of another kind (and
    dropped): a grid, not a sample, so that no limit of the checks can drift from the models'."""
    answered = 0
    for key in [*base, "extra"]:
        for value in [*NEAR_TEXTS, *OTHERS, ...]:
            obj = dict(base)
            if value is ...:
                obj.pop(key, None)
            else:
                obj[key] = value
            answered += _same(obj)
    assert answered > 0


CHANGED = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@CHANGED
@given(
    base=st.sampled_from(SAMPLES),
    changes=st.lists(st.tuples(st.sampled_from(FIELDS), VALUES | st.just(...)), min_size=1, max_size=3),
)
def test_a_changed_event_gets_the_models_answer(base: dict[str, Any], changes: list[tuple[str, Any]]) -> None:
    obj = dict(base)
    for key, value in changes:
        if value is ...:
            obj.pop(key, None)
        else:
            obj[key] = value
    _same(obj)
    event, error = check_event(obj)  # what the reader and parse_event use
    assert (event, error) == validate(obj)


@settings(max_examples=200, deadline=None)
@given(obj=JSON)
def test_any_json_value_gets_the_models_answer(obj: Any) -> None:
    _same(obj)
    assert check_event(obj) == validate(obj)


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=200) | st.builds(lambda s: s.encode(), st.text(max_size=100)))
def test_a_fuzzed_line_reads_as_the_models_read_it(data: bytes) -> None:
    rec = decode_line(data, 1, 1)
    if rec.is_json and not rec.raw_only:  # JSON as written: judged as an event
        assert (rec.event, rec.error) == validate(rec.value)


def test_messages_come_from_the_models() -> None:
    with pytest.raises(ValueError, match=r"play: tile: '7-1' is not a tile of the double-six set"):
        parse_event({"type": "play", "player": "Ana", "tile": "7-1"})
    why = "pass: player: 'Ana\\x1b' holds a control character"
    assert check_event({"type": "pass", "player": "Ana\x1b"}) == (None, why)
    assert check_event([1]) == (None, "an event is a JSON object, got list")


#: one character of a time or of a hash, and its near misses (other digits, cases, marks, non-ASCII)
_TIME_CHARS = st.sampled_from("0123456789-:.TtZz +aAfFgG_１\u0660é\x00")


def _near_time(base: str) -> st.SearchStrategy[str]:
    """``base`` with characters changed, dropped or added."""
    return st.lists(st.tuples(st.integers(0, len(base)), st.integers(0, 2), _TIME_CHARS), max_size=3).map(
        lambda edits: _edited(base, edits)
    )


def _edited(base: str, edits: list[tuple[int, int, str]]) -> str:
    text = base
    for at, how, char in edits:
        at = min(at, len(text))
        text = (
            text[:at] + char + text[at + 1 :]
            if how == 0
            else text[:at] + text[at + 1 :]
            if how == 1
            else text[:at] + char + text[at:]
        )
    return text


TIMES = ["2026-11-21T19:04:11Z", "2026-11-21 19:04:11.5+01:00", "2026-11-21t19:04:11.123456789-05:30"]
TIMES += ["2026-11-21T19:04:11.1234567890z", "9999-99-99T99:99:99+99:99"]


@settings(max_examples=400, deadline=None)
@given(text=st.sampled_from(TIMES).flatmap(_near_time) | st.text(_TIME_CHARS, max_size=40))
def test_the_time_check_takes_what_the_pattern_takes(text: str) -> None:
    assert checks._time(text) == (checks._TIME.fullmatch(text) is not None), text


HASHES = ["0" * 64, "0123456789abcdef" * 4, "f" * 64]


@settings(max_examples=400, deadline=None)
@given(text=st.sampled_from(HASHES).flatmap(_near_time) | st.text(_TIME_CHARS, min_size=60, max_size=68))
def test_the_hash_check_takes_what_the_pattern_takes(text: str) -> None:
    assert checks._hash(text) == (checks._HEX.fullmatch(text) is not None), text


def test_the_time_and_hash_checks_on_known_spellings() -> None:
    assert [checks._time(t) for t in TIMES] == [True] * 5
    assert [checks._time(t) for t in ("2026-11-21T19:04:11", "2026-11-2１T19:04:11Z", "2026-11-21T19:04:11.Z")] == [
        False
    ] * 3
    assert [checks._hash(h) for h in HASHES] == [True] * 3
    assert [checks._hash(h) for h in ("A" * 64, "0" * 63, "0" * 65, "g" * 64, "０" * 64)] == [False] * 5
