"""Which build of dominolog is installed: the fold compiled by mypyc, or pure Python.

The same Python files are either run by the interpreter or compiled to C by mypyc at install
(``setup.py`` reads :data:`COMPILED` from this file): the results are the same, the compiled build
is faster. ``DOMINOLOG_PURE=1 pip install .`` installs the pure build on a machine with a C compiler.

This module imports nothing of dominolog's and looks at files only, so ``dominolog --version``
stays quick.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

#: the modules compiled by mypyc: the fold's hot path, where an event's time goes (bench/RESULTS.md), the
#: knowledge engine that judges hidden hands, and the rows an import builds (one per event)
COMPILED: tuple[str, ...] = (
    "dominolog.tiles",
    "dominolog.findings",
    "dominolog.state",
    "dominolog.events.kinds",
    "dominolog.events.checks",
    "dominolog.log.hashchain",
    "dominolog.log.reader",
    "dominolog.knowledge.facts",
    "dominolog.knowledge.groups",
    "dominolog.knowledge.honest",
    "dominolog.knowledge.likelihood",
    "dominolog.knowledge.model",
    "dominolog.knowledge.nested",
    "dominolog.knowledge.sampled",
    "dominolog.knowledge.worlds",
    "dominolog.layouts.grid",
    "dominolog.layouts.line",
    "dominolog.reducer.chain",
    "dominolog.reducer.checks",
    "dominolog.reducer.claims",
    "dominolog.reducer.context",
    "dominolog.reducer.fold",
    "dominolog.reducer.hands",
    "dominolog.reducer.history",
    "dominolog.reducer.judging",
    "dominolog.reducer.report",
    "dominolog.reducer.verdicts",
    "dominolog.store.rows",
    "dominolog.variants.base",
    "dominolog.variants.brettspielnetz",
    "dominolog.variants.double_bergen",
    "dominolog.variants.double_draw",
    "dominolog.variants.ghost13",
    "dominolog.variants.judges",
    "dominolog.variants.line",
    "dominolog.variants.spinner",
    "dominolog.variants.thirty_nine",
)

_ROOT = Path(__file__).resolve().parent.parent


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED` that are installed as compiled extension modules."""
    found = []
    for name in COMPILED:
        stem = _ROOT.joinpath(*name.split("."))
        if any(stem.with_name(stem.name + suffix).is_file() for suffix in EXTENSION_SUFFIXES):
            found.append(name)
    return found


def pure_copy(dest: Path) -> Path:
    """The installed package copied into ``dest`` without its compiled modules: the files
    ``DOMINOLOG_PURE=1 pip install .`` installs, for ``PYTHONPATH`` (``tests/test_builds.py`` and
    ``bench/bench_builds.py`` run it beside the compiled build). Returns ``dest``."""
    import shutil

    package = _ROOT / "dominolog"

    def ignore(folder: str, names: list[str]) -> list[str]:
        here = Path(folder).relative_to(package).parts
        return [
            n
            for n in names
            if n == "__pycache__"
            or (
                n.endswith(tuple(EXTENSION_SUFFIXES)) and ".".join(("dominolog", *here, n.split(".", 1)[0])) in COMPILED
            )
        ]

    shutil.copytree(package, dest / "dominolog", ignore=ignore)
    return dest


def build() -> str:
    """``compiled`` when every module of :data:`COMPILED` is compiled, ``pure Python`` when none is,
    else ``partly compiled (N of M modules)`` (a damaged install)."""
    n = len(compiled_modules())
    if n == len(COMPILED):
        return "compiled"
    if n == 0:
        return "pure Python"
    return f"partly compiled ({n} of {len(COMPILED)} modules)"


def version() -> str:
    """The installed version of dominolog, or ``not installed`` (run from a checkout never installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("dominolog")
    except PackageNotFoundError:
        return "not installed"


def described() -> str:
    """What ``dominolog --version`` prints and ``verify --json`` keeps as its ``build``:
    ``dominolog 1.2.0 (compiled)``, so a club's report says which build checked it."""
    return f"dominolog {version()} ({build()})"
