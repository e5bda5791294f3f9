"""Leak audit: does any row of a training dataset match an evaluation benchmark?

The generator, the dataset writer and the trainer refuse benchmark items as they go; the
audit checks the finished artifact, so an evaluation can state that none of its tasks was
trained on (and a CI job can fail when one was):

    fw = firewall_for(eval_cfg)                     # the eval config's benchmarks
    result = audit_paths(["runs/gen/dataset"], fw)  # tasks/rl/sft JSONL, TaskSpec JSONL
    result["leaks"]                                 # [{file, line, id, match}, ...]
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from autointeract.errors import DataError
from autointeract.eval.config import EvalConfig
from autointeract.eval.firewall import Firewall, FirewallConfig, build_firewall
from autointeract.types import TaskSpec


def firewall_for(cfg: EvalConfig, *, threshold: float = 0.5) -> Firewall:
    """A firewall registering every benchmark of an evaluation config (as it loads them)."""
    from autointeract.eval.firewall import task_item
    from autointeract.eval.runner import load_benchmark

    fw = build_firewall(FirewallConfig(threshold=threshold))
    for b in cfg.benchmarks:
        fw.register(b.label(), [task_item(t) for t in load_benchmark(b)])
    return fw


def _messages_texts(messages: Any) -> list[str]:
    if isinstance(messages, str):
        try:
            messages = json.loads(messages)
        except json.JSONDecodeError:
            return [messages]
    return [str(m.get("content") or "") for m in messages or []
            if isinstance(m, dict) and m.get("role") == "user"]


def row_check(fw: Firewall, row: dict[str, Any]) -> Any:
    """The firewall match of one dataset row (task, RL, SFT or interaction row), or None."""
    if row.get("task_json"):
        return fw.check_task(TaskSpec.model_validate_json(row["task_json"]))
    if "verifier" in row and "initial_message" in row and "task_id" in row:
        return fw.check_task(TaskSpec.model_validate(row))
    if "messages" in row:
        return fw.check_texts(_messages_texts(row["messages"]))
    texts = [str(row.get(k) or "") for k in ("prompt", "statement", "question_content", "text")]
    return fw.check_texts(texts)


def _files(paths: Iterable[str | Path]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(p.glob("*.jsonl"))
        elif p.is_file():
            out.append(p)
        else:
            raise DataError("not found", file=str(p))
    return out


def audit_paths(paths: Iterable[str | Path], fw: Firewall) -> dict[str, Any]:
    """Check every row of the JSONL files (folders: their ``*.jsonl``) against ``fw``.

    Returns:
        ``{"files", "rows", "leaks": [{file, line, id, match, score}], "firewall"}``.

    Raises:
        DataError: a missing path or a line that is not JSON.
    """
    files, rows, leaks = _files(paths), 0, []
    for f in files:
        with f.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise DataError(f"line {n}: not JSON ({exc.msg})", file=str(f)) from None
                if not isinstance(row, dict):
                    continue
                rows += 1
                m = row_check(fw, row)
                if m is not None:
                    rid = row.get("task_id") or row.get("id") or row.get("episode_id")
                    leaks.append({"file": str(f), "line": n, "id": rid, "match": str(m),
                                  "benchmark": m.benchmark, "item": m.item_id, "score": m.score})
    return {"files": [str(f) for f in files], "rows": rows, "leaks": leaks,
            "firewall": fw.card_section()}
