"""Only the optional C extension: everything else about the package is in pyproject.toml.

``dominolog.analysis._ghost13c`` is the Ghost 13 solver's search in C (about 50 times the pure
Python one). ``optional=True``: where no C compiler is found, ``pip install .`` still installs the
package, and the solver runs in pure Python (``dominolog.analysis.ghost13_search.BACKEND``)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "dominolog.analysis._ghost13c",
            ["dominolog/analysis/_ghost13c.c"],
            optional=True,
            extra_compile_args=["-O2"],
        )
    ]
)
