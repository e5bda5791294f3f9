"""Sandboxes: run untrusted code under limits behind one small protocol.

    from autointeract.sandbox import make_sandbox
    with make_sandbox("local") as sb:          # or a LocalSandboxConfig / DockerSandboxConfig
        res = sb.run(["python3", "-c", "print(1)"], timeout_s=5)

Backends are picked by a short registry name mapped to an import path, so the docker
client is imported only when a docker sandbox is made.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any

from pydantic import Field

from autointeract.config import validate
from autointeract.errors import ConfigError
from autointeract.sandbox.base import (
    DockerSandboxConfig,
    ExecResult,
    FakeSandboxConfig,
    Isolation,
    LocalSandboxConfig,
    Sandbox,
)
from autointeract.sandbox.fake import FakeSandbox

SandboxConfig = Annotated[LocalSandboxConfig | DockerSandboxConfig | FakeSandboxConfig,
                          Field(discriminator="kind")]

# registry name -> (config class, "module:class")
BACKENDS: dict[str, tuple[type, str]] = {
    "local": (LocalSandboxConfig, "autointeract.sandbox.local:LocalSandbox"),
    "docker": (DockerSandboxConfig, "autointeract.sandbox.docker_sandbox:DockerSandbox"),
    "fake": (FakeSandboxConfig, "autointeract.sandbox.fake:FakeSandbox"),
}


def make_sandbox(cfg: str | dict[str, Any] | LocalSandboxConfig | DockerSandboxConfig
                 | FakeSandboxConfig = "local", **kwargs: Any) -> Sandbox:
    """Make a sandbox from a registry name, a config dict (``{"kind": "local", ...}``) or a
    config model.

    Args:
        cfg: ``"local"``, ``"docker"``, ``"fake"``, a dict with ``kind``, or a config.
        **kwargs: passed to the backend's constructor (e.g. ``client=`` for docker).

    Raises:
        ConfigError: unknown backend name or a bad config field.
        SandboxUnavailable: the backend cannot run here (e.g. no docker engine).
    """
    if isinstance(cfg, str):
        cfg = {"kind": cfg}
    if isinstance(cfg, dict):
        kind = cfg.get("kind", "local")
        if kind not in BACKENDS:
            raise ConfigError(f"unknown sandbox '{kind}' (known: {', '.join(sorted(BACKENDS))})",
                              field="kind")
        cfg = validate(BACKENDS[kind][0], cfg, file="<sandbox>")
    mod, cls = BACKENDS[cfg.kind][1].split(":")
    backend = getattr(importlib.import_module(mod), cls)
    if cfg.kind == "fake":
        return backend(config=cfg, **kwargs)  # type: ignore[no-any-return]
    return backend(cfg, **kwargs)  # type: ignore[no-any-return]


__all__ = ["BACKENDS", "DockerSandboxConfig", "ExecResult", "FakeSandbox", "FakeSandboxConfig",
           "Isolation", "LocalSandboxConfig", "Sandbox", "SandboxConfig", "make_sandbox"]
