"""The navigation as an output: ``# docgen:begin profiles`` / ``# docgen:end`` in a
variant's layout holds one entry per per-profile page as that variant publishes it; a new
profile's page is listed and published, a removed one's entry pruned, ``check`` reports a
stale region like a stale page, and every byte outside the regions is kept."""

from __future__ import annotations

import pytest
from conftest import MINIMAL_REGISTRY

PROFILE_PAGE = (
    '---\ntitle: "{{ profile.model.label }} on {{ profile.host.name }}"\n---\n\n'
    "Run `$$acme onboard`.\n"
)
SECOND = """  vllm.box.tiny-two:
    model: tiny
    host: box
    image: img
    args:
      max-model-len: 16384
"""
NAV = """\
# Our navigation. docgen keeps every byte outside its regions.
navigation:
  - tab: guide
    variants:
      - title: Alpha
        slug: alpha
        layout:
          - section: Profiles   # the managed list
            contents:
              # docgen:begin profiles
              # docgen:end
      - title: Beta
        slug: beta
        layout:
          - section: Profiles
            contents:
                  # docgen:begin profiles
                  - page: "stale"
                    path: stale.mdx
                  # docgen:end
"""


def two_profiles(registry: str) -> str:
    return registry.replace("profiles:\n", "profiles:\n" + SECOND, 1)


@pytest.fixture
def project(make_project, run):
    made = make_project(
        registry=two_profiles(MINIMAL_REGISTRY),
        templates={"profiles/[profile].mdx.j2": PROFILE_PAGE},
        files={"docs/index.yml": NAV},
    )
    assert run(made, "build").exit_code == 0
    return made


def entry(pad: str, agent: str, profile: str) -> str:
    return (
        f'{pad}- page: "Tiny 1B on Big Box"\n'
        f"{pad}  path: _build/agent-variants/profiles/{profile}.{agent}.generated.mdx\n"
        f"{pad}  slug: {profile}\n"
    )


def test_each_region_lists_every_profile_page_as_its_variant_publishes_it(project, run):
    alpha = "".join(
        entry("              ", "alpha", p) for p in ("vllm.box.tiny-two", "vllm.box.tiny")
    )
    beta = "".join(
        entry("                  ", "beta", p) for p in ("vllm.box.tiny-two", "vllm.box.tiny")
    )
    expected = NAV.replace(
        "              # docgen:begin profiles\n",
        "              # docgen:begin profiles\n" + alpha,
        1,
    ).replace('                  - page: "stale"\n                    path: stale.mdx\n', beta)
    assert project.read("docs/index.yml") == expected
    built = project.root / "docs/_build/agent-variants/profiles"
    assert sorted(p.name for p in built.iterdir()) == [
        "vllm.box.tiny-two.alpha.generated.mdx",
        "vllm.box.tiny-two.beta.generated.mdx",
        "vllm.box.tiny.alpha.generated.mdx",
        "vllm.box.tiny.beta.generated.mdx",
    ]
    assert run(project, "build").stdout.endswith("0 written, 0 updated, 0 pruned, 8 unchanged\n")
    assert run(project, "check").exit_code == 0


def test_a_removed_profile_is_pruned_from_the_region_and_check_says_so(project, run):
    project.write("profiles.yaml", MINIMAL_REGISTRY)
    checked = run(project, "check")
    assert checked.exit_code == 1
    assert "docs/index.yml:12:1: error: out of date with the registry" in checked.stdout
    assert run(project, "build").exit_code == 0
    text = project.read("docs/index.yml")
    assert "tiny-two" not in text and text.count("slug: vllm.box.tiny\n") == 2
    assert not (
        project.root / "docs/_build/agent-variants/profiles/vllm.box.tiny-two.alpha.generated.mdx"
    ).exists()


def test_a_region_only_in_one_variant_publishes_the_pages_only_there(make_project, run):
    one = NAV.replace(
        '                  # docgen:begin profiles\n                  - page: "stale"\n'
        "                    path: stale.mdx\n                  # docgen:end\n",
        "                  - page: Other\n                    path: other.mdx\n",
    )
    page = PROFILE_PAGE.replace(
        "Run `$$acme onboard`.", '<AgentOnly variant="alpha">\nAlpha only.\n</AgentOnly>'
    )
    project = make_project(
        templates={"profiles/[profile].mdx.j2": page},
        files={"docs/index.yml": one, "docs/other.mdx": "---\ntitle: Other\n---\n\nText.\n"},
    )
    assert run(project, "build").exit_code == 0
    built = project.root / "docs/_build/agent-variants/profiles"
    assert sorted(p.name for p in built.iterdir()) == ["vllm.box.tiny.alpha.generated.mdx"]


def test_a_page_without_variants_is_listed_at_its_own_path(make_project, run):
    """A per-profile page that does not vary (no CLI token, no AgentOnly) gets no variant
    files: its region entry names the page itself, never a variant that is not made."""
    one = NAV.replace(
        '                  # docgen:begin profiles\n                  - page: "stale"\n'
        "                    path: stale.mdx\n                  # docgen:end\n",
        "                  - page: Other\n                    path: other.mdx\n",
    )
    page = '---\ntitle: "T"\n---\n\nSame for every agent.\n'
    project = make_project(
        templates={"profiles/[profile].mdx.j2": page},
        files={"docs/index.yml": one, "docs/other.mdx": "---\ntitle: Other\n---\n\nText.\n"},
    )
    assert run(project, "build").exit_code == 0
    text = project.read("docs/index.yml")
    assert "path: profiles/vllm.box.tiny.mdx\n" in text and "agent-variants" not in text
    assert (project.root / "docs/profiles/vllm.box.tiny.mdx").is_file()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            NAV.replace("begin profiles", "begin models", 1),
            "docs/index.yml:10:1: error: docgen writes no navigation region 'models'; "
            "the one it writes is 'profiles'",
        ),
        (
            NAV.replace("              # docgen:end\n", "", 1),
            "docs/index.yml:10:1: error: region 'profiles' is not closed with '# docgen:end' "
            "before the next begin (line 16): regions do not nest; close each region once",
        ),
        (
            NAV.replace("                  # docgen:end\n", ""),
            "docs/index.yml:17:1: error: region 'profiles' is not closed with '# docgen:end'",
        ),
    ],
    ids=["unknown", "nested", "unclosed"],
)
def test_a_wrong_region_is_a_located_error(make_project, run, text, message):
    project = make_project(files={"docs/index.yml": text})
    before = project.snapshot()
    result = run(project, "build")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == message + "\n"
    assert project.snapshot() == before  # nothing written


def test_a_hand_edit_inside_a_region_is_drift_with_a_warm_cache_as_with_a_cold_one(project, run):
    import shutil

    assert run(project, "check").exit_code == 0  # warm
    project.edit("docs/index.yml", "slug: vllm.box.tiny-two\n", "slug: renamed\n")
    warm = run(project, "check")
    shutil.rmtree(project.root / ".docgen-cache")
    cold = run(project, "check")
    assert warm.exit_code == cold.exit_code == 1
    edited = "edited since docgen wrote it, though nothing it is made of changed"
    assert edited in warm.stdout and edited not in cold.stdout  # only the cache can tell
    first = [text.splitlines()[0].split(": error: ")[0] for text in (warm.stdout, cold.stdout)]
    assert first == ["docs/index.yml:13:1"] * 2
    assert warm.stdout.splitlines()[1:] == cold.stdout.splitlines()[1:]  # the same diff


def test_a_navigation_that_is_not_yaml_stops_the_build_at_its_place(make_project, run):
    project = make_project(files={"docs/index.yml": NAV.replace("slug: alpha", "slug: [alpha")})
    before = project.snapshot()
    result = run(project, "build")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("docs/index.yml:7:") and ": error: " in result.stderr
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
    assert project.snapshot() == before  # nothing written


def test_a_navigation_of_two_documents_is_said_to_be_one_file_not_the_registry(make_project, run):
    """The words were the registry's ("the registry is one document"; a hostile round)."""
    project = make_project(files={"docs/index.yml": NAV + "---\ntabs: {}\n"})
    result = run(project, "build")
    line = NAV.count("\n") + 1
    assert (result.exit_code, result.stderr) == (
        2,
        f"docs/index.yml:{line}:1: error: a second YAML document starts here: this file is one "
        "document; remove the '---' (or '...') line and what follows, or merge it into the "
        "first\n",
    )


@pytest.mark.parametrize("bom", ["", "\ufeff"], ids=["crlf", "crlf-and-bom"])
def test_a_navigation_with_windows_line_ends_keeps_its_regions(make_project, run, bom):
    """A checkout with ``core.autocrlf`` holds the same navigation: its regions are still
    regions, a hand edit inside one is drift, and ``build`` writes it back with CRLF (and
    the BOM it starts with, if any)."""
    made = make_project(
        registry=two_profiles(MINIMAL_REGISTRY),
        templates={"profiles/[profile].mdx.j2": PROFILE_PAGE},
        files={"docs/index.yml": bom + NAV.replace("\n", "\r\n")},
    )
    assert run(made, "build").exit_code == 0
    built = (made.root / "docs/index.yml").read_bytes()
    assert built.startswith(bom.encode() + b"# Our navigation.")
    assert built.count(b"slug: vllm.box.tiny-two\r\n") == 2
    assert b"stale" not in built and built.count(b"\n") == built.count(b"\r\n")
    assert run(made, "check").exit_code == 0
    (made.root / "docs/index.yml").write_bytes(
        built.replace(b"slug: vllm.box.tiny-two\r\n", b"slug: renamed\r\n", 1)
    )
    checked = run(made, "check")
    assert checked.exit_code == 1
    assert "docs/index.yml" in checked.stdout
    assert run(made, "build").exit_code == 0
    assert (made.root / "docs/index.yml").read_bytes() == built


def test_a_region_in_a_variant_no_agent_owns_is_a_located_error(example, run):
    """A variant is an agent's by its slug: renamed on one side (the slug, or the agent's
    id), its region would list the profile pages as they are, with the CLI token only
    their variants resolve, which the next build refused; the build refuses it now."""
    assert run(example, "build").exit_code == 0
    example.edit("docs/index.yml", "slug: hermes\n", "slug: zzz\n")
    lines = example.read("docs/index.yml").split("\n")
    variant = lines.index("        slug: zzz")
    region = lines.index("              # docgen:begin profiles", variant) + 1
    before = example.snapshot()
    for command in ("build", "check"):
        outcome = run(example, command)
        assert outcome.exit_code == 2
        assert outcome.stderr.startswith(
            f"docs/index.yml:{region}:1: error: this region's navigation variant 'zzz' is no "
            "agent's"
        )
        assert example.snapshot() == before


def test_a_region_outside_every_variant_is_refused_when_its_pages_vary(make_project, run):
    outside = "  - section: All profiles\n    contents:\n      # docgen:begin profiles\n"
    text = NAV.replace("navigation:\n", f"navigation:\n{outside}      # docgen:end\n", 1)
    made = _profiles_project(make_project, text)
    _refused(made, run, "docs/index.yml:5:1: error: this region stands in no navigation variant")


def test_a_navigation_without_variants_cannot_list_pages_that_only_variants_resolve(
    make_project, run
):
    """Without navigation variants no agent's variants are made, so the pages holding the
    CLI token have none, yet they vary per agent: listing them as they are would publish
    the token. The build wrote that region, and only a fresh check refused it (a warm one
    took the build's cache): both commands refuse it now, and change nothing."""
    text = "navigation:\n  - section: Profiles\n    contents:\n      # docgen:begin profiles\n"
    made = _profiles_project(make_project, text + "      # docgen:end\n")
    _refused(made, run, "docs/index.yml:4:1: error: this region stands in no navigation variant")


def test_a_region_after_the_last_variants_block_stands_in_no_variant():
    """YAML reads the items written at a marker after the last variant's block, at the
    level of the nodes around the variants, as no variant's: the region is no variant's
    either (it was the last variant's)."""
    from docgen.navigation import read

    after = NAV + "  - section: All profiles\n    contents:\n      # docgen:begin profiles\n"
    nav = read(after + "      # docgen:end\n", "docs/index.yml")
    assert [(r.variant, r.begin) for r in nav.regions] == [("alpha", 10), ("beta", 17), ("", 23)]


def test_a_region_belongs_to_its_variant_whatever_the_order_of_the_variants_keys():
    """A variant whose slug comes after its layout still holds the region in its layout."""
    from docgen.navigation import read

    text = NAV.replace("        slug: beta\n", "").replace(
        "                  # docgen:end\n", "                  # docgen:end\n        slug: beta\n"
    )
    nav = read(text, "docs/index.yml")
    assert [(r.variant, r.begin) for r in nav.regions] == [("alpha", 10), ("beta", 16)]


def test_an_empty_region_does_not_move_the_next_variants_region_into_it():
    """Each probe takes two lines where an empty region held none: the region of the
    variant right after it is still probed at its own place and owned by that variant,
    not by the one before (whose layout list the shifted place would fall in)."""
    from docgen.navigation import read

    text = (
        "navigation:\n  - tab: guide\n    variants:\n"
        "      - title: Alpha\n        slug: alpha\n        layout:\n"
        "          # docgen:begin profiles\n          # docgen:end\n"
        "      - layout:\n          # docgen:begin profiles\n          # docgen:end\n"
        "        title: Beta\n        slug: beta\n"
    )
    nav = read(text, "docs/index.yml")
    assert [(r.variant, r.begin) for r in nav.regions] == [("alpha", 7), ("beta", 10)]


def test_a_region_after_every_variant_is_refused_when_its_pages_vary(make_project, run):
    after = NAV + "  - section: All profiles\n    contents:\n      # docgen:begin profiles\n"
    made = _profiles_project(make_project, after + "      # docgen:end\n")
    _refused(made, run, "docs/index.yml:23:1: error: this region stands in no navigation variant")


@pytest.mark.parametrize("odd", ["\r", "\u2028", "\x85"])
def test_a_line_break_only_yaml_sees_is_refused_where_it_stands(make_project, run, odd):
    """YAML reads a lone carriage return, NEXT LINE or LINE SEPARATOR as a line break,
    where docgen, editors and git see none: every variant's line was miscounted, its
    region given to another agent (and the build crashed on some files)."""
    made = make_project(
        registry=two_profiles(MINIMAL_REGISTRY),
        templates={"profiles/[profile].mdx.j2": PROFILE_PAGE},
        files={"docs/index.yml": NAV.replace("# Our navigation.", f"# Our{odd}navigation.")},
    )
    before = made.snapshot()
    for command in ("build", "check"):
        outcome = run(made, command)
        assert outcome.exit_code == 2, outcome.output
        assert outcome.stderr.startswith("docs/index.yml:1:6: error: "), outcome.stderr
        assert "which YAML reads as a line break and editors do not" in outcome.stderr
        assert made.snapshot() == before


def test_a_region_belongs_where_yaml_reads_its_items_whatever_the_layout():
    """Variants written in flow style, and a value whose text goes on at column 0, give
    each region to the variant YAML reads its items in (an indentation rule did not)."""
    from docgen.navigation import read

    flow = (
        "navigation:\n  - tab: guide\n    variants: [{title: Alpha, slug: alpha}, "
        "{title: Beta, slug: beta}]\n    layout:\n      - section: Profiles\n"
        "        contents:\n          # docgen:begin profiles\n          # docgen:end\n"
    )
    assert [(r.variant, r.begin) for r in read(flow, "docs/index.yml").regions] == [("", 7)]
    continued = NAV.replace(
        "        slug: beta\n", '        slug: beta\n        note: "two\nlines"\n'
    )
    owners = [r.variant for r in read(continued, "docs/index.yml").regions]
    assert owners == ["alpha", "beta"]


def test_a_region_whose_items_yaml_would_not_read_as_pages_is_refused(make_project, run):
    """Markers inside a block scalar are text: the pages docgen wrote there were published
    nowhere, while build and check passed."""
    text = NAV.replace(
        "      - title: Beta\n",
        "      - title: Beta\n        subtitle: |\n          Guide\n"
        "          # docgen:begin profiles\n          # docgen:end\n",
    )
    made = _profiles_project(make_project, text)
    _refused(
        made,
        run,
        "docs/index.yml:15:1: error: the pages docgen writes in this region, indented as "
        "its '# docgen:begin' line, would not be read as navigation pages",
    )


def test_a_tab_named_by_a_list_is_a_located_error_not_a_crash(make_project, run):
    made = make_project(files={"docs/index.yml": "navigation:\n  - tab: [guide]\n"})
    before = made.snapshot()
    outcome = run(made, "build")
    assert outcome.exit_code == 2, outcome.output
    assert outcome.stderr.startswith(
        "docs/index.yml:2:10: error: a tab is named by its id under 'tabs:', not by a list"
    ), outcome.stderr
    assert made.snapshot() == before


def test_aliases_that_repeat_lists_without_bound_are_a_located_error(make_project, run):
    """A few kilobytes of nested aliases list a million pages: reading stops at a bound."""
    levels = ["x0: &a0 [{page: P, path: p.mdx}]"]
    section = "{{section: S, contents: *a{}}}"
    levels += [f"x{n}: &a{n} [{', '.join([section.format(n - 1)] * 10)}]" for n in range(1, 7)]
    text = "\n".join(levels) + "\nnavigation:\n  - section: Bomb\n    contents: *a6\n"
    made = make_project(files={"docs/index.yml": text})
    before = made.snapshot()
    outcome = run(made, "build")
    assert outcome.exit_code == 2, outcome.output
    assert "error: the navigation lists more than 100,000 items and variants" in outcome.stderr
    assert outcome.stderr.startswith("docs/index.yml:"), outcome.stderr
    assert made.snapshot() == before


def test_a_stale_region_indented_unlike_its_markers_is_written_again(project, run):
    """What a region holds is docgen's to replace: lines left there indented otherwise
    (still valid YAML) do not stop the build from writing it again."""
    text = project.read("docs/index.yml")
    lines = text.split("\n")
    begin = lines.index("              # docgen:begin profiles")
    end = lines.index("              # docgen:end", begin)
    lines[begin + 1 : end] = ["  " + line for line in lines[begin + 1 : end]]
    built = "\n".join(lines)
    assert built != text and end > begin + 1
    project.write("docs/index.yml", built)
    assert run(project, "build").exit_code == 0
    assert project.read("docs/index.yml") == text


def test_a_region_an_alias_repeats_in_two_variants_is_refused(make_project, run):
    """A section anchored in one variant and aliased in another would list the first
    variant's pages in both, and prune the second's: the build refuses it."""
    text = NAV.replace(
        "          - section: Profiles   # the managed list\n",
        "          - &p\n            section: Profiles\n",
        1,
    )
    start = text.index("      - title: Beta")
    text = (
        text[:start] + "      - title: Beta\n        slug: beta\n        layout:\n          - *p\n"
    )
    made = _profiles_project(make_project, text)
    _refused(
        made,
        run,
        "docs/index.yml:11:1: error: the pages docgen writes in this region would be read under "
        "the variants 'alpha' and 'beta' (an alias repeats it)",
    )


def test_variants_an_alias_repeats_count_toward_the_bound(make_project, run):
    """Variants are read like items: a few kilobytes that repeat a list of a thousand
    variants through aliases stop at the bound (they ran for a minute at gigabytes)."""
    variants = ", ".join(["*e"] * 1000)
    text = (
        "x: &e {title: v}\ntabs: {t: {display-name: T}}\n"
        f"v: &V [{variants}]\na: &a {{tab: t, variants: *V}}\n"
        f"b: &b {{section: b, contents: [{', '.join(['*a'] * 10)}]}}\n"
        f"c: &c {{section: c, contents: [{', '.join(['*b'] * 10)}]}}\n"
        f"navigation: [{', '.join(['*c'] * 10)}]\n"
    )
    made = make_project(files={"docs/index.yml": text})
    before = made.snapshot()
    outcome = run(made, "build")
    assert outcome.exit_code == 2, outcome.output
    assert "the navigation lists more than 100,000 items and variants" in outcome.stderr
    assert made.snapshot() == before


def _profiles_project(make_project, navigation: str):  # type: ignore[no-untyped-def]
    """Two profiles, a page template for each, and ``navigation`` as docs/index.yml."""
    return make_project(
        registry=two_profiles(MINIMAL_REGISTRY),
        templates={"profiles/[profile].mdx.j2": PROFILE_PAGE},
        files={"docs/index.yml": navigation},
    )


def _refused(made, run, error: str) -> None:  # type: ignore[no-untyped-def]
    """``build`` and ``check`` both exit 2 with ``error`` first, and change nothing."""
    before = made.snapshot()
    for command in ("build", "check"):
        outcome = run(made, command)
        assert outcome.exit_code == 2, outcome.output
        assert outcome.stderr.startswith(error), outcome.stderr
        assert made.snapshot() == before


def test_a_path_yaml_would_cut_at_a_comment_is_written_quoted(make_project, run):
    """A variants folder named ``v #x`` was written plain: YAML read ``path: v``."""
    import yaml

    made = make_project(
        registry=two_profiles(MINIMAL_REGISTRY),
        templates={"profiles/[profile].mdx.j2": PROFILE_PAGE},
        files={"docs/index.yml": NAV, "docgen.toml": 'variants = "docs/v #x: y"\n'},
    )
    assert run(made, "build").exit_code == 0
    nav = yaml.safe_load(made.read("docs/index.yml"))
    contents = nav["navigation"][0]["variants"][0]["layout"][0]["contents"]
    assert [page["path"] for page in contents] == [
        f"v #x: y/profiles/{p}.alpha.generated.mdx" for p in ("vllm.box.tiny-two", "vllm.box.tiny")
    ]
    assert (made.root / "docs" / contents[0]["path"]).is_file()
    assert run(made, "check").exit_code == 0


@pytest.mark.parametrize(
    ("profile", "shown"),
    [("true", '"true"'), ("no", '"no"'), ("1e3", '"1e3"'), ("tiny", "tiny")],
)
def test_a_slug_yaml_would_read_as_another_type_is_written_quoted(
    make_project, run, profile, shown
):
    import yaml

    made = make_project(
        registry=MINIMAL_REGISTRY.replace("vllm.box.tiny:", f'"{profile}":'),
        templates={"profiles/[profile].mdx.j2": PROFILE_PAGE},
        files={"docs/index.yml": NAV},
    )
    outcome = run(made, "build")
    assert outcome.exit_code == 0, outcome.output
    assert made.read("docs/index.yml").count(f"  slug: {shown}\n") == 2
    nav = yaml.safe_load(made.read("docs/index.yml"))
    contents = nav["navigation"][0]["variants"][1]["layout"][0]["contents"]
    assert [page["slug"] for page in contents] == [profile]


def test_an_index_page_per_profile_takes_its_folders_name_as_its_slug(make_project, run):
    made = make_project(
        registry=two_profiles(MINIMAL_REGISTRY),
        templates={"profiles/[profile]/index.mdx.j2": PROFILE_PAGE},
        files={"docs/index.yml": NAV},
    )
    assert run(made, "build").exit_code == 0
    text = made.read("docs/index.yml")
    assert "slug: index" not in text
    assert text.count("slug: vllm.box.tiny-two\n") == text.count("slug: vllm.box.tiny\n") == 2
    assert "path: _build/agent-variants/profiles/vllm.box.tiny/index.alpha.generated.mdx" in text


@pytest.mark.parametrize("name", ["profiles/[profile]-data.json.j2", "profiles/[profile].json.j2"])
def test_a_file_a_per_profile_template_makes_that_is_no_page_is_not_listed(make_project, run, name):
    """A JSON file per profile was listed as a page (Fern's check then failed on every
    entry), and one of a page's stem was said to share its slug (a hostile round)."""
    made = make_project(
        registry=two_profiles(MINIMAL_REGISTRY),
        templates={
            "profiles/[profile].mdx.j2": PROFILE_PAGE,
            name: '{"id": {{ profile.id | tojson }}}\n',
        },
        files={"docs/index.yml": NAV},
    )
    assert run(made, "build").exit_code == 0
    text = made.read("docs/index.yml")
    assert ".json" not in text
    assert text.count("slug: vllm.box.tiny-two\n") == text.count("slug: vllm.box.tiny\n") == 2
    assert run(made, "check").exit_code == 0


def test_two_pages_a_region_would_list_under_one_slug_are_a_located_error(make_project, run):
    """Two per-profile templates gave every profile two entries with one slug: only one
    of each pair could be reached."""
    made = make_project(
        registry=two_profiles(MINIMAL_REGISTRY),
        templates={
            "profiles/[profile].mdx.j2": PROFILE_PAGE,
            "more/[profile].mdx.j2": PROFILE_PAGE,
        },
        files={"docs/index.yml": NAV},
    )
    _refused(
        made,
        run,
        "docs/index.yml:10:1: error: this region would list docs/more/vllm.box.tiny-two.mdx and "
        "docs/profiles/vllm.box.tiny-two.mdx under one slug, 'vllm.box.tiny-two', so a reader "
        "could reach only one: give one of their templates a file name of its own around "
        "[profile] (such as '[profile]-more.mdx.j2')\n",
    )


def _outside_regions(lines: list[bytes]) -> list[bytes]:
    """The lines (each with its line end) that no region holds."""
    out, inside = [], False
    for line in lines:
        if b"# docgen:end" in line:
            inside = False
        if not inside:
            out.append(line)
        if b"# docgen:begin" in line:
            inside = True
    return out


@pytest.mark.parametrize("crlf_lines", [(0,), (2, 3, 20), tuple(range(1, 40))])
def test_a_navigation_of_mixed_line_ends_keeps_each_line_end_outside_its_regions(
    make_project, run, crlf_lines
):
    """Every line of the file ended as the whole file did: one CRLF line in an LF file
    lost its CR, and a CRLF file with one LF line got it. A region's new lines end as its
    begin marker does."""
    lines = NAV.split("\n")[:-1]
    mixed = [line + ("\r\n" if n in crlf_lines else "\n") for n, line in enumerate(lines)]
    made = _profiles_project(make_project, "".join(mixed))
    assert run(made, "build").exit_code == 0
    built = (made.root / "docs/index.yml").read_bytes().splitlines(keepends=True)
    assert _outside_regions(built) == _outside_regions([line.encode() for line in mixed])
    entries = [line for line in built if b"slug: vllm.box" in line]
    begins = [n for n, line in enumerate(lines) if "docgen:begin" in line]
    assert [e.endswith(b"\r\n") for e in entries] == [b in crlf_lines for b in begins for _ in "12"]
    assert run(made, "check").exit_code == 0
    assert run(made, "build").stdout.endswith(" 0 pruned, 8 unchanged\n")


def test_markers_with_blanks_after_them_are_markers(make_project, run):
    """An editor may leave spaces or a tab after a marker: the region still ends there."""
    text = NAV.replace("# docgen:end\n", "# docgen:end \t\n").replace(
        "# docgen:begin profiles\n", "# docgen:begin profiles  \n"
    )
    made = _profiles_project(make_project, text)
    assert run(made, "build").exit_code == 0
    built = made.read("docs/index.yml")
    assert built.count("slug: vllm.box.tiny-two\n") == 2 and "stale" not in built
    assert built.count("# docgen:end \t\n") == 2  # the author's bytes, as they were
    assert run(made, "check").exit_code == 0
