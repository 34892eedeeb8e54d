"""Hostile registry text stays data: it renders literally, pages still compile, or it is refused.

Each hostile value goes into every free-text field of a registry at once (product
name, host name, model label and notes, profile summary, override summary and
tradeoffs, evidence host, setup and results). The project renders it with this
repository's real templates, a template that uses every MDX context filter, and a
hand-written shared page with managed regions and AgentOnly blocks. Then:

- the build succeeds, and every generated page and agent variant compiles with MDX 3;
- every table has the shape it has when the same project holds plain text;
- the value reads back literally in prose, inline code, table cells, code blocks and
  frontmatter (after the documented normalisation of tests/render/test_mdx.py: bidi controls
  dropped, NUL as U+FFFD, line endings as spaces in one-line contexts);
- a value that is Jinja syntax is never evaluated.

Registry text that generated pages would read as a directive (an ``<AgentOnly>`` tag,
even inline, since code contexts cannot escape it; a docgen region marker) and
JSON-style surrogate escapes are refused with a located error instead.
Property tests (hypothesis) drive the AgentOnly engine with generated pages.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import pytest
from conftest import MINIMAL_REGISTRY, REPO
from hypothesis import given, settings
from hypothesis import strategies as st
from mdxc import Readback, mdx_read, require_mdx
from ruamel.yaml import YAML
from scale import docgen

from docgen.errors import Location
from docgen.registry.model import Agent, Source
from docgen.render import variants

BIDI = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

HOSTILE = {
    "braces-and-angles": "a {b} <c>",
    "jinja-expression": "{{ 1234*5678 }}",
    "jinja-statement": "{% if true %}evaluated{% endif %}",
    "jinja-comment": "{# hidden #} shown",
    "script-tag": "<script>alert(1)</script>",
    "jsx-expression": "{1+1} {props.x} {/* c */}",
    "cli-token": "run $$acme onboard",
    "pipes": "a | b || c \\| d",
    "backticks": "``` `code` ``",
    "newlines": "first line\nsecond line\r\nthird\rfourth",
    "bidi-controls": "abc\u202edef\u2066ghi\u2069 jkl\u200f",
    "nul": "nul\x00byte",
    "terminal-escapes": "a\x1b[31mb\x07c\x08d\x0be\x0cf",
    "heading": "# not a heading",
    "list-item": "- not a list",
    "ordered-item": "1. not a list",
    "quote": "> not a quote",
    "thematic-break": "---",
    "esm-import": "import x from 'y'",
    "esm-export": "export const a = 1",
    "html-comment": "<!-- comment -->",
    "entities": "&amp; &#60; &lt;",
    "links": "[x](javascript:alert(1)) ![i](y.png) <http://a.b>",
    "emphasis": "*a* _b_ **c** ~~d~~",
    "backslashes": "C:\\path\\ end\\",
    "url": "https://example.com/a_b*c",
    "unicode": "naïve — 日本語 🙂",
}
#: What Jinja would make of the Jinja values, if it ever evaluated them.
EVALUATED = ("7006652", "evaluated\n", ">evaluated<")

VALUE = "VALUE"
REGISTRY = """\
schema: 1
product:
  name: VALUE
  cli_token: $$acme
  docs_base: /guide/{agent}
  spdx: {copyright: Copyright (c) 2026 Acme Inc., license: Apache-2.0}
agents:
  - {id: alpha, title: Acme for Alpha, cli: acme, default: true}
  - {id: beta, title: Acme for Beta, cli: acme-beta}
hosts:
  box: {name: VALUE, arch: amd64}
images:
  img:
    ref: example.org/vllm:1.0
    digest: sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
    compressed_bytes: 1234567890
    platform: linux/amd64
models:
  tiny: {hf: acme/Tiny-1B, label: VALUE, notes: VALUE}
profiles:
  vllm.box.tiny:
    model: tiny
    host: box
    default: true
    image: img
    summary: VALUE
    args:
      max-model-len: 32768
      gpu-memory-utilization: 0.5
      speculative-config: {method: VALUE, num_speculative_tokens: 2}
    overrides:
      small:
        summary: VALUE
        args: {gpu-memory-utilization: 0.3}
        tradeoffs: [VALUE]
    evidence:
      - date: 2026-01-02
        host: VALUE
        setup: VALUE
        results: {VALUE: VALUE, KV cache: VALUE}
"""

CONTEXTS = """\
---
title: {{ models.tiny.label | mdx_fm }}
# {{ models.tiny.notes | fm_comment }}
---

Prose: {{ models.tiny.notes }} end.

{{ profiles[0].summary }}

- {{ hosts.box.name }}

## {{ models.tiny.label }}

Code: {{ models.tiny.notes | mdx_code }} end.

{{ table(["Field", "Value"], [["label", models.tiny.label], ["notes", models.tiny.notes], \
["code", models.tiny.notes | mdx_code(in_table=True)]]) }}

{{ models.tiny.notes | code_block("text") }}

<Note>
{{ profiles[0].overrides[0].summary }}
</Note>
"""

SHARED = """\
---
title: Shared
---

Run `$$acme onboard`.

<AgentOnly variant="alpha">
Alpha only.
</AgentOnly>

{/* docgen:begin models-table */}
{/* docgen:end */}

{/* docgen:begin override-examples vllm.box.tiny */}
{/* docgen:end */}
"""


def clean(text: str) -> str:
    """What every filter keeps: no bidi controls, U+FFFD for a control character (but tab
    and line ends: an escape sequence or a bell reached the pages raw)."""
    return re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", "\ufffd", re.sub(f"[{BIDI}]", "", text))


def flat(text: str) -> str:
    """Cleaned text on one line (prose, cells, inline code)."""
    return re.sub(r"\r\n|\r|\n", " ", clean(text))


def block(text: str) -> str:
    """Cleaned text as a fenced code block holds it."""
    return re.sub(r"\r\n|\r", "\n", clean(text))


def registry_with(value: str) -> str:
    """The registry with every VALUE a YAML double-quoted scalar holding ``value``."""
    return REGISTRY.replace(VALUE, json.dumps(value, ensure_ascii=False))


def write_project(root: Path, value: str) -> None:
    shutil.copytree(REPO / "templates", root / "templates")
    (root / "templates" / "contexts.mdx.j2").write_text(CONTEXTS, "utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "shared.mdx").write_text(SHARED, "utf-8")
    (root / "profiles.yaml").write_text(registry_with(value), "utf-8")


@dataclass(frozen=True)
class Built:
    exit_code: int
    output: str
    pages: dict[str, str]  # every generated .mdx: path -> text
    readbacks: dict[str, Readback]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Built]:
    """Build one project per hostile value (and one with plain text), compile all at once."""
    require_mdx()
    projects: dict[str, tuple[int, str, dict[str, str]]] = {}
    for name, value in {"plain": "Plain text.", **HOSTILE}.items():
        root = tmp_path_factory.mktemp(name) / "proj"
        write_project(root, value)
        result = docgen(root, "build")
        pages = {
            p.relative_to(root).as_posix(): p.read_text("utf-8")
            for p in sorted((root / "docs").rglob("*.mdx"))
        }
        projects[name] = (result.exit_code, result.output, pages)
    batch = {
        f"{name}|{path}": text
        for name, (_, _, pages) in projects.items()
        for path, text in pages.items()
    }
    readbacks = mdx_read(batch)
    return {
        name: Built(
            code,
            output,
            pages,
            {path: readbacks[f"{name}|{path}"] for path in pages},
        )
        for name, (code, output, pages) in projects.items()
    }


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_text_builds_compiles_and_keeps_tables(built: dict[str, Built], name: str) -> None:
    done, plain = built[name], built["plain"]
    assert done.exit_code == 0, done.output
    assert "Traceback" not in done.output
    assert sorted(done.pages) == sorted(plain.pages)
    assert len(done.pages) >= 10  # pages, regions and both agents' variants
    failed = {path: rb.error for path, rb in done.readbacks.items() if rb.error is not None}
    assert failed == {}
    shapes = {path: rb.tables for path, rb in done.readbacks.items()}
    assert shapes == {path: rb.tables for path, rb in plain.readbacks.items()}
    assert done.readbacks["docs/contexts.mdx"].tables == [[2, 2, 2, 2]]


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_text_reads_back_literally(built: dict[str, Built], name: str) -> None:
    value, page = HOSTILE[name], built[name].readbacks["docs/contexts.mdx"]
    assert page.text is not None and page.frontmatter is not None
    assert f"Prose: {flat(value)} end." in page.text
    assert f"Code: {flat(value)} end." in page.text
    assert block(value).rstrip("\n") in page.text
    assert YAML(typ="safe").load(page.frontmatter)["title"] == clean(value)
    shared = built[name].readbacks["docs/shared.mdx"].text
    assert shared is not None and flat(value).strip() in shared  # the models-table region


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_text_in_settings_sentences_reads_back_literally(
    built: dict[str, Built], name: str
) -> None:
    """Host and product names and the speculative method in the lead and profile sentences."""
    value = flat(HOSTILE[name])
    setup = built[name].readbacks["docs/inference/set-up-vllm.mdx"].text or ""
    lead = (
        f"For the managed single-node {value} acme/Tiny-1B profile, {value} enables {value} "
        "speculative"
    )
    assert f"{lead} decoding.\n" in setup
    assert f"{value} enables {value} speculative decoding." in setup.split(lead)[1]


def test_registry_text_is_never_evaluated_as_a_template(built: dict[str, Built]) -> None:
    for name in ("jinja-expression", "jinja-statement", "jinja-comment"):
        for text in built[name].pages.values():
            assert not any(result in text for result in EVALUATED), name
    shown = built["jinja-comment"].readbacks["docs/contexts.mdx"].text or ""
    assert "{# hidden #} shown" in shown


def test_cli_token_in_registry_text_is_replaced_in_variants_like_page_text(
    built: dict[str, Built],
) -> None:
    token = built["cli-token"].readbacks
    assert "run $$acme onboard" in (token["docs/contexts.mdx"].text or "")
    beta = token["docs/_build/agent-variants/contexts.beta.generated.mdx"].text or ""
    assert "run acme-beta onboard" in beta and "$$acme" not in beta


DIRECTIVE = (
    "registry text may not contain an <AgentOnly> tag or a docgen region marker: "
    "generated pages would read it as a directive"
)
NOTES = "    notes: Box default."


@pytest.mark.parametrize(
    "notes",
    [
        '"Fine.\\n</AgentOnly>"',
        '"<AgentOnly variant=\\"beta\\">\\nMore."',
        '"Fine.\\n   </AgentOnly>  "',
        '"See {/* docgen:begin models-table */}."',
        "|\n      Fine.\n      {/* docgen:end */}",
        "'keep </AgentOnly> inline'",
        "'<AgentOnly variant=\"beta\">x</AgentOnly>'",
    ],
    ids=[
        "closing-line",
        "opening-line",
        "indented-closing-line",
        "region-begin",
        "region-end",
        "inline-closing-tag",
        "inline-block",
    ],
)
def test_agentonly_tags_and_region_markers_in_registry_text_are_refused(
    make_project, run, notes: str
) -> None:
    project = make_project(registry=MINIMAL_REGISTRY.replace(NOTES, f"    notes: {notes}"))
    before = project.snapshot()
    result = run(project, "build")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"profiles.yaml:31:12: error: {DIRECTIVE}"]
    assert project.snapshot() == before


def test_surrogate_escapes_in_registry_text_are_refused(make_project, run) -> None:
    """JSON-style ``\\ud83d\\ude42`` escapes are lone surrogates in YAML; no file holds them."""
    registry = MINIMAL_REGISTRY.replace("  name: Acme", '  name: "Acme \\ud83d\\ude42"')
    project = make_project(registry=registry)
    before = project.snapshot()
    result = run(project, "build")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "profiles.yaml:3:9: error: registry text contains an unpaired UTF-16 surrogate "
        "(write the character itself instead of a \\ud83d-style escape)"
    ]
    assert project.snapshot() == before


# -- the AgentOnly engine, property-based ----------------------------------------------

TOKEN = "$$acme"
AGENTS = tuple(
    Agent(
        aid, f"Acme for {aid}", cli, MappingProxyType({}), aid == "alpha", Source((), Location("p"))
    )
    for aid, cli in (("alpha", "acme"), ("beta", "acme-beta"), ("gamma", "acme-gamma"))
)
#: Text that can never form a tag, a link, an import or a frontmatter marker.
SAFE = "abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 .,;:!?'\"()-_*#$&=+%"

lines = st.text(alphabet=SAFE, min_size=1, max_size=24).filter(
    lambda t: t.strip() and t.strip() != "---"
)
#: Text before a token may not end in "$": "$$" + "$$acme" would read "$$acme" again once
#: the token is replaced, a token the author wrote on purpose.
before_token = lines.filter(lambda t: not t.endswith("$"))
with_token = st.one_of(lines, st.builds(lambda a, b: f"{a}{TOKEN}{b}", before_token, lines))
audiences = st.lists(st.sampled_from([a.id for a in AGENTS]), min_size=1, unique=True)
items = st.one_of(
    with_token.map(lambda line: (None, [line])),
    st.tuples(audiences, st.lists(with_token, max_size=4)),
)


def page_text(body: list[tuple[list[str] | None, list[str]]], separator: str) -> str:
    out = ["---", "title: T", "---"]
    for audience, content in body:
        if audience is None:
            out += content
        else:
            out += [f'<AgentOnly variant="{separator.join(audience)}">', *content, "</AgentOnly>"]
    return "\n".join(out) + "\n"


def expected(body: list[tuple[list[str] | None, list[str]]], agent: Agent) -> str:
    kept = [
        line.replace(TOKEN, agent.cli)
        for audience, content in body
        if audience is None or agent.id in audience
        for line in content
    ]
    return "---\ntitle: T\n---\n" + "".join(f"{line}\n" for line in kept)


@settings(max_examples=150, deadline=None)
@given(st.lists(items, max_size=12), st.sampled_from([",", ", ", " , "]))
def test_each_variant_is_exactly_its_agents_selection(body, separator: str) -> None:
    page = variants.parse("docs/p.mdx", page_text(body, separator), AGENTS)
    assert len(page.blocks) == sum(audience is not None for audience, _ in body)
    for agent in AGENTS:
        variant = variants.render(page, agent, TOKEN, f"docs/_build/p.{agent.id}.mdx")
        assert variant == expected(body, agent)
        assert "AgentOnly" not in variant
        assert TOKEN not in variant
