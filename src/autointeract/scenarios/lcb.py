"""Multi-turn LiveCodeBench: ``code_generation_lite`` rows -> TaskSpecs.

Rows are parsed by :func:`autointeract.verifiers.lcb_format.parse_lcb_row` (private tests may
be ``base64(zlib(pickle(json)))``). The user opens with the statement's core sentence and
holds back the formats, bounds and details (:mod:`autointeract.scenarios.split`).

    tasks = load_tasks("livecodebench", "data/problems/lcb_sample.jsonl")
    tasks = load_tasks("livecodebench", "livecodebench/code_generation_lite",
                       hub_data_files="test6.jsonl", after="2025-01-01")
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from autointeract.scenarios.base import ScenarioConfig, select
from autointeract.scenarios.hub import rows
from autointeract.scenarios.split import statement_requirements, vague_request
from autointeract.types import TaskSpec, VerifierSpec
from autointeract.verifiers.lcb_format import LCBProblem, parse_lcb_row

DEFAULT_SOURCE = "livecodebench/code_generation_lite"


class LiveCodeBenchConfig(ScenarioConfig):
    """Options of the LiveCodeBench scenario.

    Attributes:
        hub_split: split of the hub dataset.
        hub_name: hub dataset config (older script-based releases: ``release_v6``).
        hub_data_files: restrict the hub repo to these files (e.g. ``test6.jsonl``).
        after: keep problems with ``contest_date >= after`` (ISO date; contamination control).
        before: keep problems with ``contest_date < before``.
        platforms: keep only these platforms (empty: all).
        difficulties: keep only these difficulties (empty: all).
        time_limit_s: per-test limit for the judge.
        memory_mb: memory limit for the judge.
        max_details: most legend sentences held back as separate requirements.
    """

    hub_split: str = "test"
    hub_name: str | None = None
    hub_data_files: str | list[str] | None = None
    after: str | None = None
    before: str | None = None
    platforms: list[str] = []
    difficulties: list[str] = []
    time_limit_s: float = 4.0
    memory_mb: int = 512
    max_details: int = 3


def statement_task(*, task_id: str, family: str, title: str, statement: str, spec: VerifierSpec,
                   n_public: int, seed: int, difficulty: str | None = None,
                   func_name: str | None = None, starter_code: str | None = None,
                   max_details: int = 3, meta: dict[str, Any] | None = None) -> TaskSpec:
    """A multi-turn TaskSpec from a statement and its verifier (shared by LCB and LCB-Pro)."""
    return TaskSpec(
        task_id=task_id, family=family,
        initial_message=vague_request(statement, title=title, seed=seed, func_name=func_name),
        hidden_goal=f"{title}\n\n{statement}".strip(),
        requirements=statement_requirements(statement, tests=spec.tests, n_public=n_public,
                                            seed=seed, title=title, max_details=max_details),
        verifier=spec, starter_code=starter_code or None, difficulty=difficulty or None,
        meta={"title": title, "n_public": n_public, "seed": seed, **(meta or {})})


def problem_to_task(prob: LCBProblem, *, seed: int = 0, time_limit_s: float = 4.0,
                    memory_mb: int = 512, max_details: int = 3,
                    family: str = "livecodebench") -> TaskSpec:
    """One LiveCodeBench problem as a multi-turn task (public tests first in the verifier)."""
    spec = prob.to_verifier_spec(time_limit_s=time_limit_s, memory_mb=memory_mb)
    return statement_task(
        task_id=prob.question_id, family=family, title=prob.question_title,
        statement=prob.question_content, spec=spec, n_public=len(prob.public_tests), seed=seed,
        difficulty=prob.difficulty, func_name=prob.func_name, starter_code=prob.starter_code,
        max_details=max_details,
        meta={"platform": prob.platform, "contest_date": prob.contest_date,
              "source": "livecodebench"})


def _keep(prob: LCBProblem, cfg: LiveCodeBenchConfig) -> bool:
    date = prob.contest_date[:10]
    return ((not cfg.after or date >= cfg.after) and (not cfg.before or date < cfg.before)
            and (not cfg.platforms or prob.platform in cfg.platforms)
            and (not cfg.difficulties or prob.difficulty in cfg.difficulties))


class LiveCodeBenchScenario:
    """LiveCodeBench ``code_generation_lite`` (local JSONL/parquet or the hub)."""

    name: ClassVar[str] = "livecodebench"
    config_cls: ClassVar[type[ScenarioConfig]] = LiveCodeBenchConfig

    def __init__(self, config: LiveCodeBenchConfig | None = None) -> None:
        self.config = config or LiveCodeBenchConfig()

    def load(self, source: str | Path | None = None) -> list[TaskSpec]:
        """Tasks of ``source`` (default: the hub dataset), filtered by the config.

        Raises:
            DataError: a malformed row (file, ``row <n>`` and field named) or no hub access.
        """
        cfg = self.config
        tasks = []
        for file, i, row in rows(source or DEFAULT_SOURCE, split=cfg.hub_split,
                                 name=cfg.hub_name, data_files=cfg.hub_data_files):
            prob = parse_lcb_row(row, file=file, row_index=i)
            if _keep(prob, cfg):
                tasks.append(problem_to_task(prob, seed=cfg.seed, time_limit_s=cfg.time_limit_s,
                                             memory_mb=cfg.memory_mb,
                                             max_details=cfg.max_details))
        return select(tasks, cfg)
