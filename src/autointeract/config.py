"""Configs: pydantic models loaded from YAML, with dotted command-line overrides.

Every stage owns a small config model next to its code; this module holds the shared
pieces (model endpoints, the LLM layer, run directories) and the loading machinery:

    cfg = load_config(PipelineConfig, "pipelines/demo.yaml", ["rollout.max_turns=8"])

Errors are raised as ``ConfigError`` carrying the file and the dotted field, so the CLI can
print one clear line.
"""

from __future__ import annotations

import hashlib
import json
import platform
import sys
from importlib import metadata
from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from autointeract.errors import ConfigError

T = TypeVar("T", bound=BaseModel)


class StrictModel(BaseModel):
    """Base for every config: unknown fields are errors, not silently ignored."""

    model_config = ConfigDict(extra="forbid", protected_namespaces=())


class FaultConfig(StrictModel):
    """Inject provider faults into a model's calls (fault campaigns, resilience tests)."""

    rate: float = Field(0.15, ge=0.0, le=1.0)
    kinds: list[Literal["timeout", "rate_limit", "server_error", "malformed_json", "empty"]] = \
        Field(default_factory=lambda: ["timeout", "rate_limit", "server_error",
                                       "malformed_json", "empty"])
    seed: int = 0


class ModelConfig(StrictModel):
    """One model endpoint, reachable through litellm.

    ``model`` is any litellm model string (``openai/gpt-4o-mini``, ``hosted_vllm/...``) or an
    embedded model (``local/smollm2-135m``, ``local/qwen2.5-coder-0.5b``) or a fake
    (``scripted/...``, ``replay/...``).
    """

    model: str = "local/qwen2.5-coder-0.5b"
    temperature: float = 0.7
    max_tokens: int = 512
    api_base: str | None = None
    api_key_env: str | None = None
    extra: dict[str, Any] = Field(default_factory=dict)
    faults: FaultConfig | None = None  # e.g. -c models.weak.faults.rate=0.15


class LLMConfig(StrictModel):
    """Settings of the LLM layer (shared by every stage in a run)."""

    cache_dir: str | None = ".cache/llm"
    max_concurrency: int = 8
    timeout_s: float = 120.0
    max_retries: int = 4
    backoff_base_s: float = 0.5
    backoff_max_s: float = 20.0
    local_n_threads: int | None = None
    local_n_ctx: int = 4096
    local_model_dir: str | None = None  # where joined embedded-model files live (default ~/.cache)


def _set_dotted(data: dict[str, Any], dotted: str, value: Any) -> None:
    keys = dotted.split(".")
    cur = data
    for k in keys[:-1]:
        nxt = cur.get(k)
        if nxt is None:
            nxt = cur[k] = {}
        if not isinstance(nxt, dict):
            raise ConfigError(f"cannot set '{dotted}': '{k}' is not a section", field=dotted)
        cur = nxt
    cur[keys[-1]] = value


def parse_overrides(overrides: list[str] | None) -> list[tuple[str, Any]]:
    """Parse ``key.sub=value`` strings; values are read as YAML scalars (``8``, ``true``, ``[1,2]``)."""
    out = []
    for item in overrides or []:
        if "=" not in item:
            raise ConfigError(f"override '{item}' is not of the form key.path=value", field=item)
        key, raw = item.split("=", 1)
        key = key.strip()
        if not key:
            raise ConfigError(f"override '{item}' has an empty key", field=item)
        try:
            value = yaml.safe_load(raw) if raw.strip() else ""
        except yaml.YAMLError:
            value = raw
        out.append((key, value))
    return out


def read_yaml(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    if not p.is_file():
        raise ConfigError("file not found", file=str(p))
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        raise ConfigError(f"invalid YAML{where}: {getattr(exc, 'problem', exc)}", file=str(p)) from None
    if not isinstance(data, dict):
        raise ConfigError("top level must be a mapping", file=str(p))
    return data


def validate(model: type[T], data: dict[str, Any], *, file: str | None = None) -> T:
    """Validate ``data`` into ``model``; the first error becomes a one-line ``ConfigError``."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(x) for x in err["loc"])
        if err["type"] == "extra_forbidden":
            msg = "unknown field"
        else:
            msg = f"{err['msg']} (got {err.get('input')!r:.60})"
        raise ConfigError(msg, file=file, field=field) from None


def load_config(model: type[T], path: str | Path | None, overrides: list[str] | None = None) -> T:
    """Load ``model`` from a YAML file (or defaults when ``path`` is None) plus dotted overrides."""
    data = read_yaml(path) if path else {}
    for key, value in parse_overrides(overrides):
        _set_dotted(data, key, value)
    return validate(model, data, file=str(path) if path else "<overrides>")


def config_hash(cfg: BaseModel) -> str:
    blob = json.dumps(cfg.model_dump(mode="json"), sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


_TRACKED = ("autointeract", "litellm", "dspy", "gepa", "ribs", "datasets", "numpy",
            "pydantic", "llama_cpp_python", "torch", "transformers", "trl", "peft", "verl")


def package_versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for name in _TRACKED:
        try:
            out[name] = metadata.version(name.replace("_", "-"))
        except metadata.PackageNotFoundError:
            continue
    return out


def write_provenance(run_dir: str | Path, cfg: BaseModel, *, seed: int | None = None,
                     stage: str = "run", extra: dict[str, Any] | None = None) -> Path:
    """Write the resolved config, seed and package versions next to a run's outputs."""
    d = Path(run_dir)
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{stage}.config.yaml").write_text(
        yaml.safe_dump(cfg.model_dump(mode="json"), sort_keys=False), encoding="utf-8")
    prov = {
        "stage": stage,
        "seed": seed,
        "config_hash": config_hash(cfg),
        "argv": sys.argv,
        "versions": package_versions(),
        **(extra or {}),
    }
    path = d / f"{stage}.provenance.json"
    path.write_text(json.dumps(prov, indent=2), encoding="utf-8")
    return path
