"""Acceptance on the embedded offline models (slow on CPU: one short call per model)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def _have_llama() -> bool:
    try:
        import llama_cpp  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(not _have_llama(), reason="llama-cpp-python is not installed")
def test_both_embedded_models_evaluate_offline_and_compare(tmp_path: Path) -> None:
    from autointeract.config import LLMConfig
    from autointeract.eval.compare import compare_dirs
    from autointeract.eval.config import EvalConfig
    from autointeract.eval.runner import run_eval
    from autointeract.llm import LLMClient

    client = LLMClient(LLMConfig(cache_dir=str(tmp_path / "cache"), max_concurrency=1))
    outs = []
    for name, model in (("weak", "local/smollm2-135m"), ("strong", "local/qwen2.5-coder-0.5b")):
        cfg = EvalConfig.model_validate({
            "name": name, "k": 1, "n_boot": 200, "benchmarks": [{"family": "builtin", "limit": 1}],
            "agent": {"name": name, "model": {"model": model, "max_tokens": 24},
                      "max_turns": 1, "max_tokens": 24},
            "user": {"prompted": {"max_user_turns": 1}}})
        res = run_eval(cfg, client=client, out_dir=tmp_path / name, progress=False,
                       log=lambda _: None)
        assert not res.failed, res.failed
        ov = res.report["overall"]
        assert ov["runs"] == 1 and ov["pass@1"] in (0.0, 1.0) and ov["tokens"] > 0
        assert (tmp_path / name / "report.json").is_file()
        outs.append(tmp_path / name)
    cmp = compare_dirs(*outs, n_boot=200)
    assert cmp["pairing"]["paired_runs"] == 1
    assert all(r["delta"] is not None for r in cmp["metrics"] if r["metric"] != "reward")
