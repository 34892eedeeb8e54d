"""Plain-English phrases for a profile's key serve settings, as a release writer words them.

Used by templates (``describe(profile)``) and changelog bullets, so the setup page
and the release notes name a setting the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from docgen.registry.model import Product, Profile
from docgen.render import mdx
from docgen.render.tables import sentence_list

NUMBER_WORDS = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
}


def code(text: Any) -> str:
    return mdx.inline_code(str(text))


def article(word: Any) -> str:
    """``a`` or ``an`` as the word is read aloud: an 8192, an 11000, a 4096, an fp8, a bfloat16."""
    text = str(word).lower()
    if not text:
        return "a"
    if text.startswith("8") or (text[:2] in ("11", "18") and len(text) % 3 == 2):
        return "an"
    if text[0] in "aeio":
        return "an"
    spelled = text[0] in "fhlmnrsx" and (len(text) == 1 or text[1] not in "aeiouy")
    return "an" if spelled else "a"


def count(number: Any, noun: str) -> str:
    """``four concurrent sequences``; ``one concurrent sequence``; other values escaped."""
    n = int(number) if isinstance(number, int) or str(number).isdigit() else None
    word = NUMBER_WORDS.get(n) if n is not None else None
    if word is None:
        word = mdx.escape_prose(str(number))
    return f"{word} {noun}" if n == 1 else f"{word} {noun}s"


def _tokens_limit(value: Any, what: str) -> str:
    return f"{article(value)} {code(value)}-token {what}"


#: Settings a profile uses, as a reader names them (``The profile uses ...``).
PHRASES: dict[str, Callable[[Any], str]] = {
    "gpu-memory-utilization": lambda v: code(f"--gpu-memory-utilization {v}"),
    "max-model-len": lambda v: _tokens_limit(v, "context window"),
    "max-num-seqs": lambda v: count(v, "concurrent sequence"),
    "max-num-batched-tokens": lambda v: _tokens_limit(v, "batch limit"),
    "kv-cache-dtype": lambda v: f"{article(v)} {code(v)} KV cache",
    "enable-chunked-prefill": lambda v: "chunked prefill",
    "enable-prefix-caching": lambda v: "prefix caching",
}


@dataclass(frozen=True)
class Feature:
    """A serving feature a profile enables or not: its name for a given value, and the
    words for it when a profile's ``expect.absent`` keeps the flag out."""

    name: Callable[[Any], str]
    absent: str


def _speculative_phrase(value: Any) -> str:
    method = str(value.get("method", "")).strip() if isinstance(value, dict) else ""
    if "mtp" in method.lower():
        return "multi-token prediction (MTP) speculative decoding"
    return f"{mdx.escape_prose(method)} speculative decoding" if method else "speculative decoding"


#: The one table of flags that are features (``enables``, ``does not enable``); pages
#: and changelog bullets both word them from here.
FEATURES: dict[str, Feature] = {
    "async-scheduling": Feature(lambda v: "async scheduling", "async scheduling"),
    "speculative-config": Feature(
        _speculative_phrase, "speculative decoding, including multi-token prediction (MTP)"
    ),
}

PARSERS = ("tool-call-parser", "reasoning-parser")
BACKENDS = ("attention-backend", "moe-backend")


@dataclass(frozen=True)
class Description:
    """What a profile turns on, and what else it uses, as MDX-safe phrases (Markup: a
    template prints them as they are, and ``join`` keeps them so)."""

    enables: tuple[Markup, ...]
    disables: tuple[Markup, ...]
    uses: tuple[Markup, ...]


def feature(arg: Any) -> Markup | None:
    """The feature an arg turns on (``async scheduling``), or None when it is no feature
    or is turned off (``false``) or absent (MDX-safe)."""
    if arg is None or getattr(arg, "name", None) not in FEATURES or arg.value is False:
        return None
    return Markup(FEATURES[arg.name].name(arg.value))  # noqa: S704 - phrases are escaped


def enabled_features(profile: Profile, but: str = "") -> list[Markup]:
    """The features a profile turns on, in registry order, leaving out flag ``but``."""
    found = (feature(arg) for arg in profile.effective_args if arg.name != but)
    return [f for f in found if f is not None]


def _registered(profile: Profile) -> str | None:
    """``its registered parsers and acceleration backends``, naming only what it sets."""
    kinds = [
        kind
        for kind, flags in (("parsers", PARSERS), ("acceleration backends", BACKENDS))
        if any(arg.name in flags for arg in profile.effective_args)
    ]
    return f"its registered {' and '.join(kinds)}" if kinds else None


def describe(profile: Profile) -> Description:
    enables: list[str] = []
    disables: list[str] = []
    uses: list[str] = []
    for arg in profile.effective_args:  # the launcher's shared args are in its command too
        on = feature(arg)
        if on is not None:
            enables.append(on)
        elif arg.name in FEATURES:  # turned off
            disables.append(FEATURES[arg.name].absent)
        elif arg.name in PHRASES and arg.value is not False:
            uses.append(PHRASES[arg.name](arg.value))
    disables += [FEATURES[f].absent for f in profile.expect_absent if f in FEATURES]
    registered = _registered(profile)
    if registered:
        uses.append(registered)
    # Each phrase is built from escaped parts (``code``, ``count``, ``escape_prose``).
    return Description(*(tuple(map(Markup, p)) for p in (enables, disables, uses)))


def settings_sentences(
    profile: Profile, product: str | Product, lead: bool = False
) -> list[Markup]:
    """What the profile enables or not, then what else it uses; ``product`` is the
    product or its name, the subject of the sentences.

    With ``lead``, the first sentence names the profile: "For the managed single-node DGX
    Spark `org/model` profile, NemoClaw enables ...".
    """
    subject = mdx.escape_prose(product.name if isinstance(product, Product) else product)
    if lead:
        host, model = mdx.escape_prose(profile.host.name), code(profile.model.hf)
        subject = f"For the managed {profile.topology} {host} {model} profile, {subject}"
    d = describe(profile)
    parts = []
    if d.enables:
        parts.append(f"enables {sentence_list(d.enables)}")
    if d.disables:
        parts.append(f"does not enable {sentence_list(d.disables)}")
    out = []
    if parts:
        out.append(f"{subject} {' and '.join(parts)}.")
    if d.uses:
        out.append(f"The profile uses {sentence_list(d.uses)}.")
    return [Markup(s) for s in out]  # noqa: S704 - phrases are built from escaped parts
