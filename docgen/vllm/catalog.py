"""The ``vllm serve`` argument catalog: which flags a vLLM release has, looked up by name.

The data is ``docgen/data/vllm_catalog.json``, built by ``scripts/build_vllm_catalog.py``
from the reference extract of vLLM 0.34.0; ``for_version`` narrows it to an older
release with the version history (``docgen.vllm.versions``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from docgen.errors import did_you_mean
from docgen.vllm.argv import argv_problems, flag_tokens, option_like
from docgen.vllm.flag import TYPES, Flag, typed_flag
from docgen.vllm.values import check, parse_int, scalar_text
from docgen.vllm.versions import History, VersionIndex

CATALOG_FILE = "vllm_catalog.json"


class Catalog:
    """The flags of one vLLM release, optionally extended by registry declarations."""

    def __init__(
        self,
        version: str,
        flags: Mapping[str, Flag],
        commit: str = "",
        history: History | None = None,
    ) -> None:
        self.version = version
        self.commit = commit
        self.history = history  # set on a catalog of one declared release (for_version)
        self._flags = dict(sorted(flags.items()))
        self._names = _name_index(self._flags.values())
        self._options = _option_index(self._flags.values())
        self._releases: dict[int, dict[str, Flag]] = {}  # for_version, by sampled position

    @classmethod
    def load(cls) -> Catalog:
        """The shipped catalog (vLLM 0.34.0), read once per process."""
        return _shipped()

    def extend(
        self,
        extra_flags: Mapping[str, Mapping[str, Any]],
        extra_values: Mapping[str, Sequence[str]],
    ) -> Catalog:
        """A new catalog with registry-declared flags and extra known values.

        A declared flag replaces a same-named one. Values for a name that is unknown or
        has no value list are ignored here; the registry reports unknown names itself.
        """
        flags = dict(self._flags)
        flags.update({name: declared_flag(name, spec) for name, spec in extra_flags.items()})
        names = _name_index(flags.values())
        for name, values in extra_values.items():
            flag = names.get(name)
            if flag is not None and flag.choices is not None:
                flags[flag.name] = replace(flag, choices=_union(flag.choices, values))
        return Catalog(self.version, flags, self.commit, self.history)

    def for_version(self, declared: str, image: str = "") -> Catalog:
        """The flags, negations and value lists of the vLLM release ``declared``.

        A version between two sampled releases is checked as the nearest sampled one
        below it. Raises ``UnknownRelease`` for a malformed or too old version. The
        version history is read here, on first use only.
        """
        index = VersionIndex.load()
        release = index.release(declared, image)
        if release.position not in self._releases:
            self._releases[release.position] = index.flags_at(
                self._flags.values(), release.position
            )
        flags = self._releases[release.position]
        return Catalog(release.sampled, flags, "", History(index, release))

    def missing(self, option: str) -> str | None:
        """Why ``option`` (``--x``) is unknown here when another sampled release has it."""
        if self.history is None or option in self._options:
            return None
        return self.history.option_note(option)

    def lookup(self, name: str) -> Flag | None:
        """The flag named ``name`` or one of its aliases, all without leading dashes."""
        return self._names.get(name)

    def names(self) -> list[str]:
        return list(self._flags)

    def suggest(self, name: str) -> str:
        """``"; did you mean '--max-model-len'?"`` for a misspelt flag name, or ``""``."""
        return did_you_mean(f"--{name.lstrip('-')}", [flag.option for flag in self._flags.values()])

    def check_value(self, name: str, value: object) -> list[str]:
        """Problems with a YAML-loaded registry value for the known flag ``name``."""
        flag = self._require(name)
        problems = check(flag, value) or option_like(flag, value)
        note = self.history.value_note(flag, value) if problems and self.history else None
        return [note] if note else problems

    def tokens(self, name: str, value: object) -> list[str]:
        """The argv tokens that give flag ``name`` the registry value ``value``."""
        return flag_tokens(self._require(name), value)

    def same_setting(self, name: str, value: object, wanted: object) -> bool:
        """Whether flag ``name`` set to ``value`` is set to ``wanted`` as vLLM reads them:
        the same argv tokens, or for an integer flag the same number (``256K`` is
        262144 where vLLM reads human-readable sizes)."""
        flag = self._require(name)
        if flag_tokens(flag, value) == flag_tokens(flag, wanted):
            return True
        if flag.type != "int" or isinstance(value, bool) or isinstance(wanted, bool):
            return False
        read = functools.partial(parse_int, human=flag.human_readable_int, auto=flag.accepts_auto)
        number = read(scalar_text(value))
        return number is not None and number == read(scalar_text(wanted))

    def check_argv(self, tokens: Sequence[str]) -> list[tuple[int, str]]:
        """Problems in operator-supplied ``vllm serve`` argv tokens, by token index."""
        return argv_problems(self._options, tokens)

    def _require(self, name: str) -> Flag:
        flag = self.lookup(name)
        if flag is None:
            raise KeyError(f"unknown vLLM flag '--{name}'")
        return flag


@functools.cache
def _shipped() -> Catalog:
    from importlib import resources  # it imports tempfile: only a run that reads the data

    text = (resources.files("docgen") / "data" / CATALOG_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    flags = {name: Flag.from_record(name, record) for name, record in data["flags"].items()}
    return Catalog(data["source"]["version"], flags, data["source"]["commit"])


def _name_index(flags: Iterable[Flag]) -> dict[str, Flag]:
    """Canonical names and aliases (without dashes); a canonical name wins a clash."""
    flags = list(flags)
    index = {alias.lstrip("-"): flag for flag in flags for alias in flag.aliases}
    index.update({flag.name: flag for flag in flags})
    return index


def _option_index(flags: Iterable[Flag]) -> dict[str, Flag]:
    """Every accepted option string (``--x``, an alias, a negation) -> its flag."""
    flags = list(flags)
    index = {f"--{neg}": flag for flag in flags for neg in flag.negations}
    index.update({alias: flag for flag in flags for alias in flag.aliases})
    index.update({flag.option: flag for flag in flags})
    return index


def _union(choices: tuple[str, ...], values: Iterable[object]) -> tuple[str, ...]:
    added = [str(v) for v in dict.fromkeys(values) if str(v) not in choices]
    return (*choices, *added)


def declared_flag(name: str, spec: Mapping[str, Any]) -> Flag:
    """A flag declared by a registry: ``{"type": ..., "choices": [...], "negatable": bool}``."""
    kind = str(spec.get("type") or ("bool" if "negatable" in spec else "str"))
    if kind not in TYPES:
        raise ValueError(f"extra flag '--{name}' has unknown type '{kind}'")
    choices = spec.get("choices")
    negatable = kind == "bool" and spec.get("negatable")
    return typed_flag(
        name,
        kind,
        (f"no-{name}",) if negatable else (),
        None if choices is None else tuple(str(item) for item in choices),
    )
