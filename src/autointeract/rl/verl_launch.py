"""Launching verl: convert the rows, write the agent-loop YAML, build the full command line.

    plan = prepare_verl(cfg, out_dir="runs/rl")      # parquet + agent_loop.yaml, validated
    print(shlex.join(plan.command))                  # python -m verl.trainer.main_ppo ...

Every recipe number becomes an explicit Hydra override (verl 0.9 key names), so the printed
command is the whole run: nothing is left to verl's defaults that the paper fixed.
"""

from __future__ import annotations

import importlib.util
import inspect
from dataclasses import dataclass, field
from pathlib import Path

from autointeract.errors import ConfigError
from autointeract.rl.config import TrainConfig
from autointeract.rl.verl_data import (
    AGENT_LOOP_TARGET,
    AGENT_NAME,
    agent_loop_yaml,
    check_verl_parquet,
    write_verl_parquet,
)


@dataclass
class VerlPlan:
    """What a verl launch needs, all on disk."""

    train_parquet: Path
    val_parquet: Path
    agent_loop_yaml: Path
    command: list[str]
    n_train: int = 0
    n_val: int = 0
    checks: list[str] = field(default_factory=list)


def _b(x: bool) -> str:
    return "true" if x else "false"


def verl_overrides(cfg: TrainConfig, *, train: Path, val: Path, agent_loop: Path,
                   reward_file: Path, out_dir: Path) -> list[str]:
    """The Hydra overrides of ``verl.trainer.main_ppo`` for this config (verl 0.9 keys)."""
    r, v = cfg.recipe, cfg.verl
    a, ro, m = "actor_rollout_ref.actor", "actor_rollout_ref.rollout", "actor_rollout_ref.model"
    targets = "[" + ",".join(r.lora_targets) + "]"
    return [
        # GRPO-style group advantages; GSPO is the sequence-level policy loss on top.
        "algorithm.adv_estimator=grpo",
        f"algorithm.use_kl_in_reward={_b(r.kl_coef > 0)}",  # paper: KL coefficient 0
        f"data.train_files={train}", f"data.val_files={val}",
        "data.prompt_key=prompt", "data.return_raw_chat=true",
        f"data.train_batch_size={v.train_batch_size}",
        f"data.max_prompt_length={v.max_prompt_length}",
        f"data.max_response_length={v.max_response_length}",
        "data.filter_overlong_prompts=true", "data.truncation=error",
        f"{m}.path={v.model}",
        # paper: LoRA rank 32, alpha 32 on q,k,v,o,gate,up,down
        f"{m}.lora_rank={r.lora_rank}", f"{m}.lora_alpha={r.lora_alpha}",
        f"{m}.target_modules={targets}",
        f"{m}.enable_gradient_checkpointing={_b(v.gradient_checkpointing)}",
        "actor_rollout_ref.model.use_remove_padding=true",
        f"{a}.strategy={v.strategy}",
        # paper: GSPO (sequence-level importance ratio)
        f"{a}.policy_loss.loss_mode=gspo", f"{a}.loss_agg_mode={r.loss_agg_mode}",
        f"{a}.clip_ratio_low={r.clip_ratio_low}", f"{a}.clip_ratio_high={r.clip_ratio_high}",
        # paper: LR 5e-5 constant; Adam betas (0.9, 0.98), eps 1e-8; weight decay 0.1; clip 1.0
        f"{a}.optim.lr={r.lr}", f"{a}.optim.lr_scheduler_type=constant",
        f"{a}.optim.betas=[{r.adam_betas[0]},{r.adam_betas[1]}]",
        f"+{a}.optim.override_optimizer_config.eps={r.adam_eps}",
        f"{a}.optim.weight_decay={r.weight_decay}", f"{a}.optim.clip_grad={r.grad_clip}",
        # paper: KL-loss 0.001 (low-variance k3); entropy 0.001
        f"{a}.use_kl_loss={_b(r.kl_loss_coef > 0)}", f"{a}.kl_loss_coef={r.kl_loss_coef}",
        f"{a}.kl_loss_type={r.kl_loss_type}", f"{a}.entropy_coeff={r.entropy_coeff}",
        f"{a}.ppo_mini_batch_size={v.ppo_mini_batch_size}",
        f"{a}.ppo_micro_batch_size_per_gpu={v.micro_batch_size_per_gpu}",
        f"{a}.fsdp_config.param_offload={_b(v.param_offload)}",
        f"actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu={v.micro_batch_size_per_gpu}",
        # paper: SGLang rollouts, 8 samples per prompt, temperature 1.0, top-p 1.0
        f"{ro}.name={v.rollout_engine}", f"{ro}.mode=async", f"{ro}.n={r.samples_per_prompt}",
        f"{ro}.temperature={r.temperature}", f"{ro}.top_p={r.top_p}",
        f"{ro}.tensor_model_parallel_size={v.rollout_tp}",
        f"{ro}.gpu_memory_utilization={v.gpu_memory_utilization}",
        f"{ro}.log_prob_micro_batch_size_per_gpu={v.micro_batch_size_per_gpu}",
        f"{ro}.load_format=safetensors", f"{ro}.layered_summon=true",
        # the simulated user: our registered agent loop
        f"{ro}.multi_turn.enable=true",
        f"{ro}.multi_turn.max_assistant_turns={v.max_assistant_turns}",
        f"{ro}.agent.agent_loop_config_path={agent_loop}",
        f"{ro}.agent.default_agent_loop={AGENT_NAME}",
        # reward: verifier + effort floor
        f"reward.custom_reward_function.path={reward_file}",
        "reward.custom_reward_function.name=compute_score",
        f"trainer.nnodes={v.nnodes}", f"trainer.n_gpus_per_node={v.n_gpus_per_node}",
        f"trainer.total_epochs={r.epochs}",  # paper: one epoch
        f"trainer.project_name={v.project}", f"trainer.experiment_name={v.experiment}",
        "trainer.logger=[" + ",".join(v.logger) + "]",
        f"trainer.save_freq={v.save_freq}", f"trainer.test_freq={v.test_freq}",
        f"trainer.default_local_dir={out_dir / 'checkpoints'}",
        "trainer.val_before_train=true",
        *v.extra_overrides,
    ]


def check_registration(agent_loop: Path) -> str:
    """Check that the agent-loop YAML names an importable, registered loop.

    Imports verl when it is installed (CPU is enough) and returns what was checked; without
    verl only the YAML and the target's module file are checked.

    Raises:
        ConfigError: the YAML does not name our loop, or the loop does not register.
    """
    import yaml

    entries = yaml.safe_load(agent_loop.read_text(encoding="utf-8")) or []
    names = {e.get("name"): e.get("_target_") for e in entries if isinstance(e, dict)}
    if names.get(AGENT_NAME) != AGENT_LOOP_TARGET:
        raise ConfigError(f"does not register {AGENT_NAME} -> {AGENT_LOOP_TARGET}",
                          file=str(agent_loop))
    mod = AGENT_LOOP_TARGET.rsplit(".", 1)[0]
    if importlib.util.find_spec("verl") is None:
        if importlib.util.find_spec(mod) is None:
            raise ConfigError(f"module {mod} not found", file=str(agent_loop))
        return "agent loop: YAML ok; verl not installed here, registration not imported"
    from verl.experimental.agent_loop.agent_loop import _agent_loop_registry

    importlib.import_module(mod)
    got = _agent_loop_registry.get(AGENT_NAME, {}).get("_target_")
    if got != AGENT_LOOP_TARGET:
        raise ConfigError(f"verl registry has {AGENT_NAME} -> {got}", file=str(agent_loop))
    return f"agent loop: {AGENT_NAME} registered in verl ({AGENT_LOOP_TARGET})"


def check_overrides(overrides: list[str]) -> str:
    """Compose ``overrides`` against verl's own ``ppo_trainer`` config (Hydra rejects an
    unknown key), when verl is installed.

    Raises:
        ConfigError: an override verl's config does not accept.
    """
    if importlib.util.find_spec("verl") is None:
        return "overrides: verl not installed here, keys not checked"
    import os

    import verl
    from hydra import compose, initialize_config_dir

    conf_dir = os.path.join(os.path.dirname(verl.__file__), "trainer", "config")
    try:
        with initialize_config_dir(config_dir=conf_dir, version_base=None):
            composed = compose(config_name="ppo_trainer", overrides=overrides)
    except Exception as exc:  # hydra raises several types; all mean a bad override
        raise ConfigError(f"verl rejects the overrides: {str(exc).splitlines()[0]}",
                          field="verl.extra_overrides") from None
    mode = composed.actor_rollout_ref.actor.policy_loss.loss_mode
    return (f"overrides: {len(overrides)} keys compose against verl "
            f"{getattr(verl, '__version__', '?')} ppo_trainer (policy loss {mode})")


def prepare_verl(cfg: TrainConfig, *, out_dir: str | Path) -> VerlPlan:
    """Convert the RL rows to verl parquet, write the agent-loop YAML, build the command.

    Raises:
        ConfigError: no ``data.rl_rows``.
        DataError: unreadable rows.
    """
    from autointeract.dataset.rows import read_rows
    from autointeract.rl import verl_reward
    from autointeract.rl.demo_rows import load_rows

    if not cfg.data.rl_rows:
        raise ConfigError("verl needs RL rows", field="data.rl_rows")
    out = Path(out_dir).resolve()
    rows, _ = load_rows(cfg.data.rl_rows)
    val_rows = read_rows(cfg.data.val_rows, "rl") if cfg.data.val_rows else rows[: max(1, len(rows) // 10)]
    train = write_verl_parquet(rows, out / "data" / "train.parquet")
    val = write_verl_parquet(val_rows, out / "data" / "val.parquet")
    loop = out / "agent_loop.yaml"
    loop.parent.mkdir(parents=True, exist_ok=True)
    loop.write_text(agent_loop_yaml(), encoding="utf-8")
    n_train, n_val = check_verl_parquet(train), check_verl_parquet(val)
    checks = [f"data: {train} ({n_train} rows), {val} ({n_val} rows)", check_registration(loop)]
    reward_file = Path(inspect.getfile(verl_reward)).resolve()
    overrides = verl_overrides(cfg, train=train, val=val, agent_loop=loop,
                               reward_file=reward_file, out_dir=out)
    checks.append(check_overrides(overrides))
    cmd = ["python", "-m", "verl.trainer.main_ppo", *overrides]
    return VerlPlan(train, val, loop, cmd, n_train, n_val, checks)


__all__ = ["VerlPlan", "check_overrides", "check_registration", "prepare_verl", "verl_overrides"]
