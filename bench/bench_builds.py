"""The compiled build against the pure-Python build, and both against python-chess, in one run.

Run as a script (it is not a test)::

    python bench/bench_builds.py [--matches N] [--rounds R] [--repeat K]

``verify`` (``dominolog.verify.verify_paths`` as the CLI runs it by default, inside ``batch_gc``, without
the likelihoods of the possible violations it does not print) of simulated
corpora of every variant, and of Double Draw as a table recorder sees it (``--hide``), timed in a
child process per build and round: the installed build (compiled by mypyc where ``pip install .`` had
a C compiler) and the same package without its compiled modules (the pure-Python build
``DOMINOLOG_PURE=1`` installs). Rounds alternate the builds, so both meet the same load on a shared
machine; each figure is the best of the rounds (CPU time of the child's verify, best of ``--repeat``).
python-chess (the ``bench`` extra) reads as many moves of random legal games from PGN in the same run:
issue 28 asks ``verify`` for at least 5 times its moves per second. Also ``import`` into a SQLite file
(``dominolog import`` as a subprocess, wall time) for both builds.

``--old DIR`` adds a third build in the same rounds: an older commit installed into a folder
(``git worktree add /tmp/old REV && pip install --no-deps --target DIR /tmp/old``), put first on
``PYTHONPATH``, so that a change is measured old against new at the same minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from dominolog.build_info import build, pure_copy
from dominolog.simulate import simulate_lines

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_verify import chess_rows  # noqa: E402 - bench_verify lies beside this script

CORPORA = (
    ("ghost13", False),
    ("brettspielnetz", False),
    ("39", False),
    ("double-bergen", False),
    ("double-draw", False),
    ("double-draw", True),
)

CHILD = """
import gc, inspect, json, sys, time
from dominolog.build_info import build
from dominolog.verify import batch_gc, verify_paths
repeat, out = int(sys.argv[1]), {"build": build()}
# as the command runs it by default: without the likelihoods it does not print (an older build has no such
# choice, and its command worked them out)
kw = {"likelihoods": False} if "likelihoods" in inspect.signature(verify_paths).parameters else {}
for path in sys.argv[2:]:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t = time.process_time()
        with batch_gc():
            for _report in verify_paths([path], **kw):
                pass
        best = min(best, time.process_time() - t)
    out[path] = best
print(json.dumps(out))
"""


FLOOR = """
import hashlib, json, sys, time
import orjson
from dominolog.events.checks import _HEX as HEX, _TIME as TIME  # the patterns the events' checks use
out = {}
for path in sys.argv[2:]:
    lines = [line for line in open(path, "rb").read().split(b"\\n") if line.strip()]
    best = float("inf")
    for _ in range(int(sys.argv[1])):
        t = time.process_time()
        prev = ""
        for data in lines:
            value = orjson.loads(data)
            body = value.copy()
            h = body.pop("hash", None)
            canon = orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
            data.count(b":") == canon.count(b":")
            TIME.fullmatch(value.get("at") or "")
            HEX.fullmatch(h or "")
            prev = hashlib.sha256(prev.encode("ascii") + canon).hexdigest()
        best = min(best, time.process_time() - t)
    out[path] = best
print(json.dumps(out))
"""


def child_env(pythonpath: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINOLOG_")}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return env


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--matches", type=int, default=150, help="matches a corpus (150)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds, the builds alternating in each (3)")
    ap.add_argument("--repeat", type=int, default=3, help="verify runs a corpus in a child; best kept (3)")
    ap.add_argument("--old", type=Path, help="an older build installed into this folder (pip install --target)")
    args = ap.parse_args(argv)
    installed = build()
    when = f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    machine = f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    print(f"bench_builds: {when}, {machine}, load average {os.getloadavg()[0]:.1f}; installed build: {installed}")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        pure = pure_copy(tmp / "pure")
        files: dict[str, Path] = {}
        events: dict[str, int] = {}
        for variant, hide in CORPORA:
            label = variant + (" hidden" if hide else "")
            path = tmp / f"{variant}{'-hidden' if hide else ''}.jsonl"
            lines = list(simulate_lines(variant, args.matches, "bench", hide=hide))
            path.write_text("".join(line if line.endswith("\n") else line + "\n" for line in lines), encoding="utf-8")
            files[label], events[label] = path, len(lines)
        builds: dict[str, Path | None] = {installed: None}
        if installed != "pure Python":
            builds["pure Python"] = pure
        if args.old is not None:
            builds["old"] = args.old.resolve()
        best: dict[str, dict[str, float]] = {b: {} for b in builds}
        imports: dict[str, float] = {b: float("inf") for b in builds}
        script = shutil.which("dominolog", path=str(Path(sys.executable).parent)) or "dominolog"
        for _ in range(args.rounds):
            for name, pythonpath in builds.items():
                done = subprocess.run(
                    [sys.executable, "-c", CHILD, str(args.repeat), *map(str, files.values())],
                    capture_output=True, text=True, env=child_env(pythonpath), check=True, cwd=tmp,
                )  # fmt: skip
                got = json.loads(done.stdout)
                assert name == "old" or got.pop("build") == name, (got, name)
                got.pop("build", None)
                for label, path in files.items():
                    best[name][label] = min(best[name].get(label, float("inf")), got[str(path)])
                db = tmp / f"import-{len(name)}.db"
                db.unlink(missing_ok=True)
                t = time.perf_counter()
                subprocess.run(
                    [script, "import", *map(str, files.values()), "--db", str(db)],
                    capture_output=True, env=child_env(pythonpath), check=False, cwd=tmp,
                )  # fmt: skip
                imports[name] = min(imports[name], time.perf_counter() - t)
        names = list(builds)
        header = ["corpus", "events", *(f"{n} ev/s" for n in names), *(f"{names[0]} / {n}" for n in names[1:])]
        print("\n| " + " | ".join(header) + " |\n|" + "---|" * len(header))
        for label, n in events.items():
            row = [label, f"{n:,}", *(f"{n / best[b][label]:,.0f}" for b in names)]
            row += [f"{best[b][label] / best[names[0]][label]:.2f}x" for b in names[1:]]
            print("| " + " | ".join(row) + " |")
        total = sum(events.values())
        row = ["import, all corpora (wall, subprocess)", f"{total:,}", *(f"{total / imports[b]:,.0f}" for b in names)]
        row += [f"{imports[b] / imports[names[0]]:.2f}x" for b in names[1:]]
        print("| " + " | ".join(row) + " |")
        floor = json.loads(
            subprocess.run(
                [sys.executable, "-c", FLOOR, str(args.repeat), *map(str, files.values())],
                capture_output=True, text=True, check=True, cwd=tmp,
            ).stdout
        )  # fmt: skip
        print("\nthe floor: what every line costs in library calls alone (orjson read, the sorted canonical form,")
        print("the duplicate-key count, the `at` and `hash` patterns, sha256 of the chain), no rules, no objects:")
        for label, path in files.items():
            per = floor[str(path)] / events[label] * 1e6
            spent = best[names[0]][label] / events[label] * 1e6
            print(f"  {label:20s} floor {per:5.2f} us an event = {events[label] / floor[str(path)]:>9,.0f} events/s; "
                  f"{names[0]} verify {spent:5.2f} us ({per / spent:.0%} of it)")  # fmt: skip
        hidden, opened = "double-draw hidden", "double-draw"
        for b in names:
            ratio = best[b][hidden] / events[hidden] / (best[b][opened] / events[opened])
            print(f"hidden / open Double Draw, {b}: {ratio:.2f}x slower an event (goal <= 1.5x)")
        fastest = min(best[names[0]][lbl] / events[lbl] for lbl in events)
        slowest = max(best[names[0]][lbl] / events[lbl] for lbl in events)
        print(f"\nside by side (python-chess in the same run; {names[0]} build, "
              f"{1 / slowest:,.0f}-{1 / fastest:,.0f} events/s over the corpora):")  # fmt: skip
        for key, value in chess_rows(max(events.values()), 1 / slowest, args.repeat, tmp):
            print(f"  {key:48s} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
