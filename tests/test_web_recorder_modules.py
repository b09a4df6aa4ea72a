"""The recorder's script as plain ES modules (issue 37): the page loads one module, ``record.js`` under
its fingerprinted name, which imports those of ``static/record/`` by relative plain names; those are
served under their plain names, revalidated (``no-cache``, ``ETag``, ``304``), every one of them kept by
the service worker (its ``MODULES``), each well under 300 lines, nothing imported from elsewhere."""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from dominolog.web.assets import modules
from tests.test_web_recorder import MATCH, _start
from tests.webserver import Server

STATIC = resources.files("dominolog.web") / "static"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path / "r.db", tmp_path) as s:
        yield s


def _imports(text: str) -> list[str]:
    return re.findall(r'^import (?:\{[^}]*\} from )?"([^"]+)";', text, re.M)


def test_the_modules_are_the_files_of_static_record() -> None:
    files = sorted(p.name for p in (STATIC / "record").iterdir())
    assert files == ["pad.js", "prompts.js", "queue.js", "reading.js", "state.js", "table.js"]
    assert modules() == files


def test_the_service_worker_keeps_every_module() -> None:
    worker = (STATIC / "record-sw.js").read_text(encoding="utf-8")
    [listed] = re.findall(r"var MODULES = \[([^\]]*)\];", worker)
    assert re.findall(r'"([^"]+)"', listed) == [f"/static/record/{name}" for name in modules()]
    # and its pattern of what it keeps takes each of them (a later load online puts them in again)
    [pattern] = re.findall(r"var ASSET = /(.*)/;", worker)
    for name in modules():
        assert re.search(pattern.replace("\\/", "/"), f"/static/record/{name}")


def test_every_import_is_a_relative_name_of_the_package() -> None:
    entry = (STATIC / "record.js").read_text(encoding="utf-8")
    # the entry names every module: the browser fetches them all together once it has read it (a module
    # named only by another would be fetched after that one: a round trip more on a slow network)
    assert sorted(_imports(entry)) == [f"./record/{name}" for name in modules()]
    for name in modules():
        text = (STATIC / "record" / name).read_text(encoding="utf-8")
        assert len(text.splitlines()) < 250, name
        for target in _imports(text):
            assert re.fullmatch(r"\./[a-z]+\.js", target) and target[2:] in modules(), (name, target)
        assert "import(" not in text and "http" not in text, name


def test_the_modules_import_in_one_direction_only() -> None:
    """No circle among the modules (the architecture's rule, for the scripts too): the modules that change
    the state ask for the page to be drawn again through state.js's show(), which the entry points at
    table.js's draw(), rather than importing the table, which imports them."""
    graph = {
        name: [t[2:] for t in _imports((STATIC / "record" / name).read_text(encoding="utf-8"))] for name in modules()
    }
    assert graph["state.js"] == []  # (the ground floor)
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name not in done:
            for target in graph[name]:
                visit(target, (*path, name))
            done.add(name)

    for name in graph:
        visit(name, ())
    assert "table.js" not in {t for targets in graph.values() for t in targets if t}


def test_the_modules_are_served_revalidated(server: Server) -> None:
    _start(server)
    page = server.client.get(f"/m/{MATCH}/record")
    [src] = re.findall(r'<script type="module" src="(/static/record\.[0-9a-f]{12}\.js)"></script>', page.text)
    assert "script-src 'self';" in page.headers["content-security-policy"]  # no inline script: no hash
    for name in modules():
        r = server.client.get(f"/static/record/{name}")
        assert r.status_code == 200 and r.headers["content-type"] == "text/javascript; charset=utf-8"
        assert r.headers["cache-control"] == "no-cache"
        assert r.text == (STATIC / "record" / name).read_text(encoding="utf-8")
        tag = r.headers["etag"]
        assert re.fullmatch(r'"[0-9a-f]{12}"', tag)
        again = server.client.get(f"/static/record/{name}", headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
        other = server.client.get(f"/static/record/{name}", headers={"If-None-Match": '"000000000000"'})
        assert other.status_code == 200 and other.text == r.text
    assert server.client.get(src).headers["cache-control"] == "public, max-age=31536000, immutable"
    assert server.client.get("/static/record/nothing.js").status_code == 404
