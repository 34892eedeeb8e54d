"""CI formats, the registry export, init, and the pre-commit hooks file."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import MINIMAL_REGISTRY, MINIMAL_TEMPLATE, REPO, Project
from ruamel.yaml import YAML

SPARK = "vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4"


def drift(example) -> None:
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: 12")


def test_check_json_has_a_stable_documented_shape(example, run):
    clean = json.loads(run(example, "check", "--format", "json").output)
    assert clean["version"] == 1 and clean["in_sync"] is True and clean["findings"] == []
    assert {f["status"] for f in clean["files"]} == {"unchanged"}
    drift(example)
    result = run(example, "check", "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["in_sync"] is False
    changed = [f for f in report["files"] if f["status"] == "changed"]
    setup = next(f for f in changed if f["path"] == "docs/inference/set-up-vllm.mdx")
    assert set(setup) == {"path", "status", "line", "diff", "edited", "sources"}
    assert setup["edited"] is False  # a registry edit, not a hand edit
    assert "+  --max-num-seqs 12" in setup["diff"]
    assert setup["sources"] == [
        {
            "key": "profiles.vllm.dgx-station-gb300.single.deepseek-v4-flash.args.max-num-seqs",
            "file": "profiles.yaml",
            "line": 184,
            "column": 7,
        }
    ]


def test_check_github_annotations(example, run):
    drift(example)
    result = run(example, "check", "--format", "github")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert any(
        line.startswith("::error file=docs/inference/set-up-vllm.mdx,line=")
        and line.endswith("::out of date with the registry")
        for line in lines
    )
    assert (
        "::error file=profiles.yaml,line=184,col=7::profiles.vllm.dgx-station-gb300.single."
        "deepseek-v4-flash.args.max-num-seqs changed; run docgen build to update "
        "docs/inference/set-up-vllm.mdx and 8 other generated files"
    ) in lines
    errors = [line for line in lines if line.startswith("::error")]
    assert len(errors) == 10, "9 drifted files and 1 registry line, each once"
    assert lines.count("::group::docs/inference/set-up-vllm.mdx") == 1
    example.write(
        "changelog/2026-08-04.mdx", example.read("changelog/2026-08-04.mdx") + "<!-- x -->\n"
    )
    result = run(example, "check", "--format", "github")
    assert (
        "::error file=changelog/2026-08-04.mdx,line=16::HTML comments are not allowed in "
        "changelog entries; use {/* ... */}"
    ) in result.output.splitlines()


def test_check_github_after_one_registry_edit(make_project, run):
    """An annotation per drifted file, one per registry line behind them all, a summary
    notice, then each file's diff in a collapsed group."""
    project = make_project()
    run(project, "build")
    project.edit("profiles.yaml", "max-num-seqs: 2", "max-num-seqs: 3")
    result = run(project, "check", "--format", "github")
    assert result.exit_code == 1
    variants = "docs/_build/agent-variants"
    page_diff = [
        "@@ -12,6 +12,6 @@",
        " vllm serve acme/Tiny-1B \\",
        "   --max-model-len 32768 \\",
        "   --gpu-memory-utilization 0.5 \\",
        "-  --max-num-seqs 2 \\",
        "+  --max-num-seqs 3 \\",
        "   --enable-prefix-caching",
        " ```",
    ]

    def group(path: str, hunk: list[str]) -> list[str]:
        return [f"::group::{path}", f"--- a/{path}", f"+++ b/{path}", *hunk, "::endgroup::"]

    assert result.stdout.splitlines() == [
        "::error file=docs/models.mdx,line=15::out of date with the registry",
        f"::error file={variants}/models.alpha.generated.mdx,line=15::out of date with the "
        "registry",
        f"::error file={variants}/models.beta.generated.mdx,line=15::out of date with the registry",
        "::error file=docs/_build/registry.json,line=58::out of date with the registry",
        "::error file=profiles.yaml,line=41,col=7::profiles.vllm.box.tiny.args.max-num-seqs "
        "changed; run docgen build to update docs/models.mdx and 3 other generated files",
        "::notice::4 generated files are out of sync with the registry; run docgen build",
        *group("docs/models.mdx", page_diff),
        *group(f"{variants}/models.alpha.generated.mdx", page_diff),
        *group(f"{variants}/models.beta.generated.mdx", page_diff),
        *group(
            "docs/_build/registry.json",
            [
                "@@ -55,7 +55,7 @@",
                '         "--gpu-memory-utilization",',
                '         "0.5",',
                '         "--max-num-seqs",',
                '-        "2",',
                '+        "3",',
                '         "--enable-prefix-caching"',
                "       ],",
                '       "overrides": {',
            ],
        ),
    ]


def test_check_github_escapes_workflow_command_data(make_project, run):
    from docgen.report import _escape_data, _escape_property

    assert _escape_data("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext: a,b"
    assert _escape_property("100% a:b,c\n") == "100%25 a%3Ab%2Cc%0A"
    project = make_project(
        templates={"models.mdx.j2": MINIMAL_TEMPLATE, "50%,a:b.mdx.j2": "Plain page.\n"}
    )
    run(project, "build")
    (project.root / "docs/50%,a:b.mdx").unlink()
    project.write("changelog/2026-01-02.mdx", "## v1.0.0\n\nAcme v1.0.0 is out.\n")
    result = run(project, "check", "--format", "github")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "::error file=changelog/2026-01-02.mdx,line=1::the entry must start with the exact "
        "SPDX header:%0A{/*%0A * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.%0A"
        " * SPDX-License-Identifier: Apache-2.0%0A */}"
    )
    assert "::error file=docs/50%25%2Ca%3Ab.mdx,line=1::missing: docgen would create it" in lines
    assert "::group::docs/50%25,a:b.mdx" in lines


def test_export_drift_names_the_registry_entry_behind_it(make_project, run):
    project = make_project()
    run(project, "build")
    project.edit("profiles.yaml", "max-num-seqs: 2", "max-num-seqs: 3")
    result = run(project, "check")
    assert result.exit_code == 1
    export = result.stdout[result.stdout.index("docs/_build/registry.json:58:1: error: ") :]
    assert export.splitlines()[-1] == (
        "  registry entry behind it: profiles.yaml:41:7 profiles.vllm.box.tiny.args.max-num-seqs"
    )
    report = json.loads(run(project, "check", "--format", "json").stdout)
    entry = next(f for f in report["files"] if f["path"] == "docs/_build/registry.json")
    assert entry["sources"] == [
        {
            "key": "profiles.vllm.box.tiny.args.max-num-seqs",
            "file": "profiles.yaml",
            "line": 41,
            "column": 7,
        }
    ]
    project.edit(
        "profiles.yaml",
        "          gpu-memory-utilization: 0.3",
        "          gpu-memory-utilization: 0.2",
    )
    override = run(project, "check").stdout
    assert (
        "  registry entry behind it: profiles.yaml:47:11 profiles.vllm.box.tiny.overrides.small."
        "args.gpu-memory-utilization"
    ) in override.splitlines()


def test_registry_export_shape(example, run):
    data = json.loads(example.read("docs/_build/registry.json"))
    assert data["version"] == 1 and data["product"] == "NemoClaw"
    assert data["$comment"].startswith("This file is generated by docgen")
    assert [a["id"] for a in data["agents"]] == ["openclaw", "hermes", "deepagents"]
    spark = next(p for p in data["profiles"] if p["id"] == SPARK)
    assert spark["argv"][:3] == ["vllm", "serve", "nvidia/Qwen3.6-35B-A3B-NVFP4"]
    assert "--speculative-config" not in spark["argv"]
    assert spark["overrides"]["bounded-long-context"][0] == "--no-async-scheduling"
    assert spark["image"]["digest"].startswith("sha256:9204569b")
    served = run(example, "serve-command", SPARK, "--format", "json")
    assert json.loads(served.output)["argv"] == spark["argv"]


def test_the_export_writes_text_as_it_is_not_as_ascii_escapes(make_project, run):
    """``Café`` stays ``Café`` in the file's bytes: a reader (and a reviewer's diff) sees
    the registry's words, and the committed export compares as what docgen writes."""
    project = make_project(registry=MINIMAL_REGISTRY.replace("name: Acme\n", "name: Acmé\n"))
    assert run(project, "build").exit_code == 0
    raw = project.read("docs/_build/registry.json")
    assert '"product": "Acmé"' in raw and "\\u00e9" not in raw


def test_the_export_writes_a_control_character_as_its_escape(make_project, run):
    """A bidirectional override in registry text reached the committed export raw, where
    it reorders what a reviewer reads (a hostile round); the value read back is the same."""
    name = 'name: "Ac\\u202eme\\x85\\u2028\\x7f\\x1b"\n'
    project = make_project(registry=MINIMAL_REGISTRY.replace("name: Acme\n", name))
    assert run(project, "build").exit_code == 0
    raw = project.read("docs/_build/registry.json")
    assert '"product": "Ac\\u202eme\\u0085\\u2028\\u007f\\u001b"' in raw
    assert not set("\u202e\x85\u2028\x7f\x1b") & set(raw)
    assert json.loads(raw)["product"] == "Ac\u202eme\x85\u2028\x7f\x1b"
    assert run(project, "check").exit_code == 0


def test_init_scaffolds_a_project_that_is_in_sync(tmp_path, run):
    target = tmp_path / "new"
    result = run(Project(tmp_path), "init", str(target))
    assert result.exit_code == 0, result.output
    assert f"create {target / 'profiles.yaml'}\n" in result.output  # as it was named
    assert run(Project(target), "check").exit_code == 0
    registry = YAML(typ="safe").load((target / "profiles.yaml").read_text())
    assert len(registry["profiles"]) == 1 and len(registry["agents"]) == 2
    site = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q"],
        cwd=target,
        capture_output=True,
        text=True,
    )
    assert site.returncode == 0, site.stderr
    assert (target / "site" / "lite" / "inference" / "set-up-vllm" / "index.html").is_file()
    # What the tools made there is not for git: the site, and vLLM's parser environment.
    subprocess.run(["git", "init", "-q"], cwd=target, check=True)
    (target / ".cache" / "vllm").mkdir(parents=True)
    (target / ".cache" / "vllm" / "python").write_text("", "utf-8")
    ignored = subprocess.run(
        ["git", "status", "--porcelain", "--ignored", "site", ".cache"],
        cwd=target, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert ignored.stdout.splitlines() == ["!! .cache/", "!! site/"]


def test_the_scaffold_template_shows_a_summary_and_tells_two_profiles_of_one_kind_apart(
    tmp_path, run
):
    """A profile's summary is on the page; two profiles whose headings would read alike
    (one model on one host, or on two hosts of one name) get their ids in them, else the
    headings and their anchors clash."""
    target = tmp_path / "new"
    assert run(Project(tmp_path), "init", str(target)).exit_code == 0
    registry = (target / "profiles.yaml").read_text("utf-8")
    twins = "".join(
        f"  vllm.{host}.small-b:\n    model: small\n    host: {host}\n    args:\n"
        "      max-model-len: 8192\n"
        for host in ("gpu-box", "gpu-box-2")
    )
    twins += "  vllm.gpu-box.lower:\n    model: lower\n    host: gpu-box\n    args:\n"
    twins += "      max-model-len: 4096\n"
    lower = "  lower: {hf: acme/Lower, label: nvidia nemotron 3 nano 4b fp8}\n"
    same_name = "  gpu-box-2: {name: Linux with an NVIDIA GPU, arch: amd64}\n"
    registry = registry.replace("profiles:\n", f"profiles:\n{twins}")
    registry = registry.replace("models:\n", f"models:\n{lower}")
    (target / "profiles.yaml").write_text(registry.replace("hosts:\n", f"hosts:\n{same_name}"))
    built = run(Project(target), "build")
    assert built.exit_code == 0, built.output
    page = (target / "docs/inference/set-up-vllm.mdx").read_text("utf-8")
    headings = [line for line in page.splitlines() if line.lower().startswith("## nvidia")]
    on = "NVIDIA Nemotron 3 Nano 4B FP8 on Linux with an NVIDIA GPU"
    assert headings == [  # the anchor of a heading ignores case: the lower-case one clashes
        f"## {on} (vllm.gpu-box.small-b)",
        f"## {on} (vllm.gpu-box-2.small-b)",
        "## nvidia nemotron 3 nano 4b fp8 on Linux with an NVIDIA GPU (vllm.gpu-box.lower)",
        f"## {on} (vllm.gpu-box.small)",
    ]
    for heading in headings:  # a heading stands alone between blank lines
        assert f"\n\n{heading}\n\n" in page
    assert "\nThe default profile, with room for long agent sessions.\n" in page


def test_init_keeps_the_gitignore_a_folder_has(tmp_path, run):
    target = tmp_path / "repo"
    target.mkdir()
    (target / ".gitignore").write_text("node_modules/\n/site/\n", "utf-8")
    result = run(Project(tmp_path), "init", str(target))
    assert result.exit_code == 0
    assert (target / ".gitignore").read_text("utf-8") == "node_modules/\n/site/\n"
    assert "note: kept .gitignore as it was; add /.cache/ to it\n" in result.stdout


def test_init_in_the_current_directory_does_not_say_cd(tmp_path, run, monkeypatch):
    target = tmp_path / "here"
    target.mkdir()
    monkeypatch.chdir(target)
    result = run(Project(target), "init")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "next: docgen check && mkdocs serve"
    elsewhere = run(Project(target), "init", "sub")
    assert elsewhere.output.splitlines()[-1] == "next: cd sub && docgen check && mkdocs serve"


def test_init_refuses_to_overwrite_a_project(example, run):
    before = example.snapshot()
    result = run(example, "init")
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "profiles.yaml: error: a project is already here; docgen init never overwrites files\n"
    )
    assert example.snapshot() == before


def test_pre_commit_hooks_file_offers_check_and_build():
    hooks = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text())
    by_id = {h["id"]: h for h in hooks}
    assert set(by_id) == {"docgen-check", "docgen-build"}
    assert by_id["docgen-check"]["entry"] == "docgen check -q"
    assert all(h["pass_filenames"] is False for h in hooks)


def test_init_puts_a_relative_directory_under_the_root_as_registry_does(tmp_path, run):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = run(Project(elsewhere), "init", "sub")  # the run names --root elsewhere
    assert result.exit_code == 0, result.output
    assert (elsewhere / "sub" / "profiles.yaml").is_file()


def test_an_overrides_words_are_the_registry_entries_behind_its_pages(example, run):
    # A word of an override's summary changed: its summary is behind every drifted page
    # (it was blamed on the host whose name the sentence also holds, or on nothing).
    run(example, "build")
    example.edit("profiles.yaml", "on one DGX Spark.", "on one DGX Spark host.")
    checked = run(example, "check")
    summary = (
        "  registry entry behind it: profiles.yaml:121:9 profiles.vllm.dgx-spark-gb10.single."
        "qwen3-6-35b-a3b-nvfp4.overrides.bounded-long-context.summary"
    )
    drifted = checked.stdout.count(": error: out of date with the registry")
    assert drifted == 8 and checked.stdout.splitlines().count(summary) == 8, checked.stdout
    example.edit("profiles.yaml", "It does not guarantee", "It cannot guarantee")
    tradeoff = run(example, "check").stdout
    assert "overrides.bounded-long-context.tradeoffs.[1]" in tradeoff


def test_an_override_arg_shown_in_a_json_array_is_behind_its_pages(example, run):
    # The page shows the override as NEMOCLAW_VLLM_EXTRA_ARGS_JSON='[..."--max-num-seqs","2"...]'.
    run(example, "build")
    example.edit("profiles.yaml", "          max-num-seqs: 1\n", "          max-num-seqs: 2\n")
    report = json.loads(run(example, "check", "--format", "json").stdout)
    drifted = [f for f in report["files"] if f["status"] != "unchanged"]
    key = (
        "profiles.vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4.overrides."
        "bounded-long-context.args.max-num-seqs"
    )
    assert len(drifted) == 9  # (outside git, another profile's equal value shows too)
    assert all(key in [s["key"] for s in f["sources"]] for f in drifted), drifted
