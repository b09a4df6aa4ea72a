"""Every ruling (docs/rulings.md) of the variants we implement has a test that names it, and the
rulebook in seeds/ cites it; docs/rulings.md restates exactly the rulings of the project's steering
document when that is beside the checkout (as in CI)."""

from __future__ import annotations

import re
from pathlib import Path

from dominolog.variants import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
OURS = ROOT / "docs" / "rulings.md"
STEERING = ROOT.parent / "shared" / "RULINGS.md"
PREFIX = {"ghost13": "G", "brettspielnetz": "B", "39": "T", "double-bergen": "D", "double-draw": "E"}


def _all_ids() -> list[str]:
    return re.findall(r"^- \*\*([A-Z]\d+)\*\* ", OURS.read_text(encoding="utf-8"), re.M)


def _ruling_ids() -> list[str]:
    wanted = {"C"} | {PREFIX[name] for name in VARIANTS}
    return [i for i in _all_ids() if i[0] in wanted]


def _test_names() -> set[str]:
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        names.update(re.findall(r"^def (test_ruling_[A-Z]\d+_\w+)", path.read_text(encoding="utf-8"), re.M))
    return names


def test_our_rulings_restate_every_ruling_and_no_other() -> None:
    ids = _all_ids()
    assert len(ids) == len(set(ids)) == 5 + 10 + 7 + 12 + 8 + 7
    if STEERING.exists():  # beside the checkout in CI; a user's clone does not need it
        assert ids == re.findall(r"^- ([A-Z]\d+) ", STEERING.read_text(encoding="utf-8"), re.M)


def test_every_ruling_has_a_test_naming_it() -> None:
    names = _test_names()
    missing = [i for i in _ruling_ids() if not any(n.startswith(f"test_ruling_{i}_") for n in names)]
    assert missing == []


def test_every_ruling_is_cited_in_its_rulebook() -> None:
    ids = _ruling_ids()
    for name in VARIANTS:
        book = ROOT / "seeds" / f"{name}.md"
        assert book.exists(), f"seeds/{name}.md is missing"
        text = book.read_text(encoding="utf-8")
        own = [i for i in ids if i[0] in ("C", PREFIX[name])]
        missing = [i for i in own if not re.search(rf"\b{i}\b", text)]
        assert missing == [], f"seeds/{name}.md does not cite {missing}"
