"""Load ``profiles.yaml``: parse, validate against schema and rules, build the model.

Every problem found is collected and raised once, sorted by location, so a user
fixes a whole registry in one round.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from pathlib import Path
from types import MappingProxyType
from typing import Any

from docgen.config import Project
from docgen.errors import Location, Problem, RegistryError, decode, did_you_mean
from docgen.registry import schema
from docgen.registry.model import (
    Agent,
    Arg,
    Evidence,
    Host,
    Image,
    Model,
    Override,
    Product,
    Profile,
    Registry,
    Source,
    Spdx,
)
from docgen.registry.source import (
    Document,
    Positions,
    load_fast,
    load_text,
    walk_leaves,
)
from docgen.vllm.catalog import Catalog, UnknownRelease, VersionIndex, release_key

#: Largest registry file docgen reads (bounded time and memory on hostile input).
MAX_BYTES = 4_000_000
#: Lines of registry text that generated pages would read as directives.
DIRECTIVE_LINE = re.compile(r"</?AgentOnly\b|docgen:(?:begin|end)\b")
SURROGATE = re.compile("[\ud800-\udfff]")
KeyPath = tuple[Any, ...]


def load_registry(project: Project) -> Registry:
    """The validated registry of a project."""
    return load(project.registry_path, project.config.registry)


def load(path: Path, display: str | None = None) -> Registry:
    """Read, validate and build the registry at ``path``; raise RegistryError."""
    name = display or path.name
    if path.is_symlink() and not _within(path):
        raise RegistryError.at(
            Location(name),
            "the registry is a symbolic link that leaves "
            "the project root; docgen reads only files inside it",
        )
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise RegistryError.at(
                Location(name, 1, 1),
                f"the registry is {size / 1e6:.1f} MB; "
                f"docgen reads registries up to {MAX_BYTES / 1e6:.0f} MB",
            )
        raw = path.read_bytes()
    except FileNotFoundError:
        raise RegistryError.at(Location(name), "registry file not found") from None
    except OSError as exc:
        raise RegistryError.at(Location(name), f"cannot read registry: {exc.strerror}") from None
    return load_bytes(raw, name)


def _within(path: Path) -> bool:
    root = path.parent.resolve()
    return path.resolve().is_relative_to(root)


def load_bytes(raw: bytes, name: str) -> Registry:
    """Validate and build; libyaml reads the text unless ruamel.yaml must (see yamlsource)."""
    from docgen.heap import collector_paused

    with collector_paused():  # everything built here stays alive: nothing to collect
        return _load_text(decode(raw, name), name)


def _load_text(text: str, name: str) -> Registry:
    doc = load_fast(text, name) or load_text(text, name)
    if not isinstance(doc.data, dict):
        raise RegistryError.at(
            doc.positions.of_value(()), "the registry must be a mapping of sections"
        )
    if schema.is_valid(doc.data):
        problems = Checker(doc).run()
    else:
        problems = schema.validate(doc.data, doc.positions) + Checker(doc).run()
    if problems:
        raise RegistryError(sorted(problems, key=_order))
    return build(doc)


def _order(problem: Problem) -> tuple[int, int, str]:
    loc = problem.location
    return (loc.line, loc.col, problem.message) if loc else (0, 0, problem.message)


def catalog_for(data: Mapping[str, Any], image: str | None = None) -> Catalog:
    """The catalog that checks args: vLLM 0.34.0, or the release ``image`` declares
    (``images.<id>.vllm``; raises UnknownRelease), plus the registry's extra flags."""
    vllm = data.get("vllm") or {}
    base = Catalog.load()
    declared = _declared_vllm(data, image)
    if declared:
        base = base.for_version(declared, image or "")
    if not vllm:
        return base
    return base.extend(vllm.get("extra_flags") or {}, vllm.get("extra_values") or {})


def _declared_vllm(data: Mapping[str, Any], image: str | None) -> str | None:
    images = data.get("images")
    entry = images.get(image) if image is not None and isinstance(images, dict) else None
    declared = entry.get("vllm") if isinstance(entry, dict) else None
    return declared if isinstance(declared, str) else None


class Checker:
    """Semantic rules on top of the schema; yields every problem it finds."""

    def __init__(self, doc: Document) -> None:
        self.data: dict[str, Any] = doc.data
        self.pos: Positions = doc.positions
        self.catalog = catalog_for(self.data)
        self.catalogs: dict[str | None, Catalog] = {None: self.catalog}

    def run(self) -> list[Problem]:
        """Every rule's problems; parts the schema already rejected are skipped."""
        problems: list[Problem] = []
        _collect(problems, self._text)
        _collect(problems, self._agents)
        _collect(problems, self._extra_flags)
        _collect(problems, self._image_releases)
        defaults: dict[str, str] = {}
        profiles = self.data.get("profiles")
        for pid, profile in profiles.items() if isinstance(profiles, dict) else ():
            _collect(problems, partial(self._profile, pid, profile, defaults))
        return _unique(problems)

    def at(self, keypath: KeyPath, message: str, *, key: bool = False) -> Problem:
        where = self.pos.of_key(keypath) if key else self.pos.of_value(keypath)
        return Problem(message, where)

    def _text(self) -> Iterator[Problem]:
        """Registry text is data: it may not hold lines pages would treat as directives."""
        for keypath, value in walk_leaves(self.data):
            if isinstance(value, str) and DIRECTIVE_LINE.search(value):
                yield self.at(
                    keypath,
                    "registry text may not contain an <AgentOnly> tag "
                    "or a docgen region marker: generated pages would read it as a "
                    "directive",
                )
            if isinstance(value, str) and SURROGATE.search(value):
                yield self.at(
                    keypath,
                    "registry text contains an unpaired UTF-16 surrogate "
                    "(write the character itself instead of a \\ud83d-style escape)",
                )

    def _agents(self) -> Iterator[Problem]:
        seen: set[str] = set()
        defaults = 0
        for index, agent in enumerate(self.data["agents"]):
            if agent["id"] in seen:
                yield self.at(("agents", index, "id"), f"duplicate agent id '{agent['id']}'")
            seen.add(agent["id"])
            defaults += bool(agent.get("default"))
            if defaults > 1 and agent.get("default"):
                yield self.at(("agents", index, "default"), "more than one agent is the default")

    def _extra_flags(self) -> Iterator[Problem]:
        values = (self.data.get("vllm") or {}).get("extra_values") or {}
        for name in values:
            if Catalog.load().lookup(name) is None:
                hint = Catalog.load().suggest(name)
                yield self.at(
                    ("vllm", "extra_values", name),
                    f"extra_values names unknown vLLM flag '--{name}'{hint}",
                    key=True,
                )

    def _image_releases(self) -> Iterator[Problem]:
        """A declared ``vllm`` version docgen has no data for is an error on that value."""
        for iid, image in (self.data.get("images") or {}).items():
            declared = image.get("vllm") if isinstance(image, dict) else None
            if isinstance(declared, str) and release_key(declared) is not None:
                try:
                    VersionIndex.load().release(declared, iid)
                except UnknownRelease as exc:
                    yield self.at(("images", iid, "vllm"), str(exc))

    def _use_catalog(self, image: str | None) -> None:
        """Check the next profile with the catalog of the vLLM its image declares.

        Rules run one at a time (``_collect``), so a profile's rule sets this first and
        every check below it reads ``self.catalog``. A version that is not known falls
        back to the default catalog; ``_image_releases`` reports it once.
        """
        if image not in self.catalogs:
            try:
                self.catalogs[image] = catalog_for(self.data, image)
            except UnknownRelease:
                self.catalogs[image] = self.catalogs[None]
        self.catalog = self.catalogs[image]

    def _profile(
        self, pid: str, profile: dict[str, Any], defaults: dict[str, str]
    ) -> Iterator[Problem]:
        base: KeyPath = ("profiles", pid)
        self._use_catalog(profile.get("image") if isinstance(profile.get("image"), str) else None)
        for field, section in (("model", "models"), ("host", "hosts"), ("image", "images")):
            yield from self._reference(base, profile, field, section)
        if profile.get("default"):
            host = profile["host"]
            if host in defaults:
                first = self.pos.of_key(("profiles", defaults[host]))
                yield self.at(
                    (*base, "default"),
                    f"host '{host}' already has a default profile, "
                    f"'{defaults[host]}' (line {first.line})",
                )
            defaults.setdefault(host, pid)
        yield from self._args((*base, "args"), profile["args"])
        for oid, override in (profile.get("overrides") or {}).items():
            yield from self._args((*base, "overrides", oid, "args"), override["args"])
        yield from self._expect(base, profile)
        for index, item in enumerate(profile.get("evidence") or []):
            yield from self._date((*base, "evidence", index, "date"), item["date"])

    def _reference(
        self, base: KeyPath, profile: dict[str, Any], field: str, section: str
    ) -> Iterator[Problem]:
        target = profile.get(field)
        known = self.data.get(section) or {}
        if target is not None and target not in known:
            hint = did_you_mean(target, known)
            yield self.at(
                (*base, field), f"profile '{base[-1]}' names unknown {field} '{target}'{hint}"
            )

    def _args(self, base: KeyPath, args: dict[str, Any]) -> Iterator[Problem]:
        for name, value in args.items():
            yield from self._flag((*base, name), name, value)

    def _flag(self, keypath: KeyPath, name: str, value: Any) -> Iterator[Problem]:
        flag = self.catalog.lookup(name)
        if flag is None or flag.name != name:
            yield self._unknown_flag(keypath, name, flag)
            return
        for message in self.catalog.check_value(name, value):
            yield self.at(keypath, message)

    def _unknown_flag(self, keypath: KeyPath, name: str, flag: Any) -> Problem:
        if flag is not None:
            message = f"write '--{name}' by its full name, '--{flag.name}'"
        else:
            message = self.catalog.missing(f"--{name}") or (
                f"unknown vLLM flag '--{name}'{self.catalog.suggest(name)}"
            )
        return self.at(keypath, message, key=True)

    def _expect(self, base: KeyPath, profile: dict[str, Any]) -> Iterator[Problem]:
        expect = profile.get("expect") or {}
        args = profile["args"]
        for index, name in enumerate(expect.get("absent") or []):
            keypath = (*base, "expect", "absent", index)
            if self.catalog.lookup(name) is None and self.catalogs[None].lookup(name) is None:
                yield self.at(keypath, f"unknown vLLM flag '--{name}'{self.catalog.suggest(name)}")
            elif name in args:
                yield self.at(
                    (*base, "args", name),
                    f"profile '{base[-1]}' expects '--{name}' to be absent, but its args set it",
                    key=True,
                )
        for name, wanted in (expect.get("present") or {}).items():
            yield from self._present((*base, "expect", "present", name), args, name, wanted)

    def _present(
        self, keypath: KeyPath, args: dict[str, Any], name: str, wanted: Any
    ) -> Iterator[Problem]:
        problems = list(self._flag(keypath, name, wanted))
        if problems:
            yield from problems
            return
        pid = keypath[1]
        if name not in args:
            yield self.at(
                keypath, f"profile '{pid}' expects '--{name}', but its args do not set it"
            )
            return
        have = self.catalog.tokens(name, args[name])
        if have != self.catalog.tokens(name, wanted):
            yield self.at(
                ("profiles", pid, "args", name),
                f"profile '{pid}' expects '--{name}' to be {_show(wanted)}, "
                f"but its args set {_show(args[name])}",
            )

    def _date(self, keypath: KeyPath, value: str) -> Iterator[Problem]:
        try:
            _dt.date.fromisoformat(value)
        except ValueError:
            yield self.at(keypath, f"invalid date '{value}'; expected a real date as YYYY-MM-DD")


def _collect(problems: list[Problem], rule: Callable[[], Iterator[Problem]]) -> None:
    """Run one rule over data the schema may have rejected; malformed parts are skipped."""
    try:
        for problem in rule():
            problems.append(problem)
    except (KeyError, TypeError, AttributeError, IndexError):
        pass


def _unique(problems: list[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# -- building the typed model -------------------------------------------------


class Builder:
    """Turns validated data into frozen model objects."""

    def __init__(self, doc: Document) -> None:
        self.data: dict[str, Any] = doc.data
        self.pos = doc.positions
        self.catalog = catalog_for(self.data)
        self._catalogs: dict[str, Catalog] = {}

    def _catalog(self, image: str | None) -> Catalog:
        """The catalog of the vLLM release a profile's image declares (validated already)."""
        key = image or ""
        if key not in self._catalogs:
            self._catalogs[key] = catalog_for(self.data, image)
        return self._catalogs[key]

    def src(self, *keypath: Any, text: str = "") -> Source:
        return Source(tuple(keypath), self.pos.of_key(tuple(keypath)), text)

    def registry(self) -> Registry:
        data = self.data
        hosts = {k: self.host(k, v) for k, v in data["hosts"].items()}
        images = {k: self.image(k, v) for k, v in (data.get("images") or {}).items()}
        models = {k: self.model(k, v) for k, v in data["models"].items()}
        profiles = {
            k: self.profile(k, v, hosts, images, models) for k, v in data["profiles"].items()
        }
        vllm = data.get("vllm") or {}
        return Registry(
            path=self.pos.path,
            product=self.product(data["product"]),
            agents=tuple(self.agent(i, a) for i, a in enumerate(data["agents"])),
            hosts=_frozen(hosts),
            images=_frozen(images),
            models=_frozen(models),
            profiles=_frozen(profiles),
            vllm_extra_flags=_frozen(vllm.get("extra_flags") or {}),
            vllm_extra_values=_frozen(vllm.get("extra_values") or {}),
            data=_frozen(data),
        )

    def product(self, p: dict[str, Any]) -> Product:
        spdx = p.get("spdx")
        return Product(
            name=p["name"],
            cli_token=p["cli_token"],
            model_env=p.get("model_env", "MODEL"),
            extra_args_env=p.get("extra_args_env", "EXTRA_ARGS_JSON"),
            provider_env=_env(p.get("provider_env")),
            onboard=p.get("onboard", "onboard --non-interactive"),
            docs_base=p.get("docs_base", "/{agent}"),
            site_url=p.get("site_url", ""),
            spdx=Spdx(spdx["copyright"], spdx["license"]) if spdx else None,
        )

    def agent(self, index: int, a: dict[str, Any]) -> Agent:
        return Agent(
            a["id"],
            a["title"],
            a["cli"],
            _env(a.get("env")),
            bool(a.get("default")),
            self.src("agents", index),
        )

    def host(self, hid: str, h: dict[str, Any]) -> Host:
        return Host(
            hid,
            h["name"],
            h.get("arch", ""),
            h.get("notes", ""),
            self.src("hosts", hid, text=h["name"]),
        )

    def image(self, iid: str, i: dict[str, Any]) -> Image:
        return Image(
            iid,
            i["ref"],
            i.get("digest", ""),
            i.get("compressed_bytes"),
            i.get("platform", ""),
            i.get("vllm", ""),
            i.get("notes", ""),
            self.src("images", iid, text=i.get("digest", "")),
        )

    def model(self, mid: str, m: dict[str, Any]) -> Model:
        return Model(
            mid,
            m["hf"],
            m["label"],
            m.get("served_name", ""),
            m.get("revision", ""),
            m.get("min_compute_capability", ""),
            m.get("download_bytes"),
            bool(m.get("gated", False)),
            m.get("notes", ""),
            self.src("models", mid, text=m["hf"]),
        )

    def args(self, base: KeyPath, args: dict[str, Any]) -> tuple[Arg, ...]:
        out = []
        for name, value in args.items():
            tokens = tuple(self.catalog.tokens(name, value))
            out.append(Arg(name, value, tokens, self.src(*base, name, text=" ".join(tokens))))
        return tuple(out)

    def profile(
        self,
        pid: str,
        p: dict[str, Any],
        hosts: Mapping[str, Host],
        images: Mapping[str, Image],
        models: Mapping[str, Model],
    ) -> Profile:
        base = ("profiles", pid)
        expect = p.get("expect") or {}
        self.catalog = self._catalog(p.get("image"))
        return Profile(
            id=pid,
            model=models[p["model"]],
            host=hosts[p["host"]],
            default=bool(p.get("default", False)),
            support=p.get("support", "supported"),
            selection=p.get("selection", "automatic"),
            image=images[p["image"]] if p.get("image") else None,
            summary=p.get("summary", ""),
            env=_env(p.get("env")),
            args=self.args((*base, "args"), p["args"]),
            expect_absent=tuple(expect.get("absent") or ()),
            expect_present=_frozen(expect.get("present") or {}),
            overrides=tuple(
                self.override(base, oid, o) for oid, o in (p.get("overrides") or {}).items()
            ),
            evidence=tuple(
                self.evidence(base, i, e) for i, e in enumerate(p.get("evidence") or [])
            ),
            source=self.src(*base),
        )

    def override(self, base: KeyPath, oid: str, o: dict[str, Any]) -> Override:
        keypath = (*base, "overrides", oid)
        return Override(
            oid,
            o["summary"],
            self.args((*keypath, "args"), o["args"]),
            tuple(o.get("tradeoffs") or ()),
            self.src(*keypath),
        )

    def evidence(self, base: KeyPath, index: int, e: dict[str, Any]) -> Evidence:
        results = tuple((str(k), _show(v)) for k, v in (e.get("results") or {}).items())
        return Evidence(
            e["date"], e["host"], e.get("setup", ""), results, self.src(*base, "evidence", index)
        )


def build(doc: Document) -> Registry:
    return Builder(doc).registry()


def _env(value: Mapping[str, Any] | None) -> Mapping[str, str]:
    return MappingProxyType({k: _show(v) for k, v in (value or {}).items()})


def _frozen(value: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(value))
