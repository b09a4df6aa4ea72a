"""Where a store is: a SQLite file (a path) or a PostgreSQL database (a ``postgresql://`` URL), and how
to name it in a message without its password."""

from __future__ import annotations

from os import PathLike
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

#: the URL schemes that name a PostgreSQL database (libpq's)
SCHEMES = ("postgresql://", "postgres://")


def is_url(target: str | PathLike[str]) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(target, str) and target.lower().startswith(SCHEMES)


def redacted(target: str | PathLike[str]) -> str:
    """``target`` as a message may show it: a URL with its password (in the user part or as a
    ``password=`` parameter) replaced by ``***``; a path as it is."""
    if not is_url(target):
        return str(target)
    text = str(target)
    try:
        parts = urlsplit(text)
        netloc = parts.netloc
        if "@" in netloc:
            user, _, host = netloc.rpartition("@")
            if ":" in user:
                user = user.split(":", 1)[0] + ":***"
            netloc = f"{user}@{host}"
        query = parts.query
        if query:
            pairs = parse_qsl(query, keep_blank_values=True)
            if any(k.lower() == "password" for k, _ in pairs):
                query = urlencode([(k, "***" if k.lower() == "password" else v) for k, v in pairs], safe="*")
        return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
    except ValueError:  # not even a URL: say nothing of what follows the scheme's host part
        return text.split("@", 1)[-1] if "@" in text else text
