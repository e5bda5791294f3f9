"""SWE-bench-format instances -> multi-turn repository TaskSpecs.

An instance row (JSONL/JSON/parquet or a hub dataset such as ``princeton-nlp/SWE-bench_Lite``)
has ``instance_id``, ``repo``, ``base_commit``, ``problem_statement``, ``patch``,
``test_patch``, ``FAIL_TO_PASS``, ``PASS_TO_PASS`` (lists or JSON strings) and ``version``;
harness-ready rows also carry ``image``, ``log_parser``, ``eval_type`` and ``eval_script``.

The problem statement is the hidden goal. The user opens with the issue's title line and
reveals the remaining paragraphs (repro, expected behaviour, traceback) one per turn; each
requirement covers the FAIL_TO_PASS criteria. The verifier is ``kind="swebench"``: its
``meta.instance`` is what :mod:`autointeract.scenarios.swebench_grade` needs to grade a log
(criteria: one per FAIL_TO_PASS test, then one per PASS_TO_PASS test).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, ClassVar

from autointeract.errors import DataError
from autointeract.scenarios.base import ScenarioConfig, require, select
from autointeract.scenarios.hub import rows
from autointeract.scenarios.split import soften
from autointeract.types import Requirement, TaskSpec, VerifierSpec

REQUIRED = ("instance_id", "repo", "base_commit", "problem_statement", "patch", "FAIL_TO_PASS")
HARNESS_FIELDS = ("image", "log_parser", "eval_type", "eval_script", "environment_setup_commit")


class SWEBenchConfig(ScenarioConfig):
    """Options of the SWE-bench scenario.

    Attributes:
        hub_split: split of a hub dataset.
        max_requirements: paragraphs beyond this many are merged into the last requirement.
        image_template: docker image when a row has no ``image`` (``{id}`` is the instance
            id with ``__`` replaced by ``_1776_``, SWE-bench's naming).
        timeout_s: harness timeout per instance.
    """

    hub_split: str = "test"
    max_requirements: int = 4
    image_template: str = "swebench/sweb.eval.x86_64.{id}:latest"
    timeout_s: float = 1800.0


def test_list(raw: Any, *, file: str, field: str) -> list[str]:
    """A FAIL_TO_PASS/PASS_TO_PASS value (list or JSON string) as a list of test ids.

    Raises:
        DataError: not a list of strings.
    """
    value = raw
    if isinstance(raw, str):
        try:
            value = json.loads(raw) if raw.strip() else []
        except json.JSONDecodeError as exc:
            raise DataError(f"not a JSON list: {exc.msg}", file=file, field=field) from None
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise DataError("expected a list of test ids", file=file, field=field)
    return value


def statement_paragraphs(text: str) -> list[str]:
    """Blank-line separated paragraphs; fenced code blocks stay whole."""
    parts, buf, fenced = [], [], False
    for line in text.replace("\r\n", "\n").split("\n"):
        if line.strip().startswith("```"):
            fenced = not fenced
        if not line.strip() and not fenced:
            if buf:
                parts.append("\n".join(buf).strip())
                buf = []
            continue
        buf.append(line)
    if buf:
        parts.append("\n".join(buf).strip())
    merged: list[str] = []
    for p in parts:  # "... are mangled:" introduces the block after it
        if merged and merged[-1].endswith(":"):
            merged[-1] += "\n\n" + p
        else:
            merged.append(p)
    return merged


def issue_opening(statement: str, *, repo: str) -> tuple[str, list[str]]:
    """The opening message (the title line, softened) and the paragraphs held back."""
    paras = statement_paragraphs(statement)
    if not paras:
        return f"There's a bug in {repo}, can you fix it?", []
    first = paras[0].split("\n")
    title = re.sub(r"^#+\s*", "", first[0]).strip()
    rest = ["\n".join(first[1:]).strip()] if len(first) > 1 and "\n".join(first[1:]).strip() else []
    return f"There's an issue in {repo}: {soften(title)} Can you fix it?", rest + paras[1:]


def instance_to_task(row: dict[str, Any], *, file: str = "<row>", index: int = 0,
                     cfg: SWEBenchConfig | None = None) -> TaskSpec:
    """One SWE-bench instance as a TaskSpec.

    Raises:
        DataError: a missing field or malformed test lists (file, row and field named).
    """
    cfg = cfg or SWEBenchConfig()
    where = f"row {index}"
    require(row, REQUIRED, file=file, where=where)
    f2p = test_list(row["FAIL_TO_PASS"], file=file, field=f"{where}.FAIL_TO_PASS")
    p2p = test_list(row.get("PASS_TO_PASS"), file=file, field=f"{where}.PASS_TO_PASS")
    if not f2p:
        raise DataError("empty FAIL_TO_PASS: nothing to resolve", file=file,
                        field=f"{where}.FAIL_TO_PASS")
    iid, repo = str(row["instance_id"]), str(row["repo"])
    opening, held = issue_opening(str(row["problem_statement"]), repo=repo)
    if len(held) > cfg.max_requirements:
        held = held[: cfg.max_requirements - 1] + ["\n\n".join(held[cfg.max_requirements - 1:])]
    covers = list(range(len(f2p)))
    reqs = [Requirement(text=p, trigger="failed_test" if i else "asked", tests=covers,
                        reveal_after_turn=i + 1) for i, p in enumerate(held)]
    instance = {k: row[k] for k in ("instance_id", "repo", "base_commit", "version", "test_patch")
                if k in row}
    instance.update({k: row[k] for k in HARNESS_FIELDS if row.get(k)})
    instance.update(FAIL_TO_PASS=f2p, PASS_TO_PASS=p2p)
    image = row.get("image") or cfg.image_template.format(id=iid.replace("__", "_1776_"))
    spec = VerifierSpec(kind="swebench", docker_image=str(image), time_limit_s=cfg.timeout_s,
                        meta={"instance": instance, "n_fail_to_pass": len(f2p)})
    return TaskSpec(task_id=iid, family="swebench", initial_message=opening,
                    hidden_goal=str(row["problem_statement"]).strip(), requirements=reqs,
                    verifier=spec, reference_solution=str(row["patch"]),
                    difficulty=row.get("difficulty") or None,
                    meta={"repo": repo, "base_commit": row["base_commit"],
                          "version": row.get("version"), "created_at": row.get("created_at"),
                          "hints_text": row.get("hints_text") or "", "source": "swebench"})


class SWEBenchScenario:
    """SWE-bench-format instances from local files or a hub dataset."""

    name: ClassVar[str] = "swebench"
    config_cls: ClassVar[type[ScenarioConfig]] = SWEBenchConfig

    def __init__(self, config: SWEBenchConfig | None = None) -> None:
        self.config = config or SWEBenchConfig()

    def load(self, source: str | Path | None = None) -> list[TaskSpec]:
        """Tasks of ``source`` (a file/folder of rows, or a hub id; default SWE-bench Lite).

        Raises:
            DataError: a malformed instance or no hub access.
        """
        src = source or "princeton-nlp/SWE-bench_Lite"
        tasks = [instance_to_task(row, file=file, index=i, cfg=self.config)
                 for file, i, row in rows(src, split=self.config.hub_split)]
        return select(tasks, self.config)
