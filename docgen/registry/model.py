"""The typed, immutable registry that templates and every verb receive.

Objects here are built by ``registry.load`` after validation; each keeps the
key path and file location of the YAML node it came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from docgen.errors import Location

KeyPath = tuple[Any, ...]
EMPTY: Mapping[str, Any] = MappingProxyType({})


def dotted(keypath: KeyPath) -> str:
    """``('profiles', 'x', 'args', 'dtype')`` -> ``profiles.x.args.dtype``."""
    return ".".join(f"[{k}]" if isinstance(k, int) else str(k) for k in keypath)


@dataclass(frozen=True)
class Source:
    """A registry node behind an output: its dotted key path and location."""

    keypath: KeyPath
    location: Location
    text: str = field(default="", compare=False)

    @property
    def name(self) -> str:
        return dotted(self.keypath)

    def __str__(self) -> str:
        return f"{self.location} {self.name}"


@dataclass(frozen=True)
class Spdx:
    copyright: str
    license: str


@dataclass(frozen=True)
class Product:
    name: str
    cli_token: str
    model_env: str = "MODEL"
    extra_args_env: str = "EXTRA_ARGS_JSON"
    provider_env: Mapping[str, str] = field(default_factory=dict)
    onboard: str = "onboard --non-interactive"
    docs_base: str = "/{agent}"
    site_url: str = ""
    spdx: Spdx | None = None


@dataclass(frozen=True)
class Agent:
    id: str
    title: str
    cli: str
    env: Mapping[str, str]
    default: bool
    source: Source


@dataclass(frozen=True)
class Host:
    id: str
    name: str
    arch: str
    notes: str
    source: Source


@dataclass(frozen=True)
class Image:
    id: str
    ref: str
    digest: str
    compressed_bytes: int | None
    platform: str
    vllm: str
    notes: str
    source: Source

    @property
    def tag(self) -> str:
        """The tag part of ``ref`` (``26.05.post1-py3``), or ``""``."""
        last = self.ref.rsplit("/", 1)[-1]
        return last.split(":", 1)[1] if ":" in last else ""


@dataclass(frozen=True)
class Model:
    id: str
    hf: str
    label: str
    served_name: str
    revision: str
    min_compute_capability: str
    download_bytes: int | None
    gated: bool
    notes: str
    source: Source


@dataclass(frozen=True)
class Arg:
    """One ``vllm serve`` flag as written in the registry, with its argv tokens."""

    name: str
    value: Any
    tokens: tuple[str, ...]
    source: Source

    @property
    def flag(self) -> str:
        return f"--{self.name}"


@dataclass(frozen=True)
class Override:
    id: str
    summary: str
    args: tuple[Arg, ...]
    tradeoffs: tuple[str, ...]
    source: Source

    @property
    def tokens(self) -> tuple[str, ...]:
        return tuple(t for a in self.args for t in a.tokens)


@dataclass(frozen=True)
class Evidence:
    date: str
    host: str
    setup: str
    results: tuple[tuple[str, str], ...]
    source: Source


@dataclass(frozen=True)
class Profile:
    id: str
    model: Model
    host: Host
    default: bool
    support: str
    selection: str
    image: Image | None
    summary: str
    env: Mapping[str, str]
    args: tuple[Arg, ...]
    expect_absent: tuple[str, ...]
    expect_present: Mapping[str, Any]
    overrides: tuple[Override, ...]
    evidence: tuple[Evidence, ...]
    source: Source

    @property
    def tokens(self) -> tuple[str, ...]:
        """The argv after ``vllm serve MODEL``: model-derived flags, then ``args``."""
        head: list[str] = []
        names = {a.name for a in self.args}
        if self.model.revision and "revision" not in names:
            head += ["--revision", self.model.revision]
        if self.model.served_name and "served-model-name" not in names:
            head += ["--served-model-name", self.model.served_name]
        return (*head, *(t for a in self.args for t in a.tokens))

    def arg(self, name: str) -> Arg | None:
        return next((a for a in self.args if a.name == name), None)

    def override(self, override_id: str) -> Override | None:
        return next((o for o in self.overrides if o.id == override_id), None)


@dataclass(frozen=True)
class Registry:
    path: str
    product: Product
    agents: tuple[Agent, ...]
    hosts: Mapping[str, Host]
    images: Mapping[str, Image]
    models: Mapping[str, Model]
    profiles: Mapping[str, Profile]
    vllm_extra_flags: Mapping[str, Any] = field(default_factory=dict)
    vllm_extra_values: Mapping[str, Any] = field(default_factory=dict)
    data: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def default_agent(self) -> Agent:
        return next((a for a in self.agents if a.default), self.agents[0])

    def agent(self, agent_id: str) -> Agent | None:
        return next((a for a in self.agents if a.id == agent_id), None)

    def host_default(self, host_id: str) -> Profile | None:
        """The default profile of a host, if one is marked."""
        return self._host_defaults.get(host_id)

    def profiles_for_model(self, model_id: str) -> list[Profile]:
        return list(self._by_model.get(model_id, ()))

    @cached_property
    def _host_defaults(self) -> dict[str, Profile]:
        out: dict[str, Profile] = {}
        for profile in self.profiles.values():
            if profile.default:
                out.setdefault(profile.host.id, profile)
        return out

    @cached_property
    def _by_model(self) -> dict[str, list[Profile]]:
        out: dict[str, list[Profile]] = {}
        for profile in self.profiles.values():
            out.setdefault(profile.model.id, []).append(profile)
        return out
