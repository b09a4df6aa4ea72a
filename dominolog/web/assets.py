"""Static files under fingerprinted names (issue 36): ``/static/record.<hash>.js`` is the package's
``static/record.js``, its name carrying the first 12 hex digits of its SHA-256, served
``Cache-Control: public, max-age=31536000, immutable`` (a new version is a new name: a page names the
one it was rendered with). The plain names (``/static/record.js``) are still served, revalidated.

``record.js`` is an ES module (issue 37): it imports the modules of ``static/record/`` by relative plain
names (``./record/state.js``), and they import one another so. Those are served under their plain
names, ``/static/record/NAME.js``, ``Cache-Control: no-cache`` with an ``ETag`` (the first 12 hex digits
of the file's SHA-256): the browser asks again each time and is answered ``304`` while the file is the
same. Fingerprinting them too would mean rewriting every ``import`` when serving (the names imported
are written in the files): only the entry is fingerprinted, the page naming it. The service worker
(``static/record-sw.js``) keeps every one of them (its ``MODULES``) for a reload offline.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources

from fastapi import APIRouter, Request
from fastapi.responses import Response

#: the files served under a fingerprinted name, with their media types
FINGERPRINTED = {"record.js": "text/javascript; charset=utf-8"}
IMMUTABLE = "public, max-age=31536000, immutable"
JAVASCRIPT = "text/javascript; charset=utf-8"

router = APIRouter()


@cache
def _read(name: str) -> tuple[bytes, str]:
    data = (resources.files("dominolog.web") / "static").joinpath(*name.split("/")).read_bytes()
    return data, hashlib.sha256(data).hexdigest()[:12]


def asset_url(name: str) -> str:
    """The fingerprinted address of ``static/NAME`` (one of :data:`FINGERPRINTED`)."""
    stem, _, ext = name.rpartition(".")
    return f"/static/{stem}.{_read(name)[1]}.{ext}"


def modules() -> list[str]:
    """The names of the recorder's modules (``static/record/*.js``), sorted."""
    folder = resources.files("dominolog.web") / "static" / "record"
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".js"))


def _route(name: str) -> None:
    media = FINGERPRINTED[name]

    async def asset() -> Response:
        return Response(_read(name)[0], media_type=media, headers={"Cache-Control": IMMUTABLE})

    router.add_api_route(asset_url(name), asset, methods=["GET"], include_in_schema=False)


def _module_route(name: str) -> None:
    path = f"record/{name}"

    async def module(request: Request) -> Response:
        data, digest = _read(path)
        tag = f'"{digest}"'
        headers = {"Cache-Control": "no-cache", "ETag": tag}
        if tag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers=headers)
        return Response(data, media_type=JAVASCRIPT, headers=headers)

    router.add_api_route(f"/static/{path}", module, methods=["GET"], include_in_schema=False)


for _name in FINGERPRINTED:
    _route(_name)
for _name in modules():
    _module_route(_name)
