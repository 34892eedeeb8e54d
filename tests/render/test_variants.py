"""Per-agent variants of shared pages (and the managed regions such pages hold)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import REPO
from mdxc import compile_mdx, require_mdx

from docgen.errors import PageError
from docgen.registry.load import load
from docgen.render import relative, variants
from docgen.render.audience import published_for as audience_of

CORPUS = REPO / "tests" / "fixtures" / "nemoclaw-docs" / "docs"
TOKEN = "$$nemoclaw"
VARIANTS = "docs/_build/agent-variants"

SHARED = """\
---
title: "Guide for $$acme"
---

Run `$$acme onboard`.

<AgentOnly variant="alpha">
Alpha only.
</AgentOnly>
<AgentOnly variant="beta">
Beta only.
</AgentOnly>

![diagram](../images/flow.png)
"""


@pytest.fixture(scope="module")
def nemoclaw_agents():
    return load(REPO / "profiles.yaml").agents


def corpus_pages() -> list[Path]:
    return sorted(CORPUS.rglob("*.mdx"))


# -- the engine on NemoClaw's real pages ------------------------------------------------


def render_all(path: Path, agents) -> dict[str, str]:
    rel = path.relative_to(CORPUS.parent).as_posix()
    page = variants.parse(rel, path.read_text("utf-8"), agents)
    audience = audience_of(page, agents)
    variants.check(page, audience, TOKEN)
    return {a.id: variants.render(page, a, TOKEN, f"{VARIANTS}/{rel[5:]}") for a in audience}


def test_real_pages_render_for_every_agent_and_compile(nemoclaw_agents):
    require_mdx()
    sources, outputs = {}, {}
    for path in corpus_pages():
        if path.name == "switch-inference-providers.mdx":
            continue  # predates the Deep Agents variant: see the test below
        sources[path.name] = path.read_text("utf-8")
        for agent, text in render_all(path, nemoclaw_agents).items():
            assert TOKEN not in text and "<AgentOnly" not in text and "</AgentOnly" not in text
            outputs[f"{path.name}:{agent}"] = text
    assert len(outputs) == 13 * 3 - 1  # set-up-ollama declares openclaw and hermes only
    source_ok = {name for name, error in compile_mdx(sources).items() if error is None}
    assert source_ok == set(sources)
    errors = {k: e for k, e in compile_mdx(outputs).items() if e is not None}
    assert errors == {}


def test_page_written_before_deep_agents_is_caught_for_that_agent(nemoclaw_agents):
    path = CORPUS / "inference" / "switch-inference-providers.mdx"
    with pytest.raises(PageError) as info:
        render_all(path, nemoclaw_agents)
    assert str(info.value) == (
        "docs/inference/switch-inference-providers.mdx:338: error: heading 'Notes' has no "
        "content in the deepagents variant: move the heading into the <AgentOnly> block that "
        "holds its body"
    )
    two = [a for a in nemoclaw_agents if a.id != "deepagents"]
    page = variants.parse("x.mdx", path.read_text("utf-8"), two)
    variants.check(page, two, TOKEN)
    text = variants.render(page, two[1], TOKEN, f"{VARIANTS}/inference/x.mdx")
    assert "AgentGuide" not in text and "nemohermes inference set" in text


def test_hand_picked_blocks_are_kept_and_dropped(nemoclaw_agents):
    vllm = render_all(CORPUS / "inference" / "set-up-vllm.at-7fad9e5a.mdx", nemoclaw_agents)
    assert "  NEMOCLAW_AGENT=hermes \\\n  bash -s -- --station-deepseek" in vllm["hermes"]
    assert "NEMOCLAW_AGENT=openclaw" not in vllm["hermes"]
    assert "NEMOCLAW_AGENT=langchain-deepagents-code \\" in vllm["deepagents"]
    assert "nemo-deepagents onboard --non-interactive" in vllm["deepagents"]
    headless = render_all(CORPUS / "deployment" / "deploy-to-headless-server.mdx", nemoclaw_agents)
    assert "TOKEN=$(nemohermes headless-agent gateway-token --quiet)" in headless["hermes"]
    assert "Deep Agents Code is a terminal runtime" in headless["deepagents"]
    assert "Deep Agents Code is a terminal runtime" not in headless["openclaw"]
    assert "export NEMOCLAW_AGENT=openclaw" in headless["openclaw"]
    assert "export NEMOCLAW_AGENT=hermes" not in headless["openclaw"]
    ollama = render_all(CORPUS / "inference" / "set-up-ollama.mdx", nemoclaw_agents)
    assert set(ollama) == {"openclaw", "hermes"}


# -- variants in a project -------------------------------------------------------------


def test_shared_hand_written_page_gets_one_variant_per_agent(make_project, run):
    project = make_project(files={"docs/guide/start.mdx": SHARED})
    assert run(project, "build").exit_code == 0
    alpha = project.read(f"{VARIANTS}/guide/start.alpha.generated.mdx")
    beta = project.read(f"{VARIANTS}/guide/start.beta.generated.mdx")
    assert alpha.startswith('---\ntitle: "Guide for acme"\n---\n\n{/* This file is generated')
    assert "Run `acme onboard`." in alpha and "Alpha only." in alpha
    assert "Beta only." not in alpha and "Run `acme-beta onboard`." in beta
    assert "![diagram](../../../images/flow.png)" in alpha
    assert project.read("docs/guide/start.mdx") == SHARED


def test_a_page_that_starts_with_a_bom_keeps_its_frontmatter_in_its_variants(make_project, run):
    """MDX reads frontmatter after a BOM: the variants hold it first, as without one."""
    project = make_project(files={"docs/guide/start.mdx": "\ufeff" + SHARED})
    assert run(project, "build").exit_code == 0
    alpha = project.read(f"{VARIANTS}/guide/start.alpha.generated.mdx")
    assert alpha.startswith('---\ntitle: "Guide for acme"\n---\n\n{/* This file is generated')
    assert run(project, "check").exit_code == 0


def test_a_region_page_keeps_its_bom_and_its_line_ends(make_project, run):
    page = "\ufeff" + REGION_PAGE.replace("\n", "\r\n")
    project = make_project(templates={}, files={"docs/models.mdx": page})
    assert run(project, "build").exit_code == 0
    raw = (project.root / "docs/models.mdx").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf# Models\r\n") and raw.count(b"\n") == raw.count(b"\r\n")
    assert b"| `tiny` | `acme/Tiny-1B` |" in raw
    assert run(project, "check").exit_code == 0
    assert run(project, "build").stdout.startswith("0 written, 0 updated")


def test_agent_variants_frontmatter_limits_the_agents(make_project, run):
    page = SHARED.replace('title: "Guide for $$acme"', 'title: "x"\nagent-variants: ["beta"]')
    page = page.replace("$$acme", "acme")
    project = make_project(templates={}, files={"docs/one.mdx": page})
    assert run(project, "build").exit_code == 0
    built = sorted(p.name for p in (project.root / VARIANTS).iterdir())
    assert built == ["one.beta.generated.mdx"]


@pytest.mark.parametrize(
    "listed",
    ["agent-variants:\n  - beta", "agent-variants: [beta]", "'agent-variants': ['beta']"],
)
def test_agent_variants_may_be_any_yaml_list(make_project, run, listed):
    page = SHARED.replace('title: "Guide for $$acme"', f'title: "x"\n{listed}')
    project = make_project(templates={}, files={"docs/one.mdx": page.replace("$$acme", "acme")})
    assert run(project, "build").exit_code == 0
    built = sorted(p.name for p in (project.root / VARIANTS).iterdir())
    assert built == ["one.beta.generated.mdx"]


@pytest.mark.parametrize(
    "head",
    [
        "---\n# only a comment\n---\n",
        "---\n---\n",
        "--- \n---\t\n",
        "---\ntitle: &t x\ndate: 2024-13-45\n---\n",  # a date is text, on either YAML path
        "---\n\n# A thematic break first\n",  # no frontmatter: no key follows the dashes
    ],
)
def test_a_frontmatter_of_comments_or_nothing_is_accepted_as_mdx_accepts_it(
    make_project, run, head
):
    project = make_project(templates={}, files={"docs/one.mdx": head + "\nRun `$$acme`.\n"})
    assert run(project, "build").exit_code == 0
    built = sorted(p.name for p in (project.root / VARIANTS).iterdir())
    assert built == ["one.alpha.generated.mdx", "one.beta.generated.mdx"]


def test_relative_imports_are_rewritten_for_the_deeper_location():
    text = 'import { Thing } from "../_components/Thing";\n\n[route](other-page)\n'
    out = relative.rewrite_paths(
        text, "docs/inference/a.mdx", f"{VARIANTS}/inference/a.hermes.generated.mdx"
    )
    assert out == 'import { Thing } from "../../../_components/Thing";\n\n[route](other-page)\n'


def test_an_import_beside_the_page_stays_relative_in_a_variant_beside_it(make_project, run):
    """With variants written beside their page, a re-aimed import keeps its leading
    "./": a bare ``snip.mdx`` would be resolved by MDX as a package, not a file."""
    settings = 'variants = "docs"\nvariant_pattern = "{dir}/{stem}.{agent}.mdx"\n'
    page = 'import Snip from "./snip.mdx";\n\nRun `$$acme`.\n\n<Snip />\n'
    project = make_project(
        templates={},
        files={"docgen.toml": settings, "docs/guide.mdx": page, "docs/snip.mdx": "Hi.\n"},
    )
    assert run(project, "build").exit_code == 0
    alpha = project.read("docs/guide.alpha.mdx")
    assert 'import Snip from "./snip.mdx";' in alpha
    assert "Run `acme`." in alpha


PAGE_ERRORS = [
    (
        "nested",
        '<AgentOnly variant="alpha">\n<AgentOnly variant="beta">\nx\n</AgentOnly>\n</AgentOnly>\n',
        "docs/p.mdx:6: error: nested <AgentOnly> block (the block opened on line 5 is still open)",
    ),
    (
        "unclosed",
        '<AgentOnly variant="alpha">\nx\n',
        "docs/p.mdx:5: error: unclosed <AgentOnly> block: add </AgentOnly> on its own line",
    ),
    (
        "stray",
        "x\n</AgentOnly>\n",
        "docs/p.mdx:6: error: stray </AgentOnly> without an opening tag",
    ),
    (
        "inline",
        'Use <AgentOnly variant="alpha">this</AgentOnly>.\n',
        "docs/p.mdx:5: error: inline <AgentOnly> tag: put each opening and closing tag alone on "
        "its own line",
    ),
    (
        "unknown-agent",
        '<AgentOnly variant="alpha,gamma">\nx\n</AgentOnly>\n',
        "docs/p.mdx:5: error: unknown agent 'gamma' in <AgentOnly>; the agents are 'alpha' and "
        "'beta'",
    ),
    (
        "two-runtime-components-on-a-line",  # one problem for the line, not one per tag
        "Run `$$acme`.\n\nRun <AgentCli /> then <AgentCli /> again.\n",
        "docs/p.mdx:7: error: runtime component <AgentCli> is not resolved in variants: "
        "write the CLI token or literal text instead",
    ),
    (
        "empty-heading-indented-three",  # CommonMark's heading may stand 3 spaces in
        '   ## Only Alpha\n\n<AgentOnly variant="alpha">\nx\n</AgentOnly>\n',
        "docs/p.mdx:5: error: heading 'Only Alpha' has no content in the beta variant: move the "
        "heading into the <AgentOnly> block that holds its body",
    ),
    (
        "empty-heading",
        '## Only Alpha\n\n<AgentOnly variant="alpha">\nx\n</AgentOnly>\n',
        "docs/p.mdx:5: error: heading 'Only Alpha' has no content in the beta variant: move the "
        "heading into the <AgentOnly> block that holds its body",
    ),
]


@pytest.mark.parametrize(
    ("body", "expected"), [c[1:] for c in PAGE_ERRORS], ids=[c[0] for c in PAGE_ERRORS]
)
def test_variant_errors_are_located_and_nothing_is_written(make_project, run, body, expected):
    project = make_project(files={"docs/p.mdx": f"---\ntitle: x\n---\n\n{body}"})
    before = project.snapshot()
    result = run(project, "build")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0] == expected
    assert len(set(lines)) == len(lines)  # no problem said twice
    assert project.snapshot() == before


def test_frontmatter_errors(make_project, run):
    for frontmatter, expected in [
        (
            'agent-variants: ["alpha", "alhpa"]',
            "docs/p.mdx:3:1: error: agent-variants names unknown agent 'alhpa'; "
            "did you mean 'alpha'?",
        ),
        (
            'agent-variants: ["alpha"]',
            "docs/p.mdx:6: error: '$$acme' on a page published only for 'alpha': write the CLI "
            "name literally or publish the page for more agents",
        ),
    ]:
        project = make_project(
            files={"docs/p.mdx": f"---\ntitle: x\n{frontmatter}\n---\n\nRun `$$acme`.\n"}
        )
        result = run(project, "build")
        assert result.exit_code == 2
        assert result.stderr.splitlines() == [expected]
        shutil.rmtree(project.root)


# -- managed regions ---------------------------------------------------------------------

REGION_PAGE = """\
# Models

Intro written by hand.

{/* docgen:begin models-table */}
{/* docgen:end */}

{/* docgen:begin serve-command vllm.box.tiny */}
{/* docgen:end */}

{/* docgen:begin override-examples vllm.box.tiny */}
{/* docgen:end */}

Outro written by hand.
"""


def test_regions_are_filled_and_text_outside_is_kept(make_project, run):
    project = make_project(templates={}, files={"docs/models.mdx": REGION_PAGE})
    assert run(project, "build").exit_code == 0
    text = project.read("docs/models.mdx")
    assert text.startswith(
        "# Models\n\nIntro written by hand.\n\n{/* docgen:begin models-table */}"
        "\n\n| Slug | Hugging Face model |"
    )
    assert "| `tiny` | `acme/Tiny-1B` | Big Box | None | Box default. |" in text
    assert "```bash\nvllm serve acme/Tiny-1B \\\n  --max-model-len 32768 \\" in text
    assert 'ACME_EXTRA_ARGS_JSON=\'["--gpu-memory-utilization","0.3"]\' \\' in text
    assert text.endswith("{/* docgen:end */}\n\nOutro written by hand.\n")
    assert run(project, "check").exit_code == 0
    assert "acme-beta onboard" in project.read(f"{VARIANTS}/models.beta.generated.mdx")


def test_check_fails_on_edits_inside_a_region_and_accepts_edits_outside(make_project, run):
    page = REGION_PAGE.split("{/* docgen:begin serve-command")[0]
    project = make_project(templates={}, files={"docs/models.mdx": page})
    assert run(project, "build").exit_code == 0
    project.edit("docs/models.mdx", "Intro written by hand.", "Intro, edited by hand.")
    assert run(project, "check").exit_code == 0
    project.edit("docs/models.mdx", "| Box default. |", "| Edited. |")
    result = run(project, "check")
    assert result.exit_code == 1
    assert "docs/models.mdx:9:1: error: out of date with the registry" in result.output
    assert "-| `tiny` | `acme/Tiny-1B` | Big Box | None | Edited. |" in result.output
    assert run(project, "build").exit_code == 0
    assert "Intro, edited by hand." in project.read("docs/models.mdx")
    assert "| Box default. |" in project.read("docs/models.mdx")


def test_custom_region_from_project_template(make_project, run):
    project = make_project(
        templates={
            "_regions/greeting.mdx.j2": "Hello {{ args | join(' ') }} from {{ product.name }}."
        },
        files={"docs/p.mdx": "{/* docgen:begin greeting big world */}\n{/* docgen:end */}\n"},
    )
    assert run(project, "build").exit_code == 0
    assert "Hello big world from Acme." in project.read("docs/p.mdx")


REGION_ERRORS = [
    (
        "{/* docgen:begin model-table */}\n{/* docgen:end */}\n",
        "docs/p.mdx:1:18: error: unknown region 'model-table'; did you mean 'models-table'?",
    ),
    (
        "{/* docgen:begin models-table */}\n",
        "docs/p.mdx:1:1: error: region 'models-table' is never closed: add {/* docgen:end */}",
    ),
    ("text\n{/* docgen:end */}\n", "docs/p.mdx:2:1: error: docgen:end without a docgen:begin"),
    (
        "{/* docgen:begin models-table */}\n{/* docgen:begin host-defaults */}\n"
        "{/* docgen:end */}\n",
        "docs/p.mdx:2:1: error: docgen:begin inside region 'models-table' (opened on line 1); "
        "close it first",
    ),
    (
        "{/* docgen:begin serve-command nope */}\n{/* docgen:end */}\n",
        "docs/p.mdx:1:32: error: unknown profile 'nope' in region 'serve-command'",
    ),
]


@pytest.mark.parametrize(("page", "expected"), REGION_ERRORS)
def test_region_errors_are_located(make_project, run, page, expected):
    project = make_project(files={"docs/p.mdx": page})
    before = project.snapshot()
    result = run(project, "build")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [expected]
    assert project.snapshot() == before


# -- the empty-section rule, against the plain definition --------------------------------


def _reference_sections(lines: list[variants.Line]) -> dict[int, tuple[str, bool]]:
    """Heading line -> (title, has content), by rescanning the lines an agent sees."""
    out: dict[int, tuple[str, bool]] = {}
    open_headings: list[tuple[int, int]] = []
    for line in lines:
        heading = variants.HEADING.match(line.text)
        if heading:
            level = len(heading[1])
            while open_headings and open_headings[-1][1] >= level:
                open_headings.pop()
            for number, _ in open_headings:
                out[number] = (out[number][0], True)
            open_headings.append((line.number, level))
            out[line.number] = ((heading[2] or "").strip(), False)
        elif line.text.strip() and not line.text.startswith(("<AgentOnly", "</AgentOnly")):
            for number, _ in open_headings:
                out[number] = (out[number][0], True)
    return out


def _reference_empty(page: variants.Page, agents: list[str]) -> list[tuple[int, str]]:
    source = _reference_sections(list(page.body))
    found = []
    for agent in agents:
        variant = _reference_sections(variants.select(page, agent))
        for number, (_title, has_content) in source.items():
            if has_content and number in variant and not variant[number][1]:
                found.append((number, agent))
    return found


PIECES = ["## A", "### B", "# C", "text", "", "more text"]


@pytest.mark.parametrize("seed", range(300))
def test_empty_sections_match_rescanning_every_variant(seed):
    rng = random.Random(seed)
    lines = ["---", "title: t", "---"]
    for _ in range(rng.randint(1, 14)):
        if rng.random() < 0.3:
            lines.append(f'<AgentOnly variant="{rng.choice(["a", "b", "a,b"])}">')
            lines += rng.choices(PIECES, k=rng.randint(0, 4))
            lines.append("</AgentOnly>")
        else:
            lines.append(rng.choice(PIECES))
    agents = [SimpleNamespace(id=agent) for agent in "abc"]
    page = variants.parse("p.mdx", "\n".join(lines), agents)  # type: ignore[arg-type]
    found = [
        (problem.location.line, problem.message.split(" variant")[0].rsplit(" ", 1)[1])
        for problem in variants.empty_sections(page, ["a", "b", "c"])
        if problem.location is not None
    ]
    assert found == _reference_empty(page, ["a", "b", "c"]), "\n".join(lines)


def test_an_agent_list_may_space_its_names_after_the_commas(make_project, run):
    """``variant="alpha, beta"`` names both agents (each name stripped): the block goes
    to both variants, and a third agent's would drop it."""
    page = SHARED.replace('variant="alpha"', 'variant=" alpha ,  beta"')
    project = make_project(files={"docs/guide/start.mdx": page})
    assert run(project, "build").exit_code == 0, run(project, "build").stderr
    for agent in ("alpha", "beta"):
        assert "Alpha only." in project.read(f"{VARIANTS}/guide/start.{agent}.generated.mdx")
    assert run(project, "check").exit_code == 0
