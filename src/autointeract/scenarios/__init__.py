"""Scenarios: source items (problem files, task folders, hub rows) -> multi-turn TaskSpecs.

    from autointeract.scenarios import load_tasks
    tasks = load_tasks("builtin")                                    # shipped problems
    tasks = load_tasks("livecodebench", "data/problems/lcb_sample.jsonl", seed=1)
    tasks = load_tasks("lcbpro", "path/to/lcbpro", after="2025-01-01")
    tasks = load_tasks("swetogether", "scenarios/swetogether_local")
    tasks = load_tasks("swebench", "instances.jsonl")

Families are registered in :data:`SCENARIOS` (short name -> import path), so a family's
heavy dependencies load only when it is used.
"""

from __future__ import annotations

from autointeract.scenarios.base import (
    SCENARIOS,
    Scenario,
    ScenarioConfig,
    get_scenario,
    load_tasks,
)

__all__ = ["SCENARIOS", "Scenario", "ScenarioConfig", "get_scenario", "load_tasks"]
