"""The registry cut into the parts a render can read, each with a digest of what it holds.

A part is a key path: a section read whole (``("profiles",)``, ``("launcher",)``) or one
entry of it (``("profiles", id)``). An entry's digest covers everything its object in
the typed model carries: a profile embeds its model, host, image (its own or the host's
default), the launcher's shared args and steps and the vLLM settings, so its digest
covers those sections' text too. A section's digest covers its entries in order, and
every digest the order of keys (a page may show it). When an edit leaves a part's digest
unchanged, nothing read through that part changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

Part = tuple[str, ...]
#: Sections of the registry whose entries are read one by one, by id.
KEYED = ("hosts", "images", "models", "profiles")
#: Sections read as a whole only.
WHOLE = ("schema", "product", "agents", "launcher", "vllm")
#: The part that stands for the whole registry.
EVERYTHING: Part = ("*",)
#: Marks a derived part: its value is the digest of a helper's result, not of registry text.
DERIVED = "()"


def _digest(*values: Any) -> str:
    # Keys in their registry order: a page shows some mappings in it (a command's args).
    # Python's repr tells every type apart, mapping keys too (JSON would write the keys
    # true and "true" alike, which a page shows as True and true).
    text = repr(values)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def part_digests(data: Mapping[str, Any]) -> dict[Part, str]:
    """The digest of every part of a validated registry document's ``data``."""
    sections = {name: data.get(name) or {} for name in KEYED}
    out: dict[Part, str] = {(name,): _digest(data.get(name)) for name in WHOLE}
    # The launcher's args have the argv words the vLLM settings' extra flags give them.
    out[("launcher",)] = _digest(data.get("launcher"), out[("vllm",)])
    for name in ("hosts", "images", "models"):
        for key, value in sections[name].items():
            out[(name, key)] = _digest(value)
    # What a profile embeds from elsewhere enters its digest as that entry's digest (each
    # section is dumped once, not once per profile); a missing entry as None.
    shared = (out[("launcher",)], out[("vllm",)])
    for pid, profile in sections["profiles"].items():
        host = sections["hosts"].get(profile.get("host")) or {}
        image: Any = profile.get("image") or host.get("image")
        embeds = (
            ("models", profile.get("model")),
            ("hosts", profile.get("host")),
            ("images", image),
        )
        out[("profiles", pid)] = _digest(profile, [out.get(part) for part in embeds], shared)
    for name in KEYED:
        out[(name,)] = _digest(list(sections[name]), [out[(name, k)] for k in sections[name]])
    # Made of the sections' digests, which cover all they hold: the text is not dumped again.
    others = {key: value for key, value in data.items() if key not in KEYED + WHOLE}
    present = [(name, name in data, data.get(name) is None) for name in KEYED]
    out[EVERYTHING] = _digest([out[(name,)] for name in WHOLE + KEYED], present, others)
    return out
