"""What a page reads through less common channels is recorded, so an edit that changes it
renders the page again: with the cache, ``check`` says what it says without one (found by
a hostile probe of the incremental plan: each case passed ``check`` with a stale page)."""

from __future__ import annotations

import shutil
from collections.abc import Callable

import pytest
from conftest import MINIMAL_REGISTRY, Outcome, Project, as_any_drift

from docgen import cache

PAGE = '---\ntitle: "Probe"\n---\n\n'
SECOND_PROFILE = (
    "  vllm.box.two:\n    model: tiny\n    host: box\n    image: img\n"
    "    args:\n      max-model-len: 8192\n"
)


def _added_profile(project: Project) -> None:
    project.write("profiles.yaml", project.read("profiles.yaml") + SECOND_PROFILE)


def _added_host(project: Project) -> None:
    text = project.read("profiles.yaml")
    project.write(
        "profiles.yaml", text.replace("hosts:\n", "hosts:\n  box2: {name: Two, arch: amd64}\n")
    )


def _line_above(project: Project) -> None:
    project.write("profiles.yaml", "# a comment moves every line\n" + project.read("profiles.yaml"))


def _summary(project: Project) -> None:
    text = project.read("profiles.yaml")
    project.write("profiles.yaml", text.replace("Use less memory.", "Use far less memory."))


def _label(project: Project) -> None:
    text = project.read("profiles.yaml")
    project.write("profiles.yaml", text.replace("label: Tiny 1B", "label: Tiny One B"))


def _flag_type(project: Project) -> None:
    text = project.read("profiles.yaml")
    project.write("profiles.yaml", text.replace("my-flag: {type: list}", "my-flag: {type: json}"))


#: The registry with a launcher whose shared arg is a flag the vLLM section declares.
LAUNCHED = MINIMAL_REGISTRY + (
    "launcher:\n  shared_args:\n    my-flag: [a, b]\n"
    "vllm:\n  extra_flags:\n    my-flag: {type: list}\n"
)

MACROS = "{% set n = profiles | length %}\n{% macro count() %}{{ n }}{% endmacro %}\n"
CASES: dict[str, tuple[dict[str, str], Callable[[Project], None]]] = {
    # Jinja makes an imported template's module once and keeps it: its top level ran for
    # the first page that imports it only.
    "imported-module": (
        {
            "_m.j2": MACROS,
            "a.mdx.j2": '{% import "_m.j2" as m %}\n' + PAGE + "{{ m.count() }} profiles.\n",
            "b.mdx.j2": '{% import "_m.j2" as m %}\n' + PAGE + "{{ m.count() }} profiles.\n",
        },
        _added_profile,
    ),
    "from-import": (
        {
            "_m.j2": MACROS,
            "a.mdx.j2": '{% from "_m.j2" import count %}\n' + PAGE + "{{ count() }}.\n",
            "b.mdx.j2": '{% from "_m.j2" import count %}\n' + PAGE + "{{ count() }}.\n",
        },
        _added_profile,
    ),
    # An entry looked up and missing read nothing: its section is what says it is there.
    "entry-missing": (
        {"probe.mdx.j2": PAGE + '{% if "box2" in hosts %}yes{% else %}no{% endif %}.\n'},
        _added_host,
    ),
    "entry-undefined": (
        {"probe.mdx.j2": PAGE + "{% if hosts['box2'] is defined %}yes{% else %}no{% endif %}.\n"},
        _added_host,
    ),
    # A node's line is where the registry puts it, which an edit above it moves.
    "source-line": (
        {"probe.mdx.j2": PAGE + "{% for p in profiles %}Line {{ p.source.location.line }}.\n"
         "{% endfor %}"},
        _line_above,
    ),
    "override-source-line": (
        {"probe.mdx.j2": PAGE + "{% for p in profiles %}{% for o in p.overrides %}"
         "Line {{ o['source'].location.line }}.\n{% endfor %}{% endfor %}"},
        _line_above,
    ),
    "texts-line": (
        {"probe.mdx.j2": PAGE + "{% for p in profiles %}{% for o in p.overrides %}"
         "Line {{ o.texts[0].location.line }}.\n{% endfor %}{% endfor %}"},
        _line_above,
    ),
    # A section iterated reads the section: an entry added reaches the page.
    "section-keys": (
        {"probe.mdx.j2": PAGE + "{% for h in hosts %}{{ h }} {% endfor %}\n"},
        _added_host,
    ),
    # A partial that reads its entry only through a filter of docgen's own.
    "partial-joins-entry": (
        {
            "_partials/join.j2": "{{ [p] | join(attribute='overrides.0.summary') }}\n",
            "profiles/[profile].mdx.j2": PAGE
            + "{% with p = profile %}{% include '_partials/join.j2' %}{% endwith %}",
        },
        _summary,
    ),
    # join(attribute=) looks up as Jinja does, through the environment, which records it.
    "join-attribute": (
        {"profiles/[profile].mdx.j2": PAGE + "{{ [profile] | join(attribute='model.label') }}\n"},
        _label,
    ),
    # The launcher's args have the argv words the vLLM section's extra flags give them.
    "launcher-tokens": (
        {
            "launcher.mdx.j2": PAGE + "{% for a in registry.launcher.shared_args %}"
            "{{ a.tokens | join(' ') }}\n{% endfor %}"
        },
        _flag_type,
    ),
    # str.format reads the attributes of what it is given itself.
    "str-format": (
        {"profiles/[profile].mdx.j2": PAGE + '{{ "{0.overrides[0].summary}".format(profile) }}\n'},
        _summary,
    ),
    # ... inside a list or a mapping too, nested.
    "str-format-in-a-list": (
        {"profiles/[profile].mdx.j2": PAGE + '{{ "{0[0].model.label}".format([profile]) }}\n'},
        _label,
    ),
    "str-format-in-a-nested-mapping": (
        {"profiles/[profile].mdx.j2": PAGE
         + '{{ "{0[a][b].model.label}".format({"a": {"b": profile}}) }}\n'},
        _label,
    ),
    # ... and an object that is no registry entry (an arg, an override) with its place.
    "str-format-of-an-arg": (
        {"args.mdx.j2": PAGE + "{% for a in profiles[0].args %}"
         '{{ "{0.name} {0.source.location.line}".format(a) }}\n{% endfor %}'},
        _line_above,
    ),
    "str-format-of-an-override": (
        {"summary.mdx.j2": PAGE + '{{ "{0.summary}".format(profiles[0].overrides[0]) }}\n'},
        _summary,
    ),
    # ... and more than is worth walking (the entry lies past the walk's 10,000 values)
    # stands for the whole registry (a mutation round: nothing tested it)
    "str-format-past-the-walk": (
        {"profiles/[profile].mdx.j2": PAGE
         + '{{ "{0[0].model.label}".format([profile] + (range(20000) | list)) }}\n'},
        _label,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", CASES)
def test_an_edit_reaches_a_page_through_what_it_read(
    make_project: Callable[..., Project], run: Callable[..., Outcome], name: str
) -> None:
    templates, edit = CASES[name]
    registry = LAUNCHED if name == "launcher-tokens" else MINIMAL_REGISTRY
    project = make_project(registry=registry, templates=templates)
    assert run(project, "build").exit_code == 0
    edit(project)
    cached = run(project, "check")
    shutil.rmtree(project.root / cache.FOLDER)
    fresh = run(project, "check")
    assert fresh.exit_code == 1, fresh.output  # the edit changed the page
    assert (cached.exit_code, cached.output) == (fresh.exit_code, fresh.output)
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0


OPENCLAW_REGION = "              # docgen:begin profiles\n"
DEEPAGENTS_SETUP = (
    '                  - page: "Set Up vLLM"\n'
    "                    path: _build/agent-variants/inference/"
    "set-up-vllm.deepagents.generated.mdx\n"
    "                    slug: set-up-vllm\n"
)


def _in_region(project: Project, nth: int, entry: str) -> None:
    """``entry`` written first in the ``nth`` managed region of the navigation."""
    text = project.read("docs/index.yml")
    at = -1
    for _ in range(nth + 1):
        at = text.index(OPENCLAW_REGION, at + 1)
    at += len(OPENCLAW_REGION)
    project.write("docs/index.yml", text[:at] + entry + text[at:])


@pytest.mark.parametrize("form", ["page-as-it-is", "variant-only-in-a-region"])
def test_what_a_navigation_region_holds_on_disk_is_never_read(
    example: Project, run: Callable[..., Outcome], form: str
) -> None:
    """A region is docgen's to write: what it holds on disk (an entry someone put there)
    changes no page, with the cache or without it, and a build replaces it."""
    if form == "variant-only-in-a-region":
        project_text = example.read("docs/index.yml")
        example.write("docs/index.yml", project_text.replace(DEEPAGENTS_SETUP, "", 1))
    assert run(example, "build").exit_code == 0
    if form == "page-as-it-is":
        entry = '              - page: "Raw"\n                path: inference/set-up-vllm.mdx\n'
        _in_region(example, 0, entry)
    else:
        entry = DEEPAGENTS_SETUP.replace("                  -", "              -", 1)
        _in_region(example, 2, entry.replace("\n                    ", "\n                "))
    cached = run(example, "check")
    shutil.rmtree(example.root / cache.FOLDER)
    fresh = run(example, "check")
    # A hand edit of the region: only the cache can tell it, and says so.
    assert "edited since docgen wrote it" in cached.output
    assert (cached.exit_code, as_any_drift(cached.output)) == (fresh.exit_code, fresh.output)
    assert fresh.exit_code == 1 and "docs/index.yml" in fresh.output, fresh.output
    assert fresh.output.count("out of date") == 1, fresh.output  # the navigation alone
    built = run(example, "build")
    assert built.exit_code == 0, built.output
    assert run(example, "check").exit_code == 0
