"""The typed, immutable registry that templates and every verb receive.

Objects here are built by ``registry.builder`` after validation; each keeps the key path and
file location of the YAML node it came from (``texts``: of its other text fields, for blame).
``Registry.catalog`` gives the vLLM catalog a profile's args are checked against; the
validated document stays privately, for ``Registry.parts`` to digest part by part."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any

from docgen.errors import Location
from docgen.registry.source import KeyPath, dotted
from docgen.registry.vllm_settings import VllmSettings
from docgen.vllm.argv import same_object
from docgen.vllm.catalog import Catalog

EMPTY: Mapping[str, Any] = MappingProxyType({})
#: The flags a model adds to its profiles' commands (argv order), and the field that sets each.
MODEL_FLAGS = {"revision": "revision", "served-model-name": "served_name"}


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
    texts: tuple[Source, ...] = field(default=(), compare=False)  # each text it holds, for blame


@dataclass(frozen=True)
class Agent:
    id: str
    title: str
    cli: str
    env: Mapping[str, str]
    default: bool
    source: Source
    texts: tuple[Source, ...] = field(default=(), compare=False)  # its CLI, for blame


@dataclass(frozen=True)
class Host:
    id: str
    name: str
    arch: str
    notes: str
    source: Source
    #: The image id a profile on this host runs when it names none ("" for none).
    image: str = ""
    texts: tuple[Source, ...] = field(default=(), compare=False)


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
    unpacked_bytes: int | None = None
    texts: tuple[Source, ...] = field(default=(), compare=False)

    @property
    def tag(self) -> str:
        """The tag part of ``ref`` (``26.05.post1-py3``), or ``""``."""
        last = self.ref.rsplit("/", 1)[-1]
        return last.split(":", 1)[1] if ":" in last else ""


@dataclass(frozen=True)
class ModelOnHost:
    """A model's facts on one host it is registered for: its minimum compute capability
    there ("" for none; the model's own when the registry leaves it unset), its support
    state and how it is selected there."""

    host: str
    min_compute_capability: str
    declared: str | None = None  # what the registry says for this host, if anything
    #: None where the registry leaves them: the profile's on that host, else the defaults.
    support: str | None = None
    selection: str | None = None


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
    #: The hosts the model is registered for beyond its profiles' own, by host id.
    hosts: Mapping[str, ModelOnHost] = field(default_factory=lambda: EMPTY)
    texts: tuple[Source, ...] = field(default=(), compare=False)

    @property
    def flags(self) -> dict[str, str]:
        """The flags this model adds to its profiles' commands, where it sets them."""
        return {flag: getattr(self, key) for flag, key in MODEL_FLAGS.items() if getattr(self, key)}


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
    texts: tuple[Source, ...] = field(default=(), compare=False)  # summary, tradeoffs

    @property
    def tokens(self) -> tuple[str, ...]:
        return tuple(t for a in self.args for t in a.tokens)


@dataclass(frozen=True)
class Step:
    """A command the launcher runs before ``vllm serve`` (``launcher.before_serve``)."""

    id: str
    run: tuple[str, ...]
    when: Mapping[str, Any]  # flag -> value: runs for a profile whose args set each one
    summary: str
    source: Source
    when_argv: tuple[tuple[str, tuple[str, ...]], ...] = ()  # each flag's argv words


@dataclass(frozen=True)
class Storage:
    """What the launcher reserves on disk beyond the image and the model files."""

    staging_reserve_bytes: int = 0
    writable_allowance_bytes: int = 0
    source: Source | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Launcher:
    """What the product's launcher adds to every managed profile's command."""

    shared_args: tuple[Arg, ...] = ()
    steps: tuple[Step, ...] = ()
    storage: Storage | None = None


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
    #: The launcher's shared args this profile keeps, and the steps it does not omit
    #: (each runs when the command's values match its ``when``: see ``steps_for``).
    shared_args: tuple[Arg, ...] = ()
    launcher_steps: tuple[Step, ...] = ()
    #: What the profile's ``launcher`` section leaves out (names as written).
    omit_args: tuple[str, ...] = ()
    omit_steps: tuple[str, ...] = ()
    topology: str = "single-node"
    #: Its summary and its evidence's setup and results, each a node of its own for blame.
    texts: tuple[Source, ...] = field(default=(), compare=False)

    @property
    def tokens(self) -> tuple[str, ...]:
        """The argv after ``vllm serve MODEL``: the launcher's shared args, model-derived
        flags, then ``args``."""
        head: list[str] = [t for a in self.shared_args for t in a.tokens]
        names = {a.name for a in self.effective_args}
        head += [t for f, v in self.model.flags.items() if f not in names for t in (f"--{f}", v)]
        return (*head, *(t for a in self.args for t in a.tokens))

    @property
    def effective_args(self) -> tuple[Arg, ...]:
        """The args of its command: the shared args it keeps, then its own (not model.flags)."""
        return (*self.shared_args, *self.args)

    @property
    def steps(self) -> tuple[Step, ...]:
        """The launcher's steps that run before this profile's own command."""
        return self.steps_for(None)

    def steps_for(self, override: Override | None) -> tuple[Step, ...]:
        """The steps that run before the command with ``override`` applied: each one whose
        ``when`` values give the argv words the registry's command gives each flag, the
        model's flags included (the last value of each flag wins)."""
        values: dict[str, Any] = dict(self.model.flags)
        argv: dict[str, tuple[str, ...]] = {f: (f"--{f}", v) for f, v in values.items()}
        for a in (*self.effective_args, *(override.args if override else ())):
            argv[a.name], values[a.name] = a.tokens, a.value
        return tuple(
            step
            for step in self.launcher_steps
            if all(
                argv.get(name) == words or same_object(values.get(name), step.when[name])
                for name, words in step.when_argv
            )
        )

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
    vllm: VllmSettings = field(default_factory=VllmSettings)
    launcher: Launcher = field(default_factory=Launcher)
    _document: Any = field(default=None, compare=False, repr=False)  # for ``parts`` only

    @cached_property
    def parts(self) -> Mapping[tuple[str, ...], str]:
        """The digest of each part a render can read (``docgen.registry.parts``)."""
        from docgen.registry.parts import part_digests  # noqa: PLC0415

        digests = part_digests(self._document or {})
        object.__setattr__(self, "_document", None)  # read once: free the raw data
        return digests

    @property
    def default_agent(self) -> Agent:
        return next((a for a in self.agents if a.default), self.agents[0])

    def agent(self, agent_id: str) -> Agent | None:
        return next((a for a in self.agents if a.id == agent_id), None)

    def catalog(self, image: str | None = None) -> Catalog:
        """The catalog for args of a profile whose image is ``image``: the vLLM release
        that image declares, else the default one, plus the registry's extras."""
        found = self.images.get(image) if image is not None else None
        return self.vllm.catalog(found.vllm if found is not None else "", image or "")

    def host_default(self, host_id: str) -> Profile | None:
        """The default profile of a host, if one is marked."""
        return self._host_defaults.get(host_id)

    def profiles_for_model(self, model_id: str) -> list[Profile]:
        return list(self._by_model.get(model_id, ()))

    def registered_hosts(self, model: Model) -> list[ModelOnHost]:
        """Every host ``model`` is registered for (its own ``hosts`` and its profiles'), in
        the registry's host order, each with the model's facts there: what the model entry
        declares, else what its first profile on that host says, else supported and
        automatic."""
        profiles = {p.host.id: p for p in reversed(self.profiles_for_model(model.id))}
        default = ModelOnHost("", model.min_compute_capability)
        out = []
        for hid in self.hosts:
            if hid not in profiles and hid not in model.hosts:
                continue
            on = model.hosts.get(hid, default)
            there = profiles.get(hid)
            support = on.support or (there.support if there else "supported")
            selection = on.selection or (there.selection if there else "automatic")
            out.append(replace(on, host=hid, support=support, selection=selection))
        return out

    @cached_property
    def _host_defaults(self) -> dict[str, Profile]:
        """Each host's first profile marked default."""
        return {p.host.id: p for p in reversed(tuple(self.profiles.values())) if p.default}

    @cached_property
    def _by_model(self) -> dict[str, list[Profile]]:
        out: dict[str, list[Profile]] = {}
        for profile in self.profiles.values():
            out.setdefault(profile.model.id, []).append(profile)
        return out
