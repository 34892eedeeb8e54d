"""Rendering only what an edit can reach gives exactly what rendering everything gives.

A plan records what each page read (``docgen.incremental``); the next plan keeps the
outputs of every page whose reads did not change. Random edits of the worked example's
registry (any value of any entry), of a hand-written page and of a template are applied
one after another, and after each the plan that starts from the previous plan's record
must give every output byte for byte as a full plan does (a kept output by its digest).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from conftest import Project

from docgen.config import load_project
from docgen.errors import DocgenError
from docgen.plan import Plan, plan
from docgen.registry.source import load_text

SEEDS = range(12)
EDITS_PER_SEED = 4


def digests(the_plan: Plan) -> dict[str, str]:
    """Each output's path and the digest of its text (a kept output carries its own)."""
    return {
        o.path: o.digest or hashlib.sha256(o.text.encode()).hexdigest() for o in the_plan.outputs
    }


def leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(node, dict):
        return [leaf for key, value in node.items() for leaf in leaves(value, (*path, key))]
    if isinstance(node, list):
        return [leaf for i, value in enumerate(node) for leaf in leaves(value, (*path, i))]
    return [(path, node)]


def other(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice((1, 2, 1024))
    if isinstance(value, float):
        return round(value + 0.05, 2)
    return f"{value}x" if rng.random() < 0.5 else str(value)[:-1] or "y"


def registry_edit(project: Project, rng: random.Random) -> None:
    """Change one value of the registry, keeping it valid (tries until it is)."""
    from docgen.registry.load import load_bytes

    data = load_text(project.read("profiles.yaml"), "profiles.yaml").data
    candidates = [leaf for leaf in leaves(data) if leaf[0][0] not in ("schema",)]
    for _ in range(50):
        path, value = rng.choice(candidates)
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = other(value, rng)
        text = json.dumps(data, default=str)
        try:
            load_bytes(text.encode(), "profiles.yaml")
        except DocgenError:
            node[path[-1]] = value
            continue
        project.write("profiles.yaml", text)
        return


def registry_reorder(project: Project, rng: random.Random) -> None:
    """Swap two neighbouring keys of one mapping, or items of one list, of the registry,
    keeping it valid (tries until it is): an order a page may show, as a command shows
    its arguments."""
    from docgen.registry.load import load_bytes

    data = load_text(project.read("profiles.yaml"), "profiles.yaml").data
    nodes = [node for node in containers(data) if len(node) >= 2]
    for _ in range(50):
        node = rng.choice(nodes)
        at = rng.randrange(len(node) - 1)
        before = dict(node) if isinstance(node, dict) else list(node)
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        keys[at], keys[at + 1] = keys[at + 1], keys[at]
        swapped = [before[key] for key in keys]
        if isinstance(node, dict):
            node.clear()
            node.update(zip(keys, swapped, strict=True))
        else:
            node[:] = swapped
        text = json.dumps(data, default=str)
        try:
            load_bytes(text.encode(), "profiles.yaml")
        except DocgenError:
            node.clear()
            node.update(before) if isinstance(node, dict) else node.extend(before)
            continue
        project.write("profiles.yaml", text)
        return


def containers(node: Any) -> list[Any]:
    """Every mapping and list in ``node``, ``node`` included."""
    inner = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    found = [node] if isinstance(node, (dict, list)) else []
    return found + [c for value in inner for c in containers(value)]


def page_edit(project: Project, rng: random.Random) -> None:
    page = "docs/inference/choose-local-inference-server.mdx"
    text = project.read(page)
    lines = text.split("\n")
    at = rng.randrange(len(lines) // 2, len(lines))
    lines.insert(at, "" if lines[at].startswith("|") else f"An added sentence {rng.random()}.")
    project.write(page, "\n".join(lines))


TEMPLATE = "templates/profiles/[profile].mdx.j2"


def template_edit(project: Project, rng: random.Random) -> None:
    text = project.read(TEMPLATE)
    project.write(TEMPLATE, text + f"\nIt reads {{{{ hosts | length }}}} hosts ({rng.random()}).\n")


EDITS = (registry_edit, registry_edit, registry_edit, registry_reorder, page_edit, template_edit)


#: A hand-written page whose regions show derived tables only (no page iterates them).
TABLES_PAGE = (
    "# Tables\n\n{/* docgen:begin models-table */}\n{/* docgen:end */}\n\n"
    "{/* docgen:begin host-defaults */}\n{/* docgen:end */}\n"
)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_plan_from_the_last_record_equals_a_full_plan(example, seed):
    rng = random.Random(seed)
    example.write("docs/tables.mdx", TABLES_PAGE)
    project = load_project(example.root)
    record = plan(project).record
    edited = ("profiles.yaml", "docs/inference/choose-local-inference-server.mdx", TEMPLATE)
    for _ in range(EDITS_PER_SEED):
        before = {name: example.read(name) for name in edited}
        rng.choice(EDITS)(example, rng)
        project = load_project(example.root)
        assert record is not None
        try:
            full = plan(project)
        except DocgenError as refused:  # e.g. an agent renamed away from its navigation
            with pytest.raises(DocgenError) as again:
                plan(project, record=record)
            assert str(again.value) == str(refused)
            for name, text in before.items():
                example.write(name, text)
            continue
        incremental = plan(project, record=record)
        assert digests(incremental) == digests(full)
        record = incremental.record


def test_an_edit_of_one_profile_renders_only_the_pages_that_read_it(example):
    project = load_project(example.root)
    record = plan(project).record
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: 17")
    incremental = plan(load_project(example.root), record=record)
    rendered = sorted(o.path for o in incremental.outputs if not o.digest)
    assert rendered == [
        "changelog/overview.mdx",
        "docs/_build/agent-variants/inference/set-up-vllm.deepagents.generated.mdx",
        "docs/_build/agent-variants/inference/set-up-vllm.hermes.generated.mdx",
        "docs/_build/agent-variants/inference/set-up-vllm.openclaw.generated.mdx",
        "docs/_build/agent-variants/profiles/"
        "vllm.dgx-station-gb300.single.deepseek-v4-flash.deepagents.generated.mdx",
        "docs/_build/agent-variants/profiles/"
        "vllm.dgx-station-gb300.single.deepseek-v4-flash.hermes.generated.mdx",
        "docs/_build/agent-variants/profiles/"
        "vllm.dgx-station-gb300.single.deepseek-v4-flash.openclaw.generated.mdx",
        "docs/_build/registry.json",
        "docs/index.yml",  # the navigation's regions: written afresh each time
        "docs/inference/set-up-vllm.mdx",
        "docs/profiles/vllm.dgx-station-gb300.single.deepseek-v4-flash.mdx",
    ]
    assert not incremental.complete


def test_reordering_a_profiles_arguments_renders_its_pages_again(example):
    # The command shows the arguments in registry order: the order is part of what is read.
    project = load_project(example.root)
    record = plan(project).record
    example.edit(
        "profiles.yaml",
        "      max-model-len: 262144\n      gpu-memory-utilization: 0.4\n",
        "      gpu-memory-utilization: 0.4\n      max-model-len: 262144\n",
    )
    project = load_project(example.root)
    incremental = plan(project, record=record)
    rendered = {o.path for o in incremental.outputs if not o.digest}
    assert "docs/inference/set-up-vllm.mdx" in rendered
    assert digests(incremental) == digests(plan(project))


def test_a_record_holds_only_while_its_page_and_every_part_it_read_are_unchanged():
    from docgen.incremental import UnitRecord, holds

    parts = {("profiles", "a"): "digest-a", ("models",): "digest-m"}
    tables = {"models_table": "table-1"}
    reads = ((("()", "models_table"), "table-1"), (("profiles", "a"), "digest-a"))
    unit = UnitRecord(reads, b"page", None)
    assert holds(unit, parts, tables.__getitem__, b"page")
    assert not holds(unit, parts, tables.__getitem__, b"page, edited")
    assert not holds(UnitRecord(reads, None, None), parts, tables.__getitem__, b"page")
    # a derived read is judged by its helper's result now, never by a registry part
    assert not holds(unit, parts, {"models_table": "table-2"}.__getitem__, b"page")
    assert not holds(unit, {**parts, ("profiles", "a"): "digest-b"}, tables.__getitem__, b"page")
    assert not holds(unit, {("models",): "digest-m"}, tables.__getitem__, b"page")
    # a part the registry lacked when recorded never holds, whatever it is now
    gone = UnitRecord(((("profiles", "z"), ""),), None, None)
    assert not holds(gone, parts, tables.__getitem__, None)


def test_an_edit_that_leaves_a_derived_table_as_it_was_keeps_the_pages_that_read_only_it(
    example,
):
    example.write("docs/tables.mdx", TABLES_PAGE)
    project = load_project(example.root)
    record = plan(project).record
    # No derived table shows max-num-seqs: both tables stay as they were.
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: 17")
    incremental = plan(load_project(example.root), record=record)
    by_path = incremental.by_path()
    assert by_path["docs/tables.mdx"].digest  # kept: read only the derived tables
    assert not by_path["docs/inference/set-up-vllm.mdx"].digest  # rendered again


def test_a_value_a_template_reads_by_subscript_is_a_read(example):
    """``profile["model"]["hf"]`` reads through the environment's item lookup: an edit of
    that model's Hugging Face ID must render the page again."""
    example.write(
        "templates/subscripts/[profile]-sub.mdx.j2",
        '# {{ profile["id"] }}\n\nIt serves {{ profile["model"]["hf"] | mdx_code }}.\n',
    )
    project = load_project(example.root)
    record = plan(project).record
    example.edit("profiles.yaml", "hf: Qwen/Qwen3.6-27B-FP8", "hf: Qwen/Qwen3.6-27B-FP8-v2")
    project = load_project(example.root)
    incremental = plan(project, record=record)
    assert digests(incremental) == digests(plan(project))
    changed = [o for o in incremental.outputs if "Qwen3.6-27B-FP8-v2" in o.text]
    assert any(o.path.startswith("docs/subscripts/") for o in changed)


def test_after_a_build_an_edit_renders_only_the_pages_that_read_it_from_the_stored_record(
    example, run
):
    """The record a build stored in .docgen-cache/ is what the next plan starts from."""
    from docgen.cache import cached_plan

    assert run(example, "build").exit_code == 0
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: 17")
    the_plan, _digest = cached_plan(load_project(example.root))
    by_path = the_plan.by_path()
    assert not the_plan.complete
    assert not by_path["docs/inference/set-up-vllm.mdx"].digest  # it read the profile
    kept = [o.path for o in the_plan.outputs if o.digest]
    assert "docs/profiles/vllm.dgx-spark-gb10.single.qwen3-6-35b-a3b-nvfp4.mdx" in kept


def test_after_an_edit_the_shared_partial_is_rendered_only_for_the_edited_profile(
    example, monkeypatch
):
    """The setup page includes the profile partial once per profile, as each profile's
    page does: a plan from the record renders it again for the edited profile alone, and
    gives what a full plan gives."""
    from docgen.render.partials import Partials

    project = load_project(example.root)
    record = plan(project).record
    assert record is not None
    profiles = {dict(key[1])["p"][2] for key in record.partials if key[0] == "_partials/profile.j2"}
    assert len(profiles) > 3  # every profile's partial is in the record
    rendered: list[str] = []
    real = Partials._rendered

    def counted(self, template, context, parts):  # type: ignore[no-untyped-def]
        rendered.append(f"{template.name} {context.resolve_or_missing('p').id}")
        return real(self, template, context, parts)

    monkeypatch.setattr(Partials, "_rendered", counted)
    example.edit("profiles.yaml", "max-num-seqs: 16", "max-num-seqs: 17")
    project = load_project(example.root)
    incremental = plan(project, record=record)
    assert rendered == ["_partials/profile.j2 vllm.dgx-station-gb300.single.deepseek-v4-flash"]
    monkeypatch.undo()
    assert digests(incremental) == digests(plan(project))
    assert incremental.record is not None
    assert incremental.record.partials.keys() == record.partials.keys()
    edited = [k for k in record.partials if "deepseek-v4-flash" in str(k)]
    assert [record.partials[k][0] != incremental.record.partials[k][0] for k in edited] == [True]


def test_a_record_keeps_only_the_partials_some_page_still_includes(example):
    """A partial keyed by a plain value (a model's label) and reading nothing would hold
    forever: once no page includes it, the next record leaves it out."""
    example.write(
        "templates/labels/[profile]-label.mdx.j2",
        '# Label\n\n{% with v = profile.model.label %}{% include "_partials/label.j2" %}'
        "{% endwith %}\n",
    )
    example.write("templates/_partials/label.j2", "It is {{ v | mdx }}.\n")
    project = load_project(example.root)
    record = plan(project).record
    assert record is not None

    def labels(rec: Any) -> set[str]:
        return {dict(k[1])["v"][1] for k in rec.partials if k[0] == "_partials/label.j2"}

    assert "Qwen3.6 27B FP8" in labels(record)
    example.edit("profiles.yaml", "label: Qwen3.6 27B FP8", "label: Qwen3.6 27B FP8 (new)")
    project = load_project(example.root)
    incremental = plan(project, record=record)
    assert digests(incremental) == digests(plan(project))
    assert incremental.record is not None
    now = labels(incremental.record)
    assert "Qwen3.6 27B FP8 (new)" in now and "Qwen3.6 27B FP8" not in now
    assert now == labels(plan(project).record)  # what a full plan records
