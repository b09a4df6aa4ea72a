"""The store's analysis cache (dominolog.store.analyses, dominolog.analysis.cache): kept by match head,
analysis version and settings; added to older stores; absent from a read-only one; damaged rows ignored."""

from __future__ import annotations

import shutil
from pathlib import Path

from dominolog.analysis.cache import VERSION, kept_review, settings_of
from dominolog.cli.common import read_matches
from dominolog.store import open_store

ROOT = Path(__file__).resolve().parent.parent
REPLAY = ROOT / "replays" / "ghost13-simulated.jsonl"


def _store(path: Path) -> tuple[str, str]:
    with open_store(path) as store:
        assert [r.status for r in store.import_matches(read_matches(REPLAY))] == ["imported"]
        row = store.list_matches()[0]
        return row["id"], row["head"]


def test_a_review_is_kept_by_head_version_and_settings(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    mid, head = _store(db)
    whole = settings_of()
    part = settings_of(hand=2)
    with open_store(db, create=False) as store:
        assert store.analysis(mid, head, VERSION, whole) is None
        assert kept_review(store, mid, head) is None
        store.save_analysis(mid, head, VERSION, part, {"hands": [2]})
        assert kept_review(store, mid, head) == {"hands": [2]}  # only a part: the newest of any
        store.save_analysis(mid, head, VERSION, whole, {"hands": [1, 2]})
        store.save_analysis(mid, head, VERSION, whole, {"hands": [1, 2, 3]})  # replaces, same key
        assert store.analysis(mid, head, VERSION, whole) == {"hands": [1, 2, 3]}
        assert store.analysis(mid, head, VERSION, part) == {"hands": [2]}
        assert store.analysis(mid, head, str(int(VERSION) + 1), whole) is None
        assert store.analysis(mid, "0" * len(head), VERSION, whole) is None  # the match has grown: not its analysis
        assert store.analysis(mid, head, VERSION, settings_of(samples=20, seed=0)) is None
        assert kept_review(store, mid, head) == {"hands": [1, 2, 3]}  # the whole one before the part
        assert store.conn.execute("SELECT count(*) FROM analyses").fetchone() == (2,)
        # a row damaged behind the store's back reads as no analysis
        store.conn.execute("UPDATE analyses SET review = '{not json' WHERE settings = '{}'")
        store.conn.commit()
        assert store.analysis(mid, head, VERSION, whole) is None
        assert kept_review(store, mid, head) == {"hands": [2]}


def test_a_review_kept_before_the_hidden_games_luck_is_not_shown_as_current(tmp_path: Path) -> None:
    # issue 38 added the luck of the hidden games' deals and draws to the sampled reviews: a review kept
    # under version "1" has none, so it is not the match's analysis any more (analysed again when asked)
    assert VERSION == "2"
    db = tmp_path / "s.db"
    mid, head = _store(db)
    with open_store(db, create=False) as store:
        store.save_analysis(mid, head, "1", settings_of(), {"hands": [1]})
        assert kept_review(store, mid, head) is None
        store.save_analysis(mid, head, VERSION, settings_of(), {"hands": [1, 2]})
        assert kept_review(store, mid, head) == {"hands": [1, 2]}


def test_an_old_store_gets_the_cache_and_a_read_only_one_has_none(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    mid, head = _store(db)
    with open_store(db, create=False) as store:
        store.conn.execute("DROP TABLE analyses")
        store.conn.commit()
    ro = tmp_path / "ro"
    ro.mkdir()
    shutil.copyfile(db, ro / "s.db")
    (ro / "s.db").chmod(0o444)
    ro.chmod(0o555)
    try:
        with open_store(ro / "s.db", create=False, write=False) as store:
            assert store.read_only
            assert store.analysis(mid, head, VERSION, {}) is None and kept_review(store, mid, head) is None
    finally:
        ro.chmod(0o755)
    with open_store(db, create=False, write=False) as store:  # writable: the table comes back
        assert "analyses" in store.db.table_names()
        store.save_analysis(mid, head, VERSION, {}, {"ok": True})
    with open_store(db, create=False, write=False) as store:
        assert kept_review(store, mid, head) == {"ok": True}
