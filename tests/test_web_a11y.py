"""Accessibility (issue 27, section 3): axe-core, from the npm registry (``.ci/run`` installs it under
``.ci/node``; ``DOMINOLOG_AXE`` names another ``axe.min.js``), run in the same headless Chromium as a phone
against ``dominolog serve``: the recorder with a match in play, the board and a followed match have no
violation of its WCAG 2 A/AA rules. Without axe-core the test fails, saying how to install it."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tests.phone import Phone
from tests.webserver import Server

MATCH = "club-a11y"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
ROOT = Path(__file__).resolve().parent.parent


def axe_source() -> str:
    path = Path(os.environ.get("DOMINOLOG_AXE") or ROOT / ".ci/node/node_modules/axe-core/axe.min.js")
    if not path.is_file():
        raise AssertionError(
            f"axe-core not found at {path}: install it with `npm install --no-save --prefix .ci/node axe-core@4`"
            " (as .ci/run does) or name its axe.min.js in DOMINOLOG_AXE"
        )
    return path.read_text(encoding="utf-8")


def violations(phone: Phone, source: str) -> list[str]:
    """axe-core's WCAG 2 A/AA violations of the page open in ``phone``, in words."""
    phone.js(source)
    phone.driver.set_script_timeout(30)
    result: dict[str, Any] = phone.driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})"
        ".then(r => done({violations: r.violations.map(v => ({id: v.id, help: v.help,"
        " nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary)}))}), e => done({error: String(e)}));",
        TAGS,
    )
    assert "error" not in result, result
    return [f"{v['id']} ({v['help']}): " + "; ".join(v["nodes"]) for v in result["violations"]]


def _start(s: Server) -> None:
    start = {"type": "match_start", "variant": "ghost13", "players": ["Ana", "Ben"], "id": MATCH}
    headers = {"Content-Type": "application/x-ndjson", **s.auth(s.organiser)}
    r = s.client.post("/api/matches", content=json.dumps(start) + "\n", headers=headers)
    assert r.status_code == 201, r.text
    sim = [json.loads(line) for line in _simulated(s).splitlines()]
    lines = "".join(json.dumps({k: v for k, v in e.items() if k not in ("seq", "hash", "at")}) + "\n" for e in sim[1:4])
    r = s.client.post(f"/api/matches/{MATCH}/events", content=lines, headers=headers)
    assert r.status_code == 201, r.text


def _simulated(s: Server) -> str:
    from tests.conftest import run_cli

    return run_cli("simulate", "--seed", "1", cwd=Path(s.db).parent).out


def test_the_recorder_the_board_and_a_followed_match_have_no_wcag_violations(tmp_path: Path) -> None:
    source = axe_source()
    with Server(tmp_path / "a.db", tmp_path) as server:
        _start(server)
        r = server.client.post("/api/tokens", json={"match": MATCH}, headers=server.auth(server.organiser))
        assert r.status_code == 201, r.text
        phone = Phone(tmp_path)
        try:
            found: dict[str, list[str]] = {}
            phone.open(f"{server.url}/m/{MATCH}/record#token={r.json()['token']}")
            phone.wait(lambda: phone.js("return !!document.querySelector('#events [data-seq=\"4\"]')"), "the play")
            found["recorder"] = violations(phone, source)
            phone.tap('button[data-tile="3-6"]')  # one place: played
            phone.settled()
            found["recorder after a play"] = violations(phone, source)
            for name, path in (("board", "/"), ("followed match", f"/m/{MATCH}")):
                phone.driver.get(server.url + path)
                phone.wait(lambda: phone.js("return document.readyState") == "complete", name)
                found[name] = violations(phone, source)
        finally:
            phone.quit()
    said = "\n".join(f"{page}: {v}" for page, vs in found.items() for v in vs)
    assert said == "", said
