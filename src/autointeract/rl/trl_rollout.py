"""TRL's ``rollout_func`` with the simulated user in the loop, and the verifier reward.

TRL (>= 1.x) calls ``rollout_func(prompts, trainer)`` with one prompt per completion (the
group's repeats included). For each prompt this runs a :class:`~autointeract.rl.env.CodingEnv`
episode on the policy being trained (HF ``generate``), and returns the concatenated
completion with ``env_mask`` 0 on user and tool turns (TRL excludes them from the loss):

    completion = assistant (1) | user/tool (0) | assistant (1) | ...

The episode summaries travel to :meth:`VerifierReward.__call__` as extra fields; the reward
re-uses the verdict computed at submission (the verifier ran once per submission).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autointeract.dataset.rows import RLRow
from autointeract.rl.env import CodingEnv, EnvConfig, EpisodeSummary
from autointeract.rl.reward import score_episode
from autointeract.rl.user_turn import make_user
from autointeract.rollout.seeding import derive_seed


def prompt_key(messages: list[dict[str, Any]]) -> str:
    """A stable key of a prompt (to find the row a TRL prompt came from)."""
    return json.dumps([[m["role"], m["content"]] for m in messages], ensure_ascii=False)


class UserInTheLoopRollout:
    """A TRL ``rollout_func``: multi-turn episodes against the rows' simulated users.

    Args:
        rows: the RL rows of the training set.
        env_config: episode limits.
        client: LLM client for users that phrase with a model.
        seed: base seed (episode seeds derive from it, the step and the slot).
    """

    def __init__(self, rows: list[RLRow], *, env_config: EnvConfig | None = None,
                 client: Any = None, seed: int = 0):
        self.rows = {prompt_key([m.to_dict() for m in r.prompt]): r for r in rows}
        self.env_config = env_config or EnvConfig()
        self.client, self.seed = client, seed
        self.calls = 0

    def __call__(self, prompts: list[list[dict[str, Any]]], trainer: Any) -> dict[str, Any]:
        import torch

        model = trainer.accelerator.unwrap_model(trainer.model)
        tok = trainer.processing_class
        args = trainer.args
        step = self.calls
        self.calls += 1
        torch.manual_seed(derive_seed(self.seed, "trl-rollout", step))
        out: dict[str, list[Any]] = {"prompt_ids": [], "completion_ids": [], "logprobs": [],
                                     "env_mask": [], "episode": []}
        was_training = model.training
        model.eval()
        try:
            for slot, prompt in enumerate(prompts):
                row = self.rows[prompt_key(prompt)]
                p_ids, c_ids, mask, summary = self._episode(
                    row, prompt, model=model, tok=tok, seed=derive_seed(self.seed, step, slot),
                    max_new=args.max_completion_length, temperature=args.temperature,
                    top_p=args.top_p)
                out["prompt_ids"].append(p_ids)
                out["completion_ids"].append(c_ids)
                out["env_mask"].append(mask)
                out["episode"].append({"task_id": row.id, "summary": summary})
        finally:
            model.train(was_training)
        out["logprobs"] = None  # type: ignore[assignment]
        return out

    def _episode(self, row: RLRow, prompt: list[dict[str, Any]], *, model: Any, tok: Any,
                 seed: int, max_new: int, temperature: float, top_p: float,
                 ) -> tuple[list[int], list[int], list[int], EpisodeSummary]:
        import torch

        env = CodingEnv(row, user=make_user(row.user_model, client=self.client),
                        config=self.env_config, seed=seed)
        messages = env.reset()
        p_ids = list(tok.apply_chat_template(prompt, add_generation_prompt=True, tokenize=True,
                                             return_dict=False))
        ids: list[int] = []
        mask: list[int] = []
        eos = tok.eos_token_id
        while not env.done:
            budget = max_new - len(ids)
            if budget <= 0:
                env.truncate("length")
                break
            inp = torch.tensor([p_ids + ids])
            with torch.no_grad():
                gen = model.generate(inp, attention_mask=torch.ones_like(inp), do_sample=True,
                                     temperature=temperature, top_p=top_p,
                                     max_new_tokens=budget, eos_token_id=eos,
                                     pad_token_id=tok.pad_token_id)
            new = gen[0, inp.shape[1]:].tolist()
            ids += new
            mask += [1] * len(new)
            text = tok.decode(new, skip_special_tokens=True)
            before = [*messages, {"role": "assistant", "content": text}]
            reply = asyncio.run(env.step(text))
            messages = [*before, *reply]
            if env.done:
                break
            if not new or new[-1] != eos:
                ids.append(eos)
                mask.append(0)
            delta = self._delta(tok, before, messages)
            ids += delta
            mask += [0] * len(delta)
        env.close()
        return p_ids, ids[:max_new], mask[:max_new], env.summary()

    @staticmethod
    def _delta(tok: Any, before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[int]:
        """Tokens of the appended turns plus the next generation prompt (text-level diff of
        the chat template, so the policy's own tokens are never re-tokenized)."""
        head = tok.apply_chat_template(before, tokenize=False)
        full = tok.apply_chat_template(after, tokenize=False, add_generation_prompt=True)
        suffix = full[len(head):] if full.startswith(head) else full
        end = tok.eos_token or ""
        if end and suffix.startswith(end):
            suffix = suffix[len(end):]
        return list(tok(suffix, add_special_tokens=False)["input_ids"])


class VerifierReward:
    """TRL reward function: the task verifier's verdict shaped by the effort floor.

    Every call appends one JSON line per completion to ``log_path`` (task, reward, grader,
    verified, verdicts), so a run shows where each reward came from.
    """

    __name__ = "verifier_reward"

    def __init__(self, rows: list[RLRow], *, log_path: str | Path | None = None):
        self.rows = {r.id: r for r in rows}
        self.log_path = Path(log_path) if log_path else None

    def __call__(self, prompts: list[Any], completions: list[Any], episode: list[dict[str, Any]],
                 **_: Any) -> list[float]:
        rewards, lines = [], []
        for ep in episode:
            row, s = self.rows[ep["task_id"]], ep["summary"]
            check = s.last_check if s.last_check is not None and s.solution is not None else None
            scored = score_episode(row.verifier, solution=s.solution, n_tool_calls=s.n_tool_calls,
                                   finish_reason=s.finish_reason, tools_used=s.tools_used,
                                   check=check)
            rewards.append(scored.reward)
            v = scored.verifier
            lines.append({"task_id": row.id, "reward": scored.reward, "grader": scored.grader,
                          "effort": scored.effort, "gated": scored.gated,
                          "verified": bool(v and v.verified), "passed": bool(v and v.passed),
                          "verdicts": [c.verdict for c in v.criteria] if v else [],
                          "finish_reason": s.finish_reason, "n_tool_calls": s.n_tool_calls})
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            with self.log_path.open("a", encoding="utf-8") as fh:
                fh.writelines(json.dumps(x) + "\n" for x in lines)
        return rewards


RowsFn = Callable[[], list[RLRow]]

__all__ = ["RowsFn", "UserInTheLoopRollout", "VerifierReward", "prompt_key"]
