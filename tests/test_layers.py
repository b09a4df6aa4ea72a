"""The layers of docs/design/architecture.md, enforced: import-linter's contracts (``[tool.importlinter]``
in pyproject.toml) checked on the installed package, imports inside functions included.

``lint-imports`` runs from a temp folder, so that ``dominolog`` is the installed copy (as every test
imports it), not this checkout on the current directory. A broken contract fails its own test, named
by the contract's id, with import-linter's account of the imports that break it.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
CONTRACTS = {c["id"]: c for c in CONFIG["contracts"]}
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def test_the_contracts_are_the_architecture_pages() -> None:
    assert CONFIG["root_package"] == "dominolog"
    assert {c["type"] for c in CONTRACTS.values()} >= {"layers", "acyclic_siblings"}
    layers = CONTRACTS["layers"]
    assert layers["containers"] == ["dominolog"] and layers["exhaustive"] is True
    assert layers["layers"][0] == "cli" and layers["layers"][-2] == "log : events"
    assert "ignore_imports" not in layers  # no exception to the layers
    page = (ROOT / "docs/design/architecture.md").read_text(encoding="utf-8")
    for layer in layers["layers"]:  # each layer shown as the contract writes it, in the page's drawing
        shown = re.search(rf"(^|\s\s){re.escape(layer)}(\s\s|$)", page, re.MULTILINE)
        assert shown, f"docs/design/architecture.md does not show the layer {layer!r}"


@pytest.mark.parametrize("contract", sorted(CONTRACTS))
def test_contract_kept(contract: str, tmp_path: Path) -> None:
    if not LINT_IMPORTS.exists():
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    run = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--contract", contract, str(ROOT / "pyproject.toml")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    name = CONTRACTS[contract]["name"]
    assert run.returncode == 0, f"contract {contract!r} ({name}) is broken:\n{run.stdout}{run.stderr}"
    assert f"{name} KEPT" in run.stdout
