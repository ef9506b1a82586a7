"""Helpers of the tests that run the ``fortyfive`` command as installed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest


def installed_script() -> Path:
    """Returns the ``fortyfive`` script installed next to this Python; skips the test
    without one."""
    script = Path(sys.executable).parent / "fortyfive"
    if not script.exists():
        pytest.skip("the fortyfive script is not installed next to this Python")
    return script
