"""Fixtures: the shipped sample sessions (data/sessions) and a realism model fitted on them."""

from __future__ import annotations

from pathlib import Path

import pytest

from autointeract.config import LLMConfig

SAMPLE_SESSIONS = Path(__file__).resolve().parents[2] / "data" / "sessions"


@pytest.fixture(scope="session")
def sample_sessions() -> tuple[list, frozenset[str]]:
    from autointeract.profiles.population import load_real

    return load_real(str(SAMPLE_SESSIONS))


@pytest.fixture(scope="session")
def realism(sample_sessions):
    from autointeract.profiles.realism import RealismModel

    sessions, vocab = sample_sessions
    return RealismModel.from_sessions(sessions, vocabulary=vocab)


@pytest.fixture
def client():
    from autointeract.llm import LLMClient

    return LLMClient(LLMConfig(cache_dir=None, max_retries=0))


@pytest.fixture(scope="session")
def fake_model() -> str:
    from autointeract.profiles.fakes import style_following_model

    return style_following_model().model
