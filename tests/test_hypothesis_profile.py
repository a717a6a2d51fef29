"""`make test` gives one answer per commit: the property tests run under the
derandomized "ci" profile of tests/conftest.py, with no example database in the
clone, and the clock-based health check is off (a loaded machine is no failure)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]


@settings(max_examples=5)
@given(st.integers())
def test_property_tests_run_derandomized_without_a_database(n: int) -> None:
    own = test_property_tests_run_derandomized_without_a_database._hypothesis_internal_use_settings
    if os.environ.get("HYPOTHESIS_PROFILE", "ci") == "ci":
        assert own.derandomize and own.max_examples == 5
    assert own.database is None
    assert HealthCheck.too_slow in own.suppress_health_check


def test_make_test_chooses_the_ci_profile_and_explore_is_its_own_target() -> None:
    make = (ROOT / "Makefile").read_text()
    assert re.search(r"^export HYPOTHESIS_PROFILE \?= ci$", make, re.M)
    explore = make[make.index("\ntest-explore:"):]
    assert "HYPOTHESIS_PROFILE=explore" in explore and "--hypothesis-seed=" in explore
    assert "make test-explore" in (ROOT / "README.md").read_text()
