"""The compiled parts of the package: everything else about it is in pyproject.toml.

Two kinds of compiled code, both optional: where no C compiler is found, ``pip install .`` still
installs the package in pure Python (the same results, slower).

* ``dominolog.analysis._ghost13c``: the Ghost 13 solver's search in C (about 50 times the pure
  Python one; ``dominolog.analysis.ghost13_search.BACKEND`` says which runs).
* The fold (the reader, the events' checks, the hash chain, the reducer, the variants' rules, the
  layouts, the state): the same Python files compiled to C by mypyc, from their type hints. The
  rules stay the Python files they are; ``dominolog --version`` says which build is installed.
  ``DOMINOLOG_PURE=1 pip install .`` installs the pure-Python build on a machine with a compiler.
"""

from __future__ import annotations

import os
import platform
import runpy
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: the modules mypyc compiles, as dominolog/build_info.py names them (read from there: one list)
COMPILED = [
    name.replace(".", "/") + ".py"
    for name in runpy.run_path(str(Path(__file__).parent / "dominolog" / "build_info.py"))["COMPILED"]
]


def _say(text: str) -> None:
    print(f"dominolog setup: {text}", file=sys.stderr)


def _have_c_compiler() -> bool:
    """Whether a C file compiles here (setuptools' own compiler, as the extensions will use)."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "probe.c")
        src.write_text("int dominolog_probe(void) { return 0; }\n")
        cc = new_compiler()
        customize_compiler(cc)
        try:
            cc.compile([str(src)], output_dir=tmp)
        except Exception:  # CompileError, or no compiler program at all
            return False
    return True


def _compiled_fold() -> list[Extension]:
    if os.environ.get("DOMINOLOG_PURE", "").strip() not in ("", "0"):
        _say("DOMINOLOG_PURE is set: the pure-Python build")
        return []
    if platform.python_implementation() != "CPython":
        _say("not CPython: the pure-Python build")
        return []
    if not _have_c_compiler():
        _say("no C compiler found: the pure-Python build (the same results, slower)")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not installed (a build requirement in pyproject.toml): the pure-Python build")
        return []
    _say(f"compiling {len(COMPILED)} modules with mypyc (DOMINOLOG_PURE=1 for the pure-Python build)")
    # multi_file: a C file a module (not one file of 19 MB), so that the C compiler, the larger part of the
    # build, runs on every core (_ParallelBuildExt); the modules stay one group (one shared library)
    return mypycify(
        ["--ignore-missing-imports", "--follow-imports=silent", *COMPILED],
        opt_level="3",
        debug_level="0",  # (no debug symbols: a shorter C compile; a user debugs the pure build)
        group_name="dominolog",
        multi_file=True,
    )


#: the commands of setup.py that only read the metadata. pip runs this file three times for one install
#: (the build's requirements: egg_info, the metadata: dist_info, then the wheel: bdist_wheel): mypyc's
#: analysis (the C files written) is needed only by the last, and by any command that builds
METADATA_ONLY = {"egg_info", "dist_info", "sdist"}
_ASKED = set(sys.argv[1:])
FOLD = [] if _ASKED & METADATA_ONLY and not _ASKED & {"build", "build_ext", "bdist_wheel"} else _compiled_fold()


class _ParallelBuildExt(build_ext):
    """build_ext with the C files of an extension compiled at once on every core (distutils compiles them
    one after the other), and the extensions built side by side (setuptools' ``parallel``)."""

    def build_extensions(self) -> None:
        cc: Any = self.compiler
        compile_one = cc._compile
        workers = os.cpu_count() or 1

        def compile_all(
            sources: list[str],
            output_dir: str | None = None,
            macros: Any = None,
            include_dirs: Any = None,
            debug: bool = False,
            extra_preargs: list[str] | None = None,
            extra_postargs: list[str] | None = None,
            depends: list[str] | None = None,
        ) -> list[str]:
            macros, objects, extra_postargs, pp_opts, build = cc._setup_compile(
                output_dir, macros, include_dirs, sources, depends, extra_postargs
            )
            cc_args = cc._get_cc_args(pp_opts, debug, extra_preargs)
            todo = [(obj, *build[obj]) for obj in objects if obj in build]
            with ThreadPoolExecutor(workers) as pool:
                # list(): each compile's error (CompileError) raised here
                list(pool.map(lambda job: compile_one(*job, cc_args, extra_postargs, pp_opts), todo))
            return list(objects)

        cc.compile = compile_all
        self.parallel = workers
        super().build_extensions()


setup(
    cmdclass={"build_ext": _ParallelBuildExt},
    ext_modules=[
        Extension(
            "dominolog.analysis._ghost13c",
            ["dominolog/analysis/_ghost13c.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        *FOLD,
    ],
    # a build folder for each build: pip builds in the checkout, and a pure build must not take the
    # compiled modules an earlier compiled build left in build/lib
    options={"build": {"build_base": "build/compiled" if FOLD else "build/pure"}},
)
