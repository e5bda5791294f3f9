"""Tokens/s of the embedded models through the LLM layer vs llama-cpp-python called directly.

Both paths load the same GGUF file with the same context size and threads, and generate the
same greedy completion; runs are interleaved so machine load affects both alike. Prints the
ratio layer/direct per model (goal >= 0.9).

    python benchmarks/local_model.py [--reps 3] [--max-tokens 64] [--threads 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

PROMPT = [{"role": "user", "content": "Write a Python function that checks whether a string "
                                      "is a palindrome, ignoring case and spaces."}]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--max-tokens", type=int, default=64)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--models", nargs="*", default=["smollm2-135m", "qwen2.5-coder-0.5b"])
    ap.add_argument("--json", action="store_true", help="end with one machine-readable BENCH line")
    args = ap.parse_args()

    from llama_cpp import Llama

    from autointeract.config import LLMConfig
    from autointeract.llm import LLMClient
    from autointeract.llm.local import model_path

    client = LLMClient(LLMConfig(cache_dir=tempfile.mkdtemp(), local_n_threads=args.threads,
                                 local_n_ctx=2048))
    rows = []
    for name in args.models:
        direct = Llama(model_path=str(model_path(name)), n_ctx=2048, n_threads=args.threads,
                       n_threads_batch=args.threads, verbose=False, seed=0)
        client.complete(f"local/{name}", PROMPT, cache=False, max_tokens=4, temperature=0.0)
        direct.create_chat_completion(messages=PROMPT, max_tokens=4, temperature=0.0)
        layer_tps, direct_tps = [], []
        for _ in range(args.reps):
            t0 = time.perf_counter()
            c = client.complete(f"local/{name}", PROMPT, cache=False, temperature=0.0,
                                max_tokens=args.max_tokens, seed=0)
            layer_tps.append(c.completion_tokens / (time.perf_counter() - t0))
            t0 = time.perf_counter()
            out = direct.create_chat_completion(messages=PROMPT, temperature=0.0,
                                                max_tokens=args.max_tokens, seed=0)
            direct.reset()
            direct_tps.append(out["usage"]["completion_tokens"] / (time.perf_counter() - t0))
        lt, dt = statistics.median(layer_tps), statistics.median(direct_tps)
        rows.append((name, lt, dt, lt / dt))
        del direct
    print(f"{'model':<22}{'layer tok/s':>12}{'direct tok/s':>14}{'ratio':>8}  goal")
    for name, lt, dt, r in rows:
        print(f"{name:<22}{lt:>12.1f}{dt:>14.1f}{r:>8.2f}  >= 0.9")
    if args.json:
        import json

        print("BENCH " + json.dumps({"benchmark": "local_model", "models": {
            name: {"layer_tps": lt, "direct_tps": dt, "ratio": r} for name, lt, dt, r in rows}}))


if __name__ == "__main__":
    main()
