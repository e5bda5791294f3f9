"""Fixtures of the rollout tests: the mock tasks and a fresh LLM client without a cache."""

from __future__ import annotations

import pytest

from autointeract.config import LLMConfig
from autointeract.llm import LLMClient
from autointeract.rollout.mock_tasks import mock_tasks


@pytest.fixture
def client() -> LLMClient:
    return LLMClient(LLMConfig(cache_dir=None, max_retries=0, max_concurrency=64))


@pytest.fixture
def sum_even():
    return mock_tasks()[0]


@pytest.fixture
def word_count():
    return mock_tasks()[2]
