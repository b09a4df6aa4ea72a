"""The Ghost 13 search in C (dominolog/analysis/_ghost13c.c) against the Python one it was written
from: the installed package has it (CI builds it: gcc is there), and both give the same values, the
same null-window answers and the same values of every option, on random positions (random and
greedy play, so blocks, locks and Puppeteers come up) and on whole deals."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominolog.analysis import ghost13_search
from dominolog.analysis.ghost13 import Position, Solver, play
from dominolog.analysis.ghost13_search import Search
from tests.test_analysis_ghost13 import deal, pick

CHECKOUT = os.environ.get("DOMINOLOG_TEST_CHECKOUT") == "1"


def test_the_installed_package_has_the_c_search() -> None:
    if CHECKOUT:
        pytest.skip("the checkout has no compiled extension: the installed package is checked (CI)")
    assert ghost13_search.BACKEND == "c", (
        "dominolog.analysis._ghost13c was not built when the package was installed: "
        "a C compiler and the Python headers are needed (apt-get install gcc python3-dev)"
    )
    assert Search().backend == "c" and Search(pure=True).backend == "python"


def _position(seed: int, plays: int, greedy: bool) -> Position:
    rng = random.Random(seed)
    pos = deal(rng)
    for _ in range(plays):
        if pos.over:
            break
        pos = play(pos, pick(pos, rng, greedy))
    return pos


def _node(pos: Position) -> tuple[int, int, int, bool]:
    from dominolog.analysis.ghost13 import _node

    return _node(pos)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), plays=st.integers(9, 24), greedy=st.booleans(), windows=st.integers(0, 2**16))
def test_c_and_python_agree_on_random_positions(seed: int, plays: int, greedy: bool, windows: int) -> None:
    if ghost13_search.BACKEND != "c":
        pytest.skip("no C search to compare (see test_the_installed_package_has_the_c_search)")
    pos = _position(seed, plays, greedy)
    if pos.over:
        return
    c, py = Solver(), Solver(pure=True)
    assert c.search.backend == "c" and py.search.backend == "python"
    assert c.values(pos) == py.values(pos)
    assert c.value(pos) == py.value(pos)
    rng = random.Random(windows)
    me, opp, e, passed = _node(pos)
    fresh_c, fresh_py = Search(), Search(pure=True)
    for _ in range(4):  # fail-soft answers to any window, from an empty table and from a full one
        a = rng.randint(-120, 120)
        b = a + rng.choice([1, 1, 2, 10, 300])
        assert fresh_c.test(me, opp, e, passed, a, b) == fresh_py.test(me, opp, e, passed, a, b)
        assert c.search.test(me, opp, e, passed, a, b) == py.search.test(me, opp, e, passed, a, b)


def test_c_and_python_agree_on_whole_deals() -> None:
    if ghost13_search.BACKEND != "c":
        pytest.skip("no C search to compare (see test_the_installed_package_has_the_c_search)")
    for seed in (3, 8):
        pos = _position(seed, 0, False)
        c, py = Solver(), Solver(pure=True)
        assert c.value(pos) == py.value(pos)
        after = _position(seed, 4, True)
        assert c.values(after) == py.values(after)


def test_a_small_table_loses_entries_not_values() -> None:
    """A table of 2^4 entries keeps almost nothing: the search is slower, the values the same."""
    if ghost13_search.BACKEND != "c":
        pytest.skip("no C search to compare (see test_the_installed_package_has_the_c_search)")
    from dominolog.analysis import _ghost13c  # type: ignore[attr-defined]

    for seed in range(6):
        pos = _position(seed, 14, True)
        if pos.over:
            continue
        me, opp, e, passed = _node(pos)
        tiny, full = _ghost13c.Table(bits=4), Search()
        assert tiny.search(me, opp, e, passed, -1000, 1000) == full.mtd(me, opp, e, passed)
    with pytest.raises(ValueError):
        _ghost13c.Table(bits=2)
    with pytest.raises(ValueError):
        _ghost13c.Table().search(1, 1, 0, False, -1, 1)  # a tile in both hands
