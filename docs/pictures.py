"""Rebuild the table pictures in docs/: ``python docs/pictures.py`` with dominolog installed.

``tests/test_pictures.py`` checks that the files are what this writes, and parses them.
"""

from __future__ import annotations

from pathlib import Path

from dominolog.layouts.picture import svg_picture
from dominolog.log.reader import iter_matches
from dominolog.log.writer import dump_line
from dominolog.reducer import reduce_match
from dominolog.simulate import simulate_match

ROOT = Path(__file__).resolve().parent.parent

DOCS = ROOT / "docs"
#: (file, title, where the log comes from, the seq to draw)
PICTURES = [
    ("39-worked-example.svg", "39: the rule text's worked example, after play #12", "replay", 0),
    ("double-bergen-4-players.svg", "Double Bergen, 4 players: hand 1 after seq 24", "simulated", 24),
]


def table_at(source: str, seq: int):
    if source == "replay":
        (log,) = iter_matches(ROOT / "replays" / "39-worked-example.jsonl")
    else:
        events = simulate_match("double-bergen", 3, 0, ["Ana", "Ben", "Cleo", "Dev"])
        (log,) = iter_matches("simulated", "".join(dump_line(e) + "\n" for e in events).encode())
    upto = seq or log.records[-1].seq
    hand = reduce_match(log, upto).state.hand
    return hand.layout


def pictures() -> dict[str, str]:
    out = {}
    for name, title, source, seq in PICTURES:
        layout = table_at(source, seq)
        ends = ", ".join(f"{s.name} {s.value}" for s in layout.open_sides())
        out[name] = svg_picture(layout, title, f"open ends: {ends}")
    return out


def main() -> None:
    for name, text in pictures().items():
        (DOCS / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
