"""The semantic registry diff: the exact change list of each kind of edit, and the
changelog gate (`check --changelog-since`) that every such edit trips."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from conftest import MINIMAL_REGISTRY, Outcome, Project

from docgen.changelog.changes import LEFT_OUT

BASE = MINIMAL_REGISTRY
#: The profile as no host's default (a default cannot be explicit-only).
NOT_DEFAULT = BASE.replace("    host: box\n    default: true\n", "    host: box\n", 1)
#: ...and without its override (an explicit-only profile, chosen by its id, takes none).
NO_OVERRIDE = NOT_DEFAULT[: NOT_DEFAULT.index("    overrides:\n")]
DIGEST_A = "sha256:" + "a" * 64
DIGEST_B = "sha256:" + "b" * 64
IMAGE_A = f"example.org/vllm:1.0@{DIGEST_A}"

# A second profile of the same model and host, appended after line 49 (the last line).
EXTRA = "  vllm.box.extra:\n    model: tiny\n    host: box\n    args: {max-model-len: 1024}\n"
# A second model (line 32) and a profile of it on the same host (line 51).
BIG_MODEL = "  big: {hf: acme/Big-7B, label: Big 7B}\n"
BIG = "  vllm.box.big:\n    model: big\n    host: box\n    args: {max-model-len: 1024}\n"
# A second host (line 21) and its default profile (line 51).
OTHER_HOST = "  other: {name: Other Box, arch: arm64}\n"
OTHER = (
    "  vllm.other.tiny:\n    model: tiny\n    host: other\n    default: true\n"
    "    args: {max-model-len: 1024}\n"
)
# A second override of vllm.box.tiny, after line 49 (line 50).
TIGHT = (
    "      tight:\n        summary: Use the least memory.\n"
    "        args: {gpu-memory-utilization: 0.2}\n"
)


def edit(text: str, *pairs: tuple[str, str]) -> str:
    """``text`` with each ``(old, new)`` replaced; each ``old`` must occur exactly once."""
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def source(key: str, line: int, column: int, file: str = "profiles.yaml") -> dict[str, Any]:
    return {"key": key, "file": file, "line": line, "column": column}


def change(kind: str, subject: str, where: dict[str, Any] | None, **fields: Any) -> dict[str, Any]:
    """One change as ``diff --format json`` prints it (``name``, ``old``, ``new`` and
    ``source`` only when set)."""
    return {
        "kind": kind,
        "subject": subject,
        **fields,
        **({} if where is None else {"source": where}),
    }


TINY = "profiles.vllm.box.tiny"
TINY_AT = source(TINY, 33, 3)
# The profile one line lower, below one more line of models.
TINY_BELOW = source(TINY, 34, 3)

# The two agents, and the same in the other order.
BOTH_AGENTS = (
    "  - id: alpha\n    title: Acme for Alpha\n    cli: acme\n    default: true\n"
    "  - id: beta\n    title: Acme for Beta\n    cli: acme-beta\n"
)
BOTH_AGENTS_SWAPPED = (
    "  - id: beta\n    title: Acme for Beta\n    cli: acme-beta\n"
    "  - id: alpha\n    title: Acme for Alpha\n    cli: acme\n    default: true\n"
)
# A third agent, after line 18 (line 19).
GAMMA = "  - id: gamma\n    title: Acme for Gamma\n    cli: acme-gamma\n"


@dataclass(frozen=True)
class Edit:
    id: str
    old: str  # the registry before (old.yaml, or the committed one)
    new: str  # the registry after (profiles.yaml)
    changes: list[dict[str, Any]]  # exactly what `diff` reports, in order


EDITS = [
    Edit(
        "profile-added",
        BASE,
        BASE + EXTRA,
        [change("profile-added", "vllm.box.extra", source("profiles.vllm.box.extra", 50, 3))],
    ),
    Edit(
        "profile-removed",
        BASE + EXTRA,
        BASE,
        [
            change(
                "profile-removed",
                "vllm.box.extra",
                source("profiles.vllm.box.extra", 50, 3, file="old.yaml"),
            )
        ],
    ),
    Edit(
        "profile-renamed",
        BASE + EXTRA,
        BASE + EXTRA.replace("vllm.box.extra", "vllm.box.renamed"),
        [
            change(
                "profile-renamed",
                "vllm.box.renamed",
                source("profiles.vllm.box.renamed", 50, 3),
                old="vllm.box.extra",
                new="vllm.box.renamed",
            )
        ],
    ),
    Edit(
        "profile-renamed-and-changed",
        BASE + EXTRA,
        BASE + EXTRA.replace("vllm.box.extra", "vllm.box.renamed").replace("1024", "2048"),
        [
            change(
                "profile-renamed",
                "vllm.box.renamed",
                source("profiles.vllm.box.renamed", 50, 3),
                old="vllm.box.extra",
                new="vllm.box.renamed",
            ),
            change(
                "arg-changed",
                "vllm.box.renamed",
                source("profiles.vllm.box.renamed.args.max-model-len", 53, 12),
                name="max-model-len",
                old="1024",
                new="2048",
            ),
        ],
    ),
    Edit(
        "two-removed-one-added-is-no-rename",
        BASE + EXTRA + EXTRA.replace("extra", "extra2"),
        BASE + EXTRA.replace("extra", "new"),
        [
            change("profile-added", "vllm.box.new", source("profiles.vllm.box.new", 50, 3)),
            change(
                "profile-removed",
                "vllm.box.extra",
                source("profiles.vllm.box.extra", 50, 3, file="old.yaml"),
            ),
            change(
                "profile-removed",
                "vllm.box.extra2",
                source("profiles.vllm.box.extra2", 54, 3, file="old.yaml"),
            ),
        ],
    ),
    Edit(
        "one-removed-two-added-is-no-rename",
        BASE + EXTRA,
        BASE + EXTRA.replace("extra", "new") + EXTRA.replace("extra", "new2"),
        [
            change("profile-added", "vllm.box.new", source("profiles.vllm.box.new", 50, 3)),
            change("profile-added", "vllm.box.new2", source("profiles.vllm.box.new2", 54, 3)),
            change(
                "profile-removed",
                "vllm.box.extra",
                source("profiles.vllm.box.extra", 50, 3, file="old.yaml"),
            ),
        ],
    ),
    Edit(
        "another-model-is-no-rename",
        edit(BASE, ("models:\n", "models:\n" + BIG_MODEL)) + EXTRA,
        edit(BASE, ("models:\n", "models:\n" + BIG_MODEL)) + BIG,
        [
            change("profile-added", "vllm.box.big", source("profiles.vllm.box.big", 51, 3)),
            change(
                "profile-removed",
                "vllm.box.extra",
                source("profiles.vllm.box.extra", 51, 3, file="old.yaml"),
            ),
        ],
    ),
    Edit(
        "arg-added",
        BASE,
        edit(
            BASE,
            (
                "enable-prefix-caching: true\n",
                "enable-prefix-caching: true\n      enable-chunked-prefill: true\n",
            ),
        ),
        [
            change(
                "arg-added",
                "vllm.box.tiny",
                source(f"{TINY}.args.enable-chunked-prefill", 43, 7),
                name="enable-chunked-prefill",
                new="--enable-chunked-prefill",
            )
        ],
    ),
    Edit(
        "arg-removed",
        BASE,
        edit(BASE, ("      max-num-seqs: 2\n", "")),
        # a removed value is located where it stood, in the older state
        [
            change(
                "arg-removed",
                "vllm.box.tiny",
                source(f"{TINY}.args.max-num-seqs", 41, 7, file="old.yaml"),
                name="max-num-seqs",
                old="2",
            )
        ],
    ),
    Edit(
        "arg-changed",
        BASE,
        edit(BASE, ("max-num-seqs: 2", "max-num-seqs: 4")),
        [
            change(
                "arg-changed",
                "vllm.box.tiny",
                source(f"{TINY}.args.max-num-seqs", 41, 7),
                name="max-num-seqs",
                old="2",
                new="4",
            )
        ],
    ),
    Edit(
        "arg-negated",
        BASE,
        edit(BASE, ("enable-prefix-caching: true", "enable-prefix-caching: false")),
        [
            change(
                "arg-changed",
                "vllm.box.tiny",
                source(f"{TINY}.args.enable-prefix-caching", 42, 7),
                name="enable-prefix-caching",
                old="--enable-prefix-caching",
                new="--no-enable-prefix-caching",
            )
        ],
    ),
    Edit(
        "host-default-moved",
        edit(BASE, ("models:\n", "models:\n" + BIG_MODEL)) + BIG,
        edit(
            BASE,
            ("models:\n", "models:\n" + BIG_MODEL),
            ("    host: box\n    default: true\n", "    host: box\n"),
        )
        + BIG.replace("    args:", "    default: true\n    args:"),
        [
            change(
                "host-default-changed",
                "box",
                source("profiles.vllm.box.big", 50, 3),
                name="default model",
                old="tiny",
                new="big",
            )
        ],
    ),
    Edit(
        "host-default-dropped",
        BASE,
        edit(BASE, ("    host: box\n    default: true\n", "    host: box\n")),
        [
            change(
                "host-default-changed",
                "box",
                source("hosts.box", 20, 3),
                name="default model",
                old="tiny",
            )
        ],
    ),
    Edit(
        "host-default-set",
        edit(BASE, ("    host: box\n    default: true\n", "    host: box\n")),
        BASE,
        [change("host-default-changed", "box", TINY_AT, name="default model", new="tiny")],
    ),
    Edit(
        "new-host-has-no-default-change",
        BASE,
        edit(BASE, ("hosts:\n" + "  box", "hosts:\n" + OTHER_HOST + "  box")) + OTHER,
        [
            change("profile-added", "vllm.other.tiny", source("profiles.vllm.other.tiny", 51, 3)),
            change("host-changed", "other", source("hosts.other", 20, 3), name="added"),
        ],
    ),
    Edit(
        "removed-host-has-no-default-change",
        edit(BASE, ("hosts:\n" + "  box", "hosts:\n" + OTHER_HOST + "  box")) + OTHER,
        BASE,
        [
            change(
                "profile-removed",
                "vllm.other.tiny",
                source("profiles.vllm.other.tiny", 51, 3, file="old.yaml"),
            ),
            change(
                "host-changed",
                "other",
                source("hosts.other", 20, 3, file="old.yaml"),
                name="removed",
            ),
        ],
    ),
    Edit(
        "support-changed",
        BASE,
        edit(BASE, ("    image: img\n", "    image: img\n    support: experimental\n")),
        [
            change(
                "support-changed",
                "vllm.box.tiny",
                TINY_AT,
                name="support",
                old="supported",
                new="experimental",
            )
        ],
    ),
    Edit(
        "selection-changed",
        NO_OVERRIDE,
        edit(NO_OVERRIDE, ("    image: img\n", "    image: img\n    selection: explicit-only\n")),
        [
            change(
                "selection-changed",
                "vllm.box.tiny",
                TINY_AT,
                name="selection",
                old="automatic",
                new="explicit-only",
            )
        ],
    ),
    Edit(
        "override-added",
        BASE,
        BASE + TIGHT,
        [
            change(
                "override-added",
                "vllm.box.tiny",
                source(f"{TINY}.overrides.tight", 50, 7),
                name="tight",
                new="--gpu-memory-utilization 0.2",
            )
        ],
    ),
    Edit(
        "override-removed",
        BASE + TIGHT,
        BASE,
        [
            change(
                "override-removed",
                "vllm.box.tiny",
                TINY_AT,
                name="tight",
                old="--gpu-memory-utilization 0.2",
            )
        ],
    ),
    Edit(  # it was announced as added and as removed, the same setting both ways
        "override-renamed",
        BASE + TIGHT,
        BASE + TIGHT.replace("tight:", "snug:"),
        [
            change(
                "override-renamed",
                "vllm.box.tiny",
                source(f"{TINY}.overrides.snug", 50, 7),
                name="snug",
                old="tight",
                new="snug",
            )
        ],
    ),
    Edit(  # renamed, and its summary changed too
        "override-renamed-and-described-anew",
        BASE + TIGHT,
        BASE + TIGHT.replace("tight:", "snug:").replace("least memory", "less memory"),
        [
            change(
                "override-renamed",
                "vllm.box.tiny",
                source(f"{TINY}.overrides.snug", 50, 7),
                name="snug",
                old="tight",
                new="snug",
            ),
            change(
                "override-changed",
                "vllm.box.tiny",
                source(f"{TINY}.overrides.snug.summary", 51, 9),
                name="snug",
                old="Use the least memory.",
                new="Use the less memory.",
            ),
        ],
    ),
    Edit(  # two overrides gone and one new: no telling which was renamed
        "override-renamed-ambiguously",
        BASE + TIGHT + TIGHT.replace("tight:", "also:"),
        BASE + TIGHT.replace("tight:", "snug:"),
        [
            change(
                "override-added",
                "vllm.box.tiny",
                source(f"{TINY}.overrides.snug", 50, 7),
                name="snug",
                new="--gpu-memory-utilization 0.2",
            ),
            change(
                "override-removed",
                "vllm.box.tiny",
                TINY_AT,
                name="tight",
                old="--gpu-memory-utilization 0.2",
            ),
            change(
                "override-removed",
                "vllm.box.tiny",
                TINY_AT,
                name="also",
                old="--gpu-memory-utilization 0.2",
            ),
        ],
    ),
    Edit(
        "override-args-changed",
        BASE,
        edit(BASE, ("gpu-memory-utilization: 0.3", "gpu-memory-utilization: 0.25")),
        [
            change(
                "override-changed",
                "vllm.box.tiny",
                source(f"{TINY}.overrides.small", 44, 7),
                name="small",
                old="--gpu-memory-utilization 0.3",
                new="--gpu-memory-utilization 0.25",
            )
        ],
    ),
    Edit(
        "override-arg-added",
        BASE,
        edit(
            BASE,
            (
                "          gpu-memory-utilization: 0.3\n",
                "          gpu-memory-utilization: 0.3\n          max-num-seqs: 1\n",
            ),
        ),
        [
            change(
                "override-changed",
                "vllm.box.tiny",
                source(f"{TINY}.overrides.small", 44, 7),
                name="small",
                old="--gpu-memory-utilization 0.3",
                new="--gpu-memory-utilization 0.3 --max-num-seqs 1",
            )
        ],
    ),
    # An override whose command stays as it was shows what did change: its summary (at
    # the summary's line), else its tradeoffs.
    Edit(
        "override-summary-changed",
        BASE,
        edit(BASE, ("Use less memory.", "Use much less memory.")),
        [
            change(
                "override-changed",
                "vllm.box.tiny",
                source(f"{TINY}.overrides.small.summary", 45, 9),
                name="small",
                old="Use less memory.",
                new="Use much less memory.",
            )
        ],
    ),
    Edit(
        "override-tradeoff-changed",
        BASE,
        edit(BASE, ("It lowers throughput.", "It halves throughput.")),
        [
            change(
                "override-changed",
                "vllm.box.tiny",
                source(f"{TINY}.overrides.small", 44, 7),
                name="small",
                old="It lowers throughput.",
                new="It halves throughput.",
            )
        ],
    ),
    Edit(
        "override-tradeoff-added",
        BASE,
        BASE + "          - It needs a restart.\n",
        [
            change(
                "override-changed",
                "vllm.box.tiny",
                source(f"{TINY}.overrides.small", 44, 7),
                name="small",
                old="It lowers throughput.",
                new="It lowers throughput. / It needs a restart.",
            )
        ],
    ),
    Edit(
        "image-ref-changed",
        BASE,
        edit(BASE, ("vllm:1.0", "vllm:1.1")),
        [
            change(
                "image-changed",
                "vllm.box.tiny",
                source("images.img", 22, 3),
                name="image",
                old=IMAGE_A,
                new=f"example.org/vllm:1.1@{DIGEST_A}",
            ),
            change(
                "image-updated",
                "img",
                source("images.img", 22, 3),
                name="ref",
                old="example.org/vllm:1.0",
                new="example.org/vllm:1.1",
            ),
        ],
    ),
    Edit(
        "image-digest-changed",
        BASE,
        edit(BASE, (DIGEST_A, DIGEST_B)),
        [
            change(
                "image-changed",
                "vllm.box.tiny",
                source("images.img", 22, 3),
                name="image",
                old=IMAGE_A,
                new=f"example.org/vllm:1.0@{DIGEST_B}",
            ),
            change(
                "image-updated",
                "img",
                source("images.img", 22, 3),
                name="digest",
                old=DIGEST_A,
                new=DIGEST_B,
            ),
        ],
    ),
    Edit(
        "image-switched",
        BASE,
        edit(
            BASE,
            (
                "platform: linux/amd64\n",
                "platform: linux/amd64\n  img2: {ref: example.org/vllm:2.0}\n",
            ),
            ("    image: img\n", "    image: img2\n"),
        ),
        [
            change(
                "image-changed",
                "vllm.box.tiny",
                source("images.img2", 27, 3),
                name="image",
                old=IMAGE_A,
                new="example.org/vllm:2.0",
            ),
            change("image-updated", "img2", source("images.img2", 27, 3), name="added"),
        ],
    ),
    Edit(
        "image-dropped",
        BASE,
        edit(BASE, ("    image: img\n", "")),
        [change("image-changed", "vllm.box.tiny", TINY_AT, name="image", old=IMAGE_A)],
    ),
    Edit(
        "expect-changed",
        BASE,
        edit(
            BASE,
            ("    image: img\n", "    image: img\n    expect: {absent: [speculative-config]}\n"),
        ),
        [
            change(
                "expect-changed",
                "vllm.box.tiny",
                TINY_AT,
                name="expect",
                old="(none)",
                new="absent speculative-config",
            )
        ],
    ),
    Edit(
        "expect-present-changed",
        edit(
            BASE, ("    image: img\n", "    image: img\n    expect: {present: {max-num-seqs: 2}}\n")
        ),
        edit(
            BASE,
            (
                "    image: img\n",
                "    image: img\n    expect: {absent: [speculative-config], "
                "present: {max-num-seqs: 2}}\n",
            ),
        ),
        [
            change(
                "expect-changed",
                "vllm.box.tiny",
                TINY_AT,
                name="expect",
                old="max-num-seqs=2",
                new="absent speculative-config; max-num-seqs=2",
            )
        ],
    ),
]

# One edit per model field: (field, the edit, old, new); an unset text field is "",
# an unset number None (left out of the JSON).
MODEL_EDITS: list[tuple[str, tuple[str, str], Any, Any]] = [
    ("hf", ("hf: acme/Tiny-1B", "hf: acme/Tiny-1.1B"), "acme/Tiny-1B", "acme/Tiny-1.1B"),
    ("label", ("label: Tiny 1B", "label: Tiny One B"), "Tiny 1B", "Tiny One B"),
    ("served_name", ("label: Tiny 1B\n", "label: Tiny 1B\n    served_name: tiny\n"), "", "tiny"),
    (
        "revision",
        ("label: Tiny 1B\n", "label: Tiny 1B\n    revision: 0123abc\n"),
        "",
        "0123abc",
    ),
    (
        "min_compute_capability",
        ("label: Tiny 1B\n", "label: Tiny 1B\n    min_compute_capability: '8.0'\n"),
        "",
        "8.0",
    ),
    (
        "download_bytes",
        ("label: Tiny 1B\n", "label: Tiny 1B\n    download_bytes: 2000000000\n"),
        None,
        2000000000,
    ),
    ("gated", ("label: Tiny 1B\n", "label: Tiny 1B\n    gated: true\n"), False, True),
    (
        "notes",
        ("notes: Box default.", "notes: The Box default."),
        "Box default.",
        "The Box default.",
    ),
]
EDITS += [
    Edit(
        f"model-{name}-changed",
        BASE,
        edit(BASE, pair),
        [
            change(
                "model-changed",
                "tiny",
                source("models.tiny", 28, 3),
                name=name,
                **({} if old is None else {"old": old}),
                new=new,
            )
        ],
    )
    for name, pair, old, new in MODEL_EDITS
]


# Kinds added so that every field a page shows is a change `diff` reports.
EDITS += [
    Edit(
        "profile-changed",
        BASE,
        edit(
            BASE,
            ("    notes: Box default.\n", "    notes: Box default.\n" + BIG_MODEL),
            ("    model: tiny\n", "    model: big\n"),
        ),
        [
            change(
                "profile-changed", "vllm.box.tiny", TINY_BELOW, name="model", old="tiny", new="big"
            ),
            change(
                "host-default-changed",
                "box",
                TINY_BELOW,
                name="default model",
                old="tiny",
                new="big",
            ),
            change("model-added", "big", source("models.big", 32, 3)),
        ],
    ),
    Edit(
        "env-changed",
        BASE,
        edit(BASE, ("    image: img\n", "    image: img\n    env: {ACME_X: '1'}\n")),
        [change("env-changed", "vllm.box.tiny", TINY_AT, name="ACME_X", new="1")],
    ),
    Edit(
        "launcher-changed",
        BASE,
        BASE + "launcher:\n  shared_args: {port: 8000}\n",
        [
            change(
                "launcher-changed",
                "launcher",
                source("launcher.shared_args.port", 51, 17),
                name="--port",
                new="--port 8000",
            )
        ],
    ),
    Edit(
        "evidence-changed",
        BASE,
        BASE + "    evidence:\n      - {date: 2026-01-01, host: Big Box}\n",
        [change("evidence-changed", "vllm.box.tiny", TINY_AT, name="evidence")],
    ),
    Edit(
        "host-changed",
        BASE,
        edit(BASE, ("box: {name: Big Box", "box: {name: Huge Box")),
        [
            change(
                "host-changed",
                "box",
                source("hosts.box", 20, 3),
                name="name",
                old="Big Box",
                new="Huge Box",
            )
        ],
    ),
    Edit(
        "image-updated",
        BASE,
        edit(BASE, ("1234567890", "1234567891")),
        [
            change(
                "image-updated",
                "img",
                source("images.img", 22, 3),
                name="compressed_bytes",
                old=1234567890,
                new=1234567891,
            )
        ],
    ),
    Edit(
        "model-added",
        BASE,
        edit(BASE, ("    notes: Box default.\n", "    notes: Box default.\n" + BIG_MODEL)),
        [change("model-added", "big", source("models.big", 32, 3))],
    ),
    Edit(
        "model-removed",
        edit(BASE, ("    notes: Box default.\n", "    notes: Box default.\n" + BIG_MODEL)),
        BASE,
        [change("model-removed", "big", source("models.big", 32, 3, file="old.yaml"))],
    ),
    Edit(
        "agent-changed",
        BASE,
        edit(BASE, ("cli: acme-beta", "cli: acme-b")),
        [
            change(
                "agent-changed",
                "beta",
                source("agents.[1]", 16, 5),
                name="cli",
                old="acme-beta",
                new="acme-b",
            )
        ],
    ),
    Edit(
        "agent-added",
        BASE,
        edit(BASE, ("    cli: acme-beta\n", "    cli: acme-beta\n" + GAMMA)),
        [change("agent-changed", "gamma", source("agents.[2]", 19, 5), name="added")],
    ),
    Edit(
        "agent-removed",
        edit(BASE, ("    cli: acme-beta\n", "    cli: acme-beta\n" + GAMMA)),
        BASE,
        [change("agent-changed", "gamma", source("agents.[2]", 19, 5, "old.yaml"), name="removed")],
    ),
    Edit(
        "product-changed",
        BASE,
        edit(BASE, ("  name: Acme\n", "  name: Acme Corp\n")),
        [
            {
                "kind": "product-changed",
                "subject": "product",
                "name": "name",
                "old": "Acme",
                "new": "Acme Corp",
                "source": source("product.name", 3, 3),
            }
        ],
    ),
    Edit(
        "vllm-changed",
        BASE,
        BASE.replace("profiles:\n", "vllm:\n  extra_flags: {acme-flag: {type: bool}}\nprofiles:\n"),
        [{"kind": "vllm-changed", "subject": "vllm", "name": "extra_flags/extra_values"}],
    ),
]

# The launcher's storage reserves and a step, added and removed; an agent's env and the
# product's SPDX fields, printed as ``key=value`` text.
LAUNCHER = (
    "launcher:\n  before_serve:\n    pip: {run: [pip, install, 'vllm[x]']}\n"
    "  storage: {staging_reserve_bytes: 3221225472, writable_allowance_bytes: 816000000}\n"
)
RESERVES = "a 3.221 GB model-download staging reserve and a 0.816 GB writable allowance"
STEP_AT = source("launcher.before_serve.pip", 52, 5)
STORAGE_AT = source("launcher.storage", 53, 3)
EDITS += [
    Edit(
        "launcher-storage-and-step-added",
        BASE,
        BASE + LAUNCHER,
        [
            change("launcher-changed", "launcher", STORAGE_AT, name="storage", new=RESERVES),
            change("launcher-changed", "launcher", STEP_AT, name="pip",
                   new="pip install 'vllm[x]'"),
        ],
    ),
    Edit(
        "launcher-storage-and-step-removed",
        BASE + LAUNCHER,
        BASE,
        [
            change("launcher-changed", "launcher", source("launcher.storage", 53, 3, "old.yaml"),
                   name="storage", old=RESERVES),
            change("launcher-changed", "launcher", source("launcher.before_serve.pip", 52, 5,
                   "old.yaml"), name="pip", old="pip install 'vllm[x]'"),
        ],
    ),
    Edit(  # a page may show a step's summary; what it runs is the same (LEFT_OUT)
        "launcher-step-summary-changed",
        BASE + LAUNCHER.replace("'vllm[x]']}", "'vllm[x]'], summary: Installs it.}"),
        BASE + LAUNCHER.replace("'vllm[x]']}", "'vllm[x]'], summary: Installs vLLM.}"),
        [
            change("step-summary-changed", "launcher", STEP_AT, name="pip", old="Installs it.",
                   new="Installs vLLM."),
        ],
    ),
    Edit(  # every command gives it the same words: no release needs it (LEFT_OUT)
        "arg-moved-into-the-launcher",
        BASE,
        edit(BASE, ("      max-num-seqs: 2\n", ""))
        + "launcher:\n  shared_args: {max-num-seqs: 2}\n",
        [
            change("arg-moved", "launcher", source("launcher.shared_args.max-num-seqs", 50, 17),
                   name="--max-num-seqs", new="--max-num-seqs 2"),
        ],
    ),
    Edit(  # moved, and given another value: the commands change
        "arg-moved-into-the-launcher-and-changed",
        BASE,
        edit(BASE, ("      max-num-seqs: 2\n", ""))
        + "launcher:\n  shared_args: {max-num-seqs: 3}\n",
        [
            change("arg-removed", "vllm.box.tiny",
                   source(f"{TINY}.args.max-num-seqs", 41, 7, file="old.yaml"),
                   name="max-num-seqs", old="2"),
            change("launcher-changed", "launcher",
                   source("launcher.shared_args.max-num-seqs", 50, 17),
                   name="--max-num-seqs", new="--max-num-seqs 3"),
        ],
    ),
    Edit(
        "launcher-shared-arg-changed",
        BASE + "launcher:\n  shared_args: {port: 8000}\n",
        BASE + "launcher:\n  shared_args: {port: 8001}\n",
        [
            change("launcher-changed", "launcher", source("launcher.shared_args.port", 51, 17),
                   name="--port", old="--port 8000", new="--port 8001"),
        ],
    ),
    Edit(
        "agent-default-moved",
        BASE,
        edit(
            BASE,
            ("    cli: acme\n    default: true\n", "    cli: acme\n"),
            ("    cli: acme-beta\n", "    cli: acme-beta\n    default: true\n"),
        ),
        [
            change("agent-changed", "alpha", source("agents.[0]", 12, 5), name="default",
                   old=True, new=False),
            change("agent-changed", "beta", source("agents.[1]", 15, 5), name="default",
                   old=False, new=True),
        ],
    ),
    Edit(
        "agent-env-and-product-spdx",
        BASE,
        edit(
            BASE,
            ("    cli: acme\n", "    cli: acme\n    env: {ACME_AGENT: alpha, ACME_X: 'y'}\n"),
            ("    license: Apache-2.0\n", "    license: MIT\n"),
        ),
        [
            change("agent-changed", "alpha", source("agents.[0]", 12, 5), name="env", old="",
                   new="ACME_AGENT=alpha, ACME_X=y"),
            change("product-changed", "product", source("product.spdx.license", 10, 5), name="spdx",
                   old="copyright=Copyright (c) 2026 Acme Inc., license=Apache-2.0",
                   new="copyright=Copyright (c) 2026 Acme Inc., license=MIT"),
        ],
    ),
]  # fmt: skip


# Kinds added so that an order or a field the pages show, changed alone, is a change too.
EDITS += [
    Edit(  # the host's default keeps its model and is the same profile: one change
        "host-default-renamed",
        BASE,
        edit(BASE, ("  vllm.box.tiny:\n", "  vllm.box.tiny-1b:\n")),
        [change("profile-renamed", "vllm.box.tiny-1b", source("profiles.vllm.box.tiny-1b", 33, 3),
                old="vllm.box.tiny", new="vllm.box.tiny-1b")],
    ),
    Edit(
        "profile-topology",
        BASE,
        edit(BASE, ("    host: box\n", "    host: box\n    topology: multi-node\n")),
        [change("profile-changed", "vllm.box.tiny", TINY_AT, name="topology",
                old="single-node", new="multi-node")],
    ),
    Edit(
        "host-default-moves-to-a-profile-of-the-same-model",
        BASE + EXTRA,
        edit(BASE, ("    host: box\n    default: true\n", "    host: box\n"))
        + EXTRA.replace("    host: box\n", "    host: box\n    default: true\n"),
        [change("host-default-changed", "box", source("profiles.vllm.box.extra", 49, 3),
                name="default profile", old="vllm.box.tiny", new="vllm.box.extra")],
    ),
    Edit(
        "args-reordered",
        BASE,
        edit(BASE, ("      max-model-len: 32768\n      gpu-memory-utilization: 0.5\n",
                    "      gpu-memory-utilization: 0.5\n      max-model-len: 32768\n")),
        [change("args-reordered", "vllm.box.tiny", TINY_AT, name="args",
                old="max-model-len, gpu-memory-utilization, max-num-seqs, enable-prefix-caching",
                new="gpu-memory-utilization, max-model-len, max-num-seqs, enable-prefix-caching")],
    ),
    Edit(
        "arg-restated",
        BASE,
        edit(BASE, ("      max-model-len: 32768\n", "      max-model-len: '32768'\n")),
        [change("arg-restated", "vllm.box.tiny",
                source("profiles.vllm.box.tiny.args.max-model-len", 39, 7),
                name="max-model-len", old="int: 32768", new="str: '32768'")],
    ),
    Edit(
        "agents-reordered",
        BASE,
        edit(BASE, (BOTH_AGENTS, BOTH_AGENTS_SWAPPED)),
        [change("agent-changed", "agents", source("agents.[0]", 12, 5), name="order",
                old="alpha, beta", new="beta, alpha")],
    ),
]  # fmt: skip


def diff_json(
    make_project: Callable[..., Project], run: Callable[..., Outcome], old: str, new: str
) -> list[dict[str, Any]]:
    """The changes `diff --since-file old.yaml --format json` prints from ``old`` to ``new``."""
    return diff_json_of(make_project(registry=new, files={"old.yaml": old}), run)


def diff_json_of(project: Project, run: Callable[..., Outcome]) -> list[dict[str, Any]]:
    result = run(project, "diff", "--since-file", "old.yaml", "--format", "json")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    payload = json.loads(result.stdout)
    assert payload["version"] == 1
    changes: list[dict[str, Any]] = payload["changes"]
    return changes


@pytest.mark.parametrize("case", EDITS, ids=[e.id for e in EDITS])
def test_each_edit_gives_exactly_its_changes(make_project, run, case):
    assert diff_json(make_project, run, case.old, case.new) == case.changes


def test_every_kind_has_an_edit():
    from docgen.changelog.changes import KINDS

    assert {c["kind"] for e in EDITS for c in e.changes} == set(KINDS)


def test_many_edits_at_once_are_listed_profile_by_profile_in_registry_order(make_project, run):
    """Per profile of the newer state: args (changed and added in order, then removed),
    support, selection, image, overrides, expect; then removed profiles, host defaults,
    models."""
    old = (
        BASE
        + """\
  vllm.box.gone:
    model: tiny
    host: box
    args: {max-model-len: 1024}
  vllm.box.old-name:
    model: small
    host: box
    args: {max-model-len: 1024}
"""
    )
    old = old.replace("models:\n", "models:\n  small: {hf: acme/Small-2B, label: Small 2B}\n")
    old = old.replace("hosts:\n", "hosts:\n  other: {name: Other Box}\n")
    new = old.replace(
        "  vllm.box.gone:\n    model: tiny\n    host: box\n    args: {max-model-len: 1024}\n", ""
    )
    new = new.replace("vllm.box.old-name:", "vllm.box.new-name:")
    new = new.replace(
        "      max-num-seqs: 2\n      enable-prefix-caching: true\n",
        "      max-num-seqs: 3\n      enable-chunked-prefill: true\n",
    )
    new = new.replace(
        "    default: true\n    image: img\n",
        "    support: experimental\n    selection: automatic\n    image: img2\n",
    )
    new = new.replace("images:\n", "images:\n  img2: {ref: example.org/vllm:2.0}\n")
    new = new.replace(
        "          gpu-memory-utilization: 0.3", "          gpu-memory-utilization: 0.2"
    )
    new = new.replace(
        "    overrides:\n",
        "    expect: {absent: [speculative-config]}\n"
        "    overrides:\n      extra:\n        summary: More.\n        args: "
        "{max-num-seqs: 8}\n",
    )
    new = new.replace("label: Tiny 1B", "label: Tiny One B")
    new += (
        "  vllm.other.tiny:\n    model: tiny\n    host: other\n    default: true\n"
        "    args: {max-model-len: 2048}\n"
    )
    old += (
        "  vllm.other.small:\n    model: small\n    host: other\n    default: true\n"
        "    args: {max-model-len: 2048}\n"
    )
    old = old.replace(
        "    overrides:\n      small:",
        "    overrides:\n      dropped: {summary: Gone., args: {max-num-seqs: 1}}\n      small:",
    )
    # Explicit-only with overrides: today's rules refuse it, an older state may hold it.
    explicit = "    host: box\n    default: true\n    selection: explicit-only\n"
    old = old.replace("    host: box\n    default: true\n", explicit, 1)
    project = make_project(registry=new, files={"old.yaml": old})
    tiny = source("profiles.vllm.box.tiny", 36, 3)
    assert diff_json_of(project, run) == [
        change(
            "arg-changed",
            "vllm.box.tiny",
            source(f"{TINY}.args.max-num-seqs", 45, 7),
            name="max-num-seqs",
            old="2",
            new="3",
        ),
        change(
            "arg-added",
            "vllm.box.tiny",
            source(f"{TINY}.args.enable-chunked-prefill", 46, 7),
            name="enable-chunked-prefill",
            new="--enable-chunked-prefill",
        ),
        change(
            "arg-removed",
            "vllm.box.tiny",
            source(f"{TINY}.args.enable-prefix-caching", 45, 7, file="old.yaml"),
            name="enable-prefix-caching",
            old="--enable-prefix-caching",
        ),
        change(
            "support-changed",
            "vllm.box.tiny",
            tiny,
            name="support",
            old="supported",
            new="experimental",
        ),
        change(
            "selection-changed",
            "vllm.box.tiny",
            tiny,
            name="selection",
            old="explicit-only",
            new="automatic",
        ),
        change(
            "image-changed",
            "vllm.box.tiny",
            source("images.img2", 23, 3),
            name="image",
            old=IMAGE_A,
            new="example.org/vllm:2.0",
        ),
        change(
            "override-added",
            "vllm.box.tiny",
            source(f"{TINY}.overrides.extra", 49, 7),
            name="extra",
            new="--max-num-seqs 8",
        ),
        change(
            "override-changed",
            "vllm.box.tiny",
            source(f"{TINY}.overrides.small", 52, 7),
            name="small",
            old="--gpu-memory-utilization 0.3",
            new="--gpu-memory-utilization 0.2",
        ),
        change("override-removed", "vllm.box.tiny", tiny, name="dropped", old="--max-num-seqs 1"),
        change(
            "expect-changed",
            "vllm.box.tiny",
            tiny,
            name="expect",
            old="(none)",
            new="absent speculative-config",
        ),
        change(
            "profile-renamed",
            "vllm.box.new-name",
            source("profiles.vllm.box.new-name", 58, 3),
            old="vllm.box.old-name",
            new="vllm.box.new-name",
        ),
        change("profile-added", "vllm.other.tiny", source("profiles.vllm.other.tiny", 62, 3)),
        change(
            "profile-removed",
            "vllm.box.gone",
            source("profiles.vllm.box.gone", 54, 3, file="old.yaml"),
        ),
        change(
            "profile-removed",
            "vllm.other.small",
            source("profiles.vllm.other.small", 62, 3, file="old.yaml"),
        ),
        change(
            "host-default-changed",
            "other",
            source("profiles.vllm.other.tiny", 62, 3),
            name="default model",
            old="small",
            new="tiny",
        ),
        change(
            "host-default-changed",
            "box",
            source("hosts.box", 21, 3),
            name="default model",
            old="tiny",
        ),
        change(
            "model-changed",
            "tiny",
            source("models.tiny", 31, 3),
            name="label",
            old="Tiny 1B",
            new="Tiny One B",
        ),
        change("image-updated", "img2", source("images.img2", 23, 3), name="added"),
    ]


def test_an_unchanged_or_only_reformatted_registry_has_no_change(make_project, run):
    reformatted = edit(
        BASE,
        (
            "        args:\n          gpu-memory-utilization: 0.3\n",
            "        # tuned by hand\n        args: {gpu-memory-utilization: 0.30}\n",
        ),
        ("max-model-len: 32768", "max-model-len: 0x8000"),
    )
    project = make_project(registry=BASE, files={"old.yaml": BASE})
    for text in (BASE, reformatted):
        project.write("profiles.yaml", text)
        result = run(project, "diff", "--since-file", "old.yaml", "--format", "json")
        assert (result.exit_code, json.loads(result.stdout)) == (0, {"version": 1, "changes": []})
    assert run(project, "diff", "--since-file", "old.yaml").stdout == "0 semantic changes\n"


def test_text_format_names_line_kind_subject_and_values(make_project, run):
    new = edit(
        BASE,
        ("      max-num-seqs: 2\n", ""),
        ("label: Tiny 1B\n", "label: Tiny 1B\n    gated: true\n"),
    )
    project = make_project(registry=new, files={"old.yaml": BASE})
    result = run(project, "diff", "--since-file", "old.yaml")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "old.yaml:41:7: arg-removed vllm.box.tiny max-num-seqs: 2 -> (none)",
        "profiles.yaml:28:3: model-changed tiny gated: false -> true",
        "2 semantic changes",
    ]


def test_text_format_names_an_added_and_a_removed_agent(make_project, run):
    with_gamma = edit(BASE, ("    cli: acme-beta\n", "    cli: acme-beta\n" + GAMMA))
    project = make_project(registry=with_gamma, files={"old.yaml": BASE})
    result = run(project, "diff", "--since-file", "old.yaml")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "profiles.yaml:19:5: agent-changed gamma added\n1 semantic change\n",
        "",
    )
    project.write("old.yaml", with_gamma)
    project.write("profiles.yaml", BASE)
    result = run(project, "diff", "--since-file", "old.yaml")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "old.yaml:19:5: agent-changed gamma removed\n1 semantic change\n",
        "",
    )


def test_diff_counts_in_the_singular_and_q_leaves_the_count_out(make_project, run):
    tuned = edit(BASE, ("gpu-memory-utilization: 0.5", "gpu-memory-utilization: 0.6"))
    project = make_project(files={"old.yaml": MINIMAL_REGISTRY})
    project.write("profiles.yaml", tuned)
    change = "profiles.yaml:40:7: arg-changed vllm.box.tiny gpu-memory-utilization: 0.5 -> 0.6"
    result = run(project, "diff", "--since-file", "old.yaml")
    assert result.output.splitlines() == [change, "1 semantic change"]
    quiet = run(project, "diff", "-q", "--since-file", "old.yaml")
    assert (quiet.exit_code, quiet.output.splitlines()) == (0, [change])
    project.write("profiles.yaml", tuned.replace("max-num-seqs: 2", "max-num-seqs: 3"))
    assert run(project, "diff", "--since-file", "old.yaml").output.endswith(
        "\n2 semantic changes\n"
    )


# A page that shows everything the diff compares: every model field, the host defaults,
# and per profile its support, selection, image, command and overrides.
DOC_TEMPLATE = """\
---
title: "Profiles"
---

{{ models_table() }}

{{ host_defaults_table() }}

{% for m in models.values() %}
- {{ m.id }}: {{ m.hf }}, {{ m.label }}, {{ m.served_name }}, {{ m.revision }}, \
{{ m.min_compute_capability }}, {{ m.download_bytes }}, {{ m.gated }}, {{ m.notes }}
{% endfor %}

{% for p in profiles %}
{{ p.id }} ({{ p.support }}, {{ p.selection }}) runs \
{{ p.image.ref ~ "@" ~ p.image.digest if p.image else "the default image" }}.

{{ serve_command(p) | code_block("bash") }}

{% include "_builtin/override-examples.mdx.j2" %}
{% endfor %}
"""

GIT = ["git", "-c", "user.email=docs@example.org", "-c", "user.name=Docs"]


def committed(
    make_project: Callable[..., Project], run: Callable[..., Outcome], registry: str
) -> Project:
    """A built project whose every file is committed in a new git repository."""
    project = make_project(registry=registry, templates={"profiles.mdx.j2": DOC_TEMPLATE})
    assert run(project, "build").exit_code == 0
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "base"]):
        subprocess.run([*GIT, *args], cwd=project.root, check=True, capture_output=True)
    return project


def gate_message(case: Edit) -> str:
    """The gate's error: at the first change a release describes, counting those alone."""
    worded = [c for c in case.changes if c["kind"] not in LEFT_OUT]
    first = worded[0]["source"]
    # The older state is the registry at HEAD, so a node found only there is named so.
    file = "HEAD:profiles.yaml" if first["file"] == "old.yaml" else first["file"]
    count = len(worded)
    return (
        f"{file}:{first['line']}:{first['column']}: error: the registry changed since HEAD "
        f"({count} semantic change{'' if count == 1 else 's'}) but there is no new changelog "
        "entry or note in changelog.d/: run `docgen changelog` or add a note"
    )


def guard_notes(case: Edit) -> list[str]:
    """The gate's suggestion for each argument removed from a profile (all on vllm.box.tiny,
    line 33 of the newer registry), unless the launcher's shared args now set it."""
    shared = {c["name"] for c in case.changes if c["subject"] == "launcher"}
    return [
        f"profiles.yaml:33:3: note: to keep '--{c['name']}' out of profile '{c['subject']}' "
        f"in later edits, add '{c['name']}' to its expect: absent list"
        for c in case.changes
        if c["kind"] == "arg-removed" and f"--{c['name']}" not in shared
    ]


#: Edits of what the minimal template does not show (the worked example's pages do).
NOT_ON_THE_MINIMAL_PAGE = {"profile-topology", "host-default-moves-to-a-profile-of-the-same-model"}
RELEASED = [e for e in EDITS if any(c["kind"] not in LEFT_OUT for c in e.changes)]
UNRELEASED = [e for e in EDITS if e not in RELEASED]


@pytest.mark.parametrize("case", RELEASED, ids=[e.id for e in RELEASED])
def test_every_edit_that_alters_the_docs_trips_the_changelog_gate(make_project, run, case):
    project = committed(make_project, run, case.old)
    page = project.read("docs/profiles.mdx")
    project.write("profiles.yaml", case.new)
    assert run(project, "build").exit_code == 0
    if case.id not in NOT_ON_THE_MINIMAL_PAGE:
        assert project.read("docs/profiles.mdx") != page  # the edit shows in the docs
    assert run(project, "check").exit_code == 0  # in sync: only the gate can fail
    gate = run(project, "check", "--changelog-since", "HEAD")
    assert (gate.exit_code, gate.stdout.splitlines()) == (
        1,
        [gate_message(case), *guard_notes(case)],
    )
    assert (
        gate.stderr == "4 generated files match the registry, but 1 problem above fails the check\n"
    )
    # ... and a release written from the same diff clears it.
    args = ["--version", "v1.0.0", "--since", "HEAD", "--date", "2026-01-02"]
    release = run(project, "changelog", *args)
    assert (release.exit_code, release.stdout.splitlines()) == (
        0,
        [
            "write changelog/2026-01-02.mdx (v1.0.0)",
            "write changelog/overview.mdx",
            *guard_notes(case),
        ],
    ), release.output
    cleared = run(project, "check", "--changelog-since", "HEAD")
    assert (cleared.exit_code, cleared.output) == (0, "5 generated files match the registry\n")


@pytest.mark.parametrize("case", UNRELEASED, ids=[e.id for e in UNRELEASED])
def test_diff_shows_a_change_the_changelog_leaves_out_and_the_gate_lets_it_pass(
    make_project, run, case
):
    """The kinds in diff.LEFT_OUT: `diff` lists them, no release is needed for them, and
    `changelog` finds nothing to release."""
    project = committed(make_project, run, case.old)
    project.write("profiles.yaml", case.new)
    assert run(project, "build").exit_code == 0
    shown = run(project, "diff", "--since", "HEAD", "--format", "json")
    assert [c["kind"] for c in json.loads(shown.stdout)["changes"]] == [
        c["kind"] for c in case.changes
    ]
    assert run(project, "check", "--changelog-since", "HEAD").exit_code == 0
    args = ["--version", "v1.0.0", "--since", "HEAD", "--date", "2026-01-02"]
    release = run(project, "changelog", *args)
    assert release.exit_code == 2 and "nothing to release" in release.stderr, release.output


def test_an_expectation_alone_needs_no_release(make_project, run):
    """`expect` only guards later edits; the docs do not show it."""
    case = next(e for e in EDITS if e.id == "expect-changed")
    project = committed(make_project, run, case.old)
    project.write("profiles.yaml", case.new)
    assert run(project, "build").output == "0 written, 0 updated, 0 pruned, 4 unchanged\n"
    gate = run(project, "check", "--changelog-since", "HEAD")
    assert (gate.exit_code, gate.output) == (0, "4 generated files match the registry\n")
    release = run(
        project, "changelog", "--version", "v1.0.0", "--since", "HEAD", "--date", "2026-01-02"
    )
    assert (release.exit_code, release.stderr) == (
        2,
        "profiles.yaml: error: nothing to release: the registry has no change a release "
        "describes since that state (1 left out of releases: expect-changed) and changelog.d/ "
        "holds no notes\n",
    )


@pytest.mark.parametrize(
    ("edit_id", "bullet"),
    [
        (
            "env-changed",
            "- The single-node Big Box `acme/Tiny-1B` profile now sets `ACME_X=1` "
            "for `vllm serve`.",
        ),
        ("launcher-changed", "- Managed profiles now start vLLM with `--port 8000`."),
        (
            "profile-changed",
            "- The Big Box profile `vllm.box.tiny` now serves `acme/Big-7B` instead of the "
            "`tiny` model.",
        ),
        (  # the override as the setting a reader types, with the profile it is for
            "override-added",
            "- With the single-node Big Box `acme/Tiny-1B` profile, operators can now set "
            '`ACME_EXTRA_ARGS_JSON=\'["--gpu-memory-utilization","0.2"]\'` '
            "to use the least memory.",
        ),
        (
            "override-removed",
            '- The documented `ACME_EXTRA_ARGS_JSON=\'["--gpu-memory-utilization","0.2"]\'` '
            "setting for the single-node Big Box `acme/Tiny-1B` profile is removed.",
        ),
        (
            "override-args-changed",
            "- To use less memory with the single-node Big Box `acme/Tiny-1B` "
            "profile, operators now set "
            '`ACME_EXTRA_ARGS_JSON=\'["--gpu-memory-utilization","0.25"]\'` (its arguments '
            "were `--gpu-memory-utilization 0.3`).",
        ),
        (  # the old digest as well as the new
            "image-digest-changed",
            f"- The single-node Big Box `acme/Tiny-1B` profile now runs "
            f"`example.org/vllm:1.0` pinned to "
            f"`{DIGEST_B}` instead of `{IMAGE_A}`.",
        ),
        (
            "image-dropped",
            "- The single-node Big Box `acme/Tiny-1B` profile now runs the "
            "platform's default vLLM image "
            f"instead of `{IMAGE_A}`.",
        ),
        (
            "profile-topology",
            "- The Big Box `acme/Tiny-1B` profile is now multi-node instead of single-node.",
        ),
        (
            "host-default-moves-to-a-profile-of-the-same-model",
            "- Big Box now defaults to the `vllm.box.extra` profile of `acme/Tiny-1B` instead of "
            "`vllm.box.tiny`.",
        ),
    ],
)
def test_a_release_words_the_new_kinds_for_the_reader(make_project, run, edit_id, bullet):
    case = next(e for e in EDITS if e.id == edit_id)
    project = committed(make_project, run, case.old)
    project.write("profiles.yaml", case.new)
    args = ["--version", "v1.0.0", "--since", "HEAD", "--date", "2026-01-02"]
    assert run(project, "changelog", *args).exit_code == 0
    entry = project.read("changelog/2026-01-02.mdx")
    assert bullet in entry.splitlines(), entry


@pytest.mark.parametrize(
    ("written", "kinds"),
    [
        ("{num_speculative_tokens: 3, method: mtp}", ["arg-restated"]),
        ("{num_speculative_tokens: 4, method: mtp}", ["arg-changed"]),
    ],
    ids=["keys-reordered", "value-changed"],
)
def test_a_json_flag_whose_keys_were_only_reordered_is_restated(make_project, run, written, kinds):
    """vLLM reads the same config: the release said the profile "now uses" it "instead of"
    the same object (a launcher step's ``when`` already ignored key order)."""
    mtp = "      speculative-config: {method: mtp, num_speculative_tokens: 3}\n"
    old = edit(
        BASE, ("      enable-prefix-caching: true\n", f"      enable-prefix-caching: true\n{mtp}")
    )
    new = old.replace("{method: mtp, num_speculative_tokens: 3}", written)
    assert [c["kind"] for c in diff_json(make_project, run, old, new)] == kinds
