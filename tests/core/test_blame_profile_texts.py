"""Drift from a profile's own texts (its summary, its evidence's setup and results) names
the registry line that holds the text, as drift from its args does."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from conftest import MINIMAL_REGISTRY, Outcome, Project, git

from docgen.registry.load import load

TEMPLATE = """\
{% for p in profiles %}
{{ p.summary }}
{% for e in p.evidence %}
Setup: {{ e.setup }}.
{{ table(["Measurement", "Result"], e.results) }}
{% endfor %}
{% endfor %}
"""
REGISTRY = MINIMAL_REGISTRY.replace(
    "    default: true\n    image: img\n",
    "    default: true\n    image: img\n"
    "    summary: Serves Tiny for long agent sessions.\n"
    "    evidence:\n"
    "      - date: 2026-08-04\n"
    "        host: Big Box\n"
    "        setup: MTP off, async scheduling on\n"
    "        results:\n"
    "          KV cache: 22.75 GiB\n",
)


def _drifted_after(project: Project, run: Callable[..., Outcome], old: str, new: str) -> list:
    """The changed files ``check --format json`` reports once ``old`` is ``new`` in the
    registry of the built ``project``."""
    assert run(project, "build").exit_code == 0
    project.edit("profiles.yaml", old, new)
    report = run(project, "check", "--format", "json")
    assert report.exit_code == 1
    return [f for f in json.loads(report.stdout)["files"] if f["status"] == "changed"]


@pytest.mark.parametrize(
    ("old", "new", "key", "line"),
    [
        ("long agent sessions", "short sessions", "summary", 38),
        ("MTP off", "MTP on", "evidence.[0].setup", 42),
        ("22.75 GiB", "21.5 GiB", "evidence.[0].results.KV cache", 44),
    ],
)
def test_drift_from_a_profile_text_names_its_line(
    make_project: Callable[..., Project],
    run: Callable[..., Outcome],
    old: str,
    new: str,
    key: str,
    line: int,
):
    project = make_project(registry=REGISTRY, templates={"models.mdx.j2": TEMPLATE})
    drifted = _drifted_after(project, run, old, new)
    held = project.read("profiles.yaml").splitlines()[line - 1]
    assert held.lstrip().startswith(key.rsplit(".", 1)[-1])
    assert [f["path"] for f in drifted][0] == "docs/models.mdx"
    for page in drifted:  # the page and each agent's variant of it
        assert [(s["key"], s["line"]) for s in page["sources"]] == [
            (f"profiles.vllm.box.tiny.{key}", line)
        ], page["path"]


@pytest.mark.parametrize(
    ("old", "new", "key", "line"),
    [
        ("name: Acme\n", "name: Acme Labs\n", "product.name", 3),
        (
            "Copyright (c) 2026 Acme Inc.",
            "Copyright (c) 2027 Acme Inc.",
            "product.spdx.copyright",
            9,
        ),
    ],
)
def test_drift_from_a_product_text_names_its_line(
    make_project: Callable[..., Project],
    run: Callable[..., Outcome],
    old: str,
    new: str,
    key: str,
    line: int,
):
    """On a page per profile too, whose sources are its profile's own nodes."""
    templates = {
        "models.mdx.j2": (
            "---\n# {{ product.spdx.copyright | fm_comment }}\n---\n\n{{ product.name }}\n"
        ),
        "p/[profile].mdx.j2": "{{ product.name }} {{ product.spdx.copyright }}\n",
    }
    drifted = _drifted_after(make_project(templates=templates), run, old, new)
    assert {"docs/models.mdx", "docs/p/vllm.box.tiny.mdx"} <= {f["path"] for f in drifted}
    for page in drifted:
        assert [(s["key"], s["line"]) for s in page["sources"]] == [(key, line)], page["path"]


def test_a_product_change_in_the_diff_names_its_line(
    make_project: Callable[..., Project], run: Callable[..., Outcome]
):
    project = make_project()
    project.write("old.yaml", MINIMAL_REGISTRY)
    project.edit("profiles.yaml", "name: Acme\n", "name: Acme Labs\n")
    diff = run(project, "diff", "--since-file", "old.yaml")
    assert diff.stdout.splitlines()[0] == (
        "profiles.yaml:3:3: product-changed product name: Acme -> Acme Labs"
    )


def test_a_line_that_merely_shows_the_product_name_does_not_blame_it(make_project, run):
    """A support change brings a sentence in that names the product: in a git project
    (the older registry holds every value as it is), nothing but the product's name shows
    more often, and it did not change."""
    template = (
        '{% for p in profiles %}{% if p.support == "supported" %}\n'
        "{{ product.name }} supports this profile.\n{% endif %}{% endfor %}\nEnd.\n"
    )
    registry = MINIMAL_REGISTRY.replace(
        "    host: box\n    default: true\n",
        "    host: box\n    default: true\n    support: experimental\n",
    )
    project = make_project(registry=registry, templates={"models.mdx.j2": template})
    assert run(project, "build").exit_code == 0
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        git(project.root, *args)
    project.edit("profiles.yaml", "support: experimental", "support: supported")
    report = json.loads(run(project, "check", "--format", "json").stdout)
    drifted = [f for f in report["files"] if f["status"] == "changed"]
    assert drifted and all(f["sources"] == [] for f in drifted)


SEQS = "{% for p in profiles %}Up to {{ p.arg('max-num-seqs').value }}.\n{% endfor %}"


def test_a_bare_number_in_evidence_is_no_blame_node(make_project, run):
    """``runs: 2`` would be named wherever a 2 shows (an edited ``max-num-seqs: 2``)."""
    registry = MINIMAL_REGISTRY.replace(
        "    default: true\n    image: img\n",
        "    default: true\n    image: img\n    evidence:\n      - date: 2026-01-01\n"
        "        host: Big Box\n        results: {runs: 2, passed: true, rate: 20/20}\n",
    )
    project = make_project(
        registry=registry,
        templates={"models.mdx.j2": SEQS},
    )
    texts = load(project.root / "profiles.yaml").profiles["vllm.box.tiny"].texts
    assert [s.keypath[-1] for s in texts] == ["rate"]
    assert run(project, "build").exit_code == 0
    project.edit("profiles.yaml", "max-num-seqs: 2", "max-num-seqs: 3")
    report = json.loads(run(project, "check", "--format", "json").stdout)
    assert all("evidence" not in s["key"] for f in report["files"] for s in f.get("sources", []))


def test_an_argument_in_a_json_array_as_tojson_writes_it_is_blamed(make_project, run):
    """``tojson`` puts a blank after each comma (``"--max-num-seqs", "3"``)."""
    template = '{"argv": {{ profiles[0].tokens | list | tojson }}}\n'
    project = make_project(templates={"argv.json.j2": template})
    assert run(project, "build").exit_code == 0
    assert '"--max-num-seqs", "2"' in project.read("docs/argv.json")
    project.edit("profiles.yaml", "max-num-seqs: 2", "max-num-seqs: 3")
    report = json.loads(run(project, "check", "--format", "json").stdout)
    (drifted,) = [f for f in report["files"] if f["path"] == "docs/argv.json"]
    assert [s["key"] for s in drifted["sources"]] == ["profiles.vllm.box.tiny.args.max-num-seqs"]


def _lines_behind(drifted: list) -> set[tuple[str, int]]:
    return {(s["key"], s["line"]) for page in drifted for s in page["sources"]}


def _line_of(project: Project, text: str) -> int:
    return project.read("profiles.yaml").splitlines().index(text) + 1


def test_drift_from_the_launchers_shared_args_names_their_line(example: Project, run) -> None:
    """Every serve command holds the launcher's shared args: a changed port drifted every
    page that shows a command, and none named a registry line."""
    line = _line_of(example, "    port: 8000")
    drifted = _drifted_after(example, run, "    port: 8000\n", "    port: 8001\n")
    assert len(drifted) > 10
    assert all(page["sources"] for page in drifted), [p["path"] for p in drifted]
    assert _lines_behind(drifted) == {("launcher.shared_args.port", line)}


def test_drift_from_an_agents_cli_names_its_line(example: Project, run) -> None:
    """An agent's variants put its CLI where the shared pages hold the CLI token."""
    line = _line_of(example, "    cli: nemohermes")
    drifted = _drifted_after(example, run, "cli: nemohermes\n", "cli: nemohermes2\n")
    assert {p["path"].rsplit(".", 3)[-3] for p in drifted if "agent-variants" in p["path"]} == {
        "hermes"
    }
    assert all(page["sources"] for page in drifted), [p["path"] for p in drifted]
    assert _lines_behind(drifted) == {("agents.[1].cli", line)}
