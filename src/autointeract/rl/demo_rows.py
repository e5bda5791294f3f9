"""Training rows from the shipped builtin problems, until the calibration stage writes the
full generated dataset (then point ``data.rl_rows`` at its JSONL instead).

    rl = builtin_rl_rows(ids=["count-vowels"])
    sft = warmup_sft_rows(rl)          # a correct and a wrong submission per task
"""

from __future__ import annotations

from autointeract.dataset.rows import ChatMessage, RLRow, SFTRow, UserModelRef


def builtin_rl_rows(*, ids: list[str] | None = None, limit: int | None = None,
                    user: UserModelRef | None = None, max_user_turns: int = 2) -> list[RLRow]:
    """RL rows of the builtin scenario's tasks (default user: the template prompted user)."""
    from autointeract.scenarios import load_tasks

    tasks = load_tasks("builtin")
    if ids:
        tasks = [t for t in tasks if t.task_id in ids]
    tasks = tasks[:limit] if limit else tasks
    ref = user or UserModelRef(kind="prompted", name="prompted-template",
                               config={"mode": "template", "max_user_turns": max_user_turns})
    return [RLRow.from_task(t, user_model=ref, max_user_turns=max_user_turns) for t in tasks]


def _submit(code: str) -> str:
    return f"SUBMIT\n```python\n{code.strip()}\n```"


def warmup_sft_rows(rows: list[RLRow], *, wrong: bool = True) -> list[SFTRow]:
    """SFT rows that submit each task's reference solution (and, with ``wrong``, a placeholder
    that fails), so a warmed-up policy samples both and GSPO groups see different rewards."""
    out: list[SFTRow] = []
    for r in rows:
        task = r.task()
        if not task.reference_solution:
            continue
        out.append(SFTRow(id=f"{r.id}-ref", task_id=r.id, source="builtin:reference",
                          reward=1.0, messages=[*r.prompt, ChatMessage(
                              role="assistant", content=_submit(task.reference_solution))]))
        if wrong:
            name = task.verifier.func_name
            body = (f"def {name}(*args):\n    return 0" if name else "print(0)")
            out.append(SFTRow(id=f"{r.id}-wrong", task_id=r.id, source="builtin:wrong",
                              reward=0.0, messages=[*r.prompt, ChatMessage(
                                  role="assistant", content=_submit(body))]))
    return out


def corpus_texts(rl: list[RLRow], sft: list[SFTRow]) -> list[str]:
    """The texts a tiny tokenizer should be trained on (prompts, replies, user templates)."""
    texts = [m.content for r in rl for m in r.prompt]
    texts += [m.content for s in sft for m in s.messages]
    texts += ["It doesn't work yet, please fix it and submit the code.", "Thanks, that works.",
              "exit code: 0", "stdout:", "stderr:"]
    return texts * 4


def load_rows(rl_spec: str, sft_spec: str | None = None) -> tuple[list[RLRow], list[SFTRow]]:
    """Rows named in a config: a JSONL path, or ``builtin`` / ``builtin:id1,id2`` (RL) and
    ``builtin`` (SFT warm-up rows of those RL rows)."""
    from autointeract.dataset.rows import read_rows

    if rl_spec.startswith("builtin"):
        ids = [x for x in rl_spec.partition(":")[2].split(",") if x]
        rl = builtin_rl_rows(ids=ids or None)
    else:
        rl = read_rows(rl_spec, "rl")
    if not sft_spec:
        return rl, []
    return rl, warmup_sft_rows(rl) if sft_spec == "builtin" else read_rows(sft_spec, "sft")


__all__ = ["builtin_rl_rows", "corpus_texts", "load_rows", "warmup_sft_rows"]
