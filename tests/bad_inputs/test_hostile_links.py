"""Registry values that become links: ``product.site_url`` (and ``--site-url``) must be an
absolute http(s) URL, never ``javascript:`` or a query that swallows the route; and
``product.docs_base`` is filled in by a literal ``{agent}`` substitution everywhere (the
MkDocs preview too), so no other brace field is ever evaluated."""

from __future__ import annotations

import pytest
from bad_input_cases import Case, check, param, reg
from conftest import MINIMAL_REGISTRY

from docgen.config import load_project
from docgen.integrations.preview import build_site
from docgen.plan import plan

ACCEPTED = "(no query, fragment, spaces or quotes; a port up to 65535)"
BASE = "  docs_base: /guide/{agent}\n"


def with_site_url(url: str) -> str:
    return reg(BASE, f"{BASE}  site_url: '{url}'\n")


def bad_url(name: str, url: str) -> Case:
    return Case(
        f"site-url-{name}",
        ("validate",),
        (
            "profiles.yaml:8:13: error: product.site_url must be an absolute http(s) URL such "
            f"as https://docs.example.com {ACCEPTED}, got '{url}'",
        ),
        registry=with_site_url(url),
    )


def bad_flag(name: str, url: str) -> Case:
    return Case(
        f"site-url-flag-{name}",
        ("release-notes", "v1.0.0", "--site-url", url),
        (
            "--site-url: error: the site URL must be an absolute http(s) URL such as "
            f"https://docs.example.com {ACCEPTED}, got '{url}'",
        ),
    )


CASES = [
    bad_url("javascript", "javascript:alert(document.domain)//"),
    bad_url("data", "data:text/html,hi"),
    bad_url("scheme-relative", "//evil.example.com"),
    bad_url("relative", "docs.example.com"),
    bad_url("query", "https://docs.example.com/?next="),
    bad_url("fragment", "https://docs.example.com#x"),
    bad_url("parenthesis", "https://docs.example.com/a)b"),
    bad_url("no-host", "https://"),
    bad_flag("javascript", "javascript:alert(1)//"),
    bad_flag("ftp", "ftp://docs.example.com"),
]


@pytest.mark.parametrize("case", [param(c) for c in CASES])
def test_hostile_site_url_is_a_located_error_and_changes_nothing(
    make_project, run, monkeypatch, case
):
    check(case, make_project, run, monkeypatch)


@pytest.mark.parametrize(
    "url", ["https://docs.example.com", "http://localhost:8000/guide/", "https://a.b/c_d-e~f"]
)
def test_plain_site_urls_are_accepted(make_project, run, url):
    assert run(make_project(registry=with_site_url(url)), "validate").exit_code == 0


@pytest.mark.parametrize("field", ["{agent.__class__.__name__}", "{nope}", "{0}", "{agent"])
def test_the_preview_fills_docs_base_literally(make_project, field):
    registry = MINIMAL_REGISTRY.replace(
        BASE, f"  docs_base: /guide/{field}/{{agent}}\n  site_url: https://docs.example.org\n"
    )
    page = '---\ntitle: "A"\n---\n\n[Gone](nowhere), [Own](/guide/' + field + "/beta/guide/a)\n"
    project = make_project(registry=registry, templates={"guide/a.mdx.j2": page})
    loaded = load_project(project.root)
    site = build_site(loaded, plan(loaded))
    markdown = next(p for p in site.pages if p.uri == "beta/guide/a.md").markdown
    assert f"(https://docs.example.org/guide/{field}/beta/guide/nowhere)" in markdown
    assert "[Own](a.md)" in markdown
