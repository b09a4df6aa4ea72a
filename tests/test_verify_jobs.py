"""``verify --jobs N``: the files are checked in N processes, and the output is the one ``--jobs 1``
gives, byte for byte and in the same order, whatever the format and the exit status (issue 16)."""

from __future__ import annotations

from collections.abc import Callable

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
