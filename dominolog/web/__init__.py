"""``dominolog serve``: the club night in the browser (issue 26). A face: it holds no rules and no
figures of its own, and calls the layers below (the store's append with its checks, the verify
report, the SVG picture of ``export --format svg``).

- :mod:`~dominolog.web.app`: the app factory (FastAPI on Starlette), its middleware (body size,
  security headers) and error bodies;
- :mod:`~dominolog.web.shared`: what the routes share (:class:`~dominolog.web.shared.Web`: the
  store, the poller, the rate) and the security headers;
- :mod:`~dominolog.web.stores`: a store per worker thread (the writes to a SQLite file on one thread),
  the recording sessions kept between requests, and the poller that wakes live streams;
- :mod:`~dominolog.web.auth`: bearer tokens, roles, the rate of writes;
- :mod:`~dominolog.web.api`: the HTTP API (``/api/...``); :mod:`~dominolog.web.tokens_api`: the
  organiser's tokens over HTTP;
- :mod:`~dominolog.web.writing`: a write request as ``dominolog append`` does it;
- :mod:`~dominolog.web.pages`: the server-rendered pages (board, followed match, every table,
  standings); ``static/``: their CSS and JS;
- :mod:`~dominolog.web.recorder`: the phone recorder's page and state route;
  :mod:`~dominolog.web.recorder_state`: its state document (``static/record.js`` and the ES modules
  of ``static/record/`` it imports, ``record.css``; :mod:`~dominolog.web.assets`: their addresses).
- :mod:`~dominolog.web.results`: what the commands write, served (score sheet, audit report,
  analysis; ``/api/matches/{id}/audit``, ``/export``, ``/api/standings``);
- :mod:`~dominolog.web.ids`: match ids in addresses (any id, ``/`` too, routed on the path as sent).
"""
