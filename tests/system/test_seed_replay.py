"""NemoClaw's pull request from ../shared/seed/ (disable MTP for the Spark Qwen profile),
replayed as one registry edit: from the release before (tests/fixtures/profiles-v0.0.101.yaml)
to the worked example's registry, which removes the ``speculative-config`` argument and adds
the ``expect: absent`` guard, the bounded override and the evidence. Everything the pull
request changed by hand (the setup page, the profile page, every agent variant, the export
and the dated changelog entry) comes out of ``build`` and ``changelog``, equal to what the
repository commits."""

from __future__ import annotations

import json

from conftest import REPO, Project

BEFORE = REPO / "tests/fixtures/profiles-v0.0.101.yaml"
SETUP = "docs/inference/set-up-vllm.mdx"
SPARK_PAGE = "docs/profiles/vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4.mdx"
EXPORT = "docs/_build/registry.json"
ENTRY = "changelog/2026-08-04.mdx"
SPARK = "vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4"


def outputs(project: Project) -> dict[str, str]:
    docs = project.root / "docs"
    return {str(p.relative_to(project.root)): p.read_text("utf-8") for p in docs.rglob("*.md*")} | {
        EXPORT: project.read(EXPORT)
    }


def replayed(example: Project, run) -> tuple[dict[str, str], dict[str, str]]:
    """The outputs before and after the one registry edit, and the entry written for it."""
    after_registry = example.read("profiles.yaml")
    (example.root / ENTRY).unlink()
    (example.root / "changelog/overview.mdx").unlink()
    example.write("profiles.yaml", BEFORE.read_text("utf-8"))
    assert run(example, "build").exit_code == 0
    before = outputs(example)
    example.write("profiles.yaml", after_registry)  # the one edit
    result = run(example, "build")
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    result = run(
        example, "changelog", "--version", "v0.0.102", "--since-file", str(BEFORE),
        "--date", "2026-08-04", "--summary",
        "reduces the managed single-node DGX Spark Qwen profile's default memory demand "
        "during long-context agent workflows.",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return before, outputs(example)


def test_the_edit_reproduces_every_committed_output_and_the_entry(example, run):
    before, after = replayed(example, run)
    for path, text in after.items():
        assert text == (REPO / path).read_text("utf-8"), path
    assert example.read(ENTRY) == (REPO / ENTRY).read_text("utf-8")
    changed = sorted(path for path in after if before.get(path) != after[path])
    variants = [p for p in changed if p.startswith("docs/_build/agent-variants/")]
    assert [p for p in changed if p not in variants] == [EXPORT, SETUP, SPARK_PAGE]
    assert len(variants) == 6  # the two changed pages, once per agent


def test_the_pages_change_the_way_the_pull_request_changed_them_by_hand(example, run):
    before, after = replayed(example, run)
    gone = '--speculative-config \'{"method":"mtp","num_speculative_tokens":3,'
    assert gone in before[SPARK_PAGE] and gone not in after[SPARK_PAGE]
    assert (before[SETUP].count(gone), after[SETUP].count(gone)) == (1, 0)
    lead = (
        "For the managed single-node DGX Spark `nvidia/Qwen3.6-35B-A3B-NVFP4` profile, "
        "NemoClaw enables async scheduling and "
    )
    assert lead + "multi-token prediction (MTP) speculative decoding.\n" in before[SETUP]
    assert (
        lead + "does not enable speculative decoding, including multi-token prediction (MTP).\n"
    ) in after[SETUP]
    override = (
        'NEMOCLAW_VLLM_EXTRA_ARGS_JSON=\'["--no-async-scheduling","--max-model-len","32768",'
        '"--max-num-seqs","1","--max-num-batched-tokens","4096"]\''
    )
    assert override not in before[SETUP] and override in after[SETUP]
    assert "measured these results" in after[SPARK_PAGE]
    assert "measured these results" not in before[SPARK_PAGE]


def test_the_export_loses_the_argument_and_gains_the_override(example, run):
    before, after = replayed(example, run)
    old = next(p for p in json.loads(before[EXPORT])["profiles"] if p["id"] == SPARK)
    new = next(p for p in json.loads(after[EXPORT])["profiles"] if p["id"] == SPARK)
    assert [t for t in old["argv"] if t not in new["argv"]] == [
        "--speculative-config",
        '{"method":"mtp","num_speculative_tokens":3,"moe_backend":"triton"}',
    ]
    assert [t for t in new["argv"] if t not in old["argv"]] == []
    assert (old["overrides"], list(new["overrides"])) == ({}, ["bounded-long-context"])
