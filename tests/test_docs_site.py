"""The documentation site builds with ``mkdocs build --strict`` (no warning: no broken link or anchor, no page
left out of the navigation), and its generated reference pages are what the program says today."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _generator():
    spec = importlib.util.spec_from_file_location("gen_reference", ROOT / "tools" / "gen_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_site_builds_strict_without_a_warning(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    assert "WARNING" not in built.stderr, built.stderr
    site = tmp_path / "site"
    # every guide, the generated reference and a rulebook shown from seeds/ are pages of the site
    for page in ("guides/recording", "guides/dispute", "guides/club-results", "guides/reviewing"):
        assert (site / page / "index.html").is_file(), page
    for page in ("guides/club-night", "guides/scale", "reference/cli", "reference/schemas", "design/performance"):
        assert (site / page / "index.html").is_file(), page
    ghost13 = (site / "rules" / "ghost13" / "index.html").read_text(encoding="utf-8")
    assert "G8" in ghost13 and "include: seeds" not in ghost13
    # nothing from a CDN: the theme's web fonts are off
    assert "fonts.googleapis.com" not in (site / "index.html").read_text(encoding="utf-8")


def test_the_reference_pages_are_generated_from_the_program():
    gen = _generator()
    for path, fresh in gen.pages().items():
        name = path.relative_to(ROOT).as_posix()
        assert path.read_text(encoding="utf-8") == fresh, f"{name} is out of date: run python tools/gen_reference.py"


def test_every_command_and_option_is_in_the_reference():
    from dominolog.cli import command

    page = (ROOT / "docs" / "reference" / "cli.md").read_text(encoding="utf-8")
    root = command()
    for name, cmd in root.commands.items():
        subs = getattr(cmd, "commands", None) or {"": cmd}
        for sub_name, sub in subs.items():
            title = " ".join(filter(None, ["dominolog", name, sub_name]))
            assert f"`{title}`" in page, title
            for param in sub.params:
                for opt in getattr(param, "opts", []) if param.param_type_name == "option" else []:
                    assert f"`{opt}`" in page, f"{title} {opt}"
    assert "`--dask`" in page and "`--min-likelihood`" in page
