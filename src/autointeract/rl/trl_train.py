"""The single-machine path: SFT on ``sft`` rows, then GRPO with GSPO's sequence-level ratio
(``importance_sampling_level="sequence"``) and LoRA on ``rl`` rows, the simulated user in the
loop (:class:`~autointeract.rl.trl_rollout.UserInTheLoopRollout`).

    model_dir = run_sft(sft_rows, model="runs/tiny", out_dir="runs/sft", steps=60, lr=5e-3)
    result = run_grpo(rl_rows, model=model_dir, out_dir="runs/rl", recipe=GSPORecipe(),
                      settings=TRLSettings(grpo_steps=3))
    result["lora_delta"], result["rewards"]
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from autointeract.dataset.rows import RLRow, SFTRow
from autointeract.rl.config import GSPORecipe, TRLSettings
from autointeract.rl.env import EnvConfig


def _quiet() -> None:
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("WANDB_DISABLED", "true")


def sft_dataset(rows: list[SFTRow]) -> Any:
    """Prompt/completion pairs: everything before the last assistant turn → that turn."""
    from datasets import Dataset

    recs = []
    for r in rows:
        msgs = [m.to_dict() for m in r.messages]
        last = max((i for i, m in enumerate(msgs) if m["role"] == "assistant"), default=-1)
        if last <= 0:
            continue
        recs.append({"prompt": [{"role": m["role"], "content": m["content"]} for m in msgs[:last]],
                     "completion": [{"role": "assistant", "content": msgs[last]["content"]}]})
    return Dataset.from_list(recs)


def run_sft(rows: list[SFTRow], *, model: str, out_dir: str | Path, steps: int, lr: float,
            batch_size: int = 8, seed: int = 0) -> Path:
    """Supervised warm-up (full fine-tune, loss on the completion only). Returns the model dir."""
    _quiet()
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    out = Path(out_dir)
    tok = AutoTokenizer.from_pretrained(model)
    args = SFTConfig(output_dir=str(out / "trainer"), max_steps=steps, learning_rate=lr,
                     per_device_train_batch_size=batch_size, lr_scheduler_type="constant",
                     logging_steps=max(1, steps // 5), save_strategy="no", report_to="none",
                     use_cpu=True, seed=seed, data_seed=seed, bf16=False,
                     dataset_num_proc=None, disable_tqdm=True)
    trainer = SFTTrainer(model=AutoModelForCausalLM.from_pretrained(model), args=args,
                         train_dataset=sft_dataset(rows), processing_class=tok)
    trainer.train()
    final = out / "model"
    trainer.model.save_pretrained(final)
    tok.save_pretrained(final)
    return final


def _lora_state(model: Any) -> dict[str, Any]:
    return {k: v.detach().clone() for k, v in model.named_parameters() if "lora_" in k}


def run_grpo(rows: list[RLRow], *, model: str, out_dir: str | Path, recipe: GSPORecipe,
             settings: TRLSettings, env_config: EnvConfig | None = None,
             client: Any = None) -> dict[str, Any]:
    """GRPO with GSPO's sequence-level importance ratio and LoRA, the user in the loop.

    Returns:
        A summary: steps, per-step mean reward, the reward log path, how far the LoRA
        weights moved (``lora_delta``, max abs change), and where the adapter was saved.
    """
    _quiet()
    from datasets import Dataset
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from autointeract.rl.trl_rollout import UserInTheLoopRollout, VerifierReward

    out = Path(out_dir)
    tok = AutoTokenizer.from_pretrained(model)
    tok.padding_side = "left"
    g = recipe.samples_per_prompt
    args = GRPOConfig(
        output_dir=str(out / "trainer"), max_steps=settings.grpo_steps,
        per_device_train_batch_size=settings.prompts_per_step * g, num_generations=g,
        max_completion_length=settings.max_new_tokens, temperature=recipe.temperature,
        top_p=recipe.top_p, learning_rate=recipe.lr, lr_scheduler_type="constant",
        adam_beta1=recipe.adam_betas[0], adam_beta2=recipe.adam_betas[1],
        adam_epsilon=recipe.adam_eps, weight_decay=recipe.weight_decay,
        max_grad_norm=recipe.grad_clip, beta=recipe.kl_loss_coef,  # k3 KL in the loss
        entropy_coef=recipe.entropy_coeff, importance_sampling_level="sequence",  # GSPO
        loss_type="grpo", epsilon=recipe.clip_ratio_low, epsilon_high=recipe.clip_ratio_high,
        logging_steps=1, save_strategy="no", report_to="none", use_cpu=True, bf16=False,
        seed=settings.seed, data_seed=settings.seed, disable_tqdm=True)
    peft_cfg = LoraConfig(r=recipe.lora_rank, lora_alpha=recipe.lora_alpha,
                          target_modules=list(recipe.lora_targets), task_type="CAUSAL_LM")
    data = Dataset.from_list([{"prompt": [m.to_dict() for m in r.prompt], "task_id": r.id}
                              for r in rows])
    reward = VerifierReward(rows, log_path=out / "rewards.jsonl")
    rollout = UserInTheLoopRollout(rows, env_config=env_config or EnvConfig(
        max_assistant_turns=settings.max_assistant_turns), client=client, seed=settings.seed)
    trainer = GRPOTrainer(model=AutoModelForCausalLM.from_pretrained(model),
                          reward_funcs=[reward], args=args, train_dataset=data,
                          processing_class=tok, peft_config=peft_cfg, rollout_func=rollout)
    before = _lora_state(trainer.model)
    trainer.train()
    after = _lora_state(trainer.model)
    delta = max(float((after[k] - before[k]).abs().max()) for k in before) if before else 0.0
    adapter = out / "adapter"
    trainer.model.save_pretrained(adapter)
    rewards = [h["reward"] for h in trainer.state.log_history if "reward" in h]
    return {"steps": trainer.state.global_step, "mean_reward_per_step": rewards,
            "reward_log": str(out / "rewards.jsonl"), "lora_delta": delta,
            "lora_tensors": len(before), "adapter": str(adapter)}


__all__ = ["run_grpo", "run_sft", "sft_dataset"]
