"""Embedded models: verification of the weight files, and one real call to each."""

import pytest

from autointeract.config import LLMConfig
from autointeract.errors import ModelFileError
from autointeract.llm import LLMClient
from autointeract.llm.gguf import read_metadata
from autointeract.llm.local import SPECS, LocalModelSpec, model_path, verify_model_file

llama_cpp = pytest.importorskip("llama_cpp", reason="the 'local' extra (llama-cpp-python) is not installed")


def test_tampered_cache_file_is_refused(tmp_path):
    bad = tmp_path / "qwen2.5-coder-0.5b.gguf"
    bad.write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(ModelFileError, match="size|sha256"):
        model_path("qwen2.5-coder-0.5b", model_dir=tmp_path)


def test_sha256_mismatch_is_refused(tmp_path):
    real = model_path("smollm2-135m")
    spec = LocalModelSpec(name="x", architecture="llama", sha256="0" * 64)
    with pytest.raises(ModelFileError, match="sha256"):
        verify_model_file(real, spec)


def test_bad_magic_and_wrong_architecture(tmp_path):
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"NOPE" + b"\0" * 32)
    with pytest.raises(ModelFileError, match="magic"):
        read_metadata(junk)
    real = model_path("smollm2-135m")
    with pytest.raises(ModelFileError, match="architecture"):
        verify_model_file(real, LocalModelSpec(name="x", architecture="qwen2"))


def test_joined_model_verifies(tmp_path):
    path = model_path("qwen2.5-coder-0.5b")
    assert path.stat().st_size == SPECS["qwen2.5-coder-0.5b"].size
    meta = read_metadata(path, keys=("general.architecture", "tokenizer.chat_template"))
    assert meta["general.architecture"] == "qwen2"


@pytest.mark.slow
@pytest.mark.parametrize("model", ["local/smollm2-135m", "local/qwen2.5-coder-0.5b"])
def test_real_call_to_embedded_model(tmp_path, model):
    client = LLMClient(LLMConfig(cache_dir=str(tmp_path), local_n_threads=2, local_n_ctx=1024))
    msgs = [{"role": "user", "content": "Say hello in one word."}]
    out = client.complete(model, msgs, stage="t", temperature=0.0, max_tokens=8, seed=0)
    assert isinstance(out.content, str) and out.content.strip()
    assert 0 < out.completion_tokens <= 8 and out.prompt_tokens > 0
    again = client.complete(model, msgs, stage="t", temperature=0.0, max_tokens=8, seed=0)
    assert again.cached and again.content == out.content


@pytest.mark.slow
def test_json_grammar_mode(tmp_path):
    from pydantic import BaseModel

    class Greeting(BaseModel):
        word: str

    client = LLMClient(LLMConfig(cache_dir=str(tmp_path), local_n_threads=2, local_n_ctx=1024))
    got = client.structured("local/smollm2-135m",
                            [{"role": "user", "content": "Give a greeting word as JSON."}],
                            Greeting, temperature=0.0, max_tokens=24, seed=0)
    assert isinstance(got.word, str)
