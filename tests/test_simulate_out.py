"""``simulate`` writes its matches as they are made (memory flat in the output, issue 16); ``--out``
goes through a temporary file renamed once whole, so a file there is never left half written."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from tests.conftest import Ran

Cli = Callable[..., Ran]


def test_out_is_the_same_bytes_and_replaces_a_file_only_when_whole(cli: Cli, tmp_path: Path) -> None:
    printed = cli("simulate", "--matches", 3, "--seed", 4, "--variant", "39")
    assert printed.code == 0 and printed.stdout.count(b"\n") > 100
    target = tmp_path / "work" / "m.jsonl"
    target.write_bytes(b"old\n")
    written = cli("simulate", "--matches", 3, "--seed", 4, "--variant", "39", "--out", "m.jsonl")
    assert written.code == 0 and written.out == ""
    assert target.read_bytes() == printed.stdout
    assert sorted(p.name for p in target.parent.iterdir()) == ["m.jsonl"]  # no temporary file left
    folder = tmp_path / "work" / "ro"
    folder.mkdir()
    (folder / "m.jsonl").write_bytes(b"kept\n")
    folder.chmod(0o555)
    try:
        if os.access(folder, os.W_OK):  # root writes anywhere: a missing folder instead
            refused = cli("simulate", "--out", "nowhere/m.jsonl")
        else:
            refused = cli("simulate", "--out", "ro/m.jsonl")
        assert refused.code == 2 and "cannot write" in refused.err
    finally:
        folder.chmod(0o755)
    assert (folder / "m.jsonl").read_bytes() == b"kept\n"
    assert sorted(p.name for p in folder.iterdir()) == ["m.jsonl"]
