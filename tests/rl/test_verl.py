"""The verl adapter on CPU: its own dataset class, the agent loop against a fake inference
server, the reward through its reward manager, GSPO's loss backward, the dry-run command."""

from __future__ import annotations

import asyncio

import pytest

from autointeract.rl.verl_data import AGENT_NAME, EPISODE_KEY, write_verl_parquet

pytestmark = pytest.mark.slow  # importing verl (ray, hydra, ...) takes ~30 s here


@pytest.fixture(scope="module")
def verl():
    return pytest.importorskip("verl", reason="verl extra not installed (pip install -e .[verl])")


@pytest.fixture(scope="module")
def tok(rl_rows):
    from autointeract.rl.demo_rows import corpus_texts, warmup_sft_rows
    from autointeract.rl.tiny import build_tokenizer

    return build_tokenizer(corpus_texts(rl_rows, warmup_sft_rows(rl_rows)), vocab_size=600)


def _submit(code: str) -> str:
    return f"SUBMIT\n```python\n{code}\n```"


def test_parquet_loads_through_rlhf_dataset(verl, tmp_path, rl_rows, tok):
    from omegaconf import OmegaConf
    from verl.utils.dataset.rl_dataset import RLHFDataset

    path = write_verl_parquet(rl_rows, tmp_path / "train.parquet")
    cfg = OmegaConf.create({"prompt_key": "prompt", "max_prompt_length": 1024,
                            "return_raw_chat": True, "filter_overlong_prompts": True,
                            "filter_overlong_prompts_workers": 1, "truncation": "error"})
    ds = RLHFDataset(data_files=[str(path)], tokenizer=tok, config=cfg)
    assert len(ds) == len(rl_rows)
    item = ds[0]
    assert item["agent_name"] == AGENT_NAME
    assert item["raw_prompt"][1]["content"] == rl_rows[0].prompt[1].content
    assert "autointeract_row" in item["extra_info"]


class FakeServer:
    """verl's LLMServerClient surface: ``generate`` returns scripted replies as token ids."""

    def __init__(self, tok, replies: list[str]):
        self.tok, self.replies, self.prompts = tok, list(replies), []

    async def generate(self, request_id, *, prompt_ids, sampling_params, **_):
        from verl.workers.rollout.replica import TokenOutput

        self.prompts.append(list(prompt_ids))
        ids = self.tok.encode(self.replies.pop(0), add_special_tokens=False)
        ids.append(self.tok.eos_token_id)
        return TokenOutput(token_ids=ids, log_probs=[-0.5] * len(ids))


def _loop(tok, server, rl_rows, tmp_path):
    from omegaconf import OmegaConf
    from verl.experimental.agent_loop.agent_loop import DictConfigWrap
    from verl.utils.dataset.rl_dataset import RLHFDataset

    from autointeract.rl.verl_loop import AutointeractUserLoop

    cfg = OmegaConf.create({"actor_rollout_ref": {"rollout": {
        "prompt_length": 1024, "response_length": 2048,
        "multi_turn": {"max_assistant_turns": 3, "max_tool_response_length": 500}}},
        "data": {"apply_chat_template_kwargs": {}}})
    return AutointeractUserLoop(trainer_config=DictConfigWrap(cfg), server_manager=server,
                                tokenizer=tok, processor=None, dataset_cls=RLHFDataset,
                                data_config=DictConfigWrap(cfg.data))


def test_agent_loop_masks_user_and_tool_turns(verl, tmp_path, rl_rows, tok):
    from autointeract.rl.verl_data import verl_record

    row = rl_rows[0]
    replies = ["```python\nprint(40 + 2)\n```", "Done, I think.",
               _submit(row.task().reference_solution)]
    server = FakeServer(tok, replies)
    rec = verl_record(row, index=0)

    async def go():  # verl builds its loops inside the worker's running event loop
        loop = _loop(tok, server, rl_rows, tmp_path)
        return await loop.run({"temperature": 1.0}, raw_prompt=rec["prompt"],
                              extra_info=rec["extra_info"], index=0)
    out = asyncio.run(go())
    ep = out.extra_fields[EPISODE_KEY]
    assert ep["finish_reason"] == "user_satisfied" and ep["n_tool_calls"] == 2
    assert ep["tools_used"] == ["run_python", "submit"] and ep["assistant_turns"] == 3
    assert len(out.response_ids) == len(out.response_mask) == len(out.response_logprobs)
    gen = [tok.encode(r, add_special_tokens=False) + [tok.eos_token_id] for r in replies]
    assert sum(out.response_mask) == sum(len(g) for g in gen)
    text_masked = tok.decode([t for t, m in zip(out.response_ids, out.response_mask) if m == 0])
    assert "42" in text_masked  # the tool output, not trained on
    assert "please fix" in text_masked  # the simulated user's turn, not trained on
    # each server call saw the whole conversation so far
    assert server.prompts[2][: len(server.prompts[1])] == server.prompts[1]


def test_reward_through_verl_reward_manager(verl, rl_rows, tok):
    import numpy as np
    import torch
    from omegaconf import OmegaConf
    from verl import DataProto
    from verl.experimental.reward_loop.reward_manager.naive import NaiveRewardManager

    from autointeract.rl.verl_reward import compute_score

    row = rl_rows[1]
    ids = torch.tensor(tok.encode("ok", add_special_tokens=False))
    ep = {"solution": row.task().reference_solution, "n_tool_calls": 2,
          "tools_used": ["run_python", "submit"], "finish_reason": "user_satisfied"}
    data = DataProto.from_dict(
        tensors={"prompts": ids[None], "responses": ids[None],
                 "attention_mask": torch.ones(1, 2 * len(ids), dtype=torch.long)},
        non_tensors={"data_source": np.array([row.data_source], dtype=object),
                     "reward_model": np.array([{"ground_truth": row.verifier.model_dump_json()}],
                                              dtype=object),
                     "extra_info": np.array([{}], dtype=object),
                     "tool_extra_fields": np.array([{EPISODE_KEY: ep}], dtype=object)})
    async def go():
        mgr = NaiveRewardManager(OmegaConf.create({}), tok, compute_score)
        return await mgr.run_single(data)
    res = asyncio.run(go())
    assert res["reward_score"] == 1.0 and res["reward_extra_info"]["passed"] == 1.0


def test_gspo_policy_loss_backward(verl):
    import torch
    from verl.trainer.ppo.core_algos import get_policy_loss_fn
    from verl.workers.config import ActorConfig

    torch.manual_seed(0)
    logp = torch.randn(4, 6, requires_grad=True)
    old = logp.detach().clone()  # on-policy: sequence ratio 1, inside GSPO's clip range
    adv = torch.tensor([1.0, -1.0, 0.5, -0.5])[:, None].expand(4, 6)
    mask = torch.ones(4, 6)
    mask[0, 4:] = 0
    cfg = ActorConfig(strategy="fsdp", clip_ratio_low=3e-4, clip_ratio_high=4e-4,
                      ppo_mini_batch_size=4, ppo_micro_batch_size_per_gpu=1,
                      rollout_n=4)
    loss, metrics = get_policy_loss_fn("gspo")(old, logp, adv, mask, "seq-mean-token-mean", cfg)
    loss.backward()
    assert torch.isfinite(loss) and logp.grad is not None
    assert logp.grad[0, 4:].abs().sum() == 0 and logp.grad[1].abs().sum() > 0
    assert metrics["actor/pg_clipfrac"] == 0.0
    # a sequence ratio far outside [1 - 3e-4, 1 + 4e-4] is clipped: no gradient through it
    far = (logp + 0.01).detach()
    _, m2 = get_policy_loss_fn("gspo")(far, logp, adv, mask, "seq-mean-token-mean", cfg)
    assert m2["actor/pg_clipfrac"] > 0


def test_dry_run_prints_command_and_validates(tmp_path):
    from typer.testing import CliRunner

    from autointeract.cli import _register, app

    _register()
    res = CliRunner().invoke(app, ["train", "--engine", "verl", "--dry-run", "-c",
                                   "pipelines/rl_qwen3_4b.yaml", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "python -m verl.trainer.main_ppo" in res.output
    for key in ("actor_rollout_ref.actor.policy_loss.loss_mode=gspo",
                "actor_rollout_ref.model.lora_rank=32", "actor_rollout_ref.rollout.n=8",
                "actor_rollout_ref.rollout.name=sglang", "actor_rollout_ref.actor.kl_loss_coef=0.001",
                "actor_rollout_ref.actor.kl_loss_type=low_var_kl",
                "actor_rollout_ref.actor.entropy_coeff=0.001",
                f"actor_rollout_ref.rollout.agent.default_agent_loop={AGENT_NAME}"):
        assert key in res.output
    assert (tmp_path / "data" / "train.parquet").is_file()
    assert (tmp_path / "agent_loop.yaml").read_text().startswith(f"- name: {AGENT_NAME}")
