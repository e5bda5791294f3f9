"""A tiny randomly initialised Qwen3 with a locally trained BPE tokenizer (nothing downloaded).

For CI and smoke runs of the training paths: 2 layers, hidden 64, a ChatML template, and a
byte-level BPE vocabulary trained on the texts it will see (the rows' prompts and code).

    path = build_tiny_model("runs/tiny", corpus=texts, seed=0)
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
CHATML = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def build_tokenizer(corpus: Iterable[str], *, vocab_size: int = 1024):  # type: ignore[no-untyped-def]
    """Train a byte-level BPE tokenizer on ``corpus``; returns a ``PreTrainedTokenizerFast``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tok.train_from_iterator(list(corpus), trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token=None,
                                   eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   unk_token=None, padding_side="left")
    fast.chat_template = CHATML
    return fast


def build_tiny_model(out_dir: str | Path, *, corpus: Iterable[str], seed: int = 0,
                     hidden_size: int = 64, layers: int = 2, vocab_size: int = 1024) -> Path:
    """Save a random tiny Qwen3 and its tokenizer under ``out_dir``; returns the path."""
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    out = Path(out_dir)
    tok = build_tokenizer(corpus, vocab_size=vocab_size)
    torch.manual_seed(seed)
    cfg = Qwen3Config(vocab_size=len(tok), hidden_size=hidden_size,
                      intermediate_size=hidden_size * 2, num_hidden_layers=layers,
                      num_attention_heads=4, num_key_value_heads=2,
                      head_dim=hidden_size // 4, max_position_embeddings=4096,
                      tie_word_embeddings=True, eos_token_id=tok.eos_token_id,
                      pad_token_id=tok.pad_token_id, bos_token_id=None)
    model = Qwen3ForCausalLM(cfg)
    model.generation_config.eos_token_id = tok.eos_token_id
    model.generation_config.pad_token_id = tok.pad_token_id
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return out


__all__ = ["CHATML", "build_tiny_model", "build_tokenizer"]
