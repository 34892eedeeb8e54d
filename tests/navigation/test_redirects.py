"""Fern's redirects (``fern/docs.yml``): a changelog link to a route a page has moved from
resolves when the redirects lead to a published route, as it does on the site."""

from __future__ import annotations

import pytest
from test_navigation_plan import SHARED, nav

from docgen.errors import Location
from docgen.redirects import Redirect, Routes, _parts, _redirect


def routes(*rules: tuple[str, str]) -> Routes:
    redirects = [Redirect(_parts(s), d, Location("fern/docs.yml")) for s, d in rules]
    return Routes({"/guide/alpha/new", "/guide/alpha/new/deep/page", "/home"}, redirects)


@pytest.mark.parametrize(
    ("source", "destination", "route", "resolves"),
    [
        ("/guide/alpha/old", "/guide/alpha/new", "/guide/alpha/old", True),
        ("/guide/alpha/old", "/guide/alpha/gone", "/guide/alpha/old", False),
        ("/guide/:agent/old", "/guide/:agent/new", "/guide/alpha/old", True),
        ("/guide/:agent/old", "/guide/:agent/new", "/guide/beta/old", False),  # not published
        ("/guide/:agent/old", "/guide/:agent/new", "/guide/alpha/x/old", False),  # one segment
        ("/old/:rest*", "/guide/alpha/new/:rest*", "/old/deep/page", True),
        ("/old/:rest*", "/guide/alpha/new/:rest*", "/old", True),  # none at all
        ("/old/:rest+", "/guide/alpha/new/:rest+", "/old", False),  # one or more
        ("/old/:page?", "/home", "/old", True),
        ("/old/*", "/guide/alpha/new/*", "/old/deep/page", True),
        ("/old/:rest*", "https://example.com/:rest*", "/old/a", True),  # another site
    ],
)
def test_a_route_resolves_when_its_redirects_lead_to_a_published_one(
    source, destination, route, resolves
):
    assert (route in routes((source, destination))) is resolves


@pytest.mark.parametrize(
    "source",
    [
        "/old/:id(\\d+)",
        "/old/*/x/*",
        "/a/:n/:n",
        "/a/b-:c",
        "/a/*/b/:c+/:d*",  # three parameters that take several segments
        "".join(f"/:p{i}?" for i in range(1200)),  # more segments than any route has
        "".join(f"/:p{i}*" for i in range(900)) + "/z",
    ],
    ids=["regex", "two-stars", "name-twice", "mixed", "three-spans", "1200-optional", "900-spans"],
)
def test_a_source_docgen_cannot_read_leads_nowhere(source):
    item = {"source": source, "destination": "/home"}
    assert _redirect([item], 0, item, "fern/docs.yml") is None


def test_redirects_are_followed_in_turn_and_a_loop_leads_nowhere():
    chain = routes(("/a", "/b"), ("/b", "/guide/alpha/new"))
    assert "/a" in chain
    loop = routes(("/a", "/b"), ("/b", "/a"))
    assert "/a" not in loop and "/b" not in loop
    assert "/home" in loop and "/nowhere" not in loop


FERN = """\
instances:
  - url: acme.docs.buildwithfern.com
redirects:
  - source: /guide/:agent/old-guide
    destination: /guide/:agent/guide
"""
ENTRY = (
    "{/*\n * SPDX-FileCopyrightText: Copyright (c) 2026 Acme Inc.\n"
    " * SPDX-License-Identifier: Apache-2.0\n */}\n\n"
    "## v0.1.0\n\nAcme v0.1.0 adds a guide.\n\n"
    "- See [the guide](/guide/alpha/old-guide#top).\n"
)


def project_with(make_project, fern: str | None, settings: str = ""):
    files = {
        "docs/guide.mdx": SHARED,
        "docs/index.yml": nav(["guide"], []),
        "changelog/2026-01-02.mdx": ENTRY,
        "docgen.toml": settings,
    }
    if fern is not None:
        files["fern/docs.yml"] = fern
    return make_project(files=files)


def test_a_link_to_a_moved_page_passes_where_fern_redirects_it(make_project, run):
    project = project_with(make_project, FERN)
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0
    project.write("fern/docs.yml", FERN.replace("/guide/:agent/guide", "/guide/:agent/gone"))
    checked = run(project, "check")
    assert checked.exit_code == 1
    assert (
        "changelog/2026-01-02.mdx:10:19: error: link '/guide/alpha/old-guide#top' does not "
        "resolve to a page the project publishes" in checked.stdout
    ), checked.stdout


SUBPATH = """\
instances:
  - url: acme.docs.buildwithfern.com/acme
    custom-domain: docs.example.com/products/acme
versions:
  - display-name: Latest
    path: ../docs/index.yml
    slug: latest
redirects:
  - source: {source}
    destination: {destination}
"""


@pytest.mark.parametrize(
    ("source", "destination"),
    [
        ("/acme/latest/guide/:agent/old-guide", "/acme/latest/guide/:agent/guide"),
        ("/acme/guide/:agent/old-guide", "/guide/:agent/guide"),
        ("/products/acme/latest/guide/:agent/old-guide", "/products/acme/guide/:agent/guide"),
        ("/latest/guide/:agent/old-guide", "/latest/guide/:agent/guide"),
    ],
    ids=["subpath-and-version", "subpath", "custom-domain", "version"],
)
def test_a_redirect_written_with_the_sites_subpath_is_followed(
    make_project, run, source, destination
):
    """Fern's redirects name the instance's subpath (NemoClaw's: ``/nemoclaw/latest/...``),
    pages' routes and changelog links do not; docgen ignored such a redirect silently."""
    fern = SUBPATH.format(source=source, destination=destination)
    project = project_with(make_project, fern)
    assert run(project, "build").exit_code == 0
    assert run(project, "check").exit_code == 0
    project.write("fern/docs.yml", fern.replace(":agent/guide\n", ":agent/gone\n"))
    assert run(project, "check").exit_code == 1


def test_a_subpath_is_only_a_whole_leading_segment():
    from docgen.redirects import _bases, _on_site

    bases = _bases({"instances": [{"url": "https://x.org/acme/"}, 7], "versions": "latest"})
    assert bases == ("/acme",)
    assert _on_site("/acme", bases) == "/" and _on_site("/acme/a", bases) == "/a"
    assert _on_site("/acmeish/a", bases) == "/acmeish/a"
    assert _bases({"instances": {"url": "x.org/a"}, "versions": [{"slug": "a/b"}]}) == ()
    listed = {"instances": [{"url": "x.org", "custom-domain": ["d.org/docs", 3, "e.org"]}]}
    assert _bases(listed) == ("/docs",)
    odd = ["docs.example.com[/product", "http://[::1/p?q#f", "docs.example.com]/x"]
    assert _bases({"instances": [{"url": odd[0], "custom-domain": odd[1:]}]}) == (
        "/product",
        "/p",
        "/x",
    )


def test_without_docs_yml_a_link_to_a_moved_page_fails(make_project, run):
    project = project_with(make_project, None)
    run(project, "build")
    assert run(project, "check").exit_code == 1


def test_the_fern_docs_setting_names_another_docs_yml(make_project, run):
    project = project_with(make_project, None, 'fern_docs = "site/docs.yml"\n')
    project.write("site/docs.yml", FERN)
    run(project, "build")
    assert run(project, "check").exit_code == 0
    project.write("docgen.toml", 'fern_docs = "site/missing.yml"\n')
    missing = run(project, "check")
    assert missing.exit_code == 2
    assert "site/missing.yml" in missing.stderr, missing.stderr


def test_an_escape_past_the_last_character_is_a_located_error(make_project, run):
    """ruamel.yaml's scanner fails on it with Python's OverflowError: an internal error."""
    project = project_with(make_project, FERN.replace("/guide/:agent/old-guide", '"/a\\UFFFFFFFF"'))
    result = run(project, "check")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(
        "fern/docs.yml:4:16: error: the escape '\\UFFFFFFFF' names no character"
    )


def test_a_redirect_without_a_destination_is_a_located_error(make_project, run):
    project = project_with(make_project, FERN.replace("    destination: /guide/:agent/guide\n", ""))
    result = run(project, "check")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        "fern/docs.yml:4:5: error: a redirect needs a source and a destination, both text\n"
    )


def test_any_source_matches_in_bounded_time_and_a_long_chain_is_followed():
    # Sources a backtracking matcher takes minutes over: each answers at once here.
    optional = "".join(f"/:p{i}?" for i in range(31)) + "/x"
    spans = "/:s0*/:s1*/zzz"
    long_route = "/" + "/".join(["a"] * 40)
    assert long_route not in routes((optional, "/home"))
    assert long_route not in routes((spans, "/home"))
    assert long_route + "/zzz" in routes((spans, "/home"))
    mixed = {"source": "/:a:b:c/x", "destination": "/home"}
    assert _redirect([mixed], 0, mixed, "fern/docs.yml") is None  # text and parameters mixed
    chain = routes(*((f"/r{i}", f"/r{i + 1}") for i in range(15)), ("/r15", "/home"))
    assert "/r0" in chain
    assert "/x" in routes(("/x", "HTTPS://Example.com/y"))


def test_an_unknown_flag_in_history_is_written_as_the_catalog_writes_flags():
    from docgen.registry.builder import _history_tokens

    assert _history_tokens("gone", True) == ("--gone",)
    assert _history_tokens("gone", False) == ("--no-gone",)
    assert _history_tokens("gone", {"a": 1}) == ("--gone", '{"a":1}')
    assert _history_tokens("gone", 3) == ("--gone", "3")


def test_many_plain_redirects_are_looked_up_not_matched():
    """Sources without parameters cost no tries: thousands of them, hundreds of links."""
    rules = [
        Redirect(_parts(f"/docs/v1/page-{i}"), f"/guide/alpha/new#{i}", Location("d.yml", i + 1))
        for i in range(3000)
    ]
    routes_now = Routes({"/guide/alpha/new"}, rules)
    assert all(f"/docs/v1/page-{i}" in routes_now for i in range(0, 3000, 4))
    assert "/docs/v1/page-3000" not in routes_now
    assert routes_now.steps[0] > 0


def test_the_first_redirect_that_matches_wins_plain_or_not():
    first = routes(("/old/:x", "/home"), ("/old/a", "/nowhere"))
    assert "/old/a" in first
    second = routes(("/old/a", "/nowhere"), ("/old/:x", "/home"))
    assert "/old/a" not in second and "/old/b" in second


def test_redirects_that_take_too_long_to_match_are_a_located_error(monkeypatch):
    """Readable sources can still cost much against a long link (two spans and many
    optional parameters); past a budget of tries, a located error ends the lookup."""
    import time

    from docgen import redirects
    from docgen.errors import ConfigError

    monkeypatch.setattr(redirects, "MAX_STEPS", 2_000_000)
    heavy = "/:a*/:b*" + "".join(f"/:p{i}?" for i in range(29)) + "/zzz"
    rules = [
        Redirect(_parts(heavy), "/home", Location("fern/docs.yml", 3 + i, 5)) for i in range(100)
    ]
    started = time.monotonic()
    with pytest.raises(ConfigError) as caught:
        "/" + "/".join(["a"] * 199) in Routes({"/home"}, rules)  # noqa: B015
    assert time.monotonic() - started < 10
    assert str(caught.value).startswith("fern/docs.yml:")
    assert "matching links against the redirects took more than 2,000,000 steps" in str(
        caught.value
    )


def test_of_two_plain_redirects_from_one_source_the_first_wins():
    assert "/old" not in routes(("/old", "/missing"), ("/old", "/home"))
    assert "/old" in routes(("/old", "/home"), ("/old", "/missing"))


def test_an_empty_optional_parameter_leaves_no_double_slash_in_the_destination():
    """``/a`` matches ``/a/:x?`` with nothing for ``x``: ``/guide/:x?/alpha/new`` sends it
    to ``/guide/alpha/new``, a published route (not ``/guide//alpha/new``)."""
    assert "/a" in routes(("/a/:x?", "/guide/:x?/alpha/new"))


@pytest.mark.parametrize(
    ("source", "destination", "route", "resolves"),
    [
        # Another site over plain http counts as much as one over https.
        ("/old/:rest*", "http://example.com/:rest*", "/old/a", True),
        # A bare ``*`` in the destination takes what the source's ``*`` took.
        ("/old/*", "/guide/alpha/*", "/old/new", True),
        ("/old/*", "/guide/alpha/*", "/old/gone", False),
    ],
)
def test_redirect_edges(source, destination, route, resolves):
    assert (route in routes((source, destination))) is resolves


def test_a_route_of_the_most_segments_a_redirect_matches_is_matched():
    from docgen.redirects import MAX_SEGMENTS

    deep = "/".join(["d"] * (MAX_SEGMENTS - 1))
    assert f"/old/{deep}" in routes(("/old/:rest*", "/home"))
    assert f"/old/{deep}/d" not in routes(("/old/:rest*", "/home"))


@pytest.mark.parametrize("source", ["/old/(x)", "/old/a)"])
def test_a_source_with_a_parenthesis_leads_nowhere(source):
    """``(`` is path-to-regexp syntax: docgen reads no such source as literal text."""
    item = {"source": source, "destination": "/home"}
    assert _redirect([item], 0, item, "fern/docs.yml") is None


def test_a_chain_of_twenty_redirects_is_followed_and_one_more_leads_nowhere():
    """``MAX_HOPS`` bounds how many redirects one link goes through: 20 reach the page."""
    twenty = [(f"/r{n}", f"/r{n + 1}") for n in range(19)] + [("/r19", "/home")]
    assert "/r0" in routes(*twenty)
    twenty_one = [(f"/r{n}", f"/r{n + 1}") for n in range(20)] + [("/r20", "/home")]
    assert "/r0" not in routes(*twenty_one) and "/r1" in routes(*twenty_one)
