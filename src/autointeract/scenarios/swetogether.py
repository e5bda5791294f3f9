"""SWE-Together task folders -> multi-turn repository TaskSpecs.

A task folder holds ``task.toml`` (difficulty, verifier timeout, ``[environment]
docker_image``), ``instruction.md`` (the user's first message), ``oracle_intents.json`` (the
user's later intents, each with a verbatim excerpt; they become requirements revealed in
``source_turn`` order), ``canonical_goals.json`` (a weighted rubric, kept in
``meta.rubric``), ``reference_patch.json`` (its ``patch`` is the reference solution) and
``tests/`` (``test_manifest.yaml`` lists the gates; ``test.sh`` writes ``gates.json`` and
``reward.txt``). Two kinds of folder:

* **docker-bound** (the published tasks; ``tests/test.sh`` is not shipped): the verifier is
  ``kind="repo"`` with ``docker_image`` from ``task.toml`` and ``meta.runnable=False``.
* **local** (``environment/repo/`` holds the repository and ``tests/test.sh`` exists, e.g.
  ``scenarios/swetogether_local/``): the verifier runs ``sh tests/test.sh`` in the local
  sandbox. ``repo_dir`` is the task folder, whose ``tests/`` the verifier restores into the
  working copy; :func:`seed_workspace` copies ``environment/repo`` into a sandbox. An
  intent may name the gates it covers (``"gates": [ids]``) -> ``Requirement.tests``.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, ClassVar

import yaml

from autointeract.config import StrictModel
from autointeract.errors import ConfigError, DataError
from autointeract.scenarios.base import ScenarioConfig, select
from autointeract.types import Requirement, TaskSpec, VerifierSpec

ENV_VAR = "AUTOINTERACT_SWE_TOGETHER"
DEFAULT_DIR = Path(__file__).resolve().parents[3] / "scenarios" / "swetogether_local"
_TRIGGERS = {"correction": "failed_test", "verification": "failed_test", "question": "asked"}


class SWETogetherConfig(ScenarioConfig):
    """Options of the SWE-Together scenario.

    Attributes:
        include_docker_bound: keep tasks whose tests only run in their docker image.
        max_instruction_chars: cut longer instructions (the full text stays in hidden_goal).
    """

    include_docker_bound: bool = True
    max_instruction_chars: int = 20000


class Gate(StrictModel):
    """One gate of ``tests/test_manifest.yaml``."""

    id: str
    weight: float = 0.0
    kind: str = ""
    description: str = ""


def _json(path: Path, *, required: bool = True) -> Any:
    if not path.is_file():
        if required:
            raise DataError("file not found", file=str(path))
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8", errors="replace").replace("\x00", ""))
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON: {exc.msg} (line {exc.lineno})", file=str(path)) from None


def _toml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise DataError("file not found", file=str(path))
    try:
        return tomllib.loads(path.read_text(encoding="utf-8", errors="replace"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"invalid TOML: {exc}", file=str(path)) from None


def read_gates(folder: Path) -> list[Gate]:
    """Gates of ``tests/test_manifest.yaml`` (empty when absent).

    Raises:
        DataError: unreadable manifest or a gate without an id.
    """
    path = folder / "tests" / "test_manifest.yaml"
    if not path.is_file():
        return []
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError:
        raise DataError("invalid YAML", file=str(path)) from None
    out = []
    for i, g in enumerate(data.get("gates") or []):
        if not isinstance(g, dict) or not g.get("id"):
            raise DataError("gate without an id", file=str(path), field=f"gates.{i}.id")
        out.append(Gate(id=str(g["id"]), weight=float(g.get("weight") or 0.0),
                        kind=str(g.get("kind") or ""), description=str(g.get("description") or "")))
    return out


def intent_requirements(intents: list[dict[str, Any]], *, instruction: str, gates: list[Gate],
                        file: str) -> tuple[list[Requirement], list[dict[str, Any]]]:
    """Later intents as requirements (in ``source_turn`` order) plus their verbatim records.

    An intent whose verbatim excerpt is already in the instruction is the opening request
    and is skipped. ``reveal_after_turn`` is the intent's rank (1, 2, ...).

    Raises:
        DataError: an intent without text or naming an unknown gate.
    """
    index = {g.id: i for i, g in enumerate(gates)}
    ordered = sorted(enumerate(intents), key=lambda p: (p[1].get("source_turn") or 0, p[0]))
    reqs, records = [], []
    for pos, intent in ordered:
        if not isinstance(intent, dict) or not str(intent.get("text") or "").strip():
            raise DataError("intent without text", file=file, field=f"intents.{pos}.text")
        verbatim = str(intent.get("verbatim_excerpt") or "").strip()
        if verbatim and verbatim in instruction:
            continue
        unknown = [g for g in intent.get("gates") or [] if g not in index]
        if unknown:
            raise DataError(f"unknown gate '{unknown[0]}'", file=file, field=f"intents.{pos}.gates")
        kind = str(intent.get("intent_kind") or "other")
        reqs.append(Requirement(text=str(intent["text"]).strip(), trigger=_TRIGGERS.get(kind),
                                reveal_after_turn=len(reqs) + 1,
                                tests=sorted(index[g] for g in intent.get("gates") or [])))
        records.append({"kind": kind, "verbatim": verbatim,
                        "source_turn": intent.get("source_turn")})
    return reqs, records


def load_task_folder(folder: str | Path, *, max_instruction_chars: int = 20000) -> TaskSpec:
    """One SWE-Together task folder as a TaskSpec (see the module docstring).

    Raises:
        DataError: a missing or malformed file (named, with the field).
    """
    d = Path(folder).resolve()
    toml = _toml(d / "task.toml")
    inst_path = d / "instruction.md"
    if not inst_path.is_file():
        raise DataError("file not found", file=str(inst_path))
    instruction = inst_path.read_text(encoding="utf-8", errors="replace").strip()
    if not instruction:
        raise DataError("empty instruction", file=str(inst_path))
    gates = read_gates(d)
    oracle_file = d / "oracle_intents.json"
    oracle = _json(oracle_file, required=False) or {}
    intents = oracle.get("intents") if isinstance(oracle, dict) else None
    if not isinstance(intents, list):
        raise DataError("missing or not a list", file=str(oracle_file), field="intents")
    reqs, records = intent_requirements(intents, instruction=instruction, gates=gates,
                                        file=str(oracle_file))
    goals = (_json(d / "canonical_goals.json", required=False) or {}).get("completeness_goals") or []
    rubric = [{k: g.get(k) for k in ("id", "goal", "tier", "weight")} for g in goals
              if isinstance(g, dict)]
    patch = _json(d / "reference_patch.json", required=False) or {}
    md, env, ver = toml.get("metadata", {}), toml.get("environment", {}), toml.get("verifier", {})
    local = (d / "tests" / "test.sh").is_file() and (d / "environment" / "repo").is_dir()
    spec = VerifierSpec(
        kind="repo", time_limit_s=float(ver.get("timeout_sec") or 600.0),
        repo_dir=str(d) if local else None, test_command="sh tests/test.sh" if local else
        "bash /tests/test.sh", docker_image=None if local else env.get("docker_image"),
        protected_paths=["tests"],
        meta={"runnable": local, "log_dir": None if local else "/logs/verifier",
              "hidden_paths": ["tests"],  # absent from the working copy by design
              "workspace_dir": str(d / "environment" / "repo") if local else None,
              "gates": [g.model_dump() for g in gates]})
    later = "\n".join(f"- {r.text}" for r in reqs)
    sim_prompt = d / "user_simulation_prompt.md"
    return TaskSpec(
        task_id=d.name, family="swetogether", initial_message=instruction[:max_instruction_chars],
        hidden_goal=instruction + (f"\n\nLater the user also wants:\n{later}" if later else ""),
        requirements=reqs, verifier=spec, reference_solution=patch.get("patch") or None,
        difficulty=md.get("difficulty"),
        meta={"intents": records, "rubric": rubric, "category": md.get("category"),
              "tags": md.get("tags", []), "repo": patch.get("repo_id") or patch.get("_repo_url"),
              "base_commit": patch.get("_base_commit"),
              "expert_time_min": md.get("expert_time_estimate_min"),
              "user_simulation_prompt": sim_prompt.read_text(encoding="utf-8", errors="replace")
              if sim_prompt.is_file() else None, "source": str(d)})


class SWETogetherScenario:
    """SWE-Together task folders: a folder of task folders, or one task folder."""

    name: ClassVar[str] = "swetogether"
    config_cls: ClassVar[type[ScenarioConfig]] = SWETogetherConfig

    def __init__(self, config: SWETogetherConfig | None = None) -> None:
        self.config = config or SWETogetherConfig()

    def load(self, source: str | Path | None = None) -> list[TaskSpec]:
        """Tasks under ``source`` (default: ``scenarios/swetogether_local``), sorted by name.

        Raises:
            ConfigError: the folder does not exist.
            DataError: a malformed task folder.
        """
        root = Path(source) if source else DEFAULT_DIR
        if not root.is_dir():
            raise ConfigError("SWE-Together task folder not found", file=str(root))
        folders = [root] if (root / "task.toml").is_file() else sorted(
            p for p in root.iterdir() if (p / "task.toml").is_file())
        if self.config.ids:
            folders = [f for f in folders if f.name in set(self.config.ids)]
        tasks = [load_task_folder(f, max_instruction_chars=self.config.max_instruction_chars)
                 for f in folders]
        if not self.config.include_docker_bound:
            tasks = [t for t in tasks if t.verifier.meta.get("runnable")]
        return select(tasks, self.config)


def seed_workspace(task: TaskSpec, sandbox: Any, *, dest: str = ".") -> int:
    """Copy a local task's starting repository into ``sandbox`` (hidden tests excluded).

    Returns:
        The number of files copied.

    Raises:
        ConfigError: the task is docker-bound (no local repository).
    """
    from autointeract.verifiers.repo import copy_into

    ws = task.verifier.meta.get("workspace_dir")
    if not ws or not Path(ws).is_dir():
        raise ConfigError(f"task '{task.task_id}' has no local repository (docker-bound)",
                          field="verifier.meta.workspace_dir")
    return copy_into(sandbox, ws, dest=dest)
