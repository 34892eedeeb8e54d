"""Semantic rules over a parsed registry, on top of the schema: every problem, located."""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from docgen.errors import COMMENT_BREAKING, SURROGATE, Problem, did_you_mean, one_line
from docgen.registry.host_rules import HostRules
from docgen.registry.launcher_rules import LauncherRules
from docgen.registry.model import MODEL_FLAGS
from docgen.registry.schema import dashed_flag
from docgen.registry.source import Document, KeyPath, Positions, walk_leaves
from docgen.registry.vllm_settings import VllmSettings
from docgen.vllm.catalog import Catalog
from docgen.vllm.values import scalar_text
from docgen.vllm.versions import UnknownRelease, VersionIndex, release_key

#: Lines of registry text that generated pages would read as directives.
DIRECTIVE_LINE = re.compile(r"</?AgentOnly\b|docgen:(?:begin|end)\b")
#: What breaks a one-line SPDX field: a line break or other control character (a new line
#: of the page), or ``*/`` (the end of the MDX comment a changelog entry holds it in).
#: An absolute http(s) URL that joins safely with a root-absolute route: a host, an
#: optional port and path, no query, fragment, space, quote, bracket or backslash; a
#: ``%`` only as an escape of two hex digits.
SITE_URL = re.compile(
    r"https?://[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::(?P<port>[0-9]{1,5}))?"
    r"(?:/(?:[A-Za-z0-9._~!$&*+,;=:@/-]|%[0-9A-Fa-f]{2})*)?"
)
#: The highest TCP port.
_LAST_PORT = 65535
#: What building a catalog from extras of the wrong shape raises.
_MALFORMED = (AttributeError, TypeError, ValueError)


class Checker(LauncherRules, HostRules):
    """Semantic rules on top of the schema; yields every problem it finds."""

    def __init__(self, doc: Document, start_rules: bool = True) -> None:
        self.start_rules = start_rules
        self.data: dict[str, Any] = doc.data
        self.pos: Positions = doc.positions
        self.vllm = VllmSettings.of(self.data.get("vllm"))
        try:
            self.catalog = self.vllm.catalog()
        except _MALFORMED:  # extras of the wrong shape: the schema reports them
            self.catalog = Catalog.load()
        self.catalogs: dict[str | None, Catalog] = {None: self.catalog}

    def run(self) -> list[Problem]:
        """Every rule's problems; parts the schema already rejected are skipped."""
        problems: list[Problem] = []
        _collect(problems, self._text)
        _collect(problems, self._spdx)
        _collect(problems, self._site_url)
        _collect(problems, self._agents)
        _collect(problems, self._extra_flags)
        _collect(problems, self._image_releases)
        _collect(problems, self._launcher)
        _collect(problems, self._model_hosts)
        _collect(problems, self._default_profiles)
        _collect(problems, self._explicit_only_overrides)
        _collect(problems, self._host_images)
        _collect(problems, self._image_platforms)
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

    def _spdx(self) -> Iterator[Problem]:
        """Each SPDX field is one line of plain text: changelog entries write it inside an
        MDX comment, the release overview as a comment line of its frontmatter."""
        spdx = self.data["product"].get("spdx")
        for name in ("copyright", "license"):
            value = spdx.get(name) if isinstance(spdx, dict) else None
            found = COMMENT_BREAKING.search(value) if isinstance(value, str) else None
            if found is not None:
                char = f"U+{ord(found[0][0]):04X}, a line break or control character"
                what = "'*/'" if found[0] == "*/" else char
                yield self.at(
                    ("product", "spdx", name),
                    f"product.spdx.{name} holds {what}; it is one line of plain text "
                    "(no line breaks, control characters or '*/')",
                )

    def _site_url(self) -> Iterator[Problem]:
        url = self.data["product"].get("site_url")
        problem = site_url_problem(url) if isinstance(url, str) else None
        if problem is not None:
            yield self.at(("product", "site_url"), f"product.site_url {problem}")

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
                    f"extra_values names unknown vLLM flag '--{one_line(name)}'{hint}",
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
            release = _declared_vllm(self.data, image) or ""
            try:
                self.catalogs[image] = self.vllm.catalog(release, image or "")
            except (UnknownRelease, *_MALFORMED):
                self.catalogs[image] = self.catalogs[None]
        self.catalog = self.catalogs[image]

    def _profile(
        self, pid: str, profile: dict[str, Any], defaults: dict[str, str]
    ) -> Iterator[Problem]:
        base: KeyPath = ("profiles", pid)
        self._use_catalog(_image_of(self.data, profile))
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
        shared = yield from self._omissions(base, profile)
        yield from self._expect(base, profile, shared)
        yield from self._requirements(base, profile, shared)
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
                (*base, field),
                f"profile '{base[-1]}' names unknown {field} '{one_line(target)}'{hint}",
            )

    def _args(self, base: KeyPath, args: dict[str, Any]) -> Iterator[Problem]:
        for name, value in args.items():
            yield from self._flag((*base, name), name, value)

    def _flag(self, keypath: KeyPath, name: str, value: Any) -> Iterator[Problem]:
        if dashed_flag(name) is not None:
            return  # the schema refuses the name, saying to drop the dashes
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
                f"unknown vLLM flag '--{one_line(name)}'{self.catalog.suggest(name)}"
            )
        return self.at(keypath, message, key=True)

    def _expect(
        self, base: KeyPath, profile: dict[str, Any], shared: dict[str, Any]
    ) -> Iterator[Problem]:
        """``expect`` guards the command: the launcher's shared args and the model's flags
        count as set."""
        expect = profile.get("expect") or {}
        model = self._model_flags(profile)
        args = {**model, **shared, **profile["args"]}
        for index, name in enumerate(expect.get("absent") or []):
            keypath = (*base, "expect", "absent", index)
            if dashed_flag(name) is not None:
                continue  # the schema refuses it, saying to drop the dashes
            if self.catalog.lookup(name) is None and self.catalogs[None].lookup(name) is None:
                yield self.at(
                    keypath, f"unknown vLLM flag '--{one_line(name)}'{self.catalog.suggest(name)}"
                )
            elif name in profile["args"]:
                yield self.at(
                    (*base, "args", name),
                    f"profile '{base[-1]}' expects '--{name}' to be absent, but its args set it",
                    key=True,
                )
            elif name in args:
                where = (
                    "launcher.shared_args sets it; list it in the profile's launcher.omit_args"
                    if name in shared
                    else f"its model's {MODEL_FLAGS[name]} sets it"
                )
                yield self.at(
                    keypath, f"profile '{base[-1]}' expects '--{name}' to be absent, but {where}"
                )
        for name, wanted in (expect.get("present") or {}).items():
            keypath = (*base, "expect", "present", name)
            yield from self._present(keypath, args, name, wanted, shared)

    def _model_flags(self, profile: dict[str, Any]) -> dict[str, Any]:
        """The flags its model adds to a profile's command (``--served-model-name``...)."""
        model = (self.data.get("models") or {}).get(profile.get("model")) or {}
        return {flag: model[key] for flag, key in MODEL_FLAGS.items() if key in model}

    def _present(
        self, keypath: KeyPath, args: dict[str, Any], name: str, wanted: Any, shared: Any
    ) -> Iterator[Problem]:
        if dashed_flag(name) is not None:
            return  # the schema refuses the name, saying to drop the dashes
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
        if not self.catalog.same_setting(name, args[name], wanted):
            profile = self.data["profiles"][pid]
            setter, where = (
                ("its args set", ("profiles", pid, "args", name))
                if name in profile["args"]
                else ("launcher.shared_args sets", ("launcher", "shared_args", name))
                if name in shared
                else (
                    f"its model's {MODEL_FLAGS[name]} sets",
                    ("models", profile["model"], MODEL_FLAGS[name]),
                )
            )
            yield self.at(
                where,
                f"profile '{pid}' expects '--{name}' to be {scalar_text(wanted)}, "
                f"but {setter} {scalar_text(args[name])}",
            )

    def _date(self, keypath: KeyPath, value: str) -> Iterator[Problem]:
        try:
            _dt.date.fromisoformat(value)
        except ValueError:
            yield self.at(
                keypath, f"invalid date '{one_line(value)}'; expected a real date as YYYY-MM-DD"
            )


def site_url_problem(url: str) -> str | None:
    """Why ``url`` cannot be the published site's URL (``product.site_url``,
    ``--site-url``), or None; empty (or only ``/``) means "not set"."""
    if not url.rstrip("/"):
        return None
    found = SITE_URL.fullmatch(url)
    if found and (found["port"] is None or 0 < int(found["port"]) <= _LAST_PORT):
        return None
    shown = one_line(url if len(url) <= 60 else url[:57] + "...")
    return (
        "must be an absolute http(s) URL such as https://docs.example.com "
        f"(no query, fragment, spaces or quotes; a port up to {_LAST_PORT}), got '{shown}'"
    )


def _collect(problems: list[Problem], rule: Callable[[], Iterator[Problem]]) -> None:
    """Run one rule over data the schema may have rejected; malformed parts are skipped."""
    try:
        for problem in rule():
            problems.append(problem)
    except (KeyError, TypeError, AttributeError, IndexError):
        pass


def _unique(problems: list[Problem]) -> list[Problem]:
    return list(dict.fromkeys(problems))


def _image_of(data: dict[str, Any], profile: dict[str, Any]) -> str | None:
    """The image a profile runs: its own, else its host's default (None for neither)."""
    image = profile.get("image")
    if not isinstance(image, str):
        host = (data.get("hosts") or {}).get(profile.get("host"))
        image = host.get("image") if isinstance(host, dict) else None
    return image if isinstance(image, str) else None


def _declared_vllm(data: dict[str, Any], image: str | None) -> str | None:
    """The ``vllm`` version image ``image`` declares, if it declares one."""
    images = data.get("images")
    entry = images.get(image) if image is not None and isinstance(images, dict) else None
    declared = entry.get("vllm") if isinstance(entry, dict) else None
    return declared if isinstance(declared, str) else None
