"""Test configuration: under CI, hypothesis runs derandomized so a run is repeatable."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("deep", max_examples=2000, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
elif os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
