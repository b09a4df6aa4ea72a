"""Static files under fingerprinted names (issue 36): ``/static/record.<hash>.js`` is the package's
``static/record.js``, its name carrying the first 12 hex digits of its SHA-256, served
``Cache-Control: public, max-age=31536000, immutable`` (a new version is a new name: a page names the
one it was rendered with). The plain names (``/static/record.js``) are still served, revalidated.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources

from fastapi import APIRouter
from fastapi.responses import Response

#: the files served under a fingerprinted name, with their media types
FINGERPRINTED = {"record.js": "text/javascript; charset=utf-8"}
IMMUTABLE = "public, max-age=31536000, immutable"

router = APIRouter()


@cache
def _read(name: str) -> tuple[bytes, str]:
    data = (resources.files("dominolog.web") / "static" / name).read_bytes()
    return data, hashlib.sha256(data).hexdigest()[:12]


def asset_url(name: str) -> str:
    """The fingerprinted address of ``static/NAME`` (one of :data:`FINGERPRINTED`)."""
    stem, _, ext = name.rpartition(".")
    return f"/static/{stem}.{_read(name)[1]}.{ext}"


def _route(name: str) -> None:
    media = FINGERPRINTED[name]

    async def asset() -> Response:
        return Response(_read(name)[0], media_type=media, headers={"Cache-Control": IMMUTABLE})

    router.add_api_route(asset_url(name), asset, methods=["GET"], include_in_schema=False)


for _name in FINGERPRINTED:
    _route(_name)
