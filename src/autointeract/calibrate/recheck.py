"""Re-measure accepted tasks with fresh episode seeds: how many are still in band?

    report = recheck_run("runs/demo/generate", client=client)
    report["still_in_band"]     # share of accepted tasks the band rule accepts again

Results go to ``recheck.jsonl`` (one record per task, resumable) and the new episodes to
``recheck_interactions.jsonl``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autointeract.calibrate.config import GenerateConfig
from autointeract.calibrate.evaluator import Evaluator
from autointeract.calibrate.executor import Participants, make_executor
from autointeract.calibrate.loop import CANDIDATES
from autointeract.calibrate.store import RecordStore, atomic_write_text
from autointeract.errors import DataError
from autointeract.rollout.store import TrajectoryStore
from autointeract.types import TaskSpec, UserProfile

if TYPE_CHECKING:
    from autointeract.llm.client import LLMClient

CONFIG_FILE = "generate.config.yaml"


def load_run_config(run_dir: str | Path) -> GenerateConfig:
    """The config a calibration run was made with (``generate.config.yaml``).

    Raises:
        DataError: the run folder has no config.
    """
    from autointeract.config import load_config

    p = Path(run_dir) / CONFIG_FILE
    if not p.is_file():
        raise DataError(f"no {CONFIG_FILE} (is this a `generate` run folder?)", file=str(run_dir))
    return load_config(GenerateConfig, p)


def accepted_tasks(run_dir: str | Path) -> list[tuple[TaskSpec, UserProfile | None, int]]:
    """(task, profile, candidate seed) of every accepted candidate of a run."""
    recs = RecordStore(Path(run_dir) / CANDIDATES, key="candidate_id").load().values()
    out = []
    for r in recs:
        if r["outcome"]["status"] == "accepted" and r.get("task"):
            prof = UserProfile.model_validate(r["profile"]) if r.get("profile") else None
            out.append((TaskSpec.model_validate(r["task"]), prof, int(r["proposal"]["seed"])))
    return out


async def arecheck(run_dir: str | Path, *, client: LLMClient | None, cfg: GenerateConfig,
                   offset: int = 1000) -> dict[str, Any]:
    """The async form of :func:`recheck_run`."""
    run = Path(run_dir)
    parts = Participants(solvers={"weak": cfg.weak, "strong": cfg.strong}, user=cfg.user,
                         models=cfg.models, episode=cfg.episode, verify=cfg.verify, llm=cfg.llm)
    ex = make_executor(cfg.executor, parts, client=client, concurrency=cfg.concurrency,
                       address=cfg.ray_address)
    store = TrajectoryStore(run / "recheck_interactions.jsonl")
    known = {t.episode_id: t for t in store}
    ev = Evaluator(cfg.band, ex, known=known, on_episode=store.append)
    results = RecordStore(run / "recheck.jsonl", key="task_id")
    done = results.load()
    tasks = accepted_tasks(run)
    for task, prof, seed in tasks:
        if task.task_id in done:
            continue
        evidence, _ = await ev.evaluate(task, prof, seed=seed, offset=offset,
                                        meta={"recheck": True, "task_id": task.task_id})
        rec = {"task_id": task.task_id, "offset": offset, **evidence.summary()}
        results.append(rec)
        done[task.task_id] = rec
    ex.close()
    rows = [done[t.task_id] for t, _, _ in tasks if t.task_id in done]
    kept = sum(r["status"] == "accepted" for r in rows)
    report = {"tasks": len(rows), "still_in_band": round(kept / len(rows), 4) if rows else 0.0,
              "accepted_again": kept, "statuses": {s: sum(r["status"] == s for r in rows)
                                                   for s in sorted({r["status"] for r in rows})},
              "rows": rows}
    atomic_write_text(run / "recheck_summary.json", __import__("json").dumps(report, indent=2))
    return report


def recheck_run(run_dir: str | Path, *, client: LLMClient | None = None,
                cfg: GenerateConfig | None = None, offset: int = 1000) -> dict[str, Any]:
    """Re-evaluate every accepted task of ``run_dir`` with seeds shifted by ``offset``.

    Returns:
        ``tasks``, ``still_in_band`` (share), ``accepted_again``, ``statuses`` and ``rows``.
    """
    cfg = cfg or load_run_config(run_dir)
    if client is None and (cfg.weak.kind == "llm" or cfg.strong.kind == "llm"):
        from autointeract.llm.client import LLMClient

        client = LLMClient(cfg.llm)
    return asyncio.run(arecheck(run_dir, client=client, cfg=cfg, offset=offset))


__all__ = ["CONFIG_FILE", "accepted_tasks", "arecheck", "load_run_config", "recheck_run"]
