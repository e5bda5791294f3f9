"""Configs of the ``train`` stage: the GSPO recipe (engine-neutral), verl and TRL settings.

The recipe's defaults are the reference paper's RL configuration (Appendix A of
/work/shared/reference/cross-benchmark-generalization-paper.txt); each engine adapter maps the
same fields onto its own keys, so a verl run and a TRL run of one pipeline train alike.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from autointeract.config import StrictModel

LORA_TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


class GSPORecipe(StrictModel):
    """GSPO with LoRA — the reference paper's Appendix A numbers as defaults.

    Attributes:
        lr: "LR 5×10^-5 constant".
        adam_betas, adam_eps, weight_decay, grad_clip: "Adam betas (0.9, 0.98), eps 1×10^-8;
            weight decay 0.1; clip 1.0".
        lora_rank, lora_alpha, lora_targets: "LoRA targets q,k,v,o,gate,up,down, rank 32, α 32".
        samples_per_prompt: "samples per prompt 8" (the GSPO group size).
        temperature, top_p: "rollout temperature 1.0, top-p 1.0".
        kl_coef: "KL coefficient 0" (no KL in the reward).
        kl_loss_coef, kl_loss_type: "KL-loss coefficient 0.001 (low-variance k3)".
        entropy_coeff: "entropy coefficient 0.001".
        clip_ratio_low, clip_ratio_high: GSPO's sequence-ratio clip range (the GSPO paper's
            3e-4/4e-4; the reference paper does not state it).
        loss_agg_mode: GSPO aggregates per sequence first ("seq-mean-token-mean").
        epochs: "We evaluate the one-epoch output"; later epochs regressed (Appendix B).
    """

    lr: float = 5e-5
    adam_betas: tuple[float, float] = (0.9, 0.98)
    adam_eps: float = 1e-8
    weight_decay: float = 0.1
    grad_clip: float = 1.0
    lora_rank: int = 32
    lora_alpha: int = 32
    lora_targets: list[str] = Field(default_factory=lambda: list(LORA_TARGETS))
    samples_per_prompt: int = Field(default=8, ge=2)
    temperature: float = 1.0
    top_p: float = 1.0
    kl_coef: float = 0.0
    kl_loss_coef: float = 0.001
    kl_loss_type: str = "low_var_kl"
    entropy_coeff: float = 0.001
    clip_ratio_low: float = 3e-4
    clip_ratio_high: float = 4e-4
    loss_agg_mode: str = "seq-mean-token-mean"
    epochs: int = 1


class TrainData(StrictModel):
    """Where the rows are: JSONL of :mod:`autointeract.dataset.rows` (the calibration stage
    writes them), or ``builtin`` / ``builtin:<id>,<id>`` for rows from the shipped builtin
    problems (``sft_rows: builtin`` adds a correct and a wrong submission per task)."""

    rl_rows: str | None = None
    val_rows: str | None = None
    sft_rows: str | None = None


class VerlSettings(StrictModel):
    """The cluster side of a verl run (everything not in the recipe)."""

    model: str = "Qwen/Qwen3-4B"
    strategy: Literal["fsdp", "fsdp2", "megatron"] = "fsdp"
    nnodes: int = 1
    n_gpus_per_node: int = 8
    rollout_engine: Literal["sglang", "vllm"] = "sglang"
    rollout_tp: int = 1
    gpu_memory_utilization: float = 0.6
    train_batch_size: int = 32
    ppo_mini_batch_size: int = 8
    micro_batch_size_per_gpu: int = 1
    max_prompt_length: int = 4096
    max_response_length: int = 16384
    max_assistant_turns: int = 8
    gradient_checkpointing: bool = True
    param_offload: bool = False
    project: str = "autointeract"
    experiment: str = "gspo"
    logger: list[str] = Field(default_factory=lambda: ["console", "wandb"])
    save_freq: int = 20
    test_freq: int = 10
    extra_overrides: list[str] = Field(default_factory=list)


class TRLSettings(StrictModel):
    """A single-machine TRL run (SFT warm-up, then GRPO with GSPO's sequence-level ratio).

    ``model`` is a hub id or a local directory; ``tiny`` builds a randomly initialised
    2-layer Qwen3 with a locally trained BPE tokenizer instead (CI and smoke runs, no
    download).
    """

    model: str = "Qwen/Qwen3-0.6B"
    tiny: bool = False
    sft_steps: int = 0
    sft_lr: float = 1e-5
    grpo_steps: int = 10
    prompts_per_step: int = 2
    max_new_tokens: int = 256
    max_assistant_turns: int = 3
    seed: int = 0


class TrainConfig(StrictModel):
    """Params of the ``train`` stage and the ``autointeract train`` command."""

    engine: Literal["verl", "trl"] = "trl"
    data: TrainData = Field(default_factory=TrainData)
    out_dir: str | None = None
    recipe: GSPORecipe = Field(default_factory=GSPORecipe)
    verl: VerlSettings = Field(default_factory=VerlSettings)
    trl: TRLSettings = Field(default_factory=TRLSettings)
    firewall: dict[str, Any] | None = Field(
        default=None, description="an autointeract.eval.firewall.FirewallConfig: training rows "
        "matching a registered benchmark are refused (None: off)")


__all__ = ["GSPORecipe", "LORA_TARGETS", "TRLSettings", "TrainConfig", "TrainData",
           "VerlSettings"]
