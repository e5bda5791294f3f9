"""A CLI run in a child process with this campaign's scripted models registered first.

    python tests/faults/child.py <latency_s> <autointeract CLI args...>

Registers ``scripted/solver`` (submits the reference of builtin and mock tasks),
``scripted/sim`` and ``scripted/refl`` (the users package's fakes), each sleeping
``latency_s`` per call so a kill lands mid-run, then runs the CLI.
"""

from __future__ import annotations

import sys
from typing import Any


def register(latency: float) -> None:
    from autointeract.llm import ScriptedModel
    from autointeract.rollout.mock_tasks import mock_tasks
    from autointeract.scenarios import load_tasks
    from autointeract.users.fakes import directive_following_user, feedback_reflector

    refs = {t.initial_message.strip(): t.reference_solution or ""
            for t in [*load_tasks("builtin"), *mock_tasks()]}

    def solve(messages: list[dict[str, Any]]) -> str:
        opening = next(m["content"] for m in messages if m["role"] == "user").strip()
        return f"SUBMIT\n```python\n{refs.get(opening) or 'pass'}\n```"

    for name, out in (("solver", solve), ("sim", directive_following_user),
                      ("refl", feedback_reflector)):
        ScriptedModel([out], name=name, cycle=True, latency_s=latency)


if __name__ == "__main__":
    register(float(sys.argv[1]))
    from autointeract.cli import main

    main(sys.argv[2:])
