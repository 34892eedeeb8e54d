"""vLLM releases: which sampled release stands for a declared one, and what it had.

The history (which release has which option string, removed flags, value-list history,
parser names) is ``docgen/data/vllm_versions.json``, read on first use only.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from docgen.vllm.flag import TYPES, Flag, typed_flag
from docgen.vllm.values import scalar_text

VERSIONS_FILE = "vllm_versions.json"

_RELEASE = re.compile(r"v?(\d+(?:\.\d+){1,3})(?:\.?post(\d+))?")
_PARSER_WORDS = {"tool-call-parser": "tool-call parser", "reasoning-parser": "reasoning parser"}


class UnknownRelease(ValueError):
    """A declared vLLM version that docgen has no argument data for."""


def release_key(version: str) -> tuple[int, ...] | None:
    """A sortable key: ``0.8.5`` < ``0.8.5.post1`` < ``0.10.1.1``; None if malformed."""
    match = _RELEASE.fullmatch(version.strip())
    if match is None:
        return None
    numbers = [int(part) for part in match[1].split(".")]
    return (*numbers, *[0] * (4 - len(numbers)), int(match[2] or 0))


@dataclass(frozen=True)
class Release:
    """The release an image declares and the sampled release that stands for it."""

    declared: str
    sampled: str
    position: int  # of ``sampled`` in VersionIndex.versions
    image: str = ""

    @property
    def label(self) -> str:
        """``vLLM 0.9.2 (image 'old')``, saying which sampled release stands for it."""
        notes = [f"image '{self.image}'"] if self.image else []
        if self.sampled != self.declared:
            notes.append(f"checked as {self.sampled}, the nearest sampled release below it")
        return f"vLLM {self.declared}" + (f" ({'; '.join(notes)})" if notes else "")


class VersionIndex:
    """Which sampled vLLM releases (0.8.5.post1 to 0.34.0) have which options and values.

    Built from ``vllm_versions.json``. Only sampled releases are known: a flag added or
    removed between two of them is reported against the sampled ones.
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        matrix = data["flag_version_matrix"]
        self.versions: tuple[str, ...] = tuple(matrix["versions"])
        self._position = {version: index for index, version in enumerate(self.versions)}
        self._present = {option: frozenset(seen) for option, seen in matrix["present_in"].items()}
        self._removed = [record for record in data["removed_flags"] if _removed_kept(record)]
        self._values: Mapping[str, list[dict[str, Any]]] = data["value_history"]
        parsers = data["parsers"]
        self._parsers = {
            "tool-call-parser": self._spans(parsers["tool_call_parser_history"]),
            "reasoning-parser": self._spans(parsers["reasoning_parser_history"]),
        }

    @classmethod
    def load(cls) -> VersionIndex:
        """The shipped version history, read once per process and only when asked for."""
        return _version_index()

    def _spans(self, history: Mapping[str, Mapping[str, str]]) -> dict[str, range]:
        return {
            name: range(self._position[seen["first_seen"]], self._position[seen["last_seen"]] + 1)
            for name, seen in history.items()
        }

    def release(self, declared: str, image: str = "") -> Release:
        """The sampled release at or below ``declared``; UnknownRelease if there is none."""
        key = release_key(declared)
        if key is None:
            raise UnknownRelease(f"'{declared}' is not a vLLM release number such as 0.10.2")
        below = [i for i, v in enumerate(self.versions) if (release_key(v) or ()) <= key]
        if not below:
            raise UnknownRelease(
                f"vLLM {declared} is older than {self.versions[0]}, the oldest release "
                "docgen has argument data for"
            )
        return Release(declared, self.versions[below[-1]], below[-1], image)

    def has(self, option: str, position: int) -> bool | None:
        """Whether the release at ``position`` has ``option``; None if never recorded."""
        seen = self._present.get(option)
        return None if seen is None else position in seen

    def positions(self, option: str) -> frozenset[int]:
        return self._present.get(option, frozenset())

    def describe(self, positions: Iterable[int]) -> str:
        """``0.10.0 through 0.34.0``, ``0.9.2 and 0.12.0 through 0.13.0``."""
        runs: list[list[int]] = []
        for position in sorted(positions):
            if runs and runs[-1][-1] == position - 1:
                runs[-1].append(position)
            else:
                runs.append([position])
        parts = [
            self.versions[run[0]]
            if len(run) == 1
            else f"{self.versions[run[0]]} through {self.versions[run[-1]]}"
            for run in runs
        ]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    # -- the flags of one release --

    def flags_at(self, flags: Iterable[Flag], position: int) -> dict[str, Flag]:
        """``flags`` (of the shipped release) as the release at ``position`` has them."""
        result: dict[str, Flag] = {}
        for flag in flags:
            kept = self._flag_at(flag, position)
            if kept is not None:
                result[flag.name] = kept
            else:
                result.update(self._orphans(flag, position))
        for record in self._removed:
            name = record["flag"].removeprefix("--")
            if self.has(record["flag"], position) and name not in result:
                result[name] = self._removed_flag(name, record, position)
        return result

    def _flag_at(self, flag: Flag, position: int) -> Flag | None:
        if self.has(flag.option, position) is False:
            return None
        changes: dict[str, Any] = self.values_at(flag, position)
        aliases = tuple(a for a in flag.aliases if self.has(a, position) is not False)
        negations = self._negations(flag.name, flag.negations, position)
        if aliases != flag.aliases:
            changes["aliases"] = aliases
        if negations != flag.negations:
            changes["negations"] = negations
        return replace(flag, **changes) if changes else flag

    def _negations(self, name: str, negations: Iterable[str], position: int) -> tuple[str, ...]:
        """The negations the release has, plus an older ``--no-`` form it had then."""
        kept = [n for n in negations if self.has(f"--{n}", position) is not False]
        if f"no-{name}" not in kept and self.has(f"--no-{name}", position):
            kept.insert(0, f"no-{name}")
        return tuple(kept)

    def _orphans(self, flag: Flag, position: int) -> dict[str, Flag]:
        """Negations of a flag the release lacks that were flags of their own then.

        ``--disable-log-requests`` negates ``--enable-log-requests`` in 0.34.0, but up to
        0.16.0 it was an on/off flag by itself.
        """
        names = [n for n in flag.negations if self.has(f"--{n}", position)]
        return {n: typed_flag(n, "bool", self._negations(n, (), position)) for n in names}

    def _removed_flag(self, name: str, record: Mapping[str, Any], position: int) -> Flag:
        kind = record.get("type") if record.get("type") in TYPES else "str"
        flag = typed_flag(name, str(kind), self._negations(name, (), position))
        changes = self.values_at(flag, position)
        return replace(flag, **changes) if changes else flag

    # -- value lists --

    def values_at(self, flag: Flag, position: int) -> dict[str, Any]:
        """Field changes that give ``flag`` the value list of the release at ``position``."""
        spans = self._parsers.get(flag.name)
        if spans is not None:
            return {"choices": tuple(sorted(n for n, span in spans.items() if position in span))}
        entry = self._entry(flag.name, position)
        if entry is None or not entry.get("present", True):
            return {}
        values = tuple(str(v) for v in entry.get("values") or ())
        if not values:
            return {"choices": None, "choices_enforced": None} if flag.choices else {}
        changes: dict[str, Any] = {"choices": values}
        changes["choices_enforced"] = entry.get("enforced_by_argparse")
        if flag.type == "int":
            changes.update(type="choice", value_type="int")
        return changes

    def _entry(self, name: str, position: int) -> dict[str, Any] | None:
        """The value-history entry in force at ``position``: the last one from before it."""
        found = None
        for entry in self._values.get(f"--{name}", ()):
            if self._position.get(entry["from_version"], len(self.versions)) <= position:
                found = entry
        return found

    def value_positions(self, name: str, value: str) -> list[int]:
        """The sampled releases whose value list for ``--name`` holds ``value``."""
        spans = self._parsers.get(name)
        if spans is not None:
            return list(spans.get(value, ()))
        return [
            position
            for position in range(len(self.versions))
            if _holds(self._entry(name, position), value)
        ]


def _holds(entry: Mapping[str, Any] | None, value: str) -> bool:
    """Whether a value-history entry takes ``value``: it lists it, or it lists none (from
    that release on, the option takes any value)."""
    if entry is None:
        return False
    values = entry.get("values")
    return values is None or value in [str(v) for v in values]


def _removed_kept(record: Mapping[str, Any]) -> bool:
    """Removed option strings that were flags (``--no-x`` forms are negations, ``-O`` a
    shorthand the argv scan knows)."""
    flag = str(record["flag"])
    return flag.startswith("--") and not flag.startswith("--no-")


@functools.cache
def _version_index() -> VersionIndex:
    from importlib import resources  # it imports tempfile: only a run that reads the data

    text = (resources.files("docgen") / "data" / VERSIONS_FILE).read_text(encoding="utf-8")
    return VersionIndex(json.loads(text))


@dataclass(frozen=True)
class History:
    """What a catalog of one declared release says about options and values it lacks."""

    index: VersionIndex
    release: Release

    def option_note(self, option: str) -> str | None:
        positions = self.index.positions(option)
        if not positions:
            return None
        return self._note(f"'{option}'", positions)

    def value_note(self, flag: Flag, value: object) -> str | None:
        """A message for ``false`` without a ``--no-`` form or a value of another release."""
        if value is False and flag.type == "bool" and not flag.negations:
            return self.option_note(f"--no-{flag.name}")
        if isinstance(value, (bool, dict, list)) or value is None:
            return None
        text = scalar_text(value)
        positions = self.index.value_positions(flag.name, text)
        if not positions:
            return None
        word = _PARSER_WORDS.get(flag.name)
        subject = f"{word} '{text}'" if word else f"value '{text}' of {flag.quoted}"
        return self._note(subject, positions)

    def _note(self, subject: str, positions: Iterable[int]) -> str:
        return (
            f"{subject} is not in {self.release.label}; among the sampled releases "
            f"it exists in {self.index.describe(positions)}"
        )
