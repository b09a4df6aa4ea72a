"""The table pictures in docs/ are current, and their SVG says what the layout says."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NS = {"s": "http://www.w3.org/2000/svg"}


def _pictures_module():
    spec = importlib.util.spec_from_file_location("docs_pictures", ROOT / "docs" / "pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PICTURES = _pictures_module()


@pytest.mark.parametrize(("name", "title", "source", "seq"), PICTURES.PICTURES, ids=lambda v: str(v))
def test_docs_pictures_are_current_and_parse(name: str, title: str, source: str, seq: int) -> None:
    text = PICTURES.pictures()[name]
    assert (ROOT / "docs" / name).read_text(encoding="utf-8") == text, "run: python docs/pictures.py"
    root = ET.fromstring(text)
    layout = PICTURES.table_at(source, seq)
    tiles = [g.get("data-tile") for g in root.iterfind(".//s:g[@class='tile']", NS)]
    assert sorted(tiles) == sorted(str(t) for t in layout.on_board)
    pips = root.findall(".//s:circle[@class='pip']", NS)
    assert len(pips) == sum(t.pips for t in layout.on_board)
    ends = {g.get("data-end"): int(g.get("data-value") or -1) for g in root.iterfind(".//s:g[@class='open-end']", NS)}
    assert ends == layout.ends()
    assert root.find("s:text", NS) is not None and title in ET.tostring(root, encoding="unicode")


def test_the_worked_example_table_shows_the_rule_texts_open_ends() -> None:
    layout = PICTURES.table_at("replay", 0)
    by_value: dict[int, list[str]] = {}
    for s in layout.open_sides():
        by_value.setdefault(s.value, []).append(str(s.tile))
    # "3 (off the 3-2 and the 3-3 doublet), 4 (off the 6-4, the 4-4 doublet, and the 1-4), 1 (off the 1-1
    # doublet), and 6 (off the 1-6)"
    assert {v: sorted(set(t)) for v, t in by_value.items()} == {
        3: ["2-3", "3-3"],
        4: ["1-4", "4-4", "4-6"],
        1: ["1-1"],
        6: ["1-6"],
    }
