"""Fern's navigation as docgen reads it: NemoClaw's real ``docs/index.yml`` (its variants,
which pages each lists, the route of each), the slug rules on small navigations, and a
located error for each way a navigation file can be wrong."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from docgen import navigation
from docgen.config import load_project
from docgen.errors import ConfigError

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "nemoclaw-docs"
BUILT = "docs/_build/agent-variants"

#: How a route segment no link reaches is refused (after its route and segment).
NO_LINK = (
    "which no link reaches (docgen links to each release under it): give the node a slug "
    "of letters, digits, '-', '_', '.' and '~', starting with a letter or digit"
)


@pytest.fixture(scope="module")
def nemoclaw() -> navigation.Navigation:
    nav = navigation.load(load_project(FIXTURE))
    assert nav is not None
    return nav


def test_nemoclaws_variants_are_read_in_order_with_the_default(nemoclaw):
    assert [(v.slug, v.title, v.default) for v in nemoclaw.variants] == [
        ("openclaw", "NemoClaw for OpenClaw", True),
        ("deepagents", "NemoClaw for Deep Agents", False),
        ("hermes", "NemoClaw for Hermes", False),
    ]
    assert [len(v.pages) for v in nemoclaw.variants] == [72, 50, 63]
    assert [str(v.where) for v in nemoclaw.variants] == [
        "docs/index.yml:14:15",
        "docs/index.yml:304:15",
        "docs/index.yml:515:15",
    ]


def test_a_shared_page_is_listed_only_by_the_variants_that_publish_it(nemoclaw):
    def listed(page: str) -> list[str]:
        return [
            v.slug
            for v in nemoclaw.variants
            if any(p.path == f"{BUILT}/{page}.{v.slug}.generated.mdx" for p in v.pages)
        ]

    assert listed("inference/set-up-vllm") == ["openclaw", "deepagents", "hermes"]
    assert listed("manage-sandboxes/messaging-channels") == ["openclaw", "hermes"]


def test_each_page_has_its_route_and_its_line(nemoclaw):
    [page] = nemoclaw.listed(f"{BUILT}/inference/set-up-vllm.hermes.generated.mdx")
    assert page.route == "/user-guide/hermes/inference/local-inference/set-up-vllm"
    assert str(page.where) == "docs/index.yml:600:27"
    [home, *_] = nemoclaw.listed("docs/index.mdx")
    assert home.route == "/user-guide/openclaw/home"


def test_of_the_48_routes_nemoclaws_changelog_links_to_this_snapshot_publishes_21(nemoclaw):
    links = set()
    for entry in sorted((FIXTURE / "docs/changelog").glob("*.mdx")):
        links |= {m.split("#")[0] for m in re.findall(r"\]\((/[^)\s]*)\)", entry.read_text())}
    published = links & nemoclaw.routes()
    assert (len(links), len(published)) == (48, 21)
    assert "/user-guide/openclaw/reference/commands" in published
    assert "/user-guide/openclaw/manage-sandboxes/mcp-servers/manage-mcp-servers" not in published


# -- the slug rules, on small navigations ----------------------------------------------------


def nav_of(make_project, text: str) -> navigation.Navigation:
    project = make_project(files={"docs/index.yml": text})
    nav = navigation.load(load_project(project.root))
    assert nav is not None
    return nav


SMALL = """\
tabs:
  guide:
    display-name: The User Guide
navigation:
  - tab: guide
    variants:
      - title: For Alpha Agents
        layout:
          - page: Getting Started, Quickly!
            path: start.mdx
          - section: Deep Dive
            path: dive/index.mdx
            contents:
              - page: One
                path: dive/one.mdx
                slug: first
              - section: Hidden Group
                skip-slug: true
                contents:
                  - page: Two
                    path: ./dive/../dive/two.mdx
              - link: Elsewhere
                href: https://example.com
      - title: Beta
        slug: b
        layout:
          - page: Start
            path: start.mdx
  - page: About
    path: about.mdx
"""


def test_slugs_come_from_titles_unless_given_and_skip_slug_skips_one(make_project):
    nav = nav_of(make_project, SMALL)
    assert [(p.path, p.route) for p in nav.pages] == [
        ("docs/start.mdx", "/the-user-guide/for-alpha-agents/getting-started-quickly"),
        ("docs/dive/index.mdx", "/the-user-guide/for-alpha-agents/deep-dive"),
        ("docs/dive/one.mdx", "/the-user-guide/for-alpha-agents/deep-dive/first"),
        ("docs/dive/two.mdx", "/the-user-guide/for-alpha-agents/deep-dive/two"),
        ("docs/start.mdx", "/the-user-guide/b/start"),
        ("docs/about.mdx", "/about"),
    ]
    assert [v.slug for v in nav.variants] == ["for-alpha-agents", "b"]


@pytest.mark.parametrize("value", ["false", '"true"', "1"])
def test_skip_slug_false_keeps_the_sections_slug(make_project, value):
    """Only the boolean ``true`` skips a slug (Fern's schema takes a boolean there)."""
    nav = nav_of(make_project, SMALL.replace("skip-slug: true", f"skip-slug: {value}"))
    assert [p.route for p in nav.pages][3] == (
        "/the-user-guide/for-alpha-agents/deep-dive/hidden-group/two"
    )


def test_a_tabs_own_slug_leads_its_routes(make_project):
    text = SMALL.replace("display-name: The User Guide", "display-name: X\n    slug: ug")
    nav = nav_of(make_project, text)
    assert sorted(nav.routes())[:2] == ["/about", "/ug/b/start"]


def test_without_a_navigation_file_there_is_none(make_project):
    project = make_project()
    assert navigation.load(load_project(project.root)) is None


# -- a located error for each way the file can be wrong -------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "navigation: [\n",
            "docs/index.yml:1:13: error: this '[' list is never closed: the file ends before "
            "its ']'",
        ),
        ("- a\n- b\n", "docs/index.yml:1:1: error: the navigation is not a YAML mapping"),
        ("tabs: {}\n", "docs/index.yml: error: the navigation has no 'navigation' list"),
        (
            "navigation:\n  - page: A\n    path: a.mdx\n  - just text\n",
            "docs/index.yml:4:5: error: a navigation item is a mapping such as 'page: ...'",
        ),
        (
            "navigation:\n  - section: S\n    contents: nope\n",
            "docs/index.yml:3:15: error: 'contents' is a list of navigation items",
        ),
        (
            'navigation:\n  - changelog: ../changelog\n    slug: "/evil.example) {x} <b>"\n',
            "docs/index.yml:3:11: error: slug '/evil.example) {x} <b>' is not a path segment "
            "of a route: use letters, digits, '-', '_', '.' and '~', starting with a letter or "
            "digit",
        ),
        (
            "navigation:\n  - page: A\n    path: a.mdx\n    slug: ../up\n",
            "docs/index.yml:4:11: error: slug '../up' is not a path segment",
        ),
        (
            "navigation:\n  - tab: t\ntabs:\n  t:\n    slug: a/b\n",
            "docs/index.yml:5:11: error: slug 'a/b' is not a path segment",
        ),
        (  # a route's segment of only dots would climb out of the route
            'navigation:\n  - page: A\n    path: a.mdx\n    slug: ".."\n',
            "docs/index.yml:4:11: error: slug '..' is not a path segment",
        ),
        (
            "navigation:\n  - page: A\n    path: a.mdx\n    slug: -x\n",
            "docs/index.yml:4:11: error: slug '-x' is not a path segment",
        ),
        (  # Fern publishes it, and calls every link to a release there broken
            "navigation:\n  - changelog: ../changelog\n    title: 日本語 リリース\n",
            "docs/index.yml:3:12: error: the route /日本語-リリース holds "
            f"'日本語-リリース', {NO_LINK}",
        ),
        (  # no UTF-8 file can hold it (a build failed writing the overview)
            "navigation:\n  - section: S\n    title: x\n    contents:\n"
            '      - changelog: ../changelog\n        title: "\\ud83d\\ude00 Notes"\n',
            "docs/index.yml:6:16: error: the route /s/\ud83d\ude00-notes holds "
            f"'\ud83d\ude00-notes', {NO_LINK}",
        ),
        (  # the section's title gives it: the section needs the slug, not the node
            "navigation:\n  - section: 日本語\n    contents:\n"
            "      - changelog: ../changelog\n        slug: notes\n",
            f"docs/index.yml:2:14: error: the route /日本語/notes holds '日本語', {NO_LINK}",
        ),
        (  # punctuation alone gives no slug: the route would hold //
            'navigation:\n  - section: "!!!"\n    contents:\n      - changelog: ../changelog\n',
            f"docs/index.yml:2:14: error: the route //changelog holds '', {NO_LINK}",
        ),
        (  # ruamel.yaml's scanner failed on it with Python's own ValueError (exit 3)
            'navigation:\n  - page: "A\\U00110000"\n    path: a.mdx\n',
            "docs/index.yml:2:13: error: the escape '\\U00110000' names no character",
        ),
        (  # ruamel.yaml's constructor failed on both (IndexError, TypeError: exit 3)
            "navigation:\n  - page: -_\n    path: a.mdx\n",
            "docs/index.yml:2:11: error: '-_' reads as a number in YAML 1.2, but no number "
            'can be read from it: quote it ("-_") to make it text',
        ),
        (
            "navigation:\n  - page: A\n    path: a.mdx\n    ? [{a: 1}]\n    : x\n",
            "docs/index.yml:4:7: error: a mapping key is a list or a mapping (written with "
            "`?`); a key must be a plain value: text, a number, true, false or null",
        ),
    ],
    ids=[
        "yaml",
        "not-a-mapping",
        "no-navigation",
        "item",
        "contents",
        "changelog-slug",
        "page-slug",
        "tab-slug",
        "dots-slug",
        "dash-first-slug",
        "changelog-title-beyond-ascii",
        "changelog-title-surrogate",
        "changelog-under-a-section-beyond-ascii",
        "changelog-under-a-section-of-punctuation",
        "escape-past-the-last-character",
        "no-number",
        "unhashable-key",
    ],
)
def test_a_wrong_navigation_is_a_located_error(make_project, text, message):
    project = make_project(files={"docs/index.yml": text})
    with pytest.raises(ConfigError) as caught:
        navigation.load(load_project(project.root))
    assert str(caught.value).startswith(message)


def test_a_named_navigation_file_must_exist(make_project):
    project = make_project(files={"docgen.toml": 'navigation = "fern/nav.yml"\n'})
    with pytest.raises(ConfigError) as caught:
        navigation.load(load_project(project.root))
    assert str(caught.value) == (
        "fern/nav.yml: error: cannot read navigation: No such file or directory"
    )


def test_a_navigation_linked_outside_the_root_is_never_read(make_project, tmp_path):
    project = make_project()
    outside = tmp_path / "outside.yml"
    shutil.copy(FIXTURE / "docs/index.yml", outside)
    (project.root / "docs").mkdir(exist_ok=True)
    (project.root / "docs/index.yml").symlink_to(outside)
    with pytest.raises(ConfigError) as caught:
        navigation.load(load_project(project.root))
    assert str(caught.value) == (
        "docs/index.yml: error: the navigation is a symbolic link that leaves the project "
        "root; docgen reads only files inside it"
    )


def test_a_fern_changelog_node_publishes_its_entries_by_date(make_project):
    text = SMALL.replace(
        "      - title: Beta\n        slug: b\n        layout:\n",
        "      - title: Beta\n        slug: b\n        layout:\n"
        "          - changelog: ./changelog\n            title: Release Notes\n"
        "            slug: release-notes\n"
        "          - changelog: ../history\n            title: Old Notes\n",
    )
    nav = nav_of(make_project, text)
    assert [(c.folder, c.route) for c in nav.changelogs] == [
        ("docs/changelog", "/the-user-guide/b/release-notes"),
        ("history", "/the-user-guide/b/old-notes"),
    ]
    [node] = nav.changelogs_of("docs/changelog")
    unnamed = text.replace(
        "            title: Release Notes\n            slug: release-notes\n", ""
    )
    untitled = navigation.read(unnamed, "docs/index.yml")  # neither a slug nor a title
    assert untitled.changelogs[0].route == "/the-user-guide/b/changelog"
    assert node.release(2026, 1, 2) == "/the-user-guide/b/release-notes/2026/1/2"
    assert str(node.where) == "docs/index.yml:27:24"


# -- the fast path reads a navigation as ruamel.yaml's round trip does ----------------------

BROKEN_NAVIGATIONS = [
    "navigation:\n  - page: A\n    path: a.mdx\n  - just text\n  - [x]\n",
    "navigation:\n  - section: S\n    contents: nope\n  - tab: t\n    layout: {a: 1}\n",
    "tabs:\n  t: {display-name: T}\n"
    "navigation:\n  - tab: t\n    variants: [1, {title: V, layout: 2}]\n",
    "navigation:\n  - changelog: ./log\n  - layout:\n      - page: P\n        path: p.mdx\n",
]


@pytest.mark.parametrize(
    "text",
    [
        (FIXTURE / "docs/index.yml").read_text("utf-8"),
        (Path(__file__).resolve().parents[2] / "docs/index.yml").read_text("utf-8"),
        *BROKEN_NAVIGATIONS,
    ],
    ids=["nemoclaw", "worked-example", "items", "lists", "variants", "changelog"],
)
def test_the_fast_path_reads_every_page_route_and_line_as_the_round_trip_does(text):
    """libyaml's fast path gives each mapping and list ruamel.yaml's ``lc`` lookups: the
    navigation, or the located problems, are the same both ways."""
    from docgen.registry.fastyaml import load_located

    fast = load_located(text, "docs/index.yml")
    assert fast is not None  # not declined: the fast path is what is compared

    def read(data: object) -> object:
        try:
            return navigation.parse(data, "docs/index.yml")
        except ConfigError as exc:
            return [str(problem) for problem in exc.problems]

    both = read(fast), read(navigation._round_trip(text, "docs/index.yml"))
    assert both[0] == both[1]
    if isinstance(both[0], list):
        assert all(re.match(r"docs/index.yml:\d+:\d+: ", p) for p in both[0])


@given(st.text(st.sampled_from("aZ0 9-_.'’éÜ😀vLLMGBnx\t"), max_size=24))
@example("VMs Guide")  # two capitals then a lowercase letter (a mutation round)
@example("GBn")
def test_a_slug_from_a_title_is_lodashs_however_it_is_worked_out(title):
    """The plain-ASCII shortcut (no pydash import) gives what lodash's kebabCase, through
    pydash, gives (the real fern check judges the routes: tests/integrations)."""
    from pydash import kebab_case

    assert navigation.slug_of(title) == kebab_case(title)


def test_a_title_of_plain_words_is_slugged_without_pydash():
    """lodash's own fast path, taken without importing pydash (about 13 ms of a check)."""
    import subprocess
    import sys

    code = (
        "import sys\nfrom docgen.navigation import slug_of\n"
        "assert slug_of('Deep Dive 2') == 'deep-dive-2'\nprint('pydash' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "False\n"
