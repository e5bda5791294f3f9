from __future__ import annotations

import pytest

from autointeract.sandbox.base import LocalSandboxConfig
from autointeract.sandbox.local import LocalSandbox


@pytest.fixture
def make_local():
    made: list[LocalSandbox] = []

    def make(**kw) -> LocalSandbox:
        kw.setdefault("timeout_s", 5)
        sb = LocalSandbox(LocalSandboxConfig(**kw))
        made.append(sb)
        return sb

    yield make
    for sb in made:
        sb.close()


@pytest.fixture
def sb(make_local) -> LocalSandbox:
    return make_local(memory_mb=256, max_file_mb=8, capture_kb=16)
