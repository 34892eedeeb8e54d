"""Turn a validated registry document into the frozen, typed model (``Registry``)."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from docgen.registry.model import (
    Agent,
    Arg,
    Evidence,
    Host,
    Image,
    Launcher,
    Model,
    ModelOnHost,
    Override,
    Product,
    Profile,
    Registry,
    Source,
    Spdx,
    Step,
    Storage,
)
from docgen.registry.source import Document, KeyPath
from docgen.registry.vllm_settings import VllmSettings
from docgen.vllm.catalog import Catalog
from docgen.vllm.values import scalar_text


class Builder:
    """Turns validated data into frozen model objects."""

    def __init__(self, doc: Document, history: bool = False) -> None:
        self.history = history  # an older state: flags today's catalog lacks are kept
        self.data: dict[str, Any] = doc.data
        self.pos = doc.positions
        self.vllm = VllmSettings.of(self.data.get("vllm"))
        # Every catalog stays alive in ``_catalogs``: ``_words`` tells them apart by id.
        self._catalogs: dict[str, Catalog] = {}
        self._words: dict[tuple[Any, ...], tuple[tuple[str, ...], str]] = {}
        self.catalog = self._catalog(None)

    def _catalog(self, image: Image | None) -> Catalog:
        """The catalog of the vLLM release a profile's image declares (validated already)."""
        key = image.id if image is not None else ""
        if key not in self._catalogs:
            self._catalogs[key] = self.vllm.catalog(image.vllm if image else "", key)
        return self._catalogs[key]

    def src(self, *keypath: Any, text: str = "") -> Source:
        return Source(tuple(keypath), self.pos.of_key(tuple(keypath)), text)

    def registry(self) -> Registry:
        data = self.data
        hosts = {k: self.host(k, v) for k, v in data["hosts"].items()}
        images = {k: self.image(k, v) for k, v in (data.get("images") or {}).items()}
        models = {k: self.model(k, v) for k, v in data["models"].items()}
        launcher = self.launcher(data.get("launcher") or {})
        profiles = {
            k: self.profile(k, v, hosts, images, models, launcher)
            for k, v in data["profiles"].items()
        }
        return Registry(
            path=self.pos.path,
            product=self.product(data["product"]),
            agents=tuple(self.agent(i, a) for i, a in enumerate(data["agents"])),
            hosts=_frozen(hosts),
            images=_frozen(images),
            models=_frozen(models),
            profiles=_frozen(profiles),
            vllm=self.vllm,
            launcher=launcher,
            _document=data,
        )

    def launcher(self, section: dict[str, Any]) -> Launcher:
        steps = (section.get("before_serve") or {}).items()
        storage = section.get("storage")
        return Launcher(
            self.args(("launcher", "shared_args"), section.get("shared_args") or {}),
            tuple(
                Step(
                    sid,
                    tuple(step["run"]),
                    _frozen(step.get("when") or {}),
                    step.get("summary", ""),
                    self.src("launcher", "before_serve", sid, text=shlex.join(step["run"])),
                    self._when_argv(sid, step.get("when") or {}),
                )
                for sid, step in steps
            ),
            None if storage is None else Storage(**storage, source=self.src("launcher", "storage")),
        )

    def product(self, p: dict[str, Any]) -> Product:
        spdx = p.get("spdx")
        return Product(
            name=p["name"],
            cli_token=p["cli_token"],
            model_env=p.get("model_env", "MODEL"),
            extra_args_env=p.get("extra_args_env", Product.extra_args_env),
            provider_env=_env(p.get("provider_env")),
            onboard=p.get("onboard", "onboard --non-interactive"),
            docs_base=p.get("docs_base", "/{agent}"),
            site_url=p.get("site_url", ""),
            spdx=Spdx(spdx["copyright"], spdx["license"]) if spdx else None,
            texts=tuple(self._nested_texts(("product",), p)),
        )

    def _nested_texts(self, keypath: KeyPath, entry: dict[str, Any]) -> Iterator[Source]:
        """Each text of ``entry``, in its mappings too, as a node of its own (see ``_texts``)."""
        for name, value in entry.items():
            if isinstance(value, dict):
                yield from self._nested_texts((*keypath, name), value)
            elif isinstance(value, str) and value:
                yield self.src(*keypath, name, text=value)

    def agent(self, index: int, a: dict[str, Any]) -> Agent:
        return Agent(
            a["id"],
            a["title"],
            a["cli"],
            _env(a.get("env")),
            bool(a.get("default")),
            self.src("agents", index),
            (self.src("agents", index, "cli", text=a["cli"]),),  # what its variants show
        )

    def host(self, hid: str, h: dict[str, Any]) -> Host:
        return Host(
            hid,
            h["name"],
            h.get("arch", ""),
            h.get("notes", ""),
            self.src("hosts", hid, text=h["name"]),
            h.get("image", ""),
            self._texts("hosts", hid, h, "image"),
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
            i.get("unpacked_bytes"),
            self._texts("images", iid, i),
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
            _frozen(self._model_hosts(m)),
            self._texts("models", mid, m),
        )

    def _texts(
        self, section: str, key: str, entry: dict[str, Any], *other: str
    ) -> tuple[Source, ...]:
        """The entry's text fields (a model's id on Hugging Face, label, notes), each a node
        of its own for blame: drift they cause names the field's line (not ``other``: ids
        of other entries, which no page shows). The entry's own node holds the text that
        names it too, for a page that shows the entry and for a removed entry's blame."""
        return tuple(
            self.src(section, key, name, text=value)
            for name, value in entry.items()
            if name not in other and isinstance(value, str) and value
        )

    def _model_hosts(self, m: dict[str, Any]) -> dict[str, ModelOnHost]:
        """The hosts a model entry registers it for, each with its minimum compute capability
        there: the one the host entry declares (``null``: none), else the model's own."""
        own = m.get("min_compute_capability", "")
        out = {}
        for hid, facts in (m.get("hosts") or {}).items():
            state = facts.get("support"), facts.get("selection")
            if "min_compute_capability" in facts:
                declared = facts["min_compute_capability"] or ""
                out[hid] = ModelOnHost(hid, declared, declared or "none", *state)
            else:
                out[hid] = ModelOnHost(hid, own, None, *state)
        return out

    def _when_argv(self, sid: str, when: dict[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        keypath = ("launcher", "before_serve", sid, "when")
        return tuple((a.name, a.tokens) for a in self.args(keypath, when))

    def args(self, base: KeyPath, args: dict[str, Any]) -> tuple[Arg, ...]:
        out = []
        for name, value in args.items():
            tokens, text = self._argv_words(name, value)
            out.append(Arg(name, value, tokens, self.src(*base, name, text=text)))
        return tuple(out)

    def _argv_words(self, name: str, value: Any) -> tuple[tuple[str, ...], str]:
        """An argument's argv words by the current catalog and their shell text, worked
        out once per catalog, name and scalar value (profiles share most of them)."""
        # The value's type and a float's text key it too: True == 1 == 1.0 and 0.0 == -0.0.
        shown = repr(value) if isinstance(value, float) else value
        key = (id(self.catalog), name, type(value), shown)
        try:
            return self._words[key]
        except TypeError:  # a list or mapping: worked out each time
            return self._worked_out(name, value)
        except KeyError:
            found = self._words[key] = self._worked_out(name, value)
            return found

    def _worked_out(self, name: str, value: Any) -> tuple[tuple[str, ...], str]:
        try:
            tokens = tuple(self.catalog.tokens(name, value))
        except KeyError:  # unknown to today's catalog: refused, unless it is history
            if not self.history:
                raise
            tokens = _history_tokens(name, value)
        return tokens, shlex.join(tokens)

    def profile(
        self,
        pid: str,
        p: dict[str, Any],
        hosts: Mapping[str, Host],
        images: Mapping[str, Image],
        models: Mapping[str, Model],
        launcher: Launcher,
    ) -> Profile:
        base = ("profiles", pid)
        expect = p.get("expect") or {}
        # A profile that names no image runs its host's default image, if the host has one.
        chosen = p.get("image") or hosts[p["host"]].image
        image = images[chosen] if chosen else None
        self.catalog = self._catalog(image)
        return Profile(
            id=pid,
            model=models[p["model"]],
            host=hosts[p["host"]],
            default=bool(p.get("default", False)),
            support=p.get("support", "supported"),
            selection=p.get("selection", "automatic"),
            image=image,
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
            topology=p.get("topology", "single-node"),
            texts=self._profile_texts(base, p),
            **self._launched(p, launcher),
        )

    def _profile_texts(self, base: KeyPath, p: dict[str, Any]) -> tuple[Source, ...]:
        """The texts a page shows of profile ``p`` beyond its args: its summary, and each
        evidence item's setup and results (see ``_texts``)."""
        out = [self.src(*base, "summary", text=p["summary"])] if p.get("summary") else []
        for i, e in enumerate(p.get("evidence") or []):
            place = (*base, "evidence", i)
            out += [self.src(*place, "setup", text=e["setup"])] if e.get("setup") else []
            results = [(k, scalar_text(v)) for k, v in (e.get("results") or {}).items()]
            # A bare number or boolean shows on too many lines to tell what is behind one.
            out += [self.src(*place, "results", k, text=t) for k, t in results if _worded(t)]
        return tuple(out)

    def _launched(self, p: dict[str, Any], launcher: Launcher) -> dict[str, Any]:
        """What the launcher adds to profile ``p``: the shared args and steps it keeps."""
        omit = p.get("launcher") or {}
        omit_args, omit_steps = tuple(omit.get("omit_args", ())), tuple(omit.get("omit_steps", ()))
        return {
            "shared_args": tuple(a for a in launcher.shared_args if a.name not in omit_args),
            "launcher_steps": tuple(s for s in launcher.steps if s.id not in omit_steps),
            "omit_args": omit_args,
            "omit_steps": omit_steps,
        }

    def override(self, base: KeyPath, oid: str, o: dict[str, Any]) -> Override:
        keypath = (*base, "overrides", oid)
        tradeoffs = tuple(o.get("tradeoffs") or ())
        texts = [self.src(*keypath, "summary", text=o["summary"])]
        texts += [self.src(*keypath, "tradeoffs", i, text=t) for i, t in enumerate(tradeoffs)]
        return Override(
            oid,
            o["summary"],
            self.args((*keypath, "args"), o["args"]),
            tradeoffs,
            self.src(*keypath),
            tuple(texts),
        )

    def evidence(self, base: KeyPath, index: int, e: dict[str, Any]) -> Evidence:
        results = tuple((str(k), scalar_text(v)) for k, v in (e.get("results") or {}).items())
        return Evidence(
            e["date"], e["host"], e.get("setup", ""), results, self.src(*base, "evidence", index)
        )


def _worded(text: str) -> bool:
    """Whether ``text`` holds more than a number or a boolean (``22.75 GiB``, ``20/20``)."""
    return text not in ("true", "false") and not _NUMBER.fullmatch(text)


_NUMBER = re.compile(r"[-+]?[0-9_.]+(?:[eE][-+]?[0-9]+)?")


def build(doc: Document, history: bool = False) -> Registry:
    """The typed registry of a validated document; with ``history``, an older state of it,
    whose flags today's catalog may no longer know."""
    return Builder(doc, history).registry()


def _history_tokens(name: str, value: Any) -> tuple[str, ...]:
    """An older registry's flag that today's catalog does not know, as argv words written
    the way the catalog writes its own: ``--x``, ``--no-x``, ``--x VALUE`` (JSON for a
    list or a mapping)."""
    if isinstance(value, bool):
        return (f"--{name}" if value else f"--no-{name}",)
    shown = json.dumps(value, separators=(",", ":")) if isinstance(value, (list, dict)) else None
    return (f"--{name}", shown if shown is not None else scalar_text(value))


def _env(value: Mapping[str, Any] | None) -> Mapping[str, str]:
    return MappingProxyType({k: scalar_text(v) for k, v in (value or {}).items()})


def _frozen(value: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(value))
