"""Fixtures of the fault campaign."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import SAMPLE_SESSIONS


@pytest.fixture
def sample_sessions() -> Path:
    return SAMPLE_SESSIONS
