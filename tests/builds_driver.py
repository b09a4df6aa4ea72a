"""Run dominolog commands in one process and print what each gave, as JSON (tests/test_builds.py).

``python builds_driver.py MANIFEST.json``: the manifest is a list of argument lists; each is run as
the console script runs it (``dominolog.cli.main`` with those arguments), its standard output and
error captured as bytes and its exit code kept. The output is one JSON list of
``[exit code, stdout, stderr]`` (text, bad bytes as U+FFFD) and, last, the build that ran
(``dominolog.build_info.build()``). The differential test runs the same manifest under the compiled
build and under the pure-Python build and requires the same bytes: one process a build, so that the
comparison costs two start-ups, not two a command.

No pytest and nothing of the tests here: it runs beside whichever dominolog ``sys.path`` gives.
"""

from __future__ import annotations

import io
import json
import sys


def run(args: list[str]) -> list[object]:
    from dominolog.cli import main

    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", errors="surrogateescape", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", errors="surrogateescape", write_through=True)
    saved = sys.argv, sys.stdout, sys.stderr
    sys.argv, sys.stdout, sys.stderr = ["dominolog", *args], stdout, stderr
    code: object = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code if exc.code is not None else 0
    finally:
        stdout.flush()
        stderr.flush()
        sys.argv, sys.stdout, sys.stderr = saved
    return [code, out.getvalue().decode("utf-8", "replace"), err.getvalue().decode("utf-8", "replace")]


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as fh:
        manifest = json.load(fh)
    results = [run(args) for args in manifest]
    from dominolog.build_info import build

    results.append(build())
    sys.stdout.write(json.dumps(results))


if __name__ == "__main__":
    main()
