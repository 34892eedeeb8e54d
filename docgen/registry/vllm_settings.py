"""The registry's ``vllm`` section: the flags and values its images accept beyond docgen's
catalog of vLLM, and the catalog a profile's args are checked against."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from docgen.vllm.catalog import Catalog

EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class VllmSettings:
    """The registry's ``vllm`` section: flags it declares and values it adds to known flags."""

    extra_flags: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    extra_values: Mapping[str, Sequence[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, section: Any) -> VllmSettings:
        """The settings a parsed ``vllm`` section declares; a part of the wrong shape
        counts as absent (the schema reports it)."""
        section = section if isinstance(section, dict) else {}
        flags, values = section.get("extra_flags"), section.get("extra_values")
        return cls(
            MappingProxyType(dict(flags)) if isinstance(flags, dict) else EMPTY,
            MappingProxyType(dict(values)) if isinstance(values, dict) else EMPTY,
        )

    def catalog(self, release: str = "", image: str = "") -> Catalog:
        """The catalog that checks args: vLLM 0.34.0, or ``release`` (the version image
        ``image`` declares; raises UnknownRelease), plus the declared flags and values."""
        base = Catalog.load()
        if release:
            base = base.for_version(release, image)
        if not self.extra_flags and not self.extra_values:
            return base
        return base.extend(self.extra_flags, self.extra_values)
