"""Write a calibration run's datasets: parquet + JSONL per split, provenance, the card.

    result = write_datasets("runs/demo/generate", firewall=fw, provenance={...})
    result.out_dir, result.counts          # runs/demo/generate/dataset, {"tasks": 2, ...}
    push_to_hub(result.out_dir, "me/my-tasks")   # needs a token (HF_TOKEN or a login)

Every file is written to a temporary name and renamed, so a killed writer never leaves a
half file; writing again from the same run gives the same rows.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autointeract.dataset.card import render_card
from autointeract.dataset.rows import UserModelRef
from autointeract.dataset.tables import SPLITS, Tables, build_tables
from autointeract.errors import ConfigError, DataError


@dataclass
class DatasetResult:
    out_dir: Path
    counts: dict[str, int]
    refused: dict[str, int]
    files: list[Path] = field(default_factory=list)


def _tmp(p: Path) -> Path:
    return p.with_name(f".{p.name}.tmp")


def write_split(out_dir: Path, name: str, rows: list[dict[str, Any]]) -> list[Path]:
    """``<name>.jsonl`` and ``<name>.parquet`` (the parquet only when there are rows)."""
    jl = out_dir / f"{name}.jsonl"
    with _tmp(jl).open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False, default=str) + "\n")
    _tmp(jl).replace(jl)
    out = [jl]
    pq = out_dir / f"{name}.parquet"
    if rows:
        import pyarrow as pa
        import pyarrow.parquet as papq

        papq.write_table(pa.Table.from_pylist(rows), str(_tmp(pq)))
        _tmp(pq).replace(pq)
        out.append(pq)
    elif pq.exists():
        pq.unlink()
    return out


def _read_run(run_dir: Path) -> tuple[list[dict[str, Any]], list[Any]]:
    from autointeract.calibrate.loop import CANDIDATES, INTERACTIONS
    from autointeract.calibrate.store import RecordStore
    from autointeract.rollout.store import TrajectoryStore

    if not (run_dir / CANDIDATES).exists():
        raise DataError(f"no {CANDIDATES} here (run `autointeract generate` first)",
                        file=str(run_dir))
    cands = list(RecordStore(run_dir / CANDIDATES, key="candidate_id").load().values())
    seen: set[str] = set()
    trajs = []
    for t in TrajectoryStore(run_dir / INTERACTIONS, repair=False):
        if t.episode_id not in seen:
            seen.add(t.episode_id)
            trajs.append(t)
    return cands, trajs


def write_datasets(run_dir: str | Path, out_dir: str | Path | None = None, *,
                   sft_threshold: float = 0.9, sft_tasks: str = "all",
                   user_model: UserModelRef | None = None, firewall: Any = None,
                   max_user_turns: int = 4, name: str = "autointeract-tasks",
                   provenance: dict[str, Any] | None = None) -> DatasetResult:
    """Build and write every split of a calibration run.

    Args:
        run_dir: the calibration run (``candidates.jsonl``, ``interactions.jsonl``).
        out_dir: where to write (default ``run_dir/dataset``).
        sft_threshold: SFT rejection-sampling threshold on the trajectory reward.
        sft_tasks: ``all`` evaluated tasks or only ``accepted`` ones feed SFT.
        user_model: the simulated user RL rows refer to.
        firewall: optional evaluation firewall; refused items are counted in the card.
        max_user_turns: carried into RL rows.
        name: the dataset's title in the card.
        provenance: config hash, models, seeds, band... (written to ``provenance.json``).

    Raises:
        DataError: the run has no candidates file.
    """
    run = Path(run_dir)
    out = Path(out_dir) if out_dir else run / "dataset"
    out.mkdir(parents=True, exist_ok=True)
    cands, trajs = _read_run(run)
    tables: Tables = build_tables(cands, trajs, sft_threshold=sft_threshold, sft_tasks=sft_tasks,
                                  user_model=user_model, firewall=firewall,
                                  max_user_turns=max_user_turns)
    files: list[Path] = []
    for split in SPLITS:
        files += write_split(out, split, getattr(tables, split))
    prov = dict(provenance or {})
    gen_refused = sum(1 for c in cands if c["generation"]["status"] == "firewalled")
    fw = dict(prov.get("firewall") or {})
    fw.update(enabled=firewall is not None or bool(fw.get("enabled")),
              benchmarks=list(getattr(firewall, "benchmarks", None) or fw.get("benchmarks") or []),
              refused_generation=gen_refused, refused_tasks=tables.refused["tasks"],
              refused_sft=tables.refused["sft"])
    prov.update(firewall=fw, counts=tables.counts(), sft_threshold=sft_threshold)
    from autointeract.config import package_versions

    prov.setdefault("versions", package_versions())
    p = out / "provenance.json"
    _tmp(p).write_text(json.dumps(prov, indent=2, default=str), encoding="utf-8")
    _tmp(p).replace(p)
    card = out / "README.md"
    _tmp(card).write_text(render_card(name=name, counts=tables.counts(), provenance=prov),
                          encoding="utf-8")
    _tmp(card).replace(card)
    return DatasetResult(out_dir=out, counts=tables.counts(), refused=dict(tables.refused),
                         files=[*files, p, card])


def hub_token(token: str | None = None) -> str:
    """A Hugging Face token from the argument, ``HF_TOKEN`` or a saved login.

    Raises:
        ConfigError: no token is configured.
    """
    tok = token or os.environ.get("HF_TOKEN") or os.environ.get("HUGGING_FACE_HUB_TOKEN")
    if not tok:
        try:
            from huggingface_hub import get_token

            tok = get_token()
        except ImportError:
            tok = None
    if not tok:
        raise ConfigError("no Hugging Face token: set HF_TOKEN or run `hf auth login` before "
                          "--push-to-hub", field="push_to_hub")
    return tok


def push_to_hub(out_dir: str | Path, repo: str, *, token: str | None = None,
                private: bool = True) -> str:
    """Upload a written dataset folder (parquet splits, card, provenance) to the Hub.

    Returns:
        The dataset's URL.

    Raises:
        ConfigError: no token, or the upload failed (network, permissions), in one line.
    """
    from huggingface_hub import HfApi

    tok = hub_token(token)
    api = HfApi(token=tok)
    try:
        api.create_repo(repo, repo_type="dataset", private=private, exist_ok=True)
        api.upload_folder(folder_path=str(out_dir), repo_id=repo, repo_type="dataset",
                          allow_patterns=["*.parquet", "README.md", "provenance.json"],
                          commit_message="autointeract: calibrated tasks")
    except Exception as exc:  # network, auth, quota: one clear line for the CLI
        raise ConfigError(f"push to '{repo}' failed: {type(exc).__name__}: {str(exc)[:200]}",
                          field="push_to_hub") from None
    return f"https://huggingface.co/datasets/{repo}"


__all__ = ["DatasetResult", "hub_token", "push_to_hub", "write_datasets", "write_split"]
