"""Shared test setup: make tests/brute.py importable as ``brute``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
