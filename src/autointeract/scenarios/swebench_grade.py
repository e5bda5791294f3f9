"""Grading SWE-bench test logs (pure) and running the swebench harness (docker).

Grading goes through swebench's own log parsers and ``get_eval_report``: the log must hold
the harness's start/end markers, a patch-apply failure or timeout fails everything, and a
log whose recorded test exit code is non-zero while it reports no failure (a solution that
prints fake ``PASSED`` lines) is not trusted at all. Criteria: one per FAIL_TO_PASS test,
then one per PASS_TO_PASS test; ``meta.resolved`` is swebench's verdict.

Running needs a reachable docker engine and harness-ready instances (``image``,
``log_parser``, ``eval_type``, ``eval_script``); otherwise ``SandboxUnavailable`` or
``ConfigError`` says why.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from autointeract.errors import ConfigError, SandboxUnavailable
from autointeract.types import CriterionResult, TaskSpec, VerifierResult, VerifierSpec

DEFAULT_PARSER = "parse_log_pytest"


def make_test_spec(instance: dict[str, Any]) -> Any:
    """A ``swebench.types.TestSpec`` for grading (parser/eval type defaulted when absent)."""
    from swebench.harness.constants import FAIL_ONLY_REPOS, EvalType
    from swebench.harness.utils import parse_eval_script, record_test_exit_code
    from swebench.types import TestSpec

    eval_type = instance.get("eval_type") or (
        EvalType.FAIL_ONLY.value if instance.get("repo") in FAIL_ONLY_REPOS
        else EvalType.PASS_AND_FAIL.value)
    script = instance.get("eval_script")
    return TestSpec(
        instance_id=instance["instance_id"], image=instance.get("image", ""),
        eval_script_list=record_test_exit_code(parse_eval_script(script)) if script else [],
        repo=instance.get("repo", ""), version=str(instance.get("version", "")),
        FAIL_TO_PASS=list(instance["FAIL_TO_PASS"]), PASS_TO_PASS=list(instance["PASS_TO_PASS"]),
        log_parser=instance.get("log_parser") or DEFAULT_PARSER, eval_type=eval_type)


def grade_log(spec: VerifierSpec, log_text: str, *, model_patch: str | None = "") -> VerifierResult:
    """Grade one harness test log. Pure: the same log always gives the same result.

    Args:
        spec: a ``kind="swebench"`` spec (``meta.instance`` holds the test lists).
        log_text: the harness's ``test_output.txt``.
        model_patch: the evaluated patch; None means no patch was produced.

    Raises:
        ConfigError: the spec is not a swebench spec.
    """
    from swebench.harness.grading import get_eval_report

    if spec.kind != "swebench" or "instance" not in spec.meta:
        raise ConfigError("not a swebench spec (needs meta.instance)", field="verifier.kind")
    inst = spec.meta["instance"]
    test_spec = make_test_spec(inst)
    pred = {"instance_id": inst["instance_id"], "model_name_or_path": "autointeract",
            "model_patch": model_patch}
    fd, path = tempfile.mkstemp(suffix=".log", prefix="swebench-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(log_text)
        report = get_eval_report(test_spec, pred, path, include_tests_status=True)
    finally:
        os.unlink(path)
    rep = report[inst["instance_id"]]
    status = rep.get("tests_status") or {}
    crits = []
    for group in ("FAIL_TO_PASS", "PASS_TO_PASS"):
        ok = set((status.get(group) or {}).get("success", []))
        for test in inst[group]:
            crits.append(CriterionResult(name=test, passed=test in ok,
                                         verdict="PASS" if test in ok else "FAIL",
                                         detail=group))
    meta = {k: rep.get(k) for k in ("resolved", "patch_exists", "patch_successfully_applied",
                                    "infra_failure", "infra_failure_reason") if k in rep}
    error = None if rep.get("patch_successfully_applied") else "log not gradable (patch not " \
        "applied, timed out, no test output, or exit code contradicts the reported results)"
    return VerifierResult(criteria=crits, verified=True, error=error, meta=meta)


def docker_available() -> str | None:
    """None when a docker engine answers, else the reason it does not."""
    try:
        import docker

        docker.from_env(timeout=5).ping()
    except Exception as exc:  # noqa: BLE001 - any failure means "not usable here"
        return f"{type(exc).__name__}: {str(exc)[:160]}"
    return None


def run_swebench(tasks: list[TaskSpec], patches: dict[str, str], *, run_id: str,
                 max_workers: int = 1, timeout_s: int = 1800,
                 log_root: str | Path = "logs/run_evaluation") -> dict[str, VerifierResult]:
    """Run swebench's harness on ``patches`` (task id -> diff) and grade each log.

    Raises:
        SandboxUnavailable: no reachable docker engine.
        ConfigError: an instance lacks harness fields or a patch is missing.
    """
    reason = docker_available()
    if reason:
        raise SandboxUnavailable(f"swebench needs a docker engine: {reason}")
    from swebench.harness.run_evaluation import run_instances

    instances, preds = [], {}
    for t in tasks:
        inst = t.verifier.meta.get("instance", {})
        missing = [k for k in ("log_parser", "eval_type", "eval_script") if not inst.get(k)]
        if missing:
            raise ConfigError(f"instance '{t.task_id}' is not harness-ready (no {missing[0]})",
                              field="verifier.meta.instance")
        if t.task_id not in patches:
            raise ConfigError(f"no patch for '{t.task_id}'", field="patches")
        instances.append({**inst, "image": t.verifier.docker_image})
        preds[t.task_id] = {"instance_id": t.task_id, "model_name_or_path": "autointeract",
                            "model_patch": patches[t.task_id]}
    run_instances(preds, instances, max_workers, run_id, timeout_s)
    out = {}
    for t in tasks:
        log = Path(log_root) / run_id / "autointeract" / t.task_id / "test_output.txt"
        text = log.read_text(encoding="utf-8", errors="replace") if log.is_file() else ""
        out[t.task_id] = grade_log(t.verifier, text, model_patch=patches[t.task_id])
        if not text:
            out[t.task_id].verified = False
    return out
