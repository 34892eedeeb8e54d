"""A deterministic scale corpus for docgen: a complete project of N profiles and P shared pages.

``python3 benchmarks/corpus.py OUT_DIR --profiles N --pages P [--agents 3] [--seed S]``
writes ``profiles.yaml`` (N profiles over many models and hosts, real vLLM flags,
some overrides, expectations and evidence), this repository's ``templates/`` (so there
is one page per profile) and P hand-written shared pages under ``docs/shared/`` with
``<AgentOnly>`` blocks, the CLI token, managed regions, headings and code blocks.

The same arguments always give byte-identical files. Nothing here imports docgen: the
corpus is plain input, and ``docgen build`` then ``docgen check`` must accept it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import shutil
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
TOKEN = "$$nemoclaw"
PLAIN = re.compile(r"^[A-Za-z][A-Za-z0-9 ._/()+,-]*$")
YAML_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}

#: (id, title, cli, env value) for up to six agents; the first three are NemoClaw's own.
AGENTS = (
    ("openclaw", "NemoClaw for OpenClaw", "nemoclaw", "openclaw"),
    ("hermes", "NemoClaw for Hermes", "nemohermes", "hermes"),
    ("deepagents", "NemoClaw for Deep Agents", "nemo-deepagents", "langchain-deepagents-code"),
    ("codex", "NemoClaw for Codex", "nemo-codex", "codex"),
    ("goose", "NemoClaw for Goose", "nemo-goose", "goose"),
    ("aider", "NemoClaw for Aider", "nemo-aider", "aider"),
)

#: Host families: (id, display name, arch).
HOST_FAMILIES = (
    ("dgx-spark", "DGX Spark", "arm64"),
    ("dgx-station", "DGX Station", "arm64"),
    ("n1x", "N1x", "arm64"),
    ("linux", "Linux with an NVIDIA GPU", "amd64"),
    ("h100-sxm", "H100 SXM server", "amd64"),
    ("h200-nvl", "H200 NVL server", "amd64"),
    ("b200", "B200 server", "amd64"),
    ("gb200-nvl72", "GB200 NVL72 tray", "arm64"),
    ("l40s", "L40S workstation", "amd64"),
    ("rtx-pro-6000", "RTX PRO 6000 workstation", "amd64"),
    ("a100-80g", "A100 80GB server", "amd64"),
    ("jetson-thor", "Jetson Thor", "arm64"),
)

#: Images: (id, ref, platform). Like the worked example they declare no ``vllm`` release, so
#: every profile is checked against docgen's default catalog.
IMAGES = (
    ("ngc-vllm-26.05-arm64", "nvcr.io/nvidia/vllm:26.05.post1-py3", "linux/arm64"),
    ("ngc-vllm-26.05-amd64", "nvcr.io/nvidia/vllm:26.05.post1-py3", "linux/amd64"),
    ("ngc-vllm-26.03-arm64", "nvcr.io/nvidia/vllm:26.03.post1-py3", "linux/arm64"),
    ("ngc-vllm-26.03-amd64", "nvcr.io/nvidia/vllm:26.03.post1-py3", "linux/amd64"),
    ("vllm-openai-0.22.0-arm64", "vllm/vllm-openai:v0.22.0", "linux/arm64"),
    ("vllm-openai-0.22.0-amd64", "vllm/vllm-openai:v0.22.0", "linux/amd64"),
)


@dataclass(frozen=True)
class Family:
    """A model family: Hugging Face org and name stem, sizes (name, MoE?), parsers."""

    slug: str
    org: str
    stem: str
    sizes: tuple[tuple[str, bool], ...]
    tool_parser: str
    reasoning_parser: str | None
    min_cc: str


FAMILIES = (
    Family(
        "qwen3.6",
        "Qwen",
        "Qwen3.6",
        (("35B-A3B", True), ("27B", False), ("8B", False), ("235B-A22B", True)),
        "qwen3_coder",
        "qwen3",
        "8.9",
    ),
    Family(
        "deepseek-v4",
        "deepseek-ai",
        "DeepSeek-V4",
        (("Flash", True), ("Pro", True)),
        "deepseek_v4",
        "deepseek_v4",
        "10.0",
    ),
    Family(
        "deepseek-r1-distill",
        "deepseek-ai",
        "DeepSeek-R1-Distill-Llama",
        (("70B", False), ("8B", False)),
        "hermes",
        "deepseek_r1",
        "8.0",
    ),
    Family(
        "nemotron-3",
        "nvidia",
        "NVIDIA-Nemotron-3",
        (("Nano-4B", False), ("Super-49B", False), ("Ultra-253B", False)),
        "qwen3_coder",
        "nemotron_v3",
        "8.9",
    ),
    Family(
        "llama-4",
        "meta-llama",
        "Llama-4",
        (("Scout-17B-16E", True), ("Maverick-17B-128E", True)),
        "llama4_json",
        None,
        "9.0",
    ),
    Family(
        "mistral-small",
        "mistralai",
        "Mistral-Small-3.2",
        (("24B", False),),
        "mistral",
        "mistral",
        "8.0",
    ),
    Family(
        "gemma-4",
        "google",
        "gemma-4",
        (("12b-it", False), ("27b-it", False)),
        "gemma4",
        "gemma4",
        "8.0",
    ),
    Family(
        "glm-4.7", "zai-org", "GLM-4.7", (("Air", True), ("Full", True)), "glm47", "glm47", "9.0"
    ),
    Family(
        "kimi-k2",
        "moonshotai",
        "Kimi-K2",
        (("Instruct", True), ("Thinking", True)),
        "kimi_k2",
        "kimi_k2",
        "9.0",
    ),
    Family(
        "gpt-oss",
        "openai",
        "gpt-oss",
        (("20b", True), ("120b", True)),
        "openai",
        "openai_gptoss",
        "8.0",
    ),
)

#: Checkpoint formats: (suffix in slug and name, ``quantization`` value or None).
QUANTS = (
    ("fp8", "FP8", None),
    ("nvfp4", "NVFP4", "modelopt"),
    ("bf16", "", None),
    ("awq", "AWQ", "awq_marlin"),
)
TOPOLOGIES = (("single", 1), ("tp2", 2), ("tp4", 4), ("tp8", 8))


# -- YAML text ----------------------------------------------------------------------


def scalar(value: Any) -> str:
    """One YAML 1.2 scalar: plain where unambiguous, JSON-quoted otherwise."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if PLAIN.match(text) and text.lower() not in YAML_WORDS and not text.endswith(":"):
        return text
    return json.dumps(text, ensure_ascii=False)


def flow(value: Any) -> str:
    """A value in flow style: ``{a: 1, b: [x]}``, ``[a, b]`` or a scalar."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def block(data: dict[str, Any], indent: int = 0) -> Iterator[str]:
    """Block-style lines of a mapping; mappings of scalars and lists of scalars go flow."""
    pad = " " * indent
    for key, value in data.items():
        if isinstance(value, dict) and value and not _leaf(value):
            yield f"{pad}{key}:"
            yield from block(value, indent + 2)
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            yield f"{pad}{key}:"
            for item in value:
                lines = list(block(item, indent + 4))
                yield f"{pad}  - {lines[0].lstrip()}"
                yield from lines[1:]
        elif isinstance(value, list) and len(flow(value)) > 80:
            yield f"{pad}{key}:"
            yield from (f"{pad}  - {scalar(v)}" for v in value)
        else:
            yield f"{pad}{key}: {flow(value)}"


def _leaf(value: dict[str, Any]) -> bool:
    """A short mapping of scalars (or scalar lists) that reads well on one line."""
    simple = all(not isinstance(v, dict) for v in value.values())
    return simple and len(flow(value)) <= 80 and len(value) <= 3


# -- registry -----------------------------------------------------------------------


@dataclass(frozen=True)
class ModelSpec:
    slug: str
    family: Family
    hf: str
    label: str
    quantization: str | None
    moe: bool


@dataclass
class Corpus:
    """The generated registry data plus what the pages need to know about it."""

    registry: dict[str, Any]
    agents: list[str]
    profile_ids: list[str] = field(default_factory=list)
    with_overrides: list[str] = field(default_factory=list)


def digest(name: str) -> str:
    return "sha256:" + hashlib.sha256(name.encode()).hexdigest()


def hosts(count: int) -> dict[str, dict[str, Any]]:
    """``count`` hosts: the families first, then numbered pools of them."""
    out: dict[str, dict[str, Any]] = {}
    for index in range(count):
        hid, name, arch = HOST_FAMILIES[index % len(HOST_FAMILIES)]
        pool = index // len(HOST_FAMILIES)
        if pool:
            hid, name = f"{hid}-pool-{pool + 1}", f"{name} (pool {pool + 1})"
        out[hid] = {"name": name, "arch": arch}
    return out


def images() -> dict[str, dict[str, Any]]:
    sizes = (9603000000, 8928665752, 9420011204, 8817300120, 10670087425, 10512230011)
    return {
        iid: {
            "ref": ref,
            "digest": digest(iid),
            "compressed_bytes": size,
            "platform": platform,
        }
        for (iid, ref, platform), size in zip(IMAGES, sizes, strict=True)
    }


def model_specs(count: int) -> list[ModelSpec]:
    """``count`` distinct models, round-robin over families (size x format), then fine-tunes."""
    out = []
    for index in range(count):
        family = FAMILIES[index % len(FAMILIES)]
        variants = [(size, q) for size in family.sizes for q in QUANTS]
        step = index // len(FAMILIES)
        (size, moe), (qslug, qname, quant) = variants[step % len(variants)]
        slug = f"{family.slug}-{size.lower()}-{qslug}"
        name = "-".join(p for p in (family.stem, size, qname) if p)
        if round_ := step // len(variants):
            slug, name = f"{slug}-ft{round_}", f"{name}-FT{round_}"
        out.append(
            ModelSpec(slug, family, f"{family.org}/{name}", name.replace("-", " "), quant, moe)
        )
    return out


def model_entry(spec: ModelSpec, rng: random.Random) -> dict[str, Any]:
    entry: dict[str, Any] = {"hf": spec.hf, "label": spec.label}
    if rng.random() < 0.3:
        entry["served_name"] = spec.slug
    entry["min_compute_capability"] = spec.family.min_cc
    if rng.random() < 0.7:
        entry["download_bytes"] = rng.randrange(4, 400) * 1_000_000_000 + rng.randrange(10**9)
    entry["gated"] = gated = rng.random() < 0.15
    entry["notes"] = (
        "Gated: requires license acceptance on Hugging Face."
        if gated
        else rng.choice(
            (
                "Validated on the listed hosts.",
                "Supported override.",
                "Tool calling validated with the registered parser.",
                "Long-context profile.",
            )
        )
    )
    return entry


def profile_args(spec: ModelSpec, tp: int, rng: random.Random) -> dict[str, Any]:
    """A realistic ``args`` mapping in the worked example's order."""
    args: dict[str, Any] = {
        "max-model-len": rng.choice((8192, 32768, 65536, 131072, 262144)),
        "gpu-memory-utilization": rng.choice((0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9)),
    }
    if tp > 1:
        args["tensor-parallel-size"] = tp
    if rng.random() < 0.5:
        args["dtype"] = "auto"
    if spec.quantization:
        args["quantization"] = spec.quantization
    if rng.random() < 0.5:
        args["kv-cache-dtype"] = "fp8"
    if rng.random() < 0.25:
        args["attention-backend"] = "flashinfer"
    if spec.moe and rng.random() < 0.4:
        args["moe-backend"] = rng.choice(("marlin", "cutlass", "flashinfer_cutlass", "triton"))
    args["max-num-seqs"] = rng.choice((1, 2, 4, 8, 16, 32, 64))
    args["max-num-batched-tokens"] = rng.choice((2048, 4096, 8192, 16384))
    args.update(_feature_flags(spec, rng))
    return args


def _feature_flags(spec: ModelSpec, rng: random.Random) -> dict[str, Any]:
    flags: dict[str, Any] = {}
    for name, chance in (
        ("enable-chunked-prefill", 0.5),
        ("async-scheduling", 0.5),
        ("enable-prefix-caching", 0.7),
    ):
        if rng.random() < chance:
            flags[name] = rng.random() < 0.85
    if rng.random() < 0.1:
        flags["block-size"] = 256
    if rng.random() < 0.1:
        flags["compilation-config"] = {
            "cudagraph_mode": "FULL_AND_PIECEWISE",
            "custom_ops": ["all"],
        }
    if spec.moe and rng.random() < 0.15:
        flags["speculative-config"] = {"method": "mtp", "num_speculative_tokens": 3}
    flags["enable-auto-tool-choice"] = True
    flags["tool-call-parser"] = spec.family.tool_parser
    if spec.family.reasoning_parser:
        flags["reasoning-parser"] = spec.family.reasoning_parser
    if rng.random() < 0.5:
        flags["load-format"] = "fastsafetensors"
    if rng.random() < 0.05:
        flags["enforce-eager"] = True
    return flags


def expectations(args: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Some ``expect`` rules; never on gpu-memory-utilization, which run.py edits."""
    expect: dict[str, Any] = {}
    if "speculative-config" not in args and rng.random() < 0.2:
        expect["absent"] = ["speculative-config"]
    if args.get("async-scheduling") is True and rng.random() < 0.3:
        expect["present"] = {"async-scheduling": True}
    return expect


OVERRIDES = (
    (
        "bounded-long-context",
        "Bound resource use while investigating long-context workflows.",
        {
            "async-scheduling": False,
            "max-model-len": 32768,
            "max-num-seqs": 1,
            "max-num-batched-tokens": 4096,
        },
        [
            "This override reduces request concurrency and context capacity, so it can reduce "
            "throughput.",
            "It does not guarantee protection against a host freeze.",
        ],
    ),
    (
        "low-memory",
        "Leave more GPU memory to other processes on a shared host.",
        {"gpu-memory-utilization": 0.3, "max-num-seqs": 2},
        ["A smaller KV cache admits fewer concurrent requests."],
    ),
    (
        "eager-debug",
        "Run without CUDA graphs to debug a startup failure.",
        {"enforce-eager": True},
        ["Eager mode is slower; use it only while debugging."],
    ),
)


def overrides(args: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    chosen = rng.sample(OVERRIDES, rng.choice((1, 1, 2)))
    out = {}
    for oid, summary, oargs, tradeoffs in chosen:
        if oid == "bounded-long-context" and "async-scheduling" not in args:
            oargs = {k: v for k, v in oargs.items() if k != "async-scheduling"}
        out[oid] = {"summary": summary, "args": dict(oargs), "tradeoffs": list(tradeoffs)}
    return out


def evidence(host_name: str, args: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    day = 1 + rng.randrange(28)
    month = rng.choice((5, 6, 7, 8))
    gmu = args["gpu-memory-utilization"]
    return [
        {
            "date": f"2026-{month:02d}-{day:02d}",
            "host": host_name,
            "setup": f"async scheduling {'on' if args.get('async-scheduling') else 'off'}, "
            f"GPU-memory utilization {gmu}",
            "results": {
                "KV cache": f"{rng.uniform(4, 90):.2f} GiB",
                "Minimum host MemAvailable": f"{rng.uniform(8, 120):.2f} GiB",
                "Tool-call history requests": f"{rng.randrange(15, 21)}/20",
                "Agent turns completed": f"{rng.randrange(15, 21)}/20",
            },
        }
    ]


def profile_entry(
    spec: ModelSpec,
    host_id: str,
    host: dict[str, Any],
    tp: int,
    default: bool,
    rng: random.Random,
) -> dict[str, Any]:
    """One profile in the key order of the worked example."""
    entry: dict[str, Any] = {"model": spec.slug, "host": host_id}
    if default:
        entry["default"] = True
    entry["support"] = (
        "supported"
        if default
        else rng.choices(("supported", "experimental", "deferred", "disabled"), (70, 20, 7, 3))[0]
    )
    entry["selection"] = "automatic" if default else "explicit-only"
    if rng.random() < 0.85:
        entry["image"] = rng.choice([i[0] for i in IMAGES if i[2].endswith(host["arch"])])
    if rng.random() < 0.3:
        entry["summary"] = f"{spec.label} on {host['name']} with tensor parallelism {tp}."
    if rng.random() < 0.15:
        entry["env"] = {"VLLM_USE_FLASHINFER_SAMPLER": "1"}
    entry["args"] = args = profile_args(spec, tp, rng)
    if expect := expectations(args, rng):
        entry["expect"] = expect
    if rng.random() < 0.25 and entry["selection"] == "automatic":  # chosen by id: no override
        entry["overrides"] = overrides(args, rng)
    if rng.random() < 0.2:
        entry["evidence"] = evidence(host["name"], args, rng)
    return entry


def profiles(
    count: int, specs: list[ModelSpec], host_map: dict[str, dict[str, Any]], rng: random.Random
) -> dict[str, dict[str, Any]]:
    """``count`` distinct (host, topology, model) profiles, grouped by host; one default each."""
    host_ids = list(host_map)
    space = len(host_ids) * len(TOPOLOGIES) * len(specs)
    if count > space:
        raise SystemExit(f"corpus: at most {space} profiles fit {len(specs)} models")
    picks = sorted(rng.sample(range(space), count))
    out: dict[str, dict[str, Any]] = {}
    seen_hosts: set[str] = set()
    for pick in picks:
        h, rest = divmod(pick, len(TOPOLOGIES) * len(specs))
        t, m = divmod(rest, len(specs))
        hid, (topo, tp), spec = host_ids[h], TOPOLOGIES[t], specs[m]
        pid = f"vllm.{hid}.{topo}.{spec.slug.replace('.', '-')}"
        default = hid not in seen_hosts
        seen_hosts.add(hid)
        out[pid] = profile_entry(spec, hid, host_map[hid], tp, default, rng)
    return out


def product() -> dict[str, Any]:
    return {
        "name": "NemoClaw",
        "cli_token": TOKEN,
        "model_env": "NEMOCLAW_VLLM_MODEL",
        "extra_args_env": "NEMOCLAW_VLLM_EXTRA_ARGS_JSON",
        "provider_env": {"NEMOCLAW_PROVIDER": "install-vllm"},
        "docs_base": "/user-guide/{agent}",
        "spdx": {
            "copyright": "Copyright (c) 2026 NVIDIA CORPORATION & AFFILIATES. All rights reserved.",
            "license": "Apache-2.0",
        },
    }


def agents(count: int) -> list[dict[str, Any]]:
    out = []
    for index, (aid, title, cli, env) in enumerate(AGENTS[:count]):
        agent: dict[str, Any] = {
            "id": aid,
            "title": title,
            "cli": cli,
            "env": {"NEMOCLAW_AGENT": env},
        }
        if index == 0:
            agent["default"] = True
        out.append(agent)
    return out


def registry(n_profiles: int, n_agents: int, seed: int) -> Corpus:
    """The whole registry: hosts and models grow with the profile count."""
    rng = random.Random(seed)
    host_map = hosts(max(4, n_profiles // 50))
    specs = model_specs(max(8, n_profiles // 12))
    data: dict[str, Any] = {
        "schema": 1,
        "product": product(),
        "agents": agents(n_agents),
        "hosts": host_map,
        "images": images(),
        "models": {s.slug: model_entry(s, rng) for s in specs},
        "profiles": profiles(n_profiles, specs, host_map, rng),
    }
    corpus = Corpus(data, [a["id"] for a in data["agents"]], list(data["profiles"]))
    corpus.with_overrides = [p for p, e in data["profiles"].items() if "overrides" in e]
    return corpus


def registry_text(data: dict[str, Any]) -> str:
    """The registry as YAML in the worked example's style, a blank line between profiles."""
    head = {k: v for k, v in data.items() if k != "profiles"}
    lines = ["# Scale corpus for docgen's benchmarks (generated by benchmarks/corpus.py).", ""]
    for key in head:
        lines += [*block({key: head[key]}), ""]
    lines.append("profiles:")
    for pid, entry in data["profiles"].items():
        lines += [*block({pid: entry}, 2), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


# -- shared pages -------------------------------------------------------------------

SECTIONS = (
    "get-started",
    "inference",
    "deployment",
    "manage-sandboxes",
    "security",
    "monitoring",
    "reference",
    "troubleshooting",
)
TOPICS = (
    "configure",
    "connect",
    "upgrade",
    "rotate-credentials",
    "inspect-logs",
    "tune",
    "back-up",
    "migrate",
    "uninstall",
    "schedule",
)
COMMANDS = (
    "onboard",
    "status",
    "logs --follow",
    "sandbox list",
    "sandbox connect my-sandbox",
    "inference set --provider install-vllm",
    "policy show",
    "upgrade --check",
    "credentials rotate",
    "doctor",
)
SENTENCES = (
    "NemoClaw keeps the sandbox policy in the gateway, so the agent never sees host credentials.",
    "The command prints a summary and exits with status zero when the check passes.",
    "Run it from the host, not from inside the sandbox.",
    "Managed vLLM profiles pin their image by digest, so an upgrade never changes the runtime.",
    "Use a host firewall with default-deny inbound rules, and keep port 8000 on loopback.",
    "The onboarding wizard records your choice, so later runs reuse it.",
    "Logs rotate daily and keep seven days of history by default.",
    "Set the environment variable before the installer starts to skip the prompt.",
)


def agent_subsets(ids: list[str]) -> list[list[str]]:
    """Realistic AgentOnly audiences: all but the last, the last alone, the first alone."""
    return [ids[:-1], ids[-1:], ids[:1]]


def frontmatter(title: str, rng: random.Random) -> list[str]:
    kind = rng.choice(("how_to", "concept", "reference", "tutorial"))
    return [
        "---",
        "# SPDX-FileCopyrightText: Copyright (c) 2026 NVIDIA CORPORATION & AFFILIATES. "
        "All rights reserved.",
        "# SPDX-License-Identifier: Apache-2.0",
        f'title: "{title}"',
        f'sidebar-title: "{title}"',
        f'description: "How to {title.lower()} with NemoClaw."',
        f'keywords: ["nemoclaw {title.lower()}", "nemoclaw sandbox"]',
        "content:",
        f'  type: "{kind}"',
        "---",
    ]


def code(command: str) -> list[str]:
    return ["```bash", f"{TOKEN} {command}", "```"]


def section(index: int, ids: list[str], rng: random.Random) -> list[str]:
    """One ``##`` section: shared prose, maybe a command, maybe an AgentOnly block."""
    title = f"{rng.choice(TOPICS).replace('-', ' ').capitalize()} step {index + 1}"
    lines = ["", f"## {title}", "", *rng.sample(SENTENCES, 2)]
    if rng.random() < 0.6:
        lines += ["", f"Run `{TOKEN} {rng.choice(COMMANDS)}` on the host.", ""]
        lines += code(rng.choice(COMMANDS))
    if rng.random() < 0.6:
        audience = rng.choice(agent_subsets(ids))
        lines += ["", f'<AgentOnly variant="{",".join(audience)}">']
        if rng.random() < 0.5:
            lines += [f"### Notes for {', '.join(audience)}", ""]
        lines += [rng.choice(SENTENCES), "", *code(rng.choice(COMMANDS)), "</AgentOnly>"]
    return lines


def region(index: int, corpus: Corpus) -> list[str]:
    """A managed region on some pages: models table, host defaults, a command, overrides."""
    kind = index % 8
    if kind in (0, 4):
        name = "models-table"
    elif kind == 1:
        name = "host-defaults"
    elif kind == 2:
        name = f"serve-command {corpus.profile_ids[index % len(corpus.profile_ids)]}"
    elif kind == 3 and corpus.with_overrides:
        name = f"override-examples {corpus.with_overrides[index % len(corpus.with_overrides)]}"
    else:
        return []
    return [
        "",
        "## Reference",
        "",
        "The registry fills the block below.",
        "",
        f"{{/* docgen:begin {name} */}}",
        "{/* docgen:end */}",
    ]


def page_text(index: int, corpus: Corpus, rng: random.Random) -> str:
    """One hand-written shared page."""
    title = f"{rng.choice(TOPICS).replace('-', ' ').capitalize()} sandboxes {index + 1}"
    lines = frontmatter(title, rng)
    lines += [
        f"Use `{TOKEN}` to {title.lower()} on a host that already runs NemoClaw.",
        rng.choice(SENTENCES),
    ]
    for number in range(rng.randrange(3, 8)):
        lines += section(number, corpus.agents, rng)
    lines += region(index, corpus)
    return "\n".join(lines) + "\n"


def page_path(index: int) -> str:
    folder = SECTIONS[index % len(SECTIONS)]
    return f"docs/shared/{folder}/{TOPICS[index % len(TOPICS)]}-{index + 1:04d}.mdx"


def pages(count: int, corpus: Corpus, seed: int) -> Iterable[tuple[str, str]]:
    rng = random.Random(seed + 1)
    for index in range(count):
        yield page_path(index), page_text(index, corpus, rng)


# -- writing ------------------------------------------------------------------------


def write(out: Path, n_profiles: int, n_pages: int, n_agents: int = 3, seed: int = 8) -> Corpus:
    """Write the whole project into ``out`` (which must be empty or absent)."""
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"corpus: {out} is not empty")
    out.mkdir(parents=True, exist_ok=True)
    corpus = registry(n_profiles, n_agents, seed)
    (out / "profiles.yaml").write_text(registry_text(corpus.registry), "utf-8")
    shutil.copytree(REPO / "templates", out / "templates")
    for rel, text in pages(n_pages, corpus, seed):
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return corpus


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="empty or new project folder")
    parser.add_argument("--profiles", type=int, default=2000)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--agents", type=int, default=3, choices=range(2, len(AGENTS) + 1))
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args(argv)
    write(args.out, args.profiles, args.pages, args.agents, args.seed)
    print(
        f"wrote {args.out}: {args.profiles} profiles, {args.pages} shared pages, "
        f"{args.agents} agents (seed {args.seed})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
