"""The canonical form and the hash chain of FORMAT.md."""

from __future__ import annotations

import hashlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from dominolog.log.hashchain import add_hashes, canonical, canonical_bytes, chain_hash, head

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.text(),  # any code point, control characters and U+2028 included
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)


def reference(event: dict) -> str:
    body = {k: v for k, v in event.items() if k != "hash"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=8), json_values, max_size=6))
def test_fast_canonical_form_is_exactly_the_json_one(event: dict) -> None:
    expected = reference(event)
    assert canonical(event) == expected
    try:
        expected_bytes = expected.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: both paths keep them the same way
        expected_bytes = expected.encode("utf-8", "surrogatepass")
    assert canonical_bytes(event) == expected_bytes
    assert canonical_bytes(event, fast=True) == expected_bytes


def test_floats_keep_json_spelling_on_the_slow_path() -> None:
    event = {"type": "match_start", "options": {"x": 1e16, "y": 1.0}}
    assert canonical_bytes(event) == b'{"options":{"x":1e+16,"y":1.0},"type":"match_start"}'


def test_chain_by_hand() -> None:
    events = [{"type": "match_start", "variant": "ghost13", "players": ["Ana", "Bén"]}, {"type": "note", "text": "ok"}]
    first = hashlib.sha256(reference(events[0]).encode()).hexdigest()
    second = hashlib.sha256((first + reference(events[1])).encode()).hexdigest()
    hashed = add_hashes(events)
    assert [e["hash"] for e in hashed] == [first, second]
    assert head(events) == head(hashed) == second == chain_hash(first, canonical(events[1]))
    assert '"Bén"' in canonical(events[0])  # non-ASCII kept as is
