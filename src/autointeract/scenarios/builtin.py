"""The shipped problems: small original tasks in ``scenarios/builtin/*.yaml``.

Each file is one problem::

    id: count-vowels                 # task id
    title: Count the vowels
    difficulty: easy
    func_name: count_vowels          # functional problem; omit for a stdin program
    statement: |                     # the full goal (hidden from the agent)
      ...
    initial_message: ...             # the user's vague opening (derived when omitted)
    requirements:                    # held back, revealed when asked or when tests fail
      - {text: ..., trigger: failed_test, tests: [3, 4]}
    public: 2                        # the first N tests are examples the user may show
    tests:                           # functional: input = one JSON argument per line
      - {input: '"banana"', output: "3"}
    reference_solution: |
      ...

Every reference solution passes its own tests (``autointeract scenarios check builtin``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from autointeract.errors import ConfigError, DataError
from autointeract.scenarios.base import ScenarioConfig, select
from autointeract.scenarios.split import vague_request
from autointeract.types import Requirement, TaskSpec, TestCase, VerifierSpec

DEFAULT_DIR = Path(__file__).resolve().parents[3] / "scenarios" / "builtin"


class BuiltinRequirement(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str
    trigger: Literal["asked", "failed_test", "never"] = "failed_test"
    tests: list[int] = Field(default_factory=list)


class BuiltinTest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    input: str
    output: str


class BuiltinProblem(BaseModel):
    """One shipped problem file (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    title: str
    difficulty: Literal["easy", "medium", "hard"] = "easy"
    func_name: str | None = None
    statement: str
    initial_message: str | None = None
    requirements: list[BuiltinRequirement] = Field(default_factory=list)
    public: int = 0
    tests: list[BuiltinTest] = Field(min_length=1)
    reference_solution: str
    time_limit_s: float = 2.0

    def to_task(self, *, seed: int = 0, source: str = "") -> TaskSpec:
        kind = "functional" if self.func_name else "stdin"
        spec = VerifierSpec(
            kind=kind, func_name=self.func_name, time_limit_s=self.time_limit_s,
            tests=[TestCase(input=t.input, output=t.output, testtype=kind) for t in self.tests],
            meta={"n_public": self.public, "question_id": self.id})
        opening = self.initial_message or vague_request(self.statement, title=self.title,
                                                        seed=seed, func_name=self.func_name)
        reqs = [Requirement(text=r.text, trigger=r.trigger, tests=r.tests, reveal_after_turn=i + 1)
                for i, r in enumerate(self.requirements)]
        return TaskSpec(task_id=self.id, family="builtin", initial_message=opening,
                        hidden_goal=f"{self.title}\n\n{self.statement}".strip(), requirements=reqs,
                        verifier=spec, reference_solution=self.reference_solution,
                        difficulty=self.difficulty,
                        meta={"title": self.title, "n_public": self.public, "source": source})


def parse_problem(data: Any, *, file: str) -> BuiltinProblem:
    """Validate one problem mapping; errors name the file and the field.

    Raises:
        DataError: a missing/invalid field or a requirement pointing at a missing test.
    """
    if not isinstance(data, dict):
        raise DataError("a problem file must hold a mapping", file=file)
    try:
        prob = BuiltinProblem.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        msg = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
        raise DataError(msg, file=file, field=".".join(map(str, err["loc"]))) from None
    n = len(prob.tests)
    for i, req in enumerate(prob.requirements):
        bad = [t for t in req.tests if not 0 <= t < n]
        if bad:
            raise DataError(f"test index {bad[0]} out of range (have {n} tests)", file=file,
                            field=f"requirements.{i}.tests")
    if not 0 <= prob.public <= n:
        raise DataError(f"must be between 0 and {n}", file=file, field="public")
    return prob


def load_problem_file(path: str | Path) -> BuiltinProblem:
    """Read and validate one ``.yaml`` problem file.

    Raises:
        DataError: unreadable YAML or an invalid problem.
    """
    p = Path(path)
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise DataError(f"invalid YAML{where}", file=str(p)) from None
    return parse_problem(data, file=str(p))


class BuiltinConfig(ScenarioConfig):
    """Options of the builtin scenario (``seed``/``limit``/``ids`` only)."""


class BuiltinScenario:
    """The problems shipped in ``scenarios/builtin/`` (or any folder in that format)."""

    name: ClassVar[str] = "builtin"
    config_cls: ClassVar[type[ScenarioConfig]] = BuiltinConfig

    def __init__(self, config: BuiltinConfig | None = None) -> None:
        self.config = config or BuiltinConfig()

    def problems(self, source: str | Path | None = None) -> list[BuiltinProblem]:
        """The validated problems of a folder (or one file), sorted by file name.

        Raises:
            ConfigError: the folder does not exist.
            DataError: a malformed problem file, or two files with the same id.
        """
        root = Path(source) if source else DEFAULT_DIR
        if root.is_file():
            files = [root]
        elif root.is_dir():
            files = sorted(root.glob("*.yaml")) + sorted(root.glob("*.yml"))
        else:
            raise ConfigError("builtin problem folder not found (pass source=<folder>)",
                              file=str(root))
        out: list[BuiltinProblem] = []
        seen: dict[str, str] = {}
        for f in files:
            prob = load_problem_file(f)
            if prob.id in seen:
                raise DataError(f"duplicate id '{prob.id}' (also in {seen[prob.id]})",
                                file=str(f), field="id")
            seen[prob.id] = str(f)
            out.append(prob)
        return out

    def load(self, source: str | Path | None = None) -> list[TaskSpec]:
        """TaskSpecs of the shipped problems (or of ``source``), sorted by file name."""
        tasks = [p.to_task(seed=self.config.seed, source=str(source or DEFAULT_DIR))
                 for p in self.problems(source)]
        return select(tasks, self.config)
