"""``verify --jobs N``: the files are checked in N processes, and the output is the one ``--jobs 1``
gives, byte for byte and in the same order, whatever the format and the exit status; ``--json`` is
written a match at a time (issue 16)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dominolog.jsontext import c1_escaped
from dominolog.verify import document_chunks
from tests.conftest import ROOT, Ran

Cli = Callable[..., Ran]
REPLAYS = ROOT / "replays"


def test_jobs_give_the_same_output_in_the_same_order(cli: Cli) -> None:
    for extra in ((), ("--json",), ("-q",), ("-v",)):
        one = cli("verify", REPLAYS, *extra)
        two = cli("verify", REPLAYS, *extra, "--jobs", 2)
        assert one.code == two.code == 1  # the disputed replays are invalid
        assert one.stdout == two.stdout and one.stdout
        assert two.err == one.err


def test_jobs_with_expect_head_and_a_single_file(cli: Cli) -> None:
    path = REPLAYS / "ghost13-simulated.jsonl"
    one = cli("verify", path, REPLAYS / "39-simulated.jsonl", "--expect-head", "0123456789")
    two = cli("verify", path, REPLAYS / "39-simulated.jsonl", "--expect-head", "0123456789", "-j", 2)
    assert one.code == two.code == 1 and one.stdout == two.stdout
    assert "fingerprint MISMATCH" in two.out
    alone = cli("verify", path, "--jobs", 4)
    assert alone.code == 0 and alone.stdout == cli("verify", path).stdout
    assert cli("verify", path, "--jobs", 0).code == 2


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.dictionaries(
            st.text(max_size=5),
            st.recursive(
                st.none() | st.booleans() | st.integers() | st.text() | st.floats(allow_nan=False),
                lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=3), kids, max_size=3),
                max_leaves=8,
            ),
            max_size=4,
        ),
        max_size=4,
    )
)
def test_the_json_document_written_a_match_at_a_time_is_the_one_document(matches: list[dict[str, Any]]) -> None:
    """``verify --json`` writes its document as the matches are checked (memory flat in the input): the
    text is exactly ``json.dumps`` of the whole document, the C1 controls escaped (and nothing else
    changed: tests/test_json_output.py)."""
    text = "".join(document_chunks(iter(matches)))
    assert text == c1_escaped(json.dumps({"matches": matches}, indent=2, ensure_ascii=False))
    assert json.loads(text) == {"matches": matches}
