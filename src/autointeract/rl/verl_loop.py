"""The verl agent loop: assistant turns on verl's inference server, simulated-user and tool
turns from :class:`~autointeract.rl.env.CodingEnv` with response-mask 0.

verl 0.9 dropped its ``interactions`` API; a simulated user is a custom agent loop. This
module registers one as ``autointeract_user_loop`` (``@register``, and in the YAML that
``agent_loop_config_path`` points at — see :func:`agent_loop_yaml`). It is imported only by
verl's workers (it imports verl), never by ``import autointeract``.

Per episode, the token stream is built with verl's Continuous Token builder, so the ids
the actor trains on are exactly the ids the server generated:

    prompt | assistant (mask 1) | user/tool (mask 0) | assistant (mask 1) | ...

The episode summary (solution, tool-call counts, finish reason) goes into the output's
``extra_fields``; verl's reward manager merges those into ``extra_info`` for
:func:`autointeract.rl.verl_reward.compute_score`.
"""

from __future__ import annotations

import zlib
from typing import Any
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopOutput, register

from autointeract.dataset.rows import RLRow
from autointeract.rl.env import CodingEnv, EnvConfig
from autointeract.rl.user_turn import make_user
from autointeract.rl.verl_data import AGENT_NAME, EPISODE_KEY, row_from_extra_info


@register(AGENT_NAME)
class AutointeractUserLoop(AgentLoopBase):
    """A verl agent loop with a simulated user in the conversation.

    Limits come from verl's config: ``rollout.multi_turn.max_assistant_turns`` (default 6)
    and ``rollout.response_length`` (the episode is cut when the response would exceed it).
    """

    def __init__(self, *args: Any, tools: Any = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        mt = self.rollout_config.multi_turn
        self.response_length = int(self.rollout_config.response_length)
        self.env_config = EnvConfig(max_assistant_turns=int(mt.max_assistant_turns or 6),
                                    observation_chars=int(mt.max_tool_response_length or 1500))
        self._client: Any = None

    def _llm(self, row: RLRow) -> Any:
        if row.user_model.model is None and row.user_model.kind != "learned":
            return None
        if self._client is None:
            from autointeract.config import LLMConfig
            from autointeract.llm import LLMClient

            self._client = LLMClient(LLMConfig(cache_dir=None))
        return self._client

    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        row = row_from_extra_info(kwargs.get("extra_info"))
        seed = zlib.crc32(f"{row.id}:{kwargs.get('index', 0)}".encode())
        env = CodingEnv(row, user=make_user(row.user_model, client=self._llm(row)),
                        config=self.env_config, seed=seed)
        messages = env.reset()
        ids: list[int] = await self.ct_build_initial_tokens(messages)
        mask: list[int] = []
        logprobs: list[float] | None = None
        request_id = uuid4().hex
        try:
            while not env.done:
                out = await self.server_manager.generate(request_id=request_id, prompt_ids=ids,
                                                         sampling_params=sampling_params)
                if out.log_probs and logprobs is None:
                    logprobs = [0.0] * len(mask)
                merged, mask, logprobs = await self.ct_merge_assistant_token(
                    ids, out.token_ids, mask, logprobs,
                    assistant_logprobs=out.log_probs if logprobs is not None else None)
                ids = merged.token_ids
                if len(mask) >= self.response_length:
                    env.truncate("length")
                    break
                text = self.tokenizer.decode(out.token_ids, skip_special_tokens=True)
                before = [*messages, {"role": "assistant", "content": text}]
                new = await env.step(text)
                messages = [*before, *new]
                if env.done:
                    break
                merged, ctx_mask, ctx_logprobs = await self.ct_merge_context_msg(
                    before, messages, ids, mask, logprobs)
                if len(ctx_mask) >= self.response_length:
                    env.truncate("length")
                    break
                ids, mask, logprobs = merged.token_ids, ctx_mask, ctx_logprobs
        finally:
            env.close()
        n_prompt = len(ids) - len(mask)
        summary = env.summary()
        cut = self.response_length
        return AgentLoopOutput(
            prompt_ids=ids[:n_prompt], response_ids=ids[n_prompt:][:cut],
            response_mask=mask[:cut], response_logprobs=logprobs[:cut] if logprobs else None,
            num_turns=1 + summary.assistant_turns + summary.user_turns, metrics={},
            extra_fields={EPISODE_KEY: summary.to_extra()})


__all__ = ["AutointeractUserLoop"]
